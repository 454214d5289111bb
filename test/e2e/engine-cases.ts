import type { ExampleOptions } from '../../examples/stack';
import type { Engine } from '../../src';

/**
 * What the end-to-end lifecycle (lifecycle.test.ts) expects of each engine where the
 * engines differ, and only there: every other expectation of that file is the same for
 * all engines (the account a user sees after each step). Each difference below is one
 * that DESIGN §2 states (§2.1 the native provider, §2.2 the provisioner carriers).
 *
 * `null_resource` is not in ENGINE_CASES: it needs the hashicorp/null provider, which
 * `terraform init` would download (no network here, and no local mirror of it). Its
 * synthesis is tested against @cdktf/provider-null's (test/cdktn/null-provider.test.ts)
 * and its handler path by the stand-in for Terraform (test/integration/*carriers*).
 */

/** The constructs of the example stack (examples/stack.ts), by id. */
export const CONSTRUCTS = {
  shop: 'package',
  blog: 'package',
  shop_app: 'package',
  shop_info: 'mailbox',
  shop_orders: 'mailbox',
  blog_editor: 'mailbox',
  shop_sales: 'forwarder',
  blog_tips: 'forwarder',
  web1: 'cloud-server',
} as const;
export type ConstructId = keyof typeof CONSTRUCTS;
export type Kind = (typeof CONSTRUCTS)[ConstructId];
export const CONSTRUCT_IDS = Object.keys(CONSTRUCTS) as ConstructId[];

/** A plan's changes: address -> actions (as SavedPlan.changes). */
export type Changes = Record<string, string[]>;

/** A value the plan JSON must show: the `before`, `after` (resource_changes) or refreshed (`prior`, prior_state) values of a resource. */
export interface PlannedValue {
  readonly address: string;
  readonly which: 'before' | 'after' | 'prior';
  /** Matched with toMatchObject; lists of strings are compared as sets. */
  readonly values: Record<string, unknown>;
}

/** One step of a route: synthesize these options, plan, apply the saved plan. */
export interface RouteStep {
  readonly options: ExampleOptions;
  readonly changes: Changes;
  /** What the apply prints (the handler's progress shows in Terraform's output). */
  readonly applySays?: RegExp;
}

export interface EngineCase {
  readonly engine: Engine;
  /** The resource that holds the object of a construct (of this kind, with this id): the one `drift` reports. */
  object(kind: Kind, id: string): string;
  /**
   * §2.1: one resource per construct. §2.2: an object resource (identity in its
   * replace-triggers) and a settings resource (one trigger per mutable field).
   */
  readonly resourcesPerConstruct: number;
  /**
   * The resource that changes when mutable fields of a construct change, and how.
   * §2.1: the construct's resource, updated in place. §2.2: its settings resource,
   * replaced (destroy, then create: never create_before_destroy, which disables
   * destroy-time provisioners); the object resource stays.
   */
  settings(kind: Kind, id: string): string;
  readonly settingsUpdate: string[];
  /** Providers `terraform init` installs. §2.1: the provider synth placed in the stack directory; §2.2: none (terraform_data is built in). */
  readonly installs: string[];
  /** Resources whose local-exec provisioners run at the first apply. §2.2: each settings resource's `handler ensure`; §2.1: no provisioners. */
  readonly provisionedAtCreate: string[];
  /**
   * The handler commands whose command line Terraform prints at the first apply (it
   * hides the command of a provisioner whose environment holds a sensitive value: the
   * mailboxes', which carry the password).
   */
  readonly shownCommandsAtCreate: string[];
  /**
   * A change made in the account. §2.1: refresh reads it back, so `terraform plan`
   * shows it as attribute diffs (exit 2) and `terraform apply` repairs it. §2.2:
   * invisible to the plan (exit 0): `reseller-hosting drift` finds it (as it does for
   * the provider) and `drift --fix` repairs it.
   */
  readonly planShowsAccountChanges: boolean;
  readonly repairsAccountChanges: 'terraform apply' | 'drift --fix';
  /** The plan after the example's account was changed (ACCOUNT_CHANGES in lifecycle.test.ts). */
  readonly accountChangesPlan: {
    readonly changes: Changes;
    /** Lines of `terraform show` of the saved plan. */
    readonly shows: RegExp[];
    readonly values: PlannedValue[];
  };
  /** A new primary domain of the blog (identity: `RequiresReplace` / the object's replace-trigger). */
  readonly blogRenamed: { readonly changes: Changes; readonly shows: RegExp[] };
  /**
   * How the orders mailbox is deleted. §2.1: removing its construct from the code
   * deletes it. §2.2: removing it would orphan it (a Terraform limit), so `absent: true`,
   * deploy, then remove the code (a plan with no changes).
   */
  readonly deleteOrders: RouteStep[];
  /** The plan of the info mailbox's passwordVersion 1 -> 2: §2.1 `password_wo_version` in place; §2.2 a replace-trigger of its settings resource. */
  readonly rotation: { readonly changes: Changes; readonly values: PlannedValue[] };
}

