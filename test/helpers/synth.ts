import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'cdktf';
import { EXAMPLE_STACK_NAME, ExampleOptions, ExampleResellerStack } from '../../examples/stack';

/**
 * Synthesizes the example stack into `outdir` (a fresh temp dir by default); returns its
 * directory and JSON. The engine is the carriers' (`terraform_data`) unless
 * `options.engine` says otherwise: most callers test the handler's path through
 * Terraform; test/e2e/lifecycle.test.ts passes each engine of test/e2e/engine-cases.ts.
 */
export function synthExample(options: ExampleOptions = {}, outdir = mkdtempSync(join(tmpdir(), 'reseller-synth-'))) {
  const app = new App({ outdir });
  new ExampleResellerStack(app, EXAMPLE_STACK_NAME, { engine: 'terraform_data', ...options });
  app.synth();
  const stackDir = join(outdir, 'stacks', EXAMPLE_STACK_NAME);
  const json = JSON.parse(readFileSync(join(stackDir, 'cdk.tf.json'), 'utf8'));
  return { outdir, stackDir, json };
}
