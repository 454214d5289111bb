import type { Connection, ResellerClient } from '../../client';
import { ApiError } from '../../client';
import { definitionOf, Identity, identityOf, Kind, kindOrder, ObjectSpec, secretEnvName } from '../../protocol';
import {
  accountScope, createContext, defaultStoreDir, FileStore, ReconcileContext, ReconcileError, reconcile, remove, Timing, timingFromEnv,
} from '../../reconcile';
import type { ComparedObject, ObjectStatus } from '../../stacks';
import { objectName } from '../../stacks';

/**
 * `drift --fix`: reconciles drifted objects with the core (src/reconcile), as the handler does
 * (missing or changed -> ensure, declared absent but present -> remove). Unmanaged
 * objects are never touched.
 */
export type FixOutcome = 'fixed' | 'failed' | 'skipped';

export interface FixAction {
  readonly stack: string;
  readonly address: string;
  readonly kind: Kind | null;
  readonly key: string | null;
  /** The drift that was found. */
  readonly status: ObjectStatus;
  /** What was run: the handler's `ensure` or `remove`, or nothing. */
  readonly action: 'ensure' | 'remove' | 'none';
  readonly outcome: FixOutcome;
  readonly message: string;
  /** What the reconciler printed. */
  readonly log: string[];
}

export interface FixOptions {
  readonly client: ResellerClient;
  readonly connection: Connection;
  readonly env: NodeJS.ProcessEnv;
  /** Receives each line as it happens (progress). */
  readonly onLine?: (line: string) => void;
  /** Receives what is wrong with the environment's settings (a former spelling), once. */
  readonly warn?: (message: string) => void;
  /**
   * Whether a fix may order what charges the account (a missing object of a kind whose
   * definition says `lifecycle.orderCharges`: a cloud server). Without it such an object
   * is skipped, with a message saying so. @default false
   */
  readonly allowCharges?: boolean;
}

/** Fixes every drifted object: parents are ensured before children, children removed before parents. */
export async function fixDrift(objects: readonly ComparedObject[], options: FixOptions): Promise<FixAction[]> {
  const drifted = objects.filter((o) => ['missing', 'changed', 'still-present'].includes(o.report.status));
  const ensures = drifted.filter((o) => o.report.status !== 'still-present');
  const removes = drifted.filter((o) => o.report.status === 'still-present');
  const rank = (o: ComparedObject) => kindOrder(o.report.kind);
  ensures.sort((a, b) => rank(a) - rank(b));
  removes.sort((a, b) => rank(b) - rank(a));
  const actions: FixAction[] = [];
  const timing = timingFromEnv(options.env, options.warn);
  for (const o of [...ensures, ...removes]) actions.push(await fixOne(o, { ...options, timing }));
  return actions;
}

async function fixOne(o: ComparedObject, options: FixOptions & { timing: Timing }): Promise<FixAction> {
  const { report, desired } = o;
  const base = { stack: report.stack, address: report.address, kind: report.kind, key: report.key, status: report.status };
  const name = objectName(report.kind, report.key);
  const say = (line: string) => options.onLine?.(line);
  const skip = (message: string): FixAction => {
    say(`skipped ${name} (${report.address}): ${message}`);
    return { ...base, action: 'none', outcome: 'skipped', message, log: [] };
  };

  if (report.status === 'still-present') {
    const identity: Identity | undefined = desired.spec ? identityOf(desired.spec) : desired.identity;
    if (!identity) return skip('its identity depends on Terraform variables');
    return run(base, name, 'remove', options, undefined, (ctx) => remove(ctx, identity, { path: desired.path }));
  }

  const spec = desired.spec;
  if (!spec) {
    return skip(
      desired.unknownSpec
        ? `its declaration depends on Terraform variables, which only Terraform can evaluate: run terraform apply -replace=${report.replaceAddress ?? report.address}`
        : `its declaration cannot be read: ${desired.specError ?? 'unknown problem'}`,
    );
  }
  let secret: string | undefined;
  const def = definitionOf(spec.kind);
  // Unattended (a scheduled job, a deploy recipe) --fix must not spend the reseller's money on its own.
  if (report.status === 'missing' && def.lifecycle?.orderCharges && !options.allowCharges) {
    return skip(`ordering a ${def.label} charges the account at once, so drift --fix orders one only with --allow-charges (or let terraform apply / cdktf deploy order it as planned)`);
  }
  // A kind whose secret a create needs (a mailbox's password) cannot be created without it.
  if (def.secret?.requiredToCreate && report.status === 'missing') {
    const sources = secretSources(spec, def.secret.environment, desired.secretVariable);
    secret = sources.lookup.map((name) => options.env[name]).find((value) => !!value);
    if (!secret) {
      return skip(`a missing ${def.label} cannot be created without its ${def.secret.words}: set ${sources.named.join(' or ')} and run drift --fix again`);
    }
  }
  return run(base, name, 'ensure', options, secret, (ctx) => reconcile(ctx, spec));
}

