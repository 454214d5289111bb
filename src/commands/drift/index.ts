import { DEFINITIONS } from '../../protocol';
import { defineCommand, EXIT, integerOption, jsonDocument, UsageError } from '../command';
import { DEFAULT_MAIL_CONCURRENCY, runDrift } from './drift';
import { failing, renderFixActions, renderTable } from './report';

export { DEFAULT_MAIL_CONCURRENCY, runDrift } from './drift';
export type { DriftOptions, DriftResult } from './drift';
export { fixDrift } from './fix';
export type { FixAction, FixOutcome } from './fix';
export { DRIFT_DOCUMENT_VERSION, failing, renderFixActions, renderTable, summarize } from './report';
export type { DriftDocument, DriftSummary } from './report';

export const DRIFT_USAGE = `usage: reseller-hosting drift [--stacks DIR] [--stack NAME] [--json] [--detailed-exitcode]
                             [--fix [--allow-charges]] [--fail-on-unmanaged] [--concurrency N]

Compares the objects the synthesized stacks declare with the live reseller account.
Objects in the account that no stack declares (unmanaged) are listed; they are not
drift unless --fail-on-unmanaged says so.

options:
  --stacks PATH         the synthesized output: cdktf output directory (default cdktf.out),
                        its stacks/ directory, one stack directory, or a cdk.tf.json
                        (--out, its former name, is accepted in this release)
  --stack NAME          report on this stack only
  --json                print a JSON document instead of the table (see docs/drift.md)
  --detailed-exitcode   exit 2 when a declared object differs from the account, or --fix
                        skipped something (0: no drift, 1: error)
  --fail-on-unmanaged   count unmanaged objects as drift too (for --detailed-exitcode)
  --fix                 reconcile drifted objects with the core, then report again;
                        unmanaged objects are never deleted
  --allow-charges       with --fix: order a declared cloud server that is missing (the
                        account is charged at once); without it, it is skipped and said so
  --ignore-unmanaged    accepted in this release: what drift does by default now
  --concurrency N       mail reads in flight at once (default ${DEFAULT_MAIL_CONCURRENCY})
  --version             print the version

environment: RESELLER_API_KEY (required), RESELLER_API_URL, RESELLER_ID, and for --fix of a
missing object with a secret, the secret in its kind's variable (${secretVariables()}),
or in the variable its declaration names.
`;

/** Each kind's secret variable, from the definitions (a kind with a secret adds its own). */
function secretVariables(): string {
  return DEFINITIONS.flatMap((d) => (d.secret ? [d.secret.environment] : [])).join(', ');
}

/** `reseller-hosting drift`. */
export const runDriftCli = defineCommand({
  name: 'drift',
  usage: DRIFT_USAGE,
  options: {
    stacks: { type: 'string' },
    out: { type: 'string' },
    stack: { type: 'string' },
    json: { type: 'boolean' },
    'detailed-exitcode': { type: 'boolean' },
    fix: { type: 'boolean' },
    'ignore-unmanaged': { type: 'boolean' },
    'fail-on-unmanaged': { type: 'boolean' },
    'allow-charges': { type: 'boolean' },
    concurrency: { type: 'string' },
  },
  renamed: { out: 'stacks' },
  async run({ values }, io) {
    const concurrency = integerOption('concurrency', values.concurrency, 1, 64);
    if (values['ignore-unmanaged'] && values['fail-on-unmanaged']) throw new UsageError('--ignore-unmanaged and --fail-on-unmanaged exclude each other');
    if (values['allow-charges'] && !values.fix) throw new UsageError('--allow-charges goes with --fix');
    if (values['ignore-unmanaged']) {
      io.stderr('reseller-hosting drift: --ignore-unmanaged is what drift does by default now (unmanaged objects are listed, not counted) and will be removed in the next release: drop it (--fail-on-unmanaged counts them)\n');
    }
    const json = values.json === true;
    // Progress is never part of the report: stderr.
    const progress = (line: string) => io.stderr(`${line}\n`);
    const result = await runDrift({
      stacks: values.stacks,
      stack: values.stack,
      fix: values.fix === true,
      failOnUnmanaged: values['fail-on-unmanaged'] === true,
      allowCharges: values['allow-charges'] === true,
      concurrency,
      env: io.env,
      cwd: io.cwd,
      onLine: progress,
      warn: (message) => io.stderr(`reseller-hosting drift: warning: ${message}\n`),
      onBeforeFix: (before) => {
        if (!json) io.stdout(`${renderTable(before)}\nFixing the drifted objects with the core's ensure and remove:\n`);
      },
    });
    const { version: layout, ...doc } = result.document;
    if (json) {
      io.stdout(jsonDocument(layout, doc));
    } else if (doc.fix) {
      io.stdout(`\n${renderFixActions(doc.fix.actions)}\n`);
      io.stdout(renderTable(result.document, { heading: `After --fix: drift of ${doc.stacks.map((s) => s.name).join(', ')} against ${doc.account.apiUrl} (reseller ${doc.account.resellerId})` }));
    } else {
      io.stdout(renderTable(result.document));
    }
    if (doc.fix?.actions.some((a) => a.outcome === 'failed')) return EXIT.failure;
    if (doc.summary.error > 0) return EXIT.failure;
    // Anything --fix skipped is drift left in place, even when no report shows it (e.g. a retained server).
    const skipped = doc.fix?.actions.some((a) => a.outcome === 'skipped') ?? false;
    return values['detailed-exitcode'] && (failing(doc.summary) || skipped) ? EXIT.differences : EXIT.ok;
  },
});
