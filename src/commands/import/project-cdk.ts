import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CDK_ENV, CDK_PACKAGES, CdkPackage, cdksListedIn } from '../../protocol';

/**
 * The CDK the code `import` writes should import from: the one named by
 * RESELLER_HOSTING_CDK (as for the constructs), else the only one the project's nearest
 * package.json lists (dependencies of any kind), else cdktf. A generated stack that
 * imports `cdktf` does not compile in a project built on CDK Terrain alone.
 */
export function projectCdk(cwd: string, env: NodeJS.ProcessEnv): CdkPackage {
  const override = env[CDK_ENV];
  if (override) {
    if (!(CDK_PACKAGES as readonly string[]).includes(override)) throw new Error(`${CDK_ENV} must be "cdktf" or "cdktn", not ${JSON.stringify(override)}`);
    return override as CdkPackage;
  }
  const declared = declaredIn(nearestPackageJson(cwd));
  return declared.length === 1 ? declared[0] : 'cdktf';
}

function nearestPackageJson(dir: string): string | undefined {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, 'package.json'))) return join(d, 'package.json');
    if (dirname(d) === d) return undefined;
  }
}

function declaredIn(packageJson: string | undefined): CdkPackage[] {
  if (!packageJson) return [];
  try {
    return cdksListedIn(JSON.parse(readFileSync(packageJson, 'utf8')));
  } catch {
    return []; // unreadable: no signal
  }
}