/**
 * Where the secret of one object is found, as Terraform finds it for the stack: the
 * variable its spec names (a mailbox's `passwordEnv`), else `TF_VAR_<name>` of the
 * Terraform variable its provisioner or resource reads; the kind's own variable
 * (`RESELLER_MAILBOX_PASSWORD`) last, for every object of the kind (as before).
 */
function secretSources(spec: ObjectSpec, environment: string, variable: string | undefined): { lookup: string[]; named: string[] } {
  const named = secretEnvName(spec);
  if (named) return { lookup: [named, environment], named: [named, environment] };
  const own = variable ? [`TF_VAR_${variable}`] : [];
  return { lookup: [...own, environment], named: [environment, ...own] };
}

async function run(
  base: Pick<FixAction, 'stack' | 'address' | 'kind' | 'key' | 'status'>,
  name: string,
  action: 'ensure' | 'remove',
  options: FixOptions & { timing: Timing },
  secret: string | undefined,
  body: (ctx: ReconcileContext) => Promise<void>,
): Promise<FixAction> {
  const log: string[] = [];
  const note = (line: string) => {
    const safe = redact(line, secret);
    log.push(safe);
    options.onLine?.(`  ${safe}`);
  };
  const { connection } = options;
  const ctx = createContext({
    client: options.client,
    // The handler's journal, so that e.g. a cloud server order of a concurrent apply is seen.
    store: new FileStore(defaultStoreDir(options.env)),
    accountScope: accountScope(connection.baseUrl, connection.resellerId, connection.apiKey),
    runScope: `drift-fix-${process.pid}`,
    timing: options.timing,
    info: note,
    warn: note,
    // The secret found for this object (see fixOne); no history: an existing object keeps its own.
    secret: () => secret,
  });
  options.onLine?.(`${action === 'ensure' ? 'reconciling' : 'removing'} ${name} (${base.address})`);
  try {
    await body(ctx);
  } catch (err) {
    const message = redact(errorText(err), secret);
    options.onLine?.(`  failed: ${message}`);
    return { ...base, action, outcome: 'failed', message, log };
  }
  const def = base.kind ? definitionOf(base.kind) : undefined;
  if (action === 'remove' && def?.lifecycle?.cannotDelete) {
    return { ...base, action, outcome: 'skipped', message: `retained: the API cannot cancel ${def.label}s; cancel it in the control panel`, log };
  }
  return { ...base, action, outcome: 'fixed', message: log[log.length - 1] ?? 'done', log };
}

function errorText(err: unknown): string {
  if (err instanceof ReconcileError || err instanceof ApiError) return err.message;
  return err instanceof Error ? err.message : String(err);
}

function redact(line: string, secret: string | undefined): string {
  return secret && secret.length >= 4 ? line.split(secret).join('***') : line;
}
