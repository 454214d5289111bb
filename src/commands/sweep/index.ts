import { clientFor, connectionFromEnv } from '../../client';
import { timingFromEnv } from '../../reconcile';
import { defineCommand, EXIT, jsonDocument, UsageError } from '../command';
import { checkPrefix, MIN_PREFIX, sweep, SweepResult } from './sweep';

export { checkPrefix, MIN_PREFIX, sweep } from './sweep';
export type { SweepOptions, SweepResult } from './sweep';

/** Version of the --json document's layout. */
export const SWEEP_DOCUMENT_VERSION = 1;

export const SWEEP_USAGE = `usage: reseller-hosting sweep --prefix PREFIX [--yes] [--json]

Finds every package, mailbox, forwarder, DNS record, control-panel user and cloud server
whose name carries PREFIX, and lists them; with --yes, deletes them. For what test runs leave
behind (the live tier names everything tfacc-<run id>-...).

A name carries the prefix when its first label starts with it: a domain or host name's
leftmost label (tfacc-1-site.example.com), or an address's local part or domain
(tfacc-1-owner@example.com, info@tfacc-1-site.example.com); a DNS record's owner name
(tfacc-1-www.example.com, in any zone of any package; SOA and NS records never). A
package is swept only when every one of its domain names carries it; what it holds
goes with it. Nothing else is ever touched. Cloud
servers are listed but kept: the API cannot cancel them (cancel them in the control
panel).

options:
  --prefix PREFIX   at least ${MIN_PREFIX} letters, digits or "-" (e.g. tfacc- or tfacc-1a2b-)
  --yes             delete what is listed (default: list only)
  --json            print the result as JSON
  --version         print the version

environment: RESELLER_API_KEY (required), RESELLER_API_URL, RESELLER_ID.
exit codes: 0 done; 1 a delete failed; 64 usage error (including a too short prefix).
`;

/** `reseller-hosting sweep`. */
export const runSweepCli = defineCommand({
  name: 'sweep',
  usage: SWEEP_USAGE,
  options: {
    prefix: { type: 'string' },
    yes: { type: 'boolean' },
    json: { type: 'boolean' },
  },
  async run({ values }, io) {
    if (values.prefix === undefined) throw new UsageError('--prefix is required');
    const problem = checkPrefix(values.prefix);
    if (problem) throw new UsageError(`--prefix ${problem}`);
    // A missing or wrong setting (ConnectionError) says what to do: one line, exit 1.
    const connection = connectionFromEnv(io.env);
    const client = clientFor(connection);
    try {
      const result = await sweep(client, values.prefix, {
        yes: values.yes, timing: timingFromEnv(io.env, (message) => io.stderr(`reseller-hosting sweep: warning: ${message}\n`)), log: (line) => io.stderr(`${line}\n`),
      });
      io.stdout(values.json ? jsonDocument(SWEEP_DOCUMENT_VERSION, result) : renderSweep(result, values.yes ?? false));
      return result.failed ? EXIT.failure : EXIT.ok;
    } finally {
      client.close();
    }
  },
});

export function renderSweep(result: SweepResult, yes: boolean): string {
  const lines = [`${result.objects.length} object(s) carry the prefix "${result.prefix}"${result.objects.length ? ':' : '.'}`];
  for (const o of result.objects) lines.push(`  ${o.action.padEnd(8)}${o.kind.padEnd(14)}${o.name}${o.detail ? `  (${o.detail})` : ''}`);
  if (!yes && result.objects.length) lines.push('', 'Nothing was deleted: run again with --yes to delete them.');
  return `${lines.join('\n')}\n`;
}
