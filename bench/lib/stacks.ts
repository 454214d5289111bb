import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from './scratch';
import { App, LocalBackend, TerraformStack, TerraformVariable } from 'cdktf';
import { Forwarder, HostingPackage, Mailbox, ResellerHosting } from '../../src';

/**
 * The stacks the benchmarks synthesize: a reseller account as it grows. Every package
 * looks like a real customer site (a type by name, a label, an owner found by e-mail),
 * and every mail object hangs off a package.
 */
export const BENCH_STACK = 'bench';
export const PASSWORD_VARIABLE = 'mailbox_password';
export const BENCH_PASSWORD = 'Bench-Passw0rd!';

export interface AccountShape {
  packages: number;
  mailboxesPerPackage: number;
  /** Forwarders in all, spread over the packages (package i gets one per round). */
  forwarders: number;
}

/** How many constructs (packages, mailboxes, forwarders) the account declares. */
export const constructCount = (shape: AccountShape) => shape.packages * (1 + shape.mailboxesPerPackage) + shape.forwarders;
/** Forwarders of package i. */
export const forwardersOf = (shape: AccountShape, i: number) =>
  Math.floor(shape.forwarders / shape.packages) + (i < shape.forwarders % shape.packages ? 1 : 0);

export const packageDomain = (i: number) => `site-${i}.bench.example`;

/**
 * A mix of `n` constructs: 40% packages, each with a mailbox, and a forwarder on half
 * of them (1,000 -> 400 packages, 400 mailboxes, 200 forwarders).
 */
export function shapeFor(n: number): AccountShape {
  const packages = Math.max(1, Math.round(n * 0.4));
  const forwarders = Math.max(0, n - 2 * packages);
  return { packages, mailboxesPerPackage: 1, forwarders };
}

/** Declares the account in `stack` (the body of a cdktf app). */
export function declareAccount(stack: TerraformStack, shape: AccountShape): void {
  new ResellerHosting(stack, 'reseller', { engine: 'terraform_data' });
  const password = new TerraformVariable(stack, PASSWORD_VARIABLE, { type: 'string', sensitive: true });
  for (let i = 0; i < shape.packages; i++) {
    const site = new HostingPackage(stack, `site${i}`, {
      domainName: packageDomain(i),
      packageType: 'Linux Unlimited',
      label: `Customer ${i}`,
      stackUser: { email: 'owner@example.com' },
    });
    for (let m = 0; m < shape.mailboxesPerPackage; m++) {
      new Mailbox(stack, `site${i}_mb${m}`, { package: site, localPart: `box${m}`, password: password.value });
    }
    for (let f = 0; f < forwardersOf(shape, i); f++) {
      new Forwarder(stack, `site${i}_fw${f}`, { package: site, localPart: `fwd${f}`, remote: `team${f}@example.org` });
    }
  }
}

/** Synthesizes the account into `outdir` (a fresh temp dir by default). */
export function synthAccount(shape: AccountShape, outdir = scratchDir('synth-')) {
  const app = new App({ outdir });
  const stack = new TerraformStack(app, BENCH_STACK);
  new LocalBackend(stack, { path: 'terraform.tfstate' });
  declareAccount(stack, shape);
  app.synth();
  const stackDir = join(outdir, 'stacks', BENCH_STACK);
  return { outdir, stackDir, json: JSON.parse(readFileSync(join(stackDir, 'cdk.tf.json'), 'utf8')) as TerraformJson };
}

/** How many resources a synthesized stack declares. */
export const resourceCount = (json: TerraformJson) => Object.values(json.resource ?? {}).reduce((n, byName) => n + Object.keys(byName).length, 0);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type TerraformJson = { resource?: Record<string, Record<string, any>>; [key: string]: unknown };
