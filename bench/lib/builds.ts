import { copyFileSync, existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { LOADER_TEXT } from '../../src/provider/install';
import { builtProvider } from './provider-config';
import { scratchDir } from './scratch';

/**
 * Provider builds side by side, for the tools that compare them (plan-cpu.ts,
 * call-cpu.ts): `NAME=BUNDLE[@NODE_FLAG,...]` on their command line, each installed as
 * the provider's own directory is (bundle, code cache, loader).
 */

export interface BuildArg {
  readonly name: string;
  /** A provider bundle (`bundle.js`, its `bundle.js.cache` beside it), e.g. a copy of an earlier dist/src/provider. */
  readonly bundle: string;
  /** Node options to run it with (e.g. V8 flags to try). */
  readonly flags: string[];
}

/** `NAME=BUNDLE[@FLAG,...]`, or undefined for an argument of another form. */
export function parseBuildArg(arg: string): BuildArg | undefined {
  const eq = arg.indexOf('=');
  if (eq < 0) return undefined;
  const [bundle, flags] = arg.slice(eq + 1).split('@');
  return { name: arg.slice(0, eq), bundle: resolve(bundle), flags: flags ? flags.split(',') : [] };
}

/** The current build, when no build is named. */
export const currentBuild = (): BuildArg => ({ name: 'current', bundle: builtProvider().bundle, flags: [] });

/** Installs a build in a scratch directory; returns its loader, the file Node runs. */
export function installBuild(build: BuildArg): string {
  const dir = scratchDir(`build-${build.name}-`);
  copyFileSync(build.bundle, join(dir, 'provider-bundle.js'));
  if (existsSync(`${build.bundle}.cache`)) copyFileSync(`${build.bundle}.cache`, join(dir, 'provider-bundle.js.cache'));
  writeFileSync(join(dir, 'provider-loader.js'), LOADER_TEXT);
  return join(dir, 'provider-loader.js');
}
