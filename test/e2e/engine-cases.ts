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
  /** The resource that holds a construct's object: the one `drift` reports. */
  object(id: ConstructId): string;
  /**
   * §2.1: one resource per construct. §2.2: an object resource (identity in its
   * replace-triggers) and a settings resource (one trigger per mutable field).
   */
  readonly resourcesPerConstruct: number;
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
   * The plan after a change made in the account (ACCOUNT_CHANGES in lifecycle.test.ts).
   * §2.1: refresh reads it back, the plan shows it as attribute diffs (exit 2) and the
   * apply repairs it. §2.2: invisible to the plan (exit 0): `reseller-hosting drift`
   * finds it and `drift --fix` repairs it.
   */
  readonly accountChanges: {
    readonly planCode: 0 | 2;
    readonly changes: Changes;
    /** Lines of `terraform show` of the saved plan. */
    readonly shows: RegExp[];
    readonly values: PlannedValue[];
    /** What repairs the account: `terraform apply`, or the carriers' `reseller-hosting drift --fix`. */
    readonly repair: 'terraform apply' | 'drift --fix';
  };
  /**
   * A change of mutable fields of these constructs. §2.1: updated in place. §2.2: their
   * settings resources are replaced (destroy, then create: never create_before_destroy,
   * which disables destroy-time provisioners); the object resources stay.
   */
  settingsChanged(ids: ConstructId[]): Changes;
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
const fromIds = (ids: ConstructId[], address: (id: ConstructId) => string, actions: string[]): Changes =>
  Object.fromEntries(ids.map((id) => [address(id), actions]));

const PROVIDER_TYPES: Record<(typeof CONSTRUCTS)[ConstructId], string> = {
  package: 'reseller_package',
  mailbox: 'reseller_mailbox',
  forwarder: 'reseller_forwarder',
  'cloud-server': 'reseller_cloud_server',
};
const resourceOf = (id: ConstructId) => `${PROVIDER_TYPES[CONSTRUCTS[id]]}.${id}`;

const PROVIDER: EngineCase = {
  engine: 'provider',
  object: resourceOf,
  resourcesPerConstruct: 1,
  installs: ['reseller-hosting.local/cdktf/reseller'],
  provisionedAtCreate: [],
  shownCommandsAtCreate: [],
  accountChanges: {
    planCode: 2,
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
    repair: 'terraform apply',
  },
  settingsChanged: (ids) => fromIds(ids, resourceOf, ['update']),
  blogRenamed: {
    changes: fromIds(['blog', 'blog_editor', 'blog_tips'], resourceOf, REPLACED),
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
  const object = (id: ConstructId) => `${type}.${id}`;
  const settings = (id: ConstructId) => `${type}.${id}_settings`;
  return {
    engine: type,
    object,
    resourcesPerConstruct: 2,
    installs: [],
    provisionedAtCreate: CONSTRUCT_IDS.map(settings),
    // 9 settings resources, 3 of them mailboxes' (hidden).
    shownCommandsAtCreate: Array(6).fill('ensure'),
    accountChanges: { planCode: 0, changes: {}, shows: [/No changes/], values: [], repair: 'drift --fix' },
    settingsChanged: (ids) => fromIds(ids, settings, REPLACED),
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
