import { parseArgs } from 'node:util';
import { EXIT } from '../protocol';
import { runDrift } from './drift';
import { CommandIo, usageErrors, processIo, runCommand, UsageError } from './io';
import { renderFixActions, renderTable } from './report';

export const DRIFT_USAGE = `usage: reseller-hosting drift [--out DIR] [--stack NAME] [--json] [--detailed-exitcode] [--fix]

Compares the objects the synthesized stacks declare with the live reseller account.

options:
  --out PATH            cdktf output directory (default cdktf.out), its stacks/ directory,
                        one stack directory, or a cdk.tf.json
  --stack NAME          report on this stack only
  --json                print a JSON document instead of the table (see docs/drift.md)
  --detailed-exitcode   exit 2 when drift is found, or --fix skipped something (0: none, 1: error)
  --fix                 reconcile drifted objects with the handler, then report again;
                        unmanaged objects are never deleted
  --ignore-unmanaged    list unmanaged objects but do not count them as drift
  --concurrency N       mail reads in flight at once (default 8)

environment: RESELLER_API_KEY (required), RESELLER_API_URL, RESELLER_ID, and for --fix of a
missing mailbox its password in RESELLER_MAILBOX_PASSWORD (or the mailbox's passwordEnv).
`;

/** `reseller-hosting drift`. */
export async function runDriftCli(argv: string[], io: CommandIo = processIo()): Promise<number> {
  return runCommand('drift', DRIFT_USAGE, io, async () => {
    const { values, positionals } = usageErrors(() => parseArgs({ args: argv, allowPositionals: true, strict: true, options: {
      out: { type: 'string' },
      stack: { type: 'string' },
      json: { type: 'boolean' },
      'detailed-exitcode': { type: 'boolean' },
      fix: { type: 'boolean' },
      'ignore-unmanaged': { type: 'boolean' },
      concurrency: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    } }));
    if (values.help) {
      io.stdout(DRIFT_USAGE);
      return EXIT.ok;
    }
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    let concurrency: number | undefined;
    if (values.concurrency !== undefined) {
      concurrency = Number(values.concurrency);
      if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) throw new UsageError('--concurrency must be an integer from 1 to 64');
    }
    const json = values.json === true;
    const progress = (line: string) => (json ? io.stderr(`${line}\n`) : io.stdout(`${line}\n`));
    const result = await runDrift({
      out: values.out,
      stack: values.stack,
      fix: values.fix === true,
      countUnmanaged: values['ignore-unmanaged'] !== true,
      concurrency,
      env: io.env,
      cwd: io.cwd,
      onLine: progress,
      onBeforeFix: (before) => {
        if (!json) io.stdout(`${renderTable(before)}\nFixing the drifted objects with the core's ensure and remove:\n`);
      },
    });
    const doc = result.document;
    if (json) {
      io.stdout(`${JSON.stringify(doc, null, 2)}\n`);
    } else if (doc.fix) {
      io.stdout(`\n${renderFixActions(doc.fix.actions)}\n`);
      io.stdout(renderTable(doc, { heading: `After --fix: drift of ${doc.stacks.map((s) => s.name).join(', ')} against ${doc.account.apiUrl} (reseller ${doc.account.resellerId})` }));
    } else {
      io.stdout(renderTable(doc));
    }
    if (doc.fix?.actions.some((a) => a.outcome === 'failed')) return EXIT.failure;
    if (doc.summary.error > 0) return EXIT.failure;
    // Anything --fix skipped is drift left in place, even when no report shows it (e.g. a retained server).
    const skipped = doc.fix?.actions.some((a) => a.outcome === 'skipped') ?? false;
    return values['detailed-exitcode'] && (doc.summary.drift || skipped) ? EXIT.drift : EXIT.ok;
  });
}
