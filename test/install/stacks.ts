import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, LocalBackend, TerraformStack } from 'cdktf';
import { Engine, Forwarder, HostingPackage, ResellerHosting } from '../../src';

/**
 * A small cdktf app as a user writes it: one stack per engine, each a package with a
 * forwarder, synthesized with or without `providerPlatforms`. State stays in the
 * stack directory (a relative path), as a remote run would keep it in its backend.
 */
export interface StackSpec {
  readonly name: string;
  readonly engine: Engine;
  readonly domain: string;
  readonly providerPlatforms?: readonly string[];
}

export function synthStacks(outdir: string, specs: readonly StackSpec[]): Record<string, string> {
  const app = new App({ outdir });
  for (const spec of specs) {
    const stack = new TerraformStack(app, spec.name);
    new LocalBackend(stack, { path: 'terraform.tfstate' });
    new ResellerHosting(stack, 'reseller', { engine: spec.engine, providerPlatforms: spec.providerPlatforms });
    const site = new HostingPackage(stack, 'site', { domainName: spec.domain, packageType: 'Linux Unlimited' });
    new Forwarder(stack, 'sales', { package: site, localPart: 'sales', remote: 'team@example.org' });
  }
  app.synth();
  return Object.fromEntries(specs.map((s) => [s.name, join(outdir, 'stacks', s.name)]));
}

/** The synthesized configuration of a stack directory, as text. */
export const configText = (stackDir: string): string => readFileSync(join(stackDir, 'cdk.tf.json'), 'utf8');
