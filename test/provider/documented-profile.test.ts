/**
 * The native provider's lifecycle against both emulator profiles (issue 15: every
 * engine converges against `--profile documented`, which returns no field a public
 * source does not show: no label, created, packageTypeName or enabled on a package
 * detail, no empty `forward` list on a mail read). Create, a second plan with no
 * changes, an update of every mutable field, a change made outside Terraform that the
 * plan shows, and destroy, with real Terraform and hand-written Terraform JSON.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ResellerClient } from '../../src/client';
import type { EmulatorProfile } from '../../src/emulator';
import { REPO_ROOT } from '../../scripts/lib/terraform';
import { API_KEY } from '../helpers/emulator';
import { E2E_TIMEOUT_MS, E2EEmulator, requireTerraform, startE2EEmulator, tempDir, terraform } from '../e2e/support';

function builtInstaller(): typeof import('../../src/provider/install') {
  const file = join(REPO_ROOT, 'dist', 'src', 'provider', 'install.js');
  if (!existsSync(file) || !existsSync(join(REPO_ROOT, 'dist', 'src', 'provider', 'bundle.js'))) {
    throw new Error(`${file} or the provider bundle is missing: run 'npm run build' first (npm test does)`);
  }
  return require(file);
}

interface Site { label: string; extras: string[]; type: string; enabled: boolean; send: boolean; receive: boolean; remote: string }

describe.each<EmulatorProfile>(['documented', 'default'])("the provider's lifecycle against profile '%s'", (profile) => {
  let tf: string;
  let emu: E2EEmulator;
  let dir: string;
  let source: string;
  const env = (): NodeJS.ProcessEnv => ({ RESELLER_API_KEY: API_KEY, TF_VAR_mailbox_password: 'Profile-Passw0rd!', RESELLER_POLL_INTERVAL_MS: '100' });

  function write(site: Site): void {
    writeFileSync(join(dir, 'main.tf.json'), JSON.stringify({
      terraform: { required_providers: { reseller: { source } } },
      variable: { mailbox_password: { type: 'string', sensitive: true, ephemeral: true } },
      provider: { reseller: { api_url: emu.url } },
      resource: {
        reseller_package: {
          site: { domain_name: 'profile-site.com', extra_domain_names: site.extras, package_type: site.type, label: site.label, enabled: site.enabled },
        },
        reseller_mailbox: {
          info: {
            package: '${reseller_package.site.domain_name}', local_part: 'info', send: site.send, receive: site.receive,
            password_wo: '${var.mailbox_password}', password_wo_version: 1,
          },
        },
        reseller_forwarder: { sales: { package: '${reseller_package.site.domain_name}', local_part: 'sales', remote: site.remote } },
      },
    }, null, 2));
  }
  const apply = () => terraform(tf, ['apply', '-auto-approve', '-input=false', '-no-color'], dir, env());
  const planCode = async () => (await terraform(tf, ['plan', '-input=false', '-no-color', '-detailed-exitcode'], dir, env(), [0, 2])).code;
  const pkg = () => emu.account().packages.find((p) => p.name === 'profile-site.com');

  beforeAll(async () => {
    tf = requireTerraform();
    const installer = builtInstaller();
    source = installer.PROVIDER_SOURCE;
    dir = tempDir(`provider-profile-${profile}`);
    emu = await startE2EEmulator({ dir, profile });
    installer.installProvider(join(dir, 'terraform.d', 'plugins'));
    write({ label: 'First', extras: ['profile-site.net'], type: 'Linux Unlimited', enabled: true, send: true, receive: true, remote: 'team@example.org' });
    await terraform(tf, ['init', '-input=false', '-no-color'], dir, env());
  }, E2E_TIMEOUT_MS);
  afterAll(() => emu?.stop());

  it('creates, then a second plan shows no changes', async () => {
    await apply();
    expect(pkg()).toMatchObject({ names: ['profile-site.com', 'profile-site.net'], label: 'First', enabled: true });
    expect(await planCode()).toBe(0);
  }, E2E_TIMEOUT_MS);

  it('updates every mutable field in place, and converges (the next plan is empty)', async () => {
    write({ label: 'Second', extras: ['profile-site.org'], type: 'Linux Starter', enabled: false, send: false, receive: true, remote: 'other@example.org' });
    const out = await apply();
    expect(out.stdout).toMatch(/0 added, 3 changed, 0 destroyed/);
    const site = pkg()!;
    expect(site).toMatchObject({ names: ['profile-site.com', 'profile-site.org'], label: 'Second', packageTypeName: 'Linux Starter', enabled: false });
    const mail = site.mail.find((d) => d.domain === 'profile-site.com')!;
    expect(mail.mailboxes.map((m) => [m.local, m.send, m.receive])).toEqual([['info', false, true]]);
    expect(mail.forwarders.map((f) => f.remote)).toEqual(['other@example.org']);
    expect(await planCode()).toBe(0);
  }, E2E_TIMEOUT_MS);

  it('shows a change made outside Terraform in the plan, and apply repairs it', async () => {
    const api = new ResellerClient({ baseUrl: emu.url, apiKey: API_KEY, retryBaseDelayMs: 10 });
    try {
      await api.setPackageEnabled(pkg()!.id, true);
    } finally {
      api.close();
    }
    expect(await planCode()).toBe(2);
    await apply();
    expect(pkg()!.enabled).toBe(false);
    expect(await planCode()).toBe(0);
  }, E2E_TIMEOUT_MS);

  it('destroys everything', async () => {
    await terraform(tf, ['destroy', '-auto-approve', '-input=false', '-no-color'], dir, env());
    expect(emu.account().packages).toEqual([]);
  }, E2E_TIMEOUT_MS);
});
