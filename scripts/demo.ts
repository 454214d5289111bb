import { randomBytes } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'cdktf';
import { EXAMPLE_STACK_NAME, ExampleResellerStack } from '../examples/stack';
import { ResellerClient } from '../src/client';
import { startEmulator } from '../src/emulator';
import { accountTable } from './lib/account-table';
import { findTerraform, REPO_ROOT, runTerraform } from './lib/terraform';

/**
 * `npm run demo`: deploys the example stack with real Terraform and the native
 * provider (the default engine) against a fresh, embedded emulator of the reseller
 * API, and shows what exists in the account. Then a customer changes the account
 * behind Terraform's back (through the API, as the control panel does): `terraform
 * plan` shows the change as a diff, `terraform apply` repairs it, and the last plan is
 * clean. The emulator's control-panel page shows the same account in a browser: in a
 * terminal the demo keeps the emulator running until Ctrl+C so it can be looked at;
 * in CI or without a terminal it exits when done.
 */
const API_KEY = 'emulator-key';

/** Whether a person is at a terminal (then the emulator stays up after the deploy). */
function interactive(): boolean {
  const ci = process.env.CI;
  const inCi = ci !== undefined && ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false';
  return Boolean(process.stdout.isTTY && process.stdin.isTTY) && !inCi;
}

async function main(): Promise<number> {
  let terraform: string;
  try {
    terraform = findTerraform();
  } catch (err) {
    console.error(`demo: ${(err as Error).message}`);
    return 1;
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'reseller-demo-'));
  const emulator = await startEmulator({ port: 0, apiKey: API_KEY, dataFile: join(dataDir, 'emulator.json'), provisionDelayMs: 2000, quiet: true });
  const logo = await serveSampleLogo();
  try {
    step(`emulator of the reseller API listening on ${emulator.url} (data: ${dataDir})`);
    console.log(`    control panel: ${emulator.url}/ (open it in a browser to watch the deploy)`);
    await fetch(`${emulator.url}/__emulator/brand`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Example Hosting', logoUrl: logo.url }),
    });

    step('synthesizing examples/stack.ts (engine: provider; synth places the provider in the stack directory)');
    const outdir = join(REPO_ROOT, 'cdktf.out');
    const app = new App({ outdir });
    new ExampleResellerStack(app, EXAMPLE_STACK_NAME, { ownerAsStackUser: true, shopDns: true, shopAutoresponder: true, shopSite: true });
    app.synth();
    const stackDir = join(outdir, 'stacks', EXAMPLE_STACK_NAME);
    // The emulator starts empty, so any state from an earlier demo run is stale. (The
    // lock file stays: synth records the provider it placed there.)
    for (const f of ['terraform.tfstate', 'terraform.tfstate.backup']) if (existsSync(join(stackDir, f))) rmSync(join(stackDir, f));

    const env = {
      RESELLER_API_URL: emulator.url,
      RESELLER_API_KEY: API_KEY,
      // A fresh random password each run; never printed.
      TF_VAR_mailbox_password: randomBytes(12).toString('base64url'),
      TF_VAR_db_password: randomBytes(12).toString('base64url'),
    };
    step(`terraform init (${terraform}, offline: the provider comes from the stack's terraform.d/plugins)`);
    await mustRun(terraform, ['init', '-input=false', '-no-color'], stackDir, env, false);
    step('terraform apply -auto-approve');
    await mustRun(terraform, ['apply', '-auto-approve', '-input=false', '-no-color'], stackDir, env, true);

    step('what now exists in the account (read back through the API client)');
    const client = new ResellerClient({ baseUrl: emulator.url, apiKey: API_KEY });
    console.log(await accountTable(client));

    step('a customer changes the account in the control panel: sales@ now forwards elsewhere, the blog is disabled, www.example-shop.com points elsewhere, HTTPS is no longer forced');
    await customerChanges(client, emulator.url);

    step('terraform plan -detailed-exitcode: the provider reads the account back, so the plan shows the change');
    const drift = await runTerraform(['plan', '-detailed-exitcode', '-input=false', '-no-color'], { cwd: stackDir, env, stream: true, binary: terraform });
    if (drift.code !== 2) throw new Error(`terraform plan should report the changes (exit code 2), but exited ${drift.code}`);
    console.log('    (exit code 2: changes to apply)');

    step('terraform apply -auto-approve: puts the account back as declared');
    await mustRun(terraform, ['apply', '-auto-approve', '-input=false', '-no-color'], stackDir, env, true);

    step('terraform plan -detailed-exitcode: clean');
    const clean = await runTerraform(['plan', '-detailed-exitcode', '-input=false', '-no-color'], { cwd: stackDir, env, stream: true, binary: terraform });
    if (clean.code !== 0) throw new Error(`terraform plan should be clean after the repair (exit code 0), but exited ${clean.code}`);
    console.log('    (exit code 0: the account is as declared)');
    client.close();
    step(`done. The stack is in ${stackDir}; apply it again and nothing changes.`);
    if (interactive()) {
      console.log(`    control panel: ${emulator.url}/`);
      console.log('    The emulator keeps running so you can look at the account. Press Ctrl+C to stop it.');
      await untilInterrupted();
      console.log('\nstopping the emulator');
    }
    return 0;
  } finally {
    await emulator.stop();
    logo.server.close();
  }
}

