import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { App, LocalBackend, TerraformOutput, TerraformStack } from 'cdktf';
import {
  DataResellerDnsRecords, DataResellerPackage, DataResellerPackageTypes, Forwarder, HostingPackage, ResellerHosting,
} from '../../src';
import { ResellerClient } from '../../src/client';
import { API_KEY, startTestEmulator, TestEmulator } from '../helpers/emulator';
import { E2E_TIMEOUT_MS, requireTerraform, tempDir, terraform } from '../e2e/support';

/**
 * The data-source constructs synthesized by cdktf and run by real Terraform against the
 * emulator: the README's stack (reads its package types and an existing package,
 * outputs the site's IP address for a DNS record elsewhere, reads a zone's records), and an unmanaged parent
 * (`HostingPackage.fromDomainName`) that does not exist failing `terraform plan`.
 */

let tf: string;
let emu: TestEmulator;
let dir: string;
let api: ResellerClient;

beforeAll(async () => {
  tf = requireTerraform();
  emu = await startTestEmulator();
  dir = tempDir('data-constructs');
  api = new ResellerClient({ baseUrl: emu.url, apiKey: API_KEY, retryBaseDelayMs: 10 });
  await api.packages.create({ type: 811, domainName: 'legacy.example.com', extraDomainNames: [], label: 'Made in the control panel' });
}, E2E_TIMEOUT_MS);

afterAll(async () => {
  api?.close();
  await emu?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
  if (emu) rmSync(emu.dir, { recursive: true, force: true });
});

/** The README's example, with the parent of the forwarder named `parent` (and, with `manage`, that package declared too). */
function synth(parent: string, manage = false): string {
  const outdir = join(dir, 'cdktf.out');
  const app = new App({ outdir });
  const stack = new TerraformStack(app, 'site');
  new LocalBackend(stack, { path: 'terraform.tfstate' });
  new ResellerHosting(stack, 'reseller', { apiUrl: emu.url });
  const types = new DataResellerPackageTypes(stack, 'types');
  const legacy = new DataResellerPackage(stack, 'legacy', { domainName: 'legacy.example.com', readWebIpv4: true });
  new HostingPackage(stack, 'shop', { domainName: 'shop.example.com', packageType: types.idOf('Linux Starter') });
  new TerraformOutput(stack, 'legacy_ip', { value: legacy.webIpv4 });
  const apexA = new DataResellerDnsRecords(stack, 'apex_records', { package: 'legacy.example.com', name: '@', type: 'A' });
  new TerraformOutput(stack, 'apex_a', { value: apexA.values });
  const existing = HostingPackage.fromDomainName(stack, 'existing', parent);
  if (manage) new HostingPackage(stack, 'managed', { domainName: parent, packageType: 'Linux Starter' });
  new Forwarder(stack, 'sales', { package: existing, localPart: 'sales', remote: 'team@example.org' });
  app.synth();
  return join(outdir, 'stacks', 'site');
}

const env = (): NodeJS.ProcessEnv => ({ RESELLER_API_KEY: API_KEY });

test('the README stack: a package type by name, an existing package\'s IP address as an output', async () => {
  const stackDir = synth('legacy.example.com');
  await terraform(tf, ['init', '-input=false', '-no-color'], stackDir, env());
  await terraform(tf, ['apply', '-auto-approve', '-input=false', '-no-color'], stackDir, env());
  const shop = emu.account().packages.find((p) => p.name === 'shop.example.com');
  expect(shop).toMatchObject({ packageTypeName: 'Linux Starter' });
  const legacy = emu.account().packages.find((p) => p.name === 'legacy.example.com')!;
  expect(legacy.mail.flatMap((d) => d.forwarders.map((f) => `${f.address}->${f.remote}`))).toEqual(['sales@legacy.example.com->team@example.org']);
  const out = JSON.parse((await terraform(tf, ['output', '-json'], stackDir, env())).stdout);
  expect(out.legacy_ip.value).toMatch(/^[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+$/);
  expect(out.apex_a.value).toEqual([out.legacy_ip.value]); // the zone's default A record is the site's address
  const again = await terraform(tf, ['plan', '-detailed-exitcode', '-input=false', '-no-color'], stackDir, env(), [0, 2]);
  expect(again.code).toBe(0);
}, E2E_TIMEOUT_MS);

test('a missing unmanaged parent fails the plan, naming it and the closest existing package', async () => {
  const stackDir = synth('legacy.exmaple.com');
  const plan = await terraform(tf, ['plan', '-input=false', '-no-color'], stackDir, env(), [1]);
  const text = (plan.stdout + plan.stderr).replace(/\s+/g, ' ');
  expect(text).toMatch(/reseller_package: package "legacy.exmaple.com" not found/);
  expect(text).toMatch(/Closest existing: legacy.example.com/);
  expect(emu.account().packages.map((p) => p.name).sort()).toEqual(['legacy.example.com', 'shop.example.com']); // nothing applied
}, E2E_TIMEOUT_MS);

test('a reference to a package the same stack manages is that package: the first apply succeeds, a change to it replaces nothing, the next plan is empty', async () => {
  const stackDir = synth('both.example.com', true);
  await terraform(tf, ['apply', '-auto-approve', '-input=false', '-no-color'], stackDir, env());
  const both = emu.account().packages.find((p) => p.name === 'both.example.com')!;
  expect(both.mail.flatMap((d) => d.forwarders.map((f) => f.address))).toEqual(['sales@both.example.com']);
  const again = await terraform(tf, ['plan', '-detailed-exitcode', '-input=false', '-no-color'], stackDir, env(), [0, 2]);
  expect(again.code).toBe(0);
  await api.packages.setEnabled(both.id, false); // in the control panel: the package changes, its forwarder must not
  const changed = await terraform(tf, ['plan', '-detailed-exitcode', '-input=false', '-no-color'], stackDir, env(), [2]);
  expect(changed.stdout).toMatch(/Plan: 0 to add, 1 to change, 0 to destroy\./);
  expect(changed.stdout).toMatch(/reseller_package\.managed will be updated in-place/);
}, E2E_TIMEOUT_MS);
