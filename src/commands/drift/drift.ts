import type { ResellerClient } from '../../client';
import { clientFor } from '../../client';
import { createContext } from '../../reconcile';
import { compare, Comparison, connectionForStacks, DesiredState, readStacks } from '../../stacks';
import { FixAction, fixDrift } from './fix';
import { DRIFT_DOCUMENT_VERSION, DriftDocument, summarize } from './report';

/** Mail reads in flight at once, unless --concurrency says otherwise. */
export const DEFAULT_MAIL_CONCURRENCY = 8;

export interface DriftOptions {
  /** cdktf output directory, `stacks` directory, stack directory or cdk.tf.json. @default cdktf.out */
  readonly stacks?: string;
  /** Only this stack (the others still count as managed for the unmanaged list). */
  readonly stack?: string;
  /** Reconcile drifted objects, then report again. */
  readonly fix?: boolean;
  /** Whether unmanaged objects count as drift (`--fail-on-unmanaged`). @default false */
  readonly failOnUnmanaged?: boolean;
  /** With `fix`: whether it may order what charges the account (a missing cloud server: `--allow-charges`). @default false */
  readonly allowCharges?: boolean;
  /** Mail reads in flight at once. @default 8 */
  readonly concurrency?: number;
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  /** Progress lines of --fix. */
  readonly onLine?: (line: string) => void;
  /** What is wrong with the environment's settings (a former spelling). */
  readonly warn?: (message: string) => void;
  /** With --fix: receives the report of the drift found, before anything is fixed. */
  readonly onBeforeFix?: (document: DriftDocument) => void;
  /** For tests and the benchmark: use this client instead of one from the environment. */
  readonly client?: ResellerClient;
}

export interface DriftResult {
  readonly document: DriftDocument;
  /** The comparison behind `document.objects` (after the fix, with --fix). */
  readonly comparison: Comparison;
  readonly desired: DesiredState;
}

/** Reads the stacks and the account, compares them, and with `fix` repairs and compares again. */
export async function runDrift(options: DriftOptions = {}): Promise<DriftResult> {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const { all, selected } = readStacks({ stacks: options.stacks, stack: options.stack, cwd });
  const names = new Set(selected.map((s) => s.name));
  const declared = all.objects.filter((o) => names.has(o.stack));
  const connection = connectionForStacks(env, selected);
  // One client for the whole run: the list reads, the mail reads and any --fix.
  const client = options.client ?? clientFor(connection);
  const failOnUnmanaged = options.failOnUnmanaged ?? false;
  // A read-only pass: each list once, the reference look-ups included; a fresh one after --fix.
  const pass = () => createContext({ client, oneReadPerList: true, readsAtOnce: options.concurrency ?? DEFAULT_MAIL_CONCURRENCY });
  const account = { apiUrl: connection.baseUrl, resellerId: connection.resellerId };
  const stacks = selected.map((s) => ({ name: s.name, file: s.file }));
  try {
    const documentOf = (comparison: Comparison, requests: number, fix: DriftDocument['fix']): DriftDocument => ({
      version: DRIFT_DOCUMENT_VERSION,
      account,
      stacks,
      summary: summarize(comparison, failOnUnmanaged),
      objects: comparison.objects.map((o) => o.report),
      unmanaged: comparison.unmanaged,
      requests,
      fix,
    });
    let ctx = pass();
    let comparison = await compare(ctx, declared, all.objects);
    let fix: DriftDocument['fix'] = null;
    if (options.fix) {
      const first = documentOf(comparison, ctx.lists.reads, null);
      options.onBeforeFix?.(first);
      const before = first.summary;
      const actions: FixAction[] = await fixDrift(comparison.objects, { client, connection, env, onLine: options.onLine, warn: options.warn, allowCharges: options.allowCharges });
      if (comparison.unmanaged.length) {
        options.onLine?.(`${comparison.unmanaged.length} unmanaged object(s) left as they are: drift --fix never deletes what no stack declares`);
      }
      fix = { before, actions };
      ctx = pass();
      comparison = await compare(ctx, declared, all.objects);
    }
    return { document: documentOf(comparison, ctx.lists.reads, fix), comparison, desired: all };
  } finally {
    if (!options.client) client.close();
  }
}
