import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, TerraformStack } from 'cdktf';
import { HostingPackage, ResellerHosting, StackUser } from '../../src';
import type { Engine } from '../../src';
import { handlerEnv, requireBuiltHandler, startTestEmulator, TestEmulator } from '../helpers/emulator';
import { MiniTerraform, summary } from '../helpers/mini-terraform';
import { tempDir } from './support';

/** StackUser on both provisioner carriers: created before the package that refers to it, linked, deleted when absent. */
describe.each<Engine>(['terraform_data', 'null_resource'])('StackUser on %s', (engine) => {
  let emu: TestEmulator;
  let outdir: string;
  let tf: MiniTerraform;

  const config = (absent = false) => {
    const app = new App({ outdir });
    const stack = new TerraformStack(app, 'users');
    new ResellerHosting(stack, 'reseller', { apiUrl: emu.url, engine });
    const owner = new StackUser(stack, 'owner', { email: `carrier-${engine}@example.com`, personName: 'Carrier Owner', absent });
    new HostingPackage(stack, 'site', { domainName: `${engine.replace('_', '-')}.example.com`, packageType: 'Linux Starter', stackUser: owner, absent });
    app.synth();
    return JSON.parse(readFileSync(join(outdir, 'stacks', 'users', 'cdk.tf.json'), 'utf8'));
  };
  const user = () => Object.values(emu.account().users).find((u) => u.contact.email === `carrier-${engine}@example.com`);

  beforeAll(async () => {
    requireBuiltHandler();
    emu = await startTestEmulator({ provisionDelayMs: 50 });
    outdir = tempDir('reseller-users-');
    tf = new MiniTerraform(join(outdir, 'stacks', 'users'), handlerEnv(emu.url, tempDir('journal-')));
  });
  afterAll(() => emu?.stop());

  test('apply creates the user first, then the package linked to it', async () => {
    const runs = await tf.apply(config());
    expect(summary(runs)).toEqual([`${engine}.owner_settings ensure`, `${engine}.site_settings ensure`]);
    const created = user()!;
    expect(created.contact.person_name).toBe('Carrier Owner');
    const site = emu.account().packages.find((p) => p.name === `${engine.replace('_', '-')}.example.com`)!;
    expect(site.stackUsers).toEqual([`stack-user:${created.id}`]);
  });

  test('absent: the package is deleted before the user', async () => {
    const runs = await tf.apply(config(true));
    expect(summary(runs)).toEqual([`${engine}.site delete`, `${engine}.owner delete`]);
    expect(runs.map((r) => r.code)).toEqual([0, 0]);
    expect(user()).toBeUndefined();
  });
});
