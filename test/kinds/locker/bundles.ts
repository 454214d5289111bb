import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';

/**
 * The provider and the handler as the build makes them, with the test-only kind
 * registered: esbuild bundles each from an entry of this folder that imports
 * register.ts first. Built once per test process, in its temporary directory.
 */
let built: { providerBundle: string; handlerScript: string } | undefined;

export function testKindBundles(): { providerBundle: string; handlerScript: string } {
  if (built) return built;
  const { buildSync } = require('esbuild') as typeof import('esbuild');
  const dir = join(tmpdir(), `test-kind-bundles-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const providerBundle = join(dir, 'provider-bundle.js');
  const handlerScript = join(dir, 'handler.js');
  const common = { bundle: true, platform: 'node' as const, target: 'node20', logLevel: 'error' as const, legalComments: 'none' as const };
  buildSync({ ...common, entryPoints: [join(__dirname, 'provider-entry.ts')], outfile: providerBundle });
  buildSync({ ...common, entryPoints: [join(__dirname, 'handler-entry.ts')], outfile: handlerScript });
  writeFileSync(join(dir, 'README'), 'test-only bundles of test/kinds/locker\n');
  built = { providerBundle, handlerScript };
  return built;
}
