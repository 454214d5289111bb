import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { platformInstallCommand, platformPackageName } from '../../src/provider-mirror';
import { REPO_ROOT } from '../lib/terraform';

/**
 * One npm package per platform, holding that platform's release zip, so that the
 * library's own package stays small and a user adds only the executables they
 * synthesize for (`providerPlatforms`). The platform is where Terraform runs, not the
 * machine that installs the package: no `os`/`cpu` fields, no scripts, no
 * dependencies. Synth finds the package (src/provider-mirror/platform-packages.ts).
 * Published with `npm publish <dir>`, at the library's version.
 */

/** Writes `<outDir>/<package name>/` for one platform's zip; returns the directory. */
export function writePlatformPackage(outDir: string, platform: string, version: string, zip: string): string {
  const library = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
  const name = platformPackageName(platform);
  const dir = join(outDir, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const zipName = basename(zip);
  copyFileSync(zip, join(dir, zipName));
  const pkg = {
    name,
    version,
    description: `The ${platform} executable of cdktf-reseller-hosting's Terraform provider (its release zip), which synth places for ResellerHosting providerPlatforms: ['${platform}'].`,
    license: library.license,
    repository: library.repository,
    homepage: library.homepage,
    keywords: ['cdktf-reseller-hosting', 'terraform-provider', platform],
    files: [zipName],
  };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  writeFileSync(join(dir, 'README.md'), readme(platform, version, zipName));
  const license = join(REPO_ROOT, 'LICENSE');
  if (existsSync(license)) copyFileSync(license, join(dir, 'LICENSE'));
  return dir;
}

function readme(platform: string, version: string, zipName: string): string {
  return `# ${platformPackageName(platform)}

The self-contained ${platform} executable of the Terraform provider of
[cdktf-reseller-hosting](https://www.npmjs.com/package/cdktf-reseller-hosting), as its
release zip (\`${zipName}\`). It holds no code to run in Node and installs on any
machine: ${platform} is where Terraform runs the provider, not where you synthesize.

When a stack is synthesized with \`new ResellerHosting(stack, 'reseller', { providerPlatforms: ['${platform}'] })\`,
the library's synth finds this package in your project and places the zip in the
stack directory, with its hashes in \`.terraform.lock.hcl\`; \`terraform init\` there
installs it offline, and Terraform then needs no Node.

Install it beside the library, at the library's version (synth refuses another):

    ${platformInstallCommand(platform, version)}

Add one such package per platform you synthesize for. The library's docs/install.md
describes the other sources of the zips (\`RESELLER_PROVIDER_EXECUTABLES\`, a release
directory; \`npm run build:executables\` in a checkout).
`;
}
