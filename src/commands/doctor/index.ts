import { defineCommand, EXIT, jsonDocument, version } from '../command';
import { DoctorReport, runDoctor } from './doctor';
import { Shape } from './shapes';

export { runDoctor } from './doctor';
export type { CheckResult, CheckStatus, DoctorOptions, DoctorReport } from './doctor';

export const DOCTOR_USAGE = `usage: reseller-hosting doctor [--json] [--stacks DIR]

Checks a setup against the live account, read-only (it sends GET requests only):
  1. the API URL answers            (RESELLER_API_URL)
  2. the API key is accepted        (RESELLER_API_KEY, sent base64-encoded as a bearer token)
  3. the reseller id resolves       (RESELLER_ID, default "*": the key's own account)
  4. Terraform (>= 1.11, write-only attributes) and Node (>= 20) support the provider
  5. the provider is found from each synthesized stack directory (cdktf.out/stacks/*)
Each is ok, failed (with the fix) or not verifiable. Then it reads one object of each
kind the account has and holds the live shapes up against every assumption the client
makes: each is held, not held, or not verifiable on this account.

options:
  --json         print the report as JSON, to attach to a bug report: no key, no names
                 or e-mail addresses, only field names, value types and counts
  --stacks DIR   the synthesized output to look for stacks in (default cdktf.out)
  --version      print the version

exit codes: 0 nothing failed; 1 a check failed or an assumption does not hold;
64 usage error.
`;

/** Version of the --json document's layout (2: `version`, formerly `doctorReportVersion`). */
export const DOCTOR_DOCUMENT_VERSION = 2;

/** Anything shaped like an e-mail address: a report must never carry one. */
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;

/** `reseller-hosting doctor`. */
export const runDoctorCli = defineCommand({
  name: 'doctor',
  usage: DOCTOR_USAGE,
  options: {
    json: { type: 'boolean' },
    stacks: { type: 'string' },
  },
  async run({ values }, io) {
    const report = await runDoctor({ env: io.env, cwd: io.cwd, stacks: values.stacks });
    io.stdout(values.json ? renderJson(report) : renderText(report));
    return report.failed ? EXIT.failure : EXIT.ok;
  },
});

export function renderJson(report: DoctorReport): string {
  const count = (status: string) => [...report.checks.map((c) => c.status), ...report.assumptions.map((a) => a.status)].filter((s) => s === status).length;
  const doc = {
    // The package's version, and the provider's (the same: the package ships it); both for a bug report.
    package: version(),
    provider: version(),
    node: process.versions.node,
    platform: `${process.platform}_${process.arch}`,
    checks: report.checks,
    account: report.account,
    assumptions: report.assumptions,
    summary: {
      ok: count('ok'), failed: count('failed'), held: count('held'), notHeld: count('not held'), notVerifiable: count('not verifiable'),
      exitCode: report.failed ? EXIT.failure : EXIT.ok,
    },
  };
  return jsonDocument(DOCTOR_DOCUMENT_VERSION, doc).replace(EMAIL, '<e-mail>');
}

const pad = (s: string) => s.padEnd(16);

export function renderText(report: DoctorReport): string {
  const lines = [`reseller-hosting doctor ${version()} (read-only; the provider it ships: ${version()})`, '', 'checks:'];
  for (const c of report.checks) {
    lines.push(`  ${pad(c.status)}${c.check}: ${c.detail}`);
    if (c.fix && c.status !== 'ok') lines.push(`  ${pad('')}fix: ${c.fix}`);
  }
  const kinds = Object.entries(report.account);
  lines.push('', 'account (one object of each kind read):');
  if (kinds.length === 0) lines.push('  not read: the key was not accepted');
  for (const [kind, k] of kinds) lines.push(`  ${kind}: ${k.count}${k.shape ? `, fields ${fieldsOf(k.shape)}` : ''}`);
  lines.push('', 'assumptions of the client:');
  for (const a of report.assumptions) {
    // A fact named after the one function it checks says so by its name; any other list is shown.
    const checks = a.assumptions.length && (a.assumptions.length > 1 || a.assumptions[0] !== a.fact) ? `; checks ${a.assumptions.join(', ')}` : '';
    lines.push(`  ${pad(a.status)}${a.fact} (${a.basis}${checks}): ${a.says}`, `  ${pad('')}${a.detail}`);
  }
  lines.push('', report.failed
    ? 'result: something failed (exit 1); see the fixes above. Attach `reseller-hosting doctor --json` to a bug report.'
    : 'result: nothing failed (exit 0). "not verifiable" facts need an account that has such objects, or a write (the live tier, docs/live-testing.md).', '');
  return lines.join('\n').replace(EMAIL, '<e-mail>');
}

/** Top-level field names of a shape, for the text report. */
function fieldsOf(shape: Shape): string {
  return typeof shape === 'string' ? shape : Object.keys(shape).join(', ');
}
