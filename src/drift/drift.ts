import type { Connection, ResellerClient } from '../client';
import { clientFor, connectionFromEnv } from '../client';
import { ENV } from '../protocol';
import { createContext } from '../reconcile';
import { compare, Comparison } from './compare';
import { DesiredState, findStackFiles, readDesired } from './desired';
import { FixAction, fixDrift } from './fix';
import { CommandError } from './io';
import { DRIFT_DOCUMENT_VERSION, DriftDocument, summarize } from './report';

/** Mail reads in flight at once, unless --concurrency says otherwise. */
export const DEFAULT_MAIL_CONCURRENCY = 8;

export interface DriftOptions {
  /** cdktf output directory, `stacks` directory, stack directory or cdk.tf.json. @default cdktf.out */
  readonly out?: string;
  /** Only this stack (the others still count as managed for the unmanaged list). */
  readonly stack?: string;
  /** Reconcile drifted objects, then report again. */
  readonly fix?: boolean;
  /** Whether unmanaged objects count as drift. @default true */
  readonly countUnmanaged?: boolean;
  /** Mail reads in flight at once. @default 8 */
  readonly concurrency?: number;
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  /** Progress lines of --fix. */
  readonly onLine?: (line: string) => void;
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
  const files = findStackFiles(options.out, cwd);
  const all = readDesired(files, cwd);
  const selected = options.stack === undefined ? all.stacks : all.stacks.filter((s) => s.name === options.stack);
  if (selected.length === 0) {
    throw new CommandError(`no stack named "${options.stack}"; the stacks found are: ${all.stacks.map((s) => s.name).join(', ')}`);
  }
  const names = new Set(selected.map((s) => s.name));
  const declared = all.objects.filter((o) => names.has(o.stack));
  const connection = connectionFor(env, selected);
  // One client for the whole run: the list reads, the mail reads and any --fix.
  const client = options.client ?? clientFor(connection);
  const countUnmanaged = options.countUnmanaged ?? true;
  // A read-only pass: each list once, the reference look-ups included; a fresh one after --fix.
  const pass = () => createContext({ client, oneReadPerList: true, readsAtOnce: options.concurrency ?? DEFAULT_MAIL_CONCURRENCY });
  const account = { apiUrl: connection.baseUrl, resellerId: connection.resellerId };
  const stacks = selected.map((s) => ({ name: s.name, file: s.file }));
  try {
    const documentOf = (comparison: Comparison, requests: number, fix: DriftDocument['fix']): DriftDocument => ({
      version: DRIFT_DOCUMENT_VERSION,
      account,
      stacks,
      summary: summarize(comparison, countUnmanaged),
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
      const actions: FixAction[] = await fixDrift(comparison.objects, { client, connection, env, onLine: options.onLine });
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

/**
 * The connection, as the handler gets it: RESELLER_API_URL / RESELLER_API_KEY /
 * RESELLER_ID from the environment; when the environment has no URL or reseller id,
 * the stacks' ResellerHosting `apiUrl` / `resellerId` (what their provisioners set).
 */
function connectionFor(env: NodeJS.ProcessEnv, stacks: DesiredState['stacks']): Connection {
  const pick = (field: 'apiUrl' | 'resellerId', variable: string): string | undefined => {
    if (env[variable]) return undefined;
    const values = [...new Set(stacks.map((s) => s[field]).filter((v): v is string => v !== undefined))];
    if (values.length > 1) {
      throw new CommandError(
        `the stacks set different ${field} values (${values.join(', ')}), so they manage different accounts: ` +
          `run drift once per stack with --stack, or set ${variable}`,
      );
    }
    return values[0];
  };
  const apiUrl = pick('apiUrl', ENV.apiUrl);
  const resellerId = pick('resellerId', ENV.resellerId);
  try {
    return connectionFromEnv({
      ...env,
      ...(apiUrl !== undefined ? { [ENV.apiUrl]: apiUrl } : {}),
      ...(resellerId !== undefined ? { [ENV.resellerId]: resellerId } : {}),
    });
  } catch (err) {
    throw new CommandError((err as Error).message);
  }
}
