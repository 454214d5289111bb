import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../scripts/lib/terraform';
import { API_KEY, startTestEmulator, TestEmulator } from '../helpers/emulator';
import { E2E_TIMEOUT_MS, requireTerraform, tempDir, terraform } from '../e2e/support';

/**
 * The provider's own gRPC server (src/provider/transport/grpc.ts, on node:http2) under
 * the real client: Terraform (Go gRPC, go-plugin, automatic mutual TLS). A create, a
 * no-change plan, an update, an import and a destroy make Terraform send every RPC it
 * sends in a plan and an apply; each command's TRACE log (Terraform logs every call it
 * makes to the plugin) shows which were served, and none may fail at the transport
 * (an unknown method, a broken frame, a reset stream, a plugin killed at exit).
 */

/** What Terraform 1.11 sends through a plan, an apply and an import (with get_provider_schema_optional, only the first plugin process of a command is asked for the schema). */
const PLAN_AND_APPLY_RPCS = [
  'GetProviderSchema', 'ValidateProviderConfig', 'ValidateResourceConfig', 'ConfigureProvider', 'UpgradeResourceState',
  'ReadResource', 'PlanResourceChange', 'ApplyResourceChange', 'ImportResourceState',
];

let tf: string;
let emu: TestEmulator;
let dir: string;
let source: string;
const served = new Set<string>();
const logs: string[] = [];

const resources = (label: string, remote: string) => ({
  reseller_package: { site: { domain_name: 'conformance.example', extra_domain_names: [], package_type: 'Linux Unlimited', label } },
  reseller_mailbox: {
    info: { package: '${reseller_package.site.domain_name}', local_part: 'info', password_wo: '${var.mailbox_password}', password_wo_version: 1 },
  },
  reseller_forwarder: { sales: { package: '${reseller_package.site.domain_name}', local_part: 'sales', remote } },
});

function writeConfig(resource: Record<string, unknown>): void {
  writeFileSync(join(dir, 'main.tf.json'), JSON.stringify({
    terraform: { required_providers: { reseller: { source } } },
    variable: { mailbox_password: { type: 'string', sensitive: true, ephemeral: true } },
    provider: { reseller: { api_url: emu.url } },
    resource,
  }, null, 2));
}

/** One terraform command with a TRACE log; the RPCs it sent are added to `served`. */
async function traced(args: string[], codes = [0]): Promise<number> {
  const log = join(dir, `trace-${logs.length}.log`);
  const r = await terraform(tf, args, dir, {
    RESELLER_API_KEY: API_KEY, TF_VAR_mailbox_password: 'Conformance-Passw0rd!', RESELLER_POLL_INTERVAL: '100ms',
    TF_LOG: 'trace', TF_LOG_PATH: log,
  }, codes);
  const text = readFileSync(log, 'utf8');
  logs.push(text);
  for (const m of text.matchAll(/GRPCProvider\.v6: (\w+)/g)) served.add(m[1]);
  return r.code;
}

beforeAll(async () => {
  tf = requireTerraform();
  const installer = join(REPO_ROOT, 'dist', 'src', 'provider', 'install.js');
  if (!existsSync(installer)) throw new Error(`${installer} is missing: run 'npm run build' first (npm test does)`);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const install = require(installer) as typeof import('../../src/provider/install');
  source = install.PROVIDER_SOURCE;
  emu = await startTestEmulator();
  dir = tempDir('transport-conformance');
  install.installProvider(join(dir, 'terraform.d', 'plugins'));
  writeConfig(resources('First', 'team@example.org'));
  await terraform(tf, ['init', '-input=false', '-no-color'], dir, { RESELLER_API_KEY: API_KEY });
}, E2E_TIMEOUT_MS);

afterAll(async () => {
  await emu?.stop();
});

test('Terraform creates, plans, updates, imports and destroys through the provider\'s gRPC server', async () => {
  const apply = ['apply', '-auto-approve', '-input=false', '-no-color'];
  const plan = ['plan', '-detailed-exitcode', '-input=false', '-no-color'];
  await traced(apply);
  expect(await traced(plan)).toBe(0);
  writeConfig(resources('Second', 'sales@example.org'));
  await traced(apply);
  expect(await traced(plan)).toBe(0);
  await traced(['state', 'rm', '-no-color', 'reseller_forwarder.sales']);
  await traced(['import', '-input=false', '-no-color', 'reseller_forwarder.sales', 'sales@conformance.example']);
  expect(await traced(plan)).toBe(0);
  await traced(['destroy', '-auto-approve', '-input=false', '-no-color']);
  expect(emu.account().packages.find((p) => p.name === 'conformance.example')).toBeUndefined();

  expect([...served].sort()).toEqual(expect.arrayContaining(PLAN_AND_APPLY_RPCS));
  const all = logs.join('\n');
  // go-plugin's stdio stream is the one service this plugin does not serve (Terraform ignores it).
  const failures = all.split('\n').filter((l) => /code = (Unimplemented|Internal|Unavailable|Unknown)|RST_STREAM|transport is closing/.test(l) && !/GRPCStdio|StreamStdio/.test(l));
  expect(failures).toEqual([]);
  // Every plugin process ended on Terraform's Shutdown, not killed.
  expect(all).not.toMatch(/plugin process exited:.*error=/);
  expect(all).toMatch(/plugin exited/);
}, 4 * E2E_TIMEOUT_MS);
