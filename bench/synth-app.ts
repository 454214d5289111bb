import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from './lib/scratch';

/**
 * A cdktf app for the synth figure, run as its own process the way `cdktf synth`
 * runs an app: `node dist/bench/synth-app.js constructs|bare N [OUTDIR]`.
 * - constructs: N reseller constructs (packages with a mailbox each, a forwarder on some);
 * - bare: N `terraform_data` resources with one trigger each and nothing else.
 * Prints one JSON line: the in-process times of loading, declaring and synthesizing.
 */
function main(): void {
  const t0 = performance.now();
  const [mode, count, outArg] = process.argv.slice(2);
  const n = Number(count);
  if ((mode !== 'constructs' && mode !== 'bare') || !Number.isInteger(n) || n < 1) {
    process.stderr.write('usage: synth-app constructs|bare N [OUTDIR]\n');
    process.exitCode = 64;
    return;
  }
  const outdir = outArg ?? scratchDir('synth-');
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { App, LocalBackend, TerraformStack } = require('cdktf') as typeof import('cdktf');
  let declare: (stack: import('cdktf').TerraformStack) => void;
  if (mode === 'constructs') {
    const { declareAccount, shapeFor } = require('./lib/stacks') as typeof import('./lib/stacks');
    declare = (stack) => declareAccount(stack, shapeFor(n));
  } else {
    const { TerraformData } = require('../src/constructs/private/terraform-data') as typeof import('../src/constructs/private/terraform-data');
    declare = (stack) => {
      for (let i = 0; i < n; i++) new TerraformData(stack, `r${i}`, { triggersReplace: { n: String(i) } });
    };
  }
  const t1 = performance.now();
  const app = new App({ outdir });
  const stack = new TerraformStack(app, 'bench');
  new LocalBackend(stack, { path: 'terraform.tfstate' });
  declare(stack);
  const t2 = performance.now();
  app.synth();
  const t3 = performance.now();
  const json = JSON.parse(readFileSync(join(outdir, 'stacks', 'bench', 'cdk.tf.json'), 'utf8')) as { resource?: Record<string, object> };
  // (counted here, not with lib/stacks' resourceCount: the bare side must not load the constructs)
  const resources = Object.values(json.resource ?? {}).reduce((n, byName) => n + Object.keys(byName).length, 0);
  process.stdout.write(`${JSON.stringify({ loadMs: t1 - t0, declareMs: t2 - t1, synthMs: t3 - t2, resources })}\n`);
}

main();
