import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { PROVIDER_SOURCE, providerExecutableName, terraformPlatform as platformOf } from '../protocol/provider-address';
import { builtBundle, installProvider, stackPluginsDir, userPluginsDir } from '../provider-mirror';

/**
 * `reseller-hosting provider install` and the build's code cache. The layout of the
 * implied local mirror and the copying live in src/provider-mirror, shared with the
 * constructs' synth (engine 'provider'), which places the same directory in each
 * stack directory.
 */
export { PROVIDER_HOST, PROVIDER_NAMESPACE, PROVIDER_SOURCE, PROVIDER_TYPE } from '../protocol/provider-address';
export { builtBundle, installProvider, LOADER_TEXT, mirrorPackageDir, packageVersion } from '../provider-mirror';

/** Terraform's platform name: linux_amd64, darwin_arm64, ... */
export function terraformPlatform(platform: string = process.platform, arch: string = process.arch): string {
  return platformOf(platform, arch);
}

export const executableName = providerExecutableName;

/** Writes `<bundle>.cache` (run by the build, on the Node version that will run it). */
export async function writeCodeCache(bundleFile: string = builtBundle().bundle): Promise<void> {
  const { createHash } = require('node:crypto') as typeof import('node:crypto');
  const { Script } = require('node:vm') as typeof import('node:vm');
  const { createRequire } = require('node:module') as typeof import('node:module');
  const source = readFileSync(bundleFile, 'utf8');
  const script = new Script(`(function (exports, require, module, __filename, __dirname) { ${source}\n})`, { filename: bundleFile });
  const mod = { exports: {} as { warm?: () => Promise<void> } };
  script.runInThisContext().call(mod.exports, mod.exports, createRequire(bundleFile), mod, bundleFile, dirname(bundleFile));
  await mod.exports.warm?.(); // compile what start-up runs, so the cache holds it
  const tmp = `${bundleFile}.cache.${process.pid}.tmp`;
  writeFileSync(tmp, Buffer.concat([createHash('sha256').update(source).digest(), script.createCachedData()]));
  renameSync(tmp, `${bundleFile}.cache`);
}

const INSTALL_USAGE = `usage: reseller-hosting provider install [--stack DIR | --plugins-dir DIR]

Places the Terraform provider where 'terraform init' finds it offline with no CLI
configuration: ~/.terraform.d/plugins (default), or DIR/terraform.d/plugins of one
stack directory (--stack). Then declare it in your configuration:

  terraform {
    required_providers {
      reseller = { source = "${PROVIDER_SOURCE}" }
    }
  }
`;

export function runInstall(argv: string[]): number {
  let pluginsDir = userPluginsDir();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') {
      process.stdout.write(INSTALL_USAGE);
      return 0;
    }
    const value = argv[i + 1];
    if ((arg === '--stack' || arg === '--plugins-dir') && value) {
      pluginsDir = arg === '--stack' ? stackPluginsDir(resolve(value)) : resolve(value);
      i++;
    } else {
      process.stderr.write(`reseller-hosting provider install: unexpected argument "${arg}"\n\n${INSTALL_USAGE}`);
      return 2;
    }
  }
  const executable = installProvider(pluginsDir);
  process.stdout.write(`installed ${executable}\n\nDeclare it with:\n  reseller = { source = "${PROVIDER_SOURCE}" }\n`);
  return 0;
}