const REPLACED = ['delete', 'create'];
/** The same actions for these constructs of the example. */
export const fromIds = (ids: ConstructId[], address: (id: ConstructId) => string, actions: string[]): Changes =>
  Object.fromEntries(ids.map((id) => [address(id), actions]));

const PROVIDER_TYPES: Record<Kind, string> = {
  package: 'reseller_package',
  mailbox: 'reseller_mailbox',
  forwarder: 'reseller_forwarder',
  'cloud-server': 'reseller_cloud_server',
};
const resourceOf = (kind: Kind, id: string) => `${PROVIDER_TYPES[kind]}.${id}`;
/** The example's constructs by id, as one engine addresses them. */
const exampleOf = (address: (kind: Kind, id: string) => string) => (id: ConstructId) => address(CONSTRUCTS[id], id);
const example = exampleOf(resourceOf);

const PROVIDER: EngineCase = {
  engine: 'provider',
  object: resourceOf,
  resourcesPerConstruct: 1,
  settings: resourceOf,
  settingsUpdate: ['update'],
  installs: ['reseller-hosting.local/cdktf/reseller'],
  provisionedAtCreate: [],
  shownCommandsAtCreate: [],
  planShowsAccountChanges: true,
  repairsAccountChanges: 'terraform apply',
  accountChangesPlan: {
    changes: {
      'reseller_package.shop': ['update'],
      'reseller_package.blog': ['update'],
      'reseller_mailbox.shop_orders': ['create'],
      'reseller_forwarder.shop_sales': ['update'],
    },
    shows: [/~ remote\s+= "evil@example.net" -> "sales-team@example.org"/, /~ enabled\s+= false -> true/],
    values: [
      { address: 'reseller_forwarder.shop_sales', which: 'before', values: { remote: 'evil@example.net' } },
      { address: 'reseller_forwarder.shop_sales', which: 'after', values: { remote: 'sales-team@example.org' } },
      { address: 'reseller_package.shop', which: 'before', values: { extra_domain_names: ['example-shop.info', 'example-shop.net', 'example-shop.org'] } },
      // The refreshed state (what plan JSON calls prior_state) is the account as it is now.
      { address: 'reseller_package.blog', which: 'prior', values: { enabled: false } },
    ],
  },
  blogRenamed: {
    changes: fromIds(['blog', 'blog_editor', 'blog_tips'], example, REPLACED),
    shows: [/~ domain_name\s+= "example-blog.com" -> "example-journal.com" # forces replacement/],
  },
  deleteOrders: [{ options: { ordersRemoved: true }, changes: { 'reseller_mailbox.shop_orders': ['delete'] } }],
  rotation: {
    changes: { 'reseller_mailbox.shop_info': ['update'] },
    values: [
      { address: 'reseller_mailbox.shop_info', which: 'before', values: { password_wo_version: 1 } },
      { address: 'reseller_mailbox.shop_info', which: 'after', values: { password_wo_version: 2 } },
    ],
  },
};

const carrier = (type: 'terraform_data'): EngineCase => {
  const objectResource = (_kind: Kind, id: string) => `${type}.${id}`;
  const settingsResource = (_kind: Kind, id: string) => `${type}.${id}_settings`;
  const object = exampleOf(objectResource);
  const settings = exampleOf(settingsResource);
  return {
    engine: type,
    object: objectResource,
    resourcesPerConstruct: 2,
    settings: settingsResource,
    settingsUpdate: REPLACED,
    installs: [],
    provisionedAtCreate: CONSTRUCT_IDS.map(settings),
    // 9 settings resources, 3 of them mailboxes' (hidden).
    shownCommandsAtCreate: Array(6).fill('ensure'),
    planShowsAccountChanges: false,
    repairsAccountChanges: 'drift --fix',
    accountChangesPlan: { changes: {}, shows: [/No changes/], values: [] },
    blogRenamed: {
      // The blog's object resources, and the settings resources that name them.
      changes: { ...fromIds(['blog', 'blog_editor', 'blog_tips'], object, REPLACED), ...fromIds(['blog', 'blog_editor', 'blog_tips'], settings, REPLACED) },
      shows: [/# terraform_data\.blog must be replaced/, /~ key\s+= "example-blog\.com" -> "example-journal\.com"/],
    },
    deleteOrders: [
      // `absent` synthesizes `count = 0`; Terraform moves the instance to [0] implicitly and destroys it.
      {
        options: { ordersAbsent: true },
        changes: { [`${object('shop_orders')}[0]`]: ['delete'], [`${settings('shop_orders')}[0]`]: ['delete'] },
        applySays: /deleted mailbox orders@example-shop\.com/,
      },
      { options: { ordersRemoved: true }, changes: {} },
    ],
    rotation: {
      changes: { [settings('shop_info')]: REPLACED },
      values: [
        { address: settings('shop_info'), which: 'before', values: { triggers_replace: { passwordVersion: '1' } } },
        { address: settings('shop_info'), which: 'after', values: { triggers_replace: { passwordVersion: '2' } } },
      ],
    },
  };
};

/** The engines the end-to-end lifecycle runs, the default first. */
export const ENGINE_CASES: EngineCase[] = [PROVIDER, carrier('terraform_data')];