/** The reseller's brand logo, served on loopback so the control-panel page can show it offline. */
const SAMPLE_LOGO = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#0f766e"/>
<path d="M14 44 L32 16 L50 44 Z" fill="#ccfbf1"/><circle cx="32" cy="38" r="6" fill="#0f766e"/></svg>`;

function serveSampleLogo(): Promise<{ server: Server; url: string }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'image/svg+xml', 'cache-control': 'max-age=3600' });
    res.end(SAMPLE_LOGO);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({ server, url: `http://127.0.0.1:${port}/brand-logo.svg` });
    });
  });
}

/** Resolves on the first SIGINT (Ctrl+C) or SIGTERM; the listening emulator keeps the process alive until then. */
function untilInterrupted(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/**
 * What a customer might do in the control panel, through the same reseller API: point a
 * forwarder somewhere else (delete it and create it anew, as the API offers no edit)
 * and disable a package. And an edit the API cannot make but the control panel can: a
 * DNS record changed in place (the emulator's control API, POST /__emulator/dns).
 */
async function customerChanges(client: ResellerClient, emulatorUrl: string): Promise<void> {
  const packages = await client.packages.list();
  const idOf = (name: string) => {
    const found = packages.find((p) => p.name === name);
    if (!found) throw new Error(`the demo expected package ${name} in the account`);
    return found.id;
  };
  const shop = idOf('example-shop.com');
  const mail = await client.mail.get(shop, 'example-shop.com');
  const sales = mail.forwarders.find((f) => f.local === 'sales');
  if (!sales) throw new Error('the demo expected sales@example-shop.com in the account');
  await client.mail.delete(shop, 'example-shop.com', [sales.id]);
  await client.mail.createForwarder(shop, 'example-shop.com', { local: 'sales', remote: 'someone-else@example.net' });
  await client.packages.setEnabled(idOf('example-blog.com'), false);
  const zone = await client.dns.getZone(shop, 'example-shop.com');
  const www = zone?.records.find((r) => r.type === 'CNAME' && r.host === 'www.example-shop.com');
  if (!www) throw new Error('the demo expected the CNAME www.example-shop.com in the account');
  const edit = await fetch(`${emulatorUrl}/__emulator/dns`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ package: shop, zone: 'example-shop.com', ref: www.ref, record: { target: 'old-shop.example.net' } }),
  });
  if (!edit.ok) throw new Error(`the emulator refused the DNS edit: ${edit.status} ${await edit.text()}`);
  await client.web.setForceHttps(shop, false);
  console.log('    sales@example-shop.com -> someone-else@example.net; example-blog.com disabled; www.example-shop.com CNAME -> old-shop.example.net;');
  console.log('    example-shop.com no longer redirects HTTP to HTTPS');
}

async function mustRun(bin: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, stream: boolean): Promise<void> {
  const result = await runTerraform(args, { cwd, env, stream, binary: bin });
  if (result.code !== 0) {
    if (!stream) process.stderr.write(result.stdout + result.stderr);
    throw new Error(`terraform ${args[0]} failed with exit code ${result.code}`);
  }
}

function step(text: string): void {
  console.log(`\n==> ${text}`);
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    console.error(`demo failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  },
);
