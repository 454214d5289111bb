/**
 * The one module that loads the CDK library. Every other construct file imports its
 * classes from here, so that the library works with whichever implementation the
 * user's app is built on: cdktf, or its community successor CDK Terrain (`cdktn`),
 * which keeps the same API. The constructs must extend the very classes the app's
 * `App` and `TerraformStack` come from, so the choice is made once, when the library
 * is first loaded; which one is chosen is decided by `chooseCdk` (rule below).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type * as Cdk from 'cdktf';
import type { IConstruct } from 'constructs';

import { CDK_ENV, CDK_PACKAGES, CdkPackage, cdksListedIn } from '../../protocol/cdk-packages';

export { CDK_ENV, CDK_PACKAGES };
export type { CdkPackage };

/** What `chooseCdk` looks at (gathered by `probeCdk`; plain data so the rule can be tested). */
export interface CdkProbe {
  /** The value of RESELLER_HOSTING_CDK, if set. */
  readonly override?: string;
  /** Packages whose main module is already loaded in this process (the app imported it first). */
  readonly loaded: readonly CdkPackage[];
  /** Packages the app's package.json lists (dependencies, devDependencies, peerDependencies). */
  readonly declared: readonly CdkPackage[];
  /** Packages that resolve from the app's main module or from this library. */
  readonly resolvable: readonly CdkPackage[];
}

/**
 * The rule, first match wins:
 *  1. RESELLER_HOSTING_CDK (`cdktf` or `cdktn`);
 *  2. the one of the two already loaded, if only one is (an app that imports its
 *     `App`/`TerraformStack` before this library);
 *  3. the one the app's package.json lists, if it lists only one;
 *  4. the one installed, if only one resolves;
 *  5. both installed and nothing else tells: cdktf (what this library was built on first).
 * Neither installed: an error saying what to install.
 */
export function chooseCdk(probe: CdkProbe): CdkPackage {
  if (probe.override !== undefined && probe.override !== '') {
    if (!(CDK_PACKAGES as readonly string[]).includes(probe.override)) {
      throw new Error(`${CDK_ENV} must be "cdktf" or "cdktn", not ${JSON.stringify(probe.override)}`);
    }
    if (!probe.resolvable.includes(probe.override as CdkPackage)) {
      throw new Error(`${CDK_ENV}=${probe.override}, but the package ${probe.override} is not installed: npm install ${probe.override}`);
    }
    return probe.override as CdkPackage;
  }
  for (const signal of [probe.loaded, probe.declared, probe.resolvable]) {
    const candidates = signal.filter((p) => probe.resolvable.includes(p));
    if (candidates.length === 1) return candidates[0];
  }
  if (probe.resolvable.includes('cdktf')) return 'cdktf';
  throw new Error(
    'cdktf-reseller-hosting needs CDK Terrain or CDK for Terraform in the app: npm install cdktn constructs (or: npm install cdktf constructs)',
  );
}

/** The nearest package.json at or above `dir`. */
function nearestPackageJson(dir: string): string | undefined {
  for (let d = dir; ; d = dirname(d)) {
    const file = join(d, 'package.json');
    if (existsSync(file)) return file;
    if (dirname(d) === d) return undefined;
  }
}

function declaredBy(packageJson: string | undefined): CdkPackage[] {
  if (!packageJson) return [];
  try {
    return cdksListedIn(JSON.parse(readFileSync(packageJson, 'utf8')));
  } catch {
    return []; // unreadable: no signal
  }
}

/**
 * The app's directory: that of its main file (CommonJS), else the working directory.
 * A main file inside node_modules is a runner (`npx ts-node main.ts`, as the CLIs'
 * templates run apps), not the app: then the working directory too.
 */
function appDir(): string {
  const main = require.main?.filename;
  return main && !/[\\/]node_modules[\\/]/.test(main) ? dirname(main) : process.cwd();
}

/** Where each package resolves from: the app first, then this library (absolute file names). */
function resolveAll(fromDirs: readonly string[]): Map<CdkPackage, string> {
  const found = new Map<CdkPackage, string>();
  for (const name of CDK_PACKAGES) {
    try {
      found.set(name, require.resolve(name, { paths: [...fromDirs] }));
    } catch {
      // not installed
    }
  }
  return found;
}

/** Gathers the signals of `chooseCdk` from this process. */
export function probeCdk(env: Record<string, string | undefined> = process.env): { probe: CdkProbe; files: Map<CdkPackage, string> } {
  const app = appDir();
  const files = resolveAll([app, __dirname]);
  // Node's own module cache (the app's `require`/`import` of a CommonJS package lands here).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const cache = (require('node:module') as { _cache?: Record<string, unknown> })._cache ?? {};
  const loaded = [...files].filter(([, file]) => file in cache).map(([name]) => name);
  const probe: CdkProbe = {
    override: env[CDK_ENV],
    loaded,
    declared: declaredBy(nearestPackageJson(app) ?? nearestPackageJson(process.cwd())),
    resolvable: [...files.keys()],
  };
  return { probe, files };
}

function loadCdk(): { name: CdkPackage; cdk: typeof Cdk } {
  const { probe, files } = probeCdk();
  const name = chooseCdk(probe);
  // By file name: the same module instance as the app's own `require('cdktn')`.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return { name, cdk: require(files.get(name)!) as typeof Cdk };
}

const loaded = loadCdk();

/** The package the constructs were built on in this process: `cdktf` or `cdktn`. */
export const CDK_PACKAGE: CdkPackage = loaded.name;

export const {
  Annotations, App, DefaultTokenResolver, Lazy, StringConcat, TerraformDataSource, TerraformElement,
  TerraformProvider, TerraformResource, Token, Tokenization,
  anyToHclTerraform, anyToTerraform, hashMapper, hashMapperHcl, stringToHclTerraform, stringToTerraform,
} = loaded.cdk;

/**
 * cdktf's and cdktn's stacks recognize each other's (same marker symbols), so a stack
 * of the other package would be accepted here and fail later, at synth, with an error
 * from deep inside the CDK. Every construct finds its stack with `TerraformStack.of`:
 * that is where a wrong choice is reported, with what to do.
 */
function stackOf(construct: IConstruct): Cdk.TerraformStack {
  const stack = loaded.cdk.TerraformStack.of(construct);
  if (!((stack as unknown) instanceof loaded.cdk.TerraformStack)) {
    const other = CDK_PACKAGES.find((p) => p !== loaded.name)!;
    throw new Error(
      `${construct.node.path}: the stack ${stack.node.path} is not a ${loaded.name} TerraformStack (it comes from another copy of ` +
        `the CDK, likely ${other}), but cdktf-reseller-hosting loaded ${loaded.name}. Set ${CDK_ENV}=${other}, or list only ` +
        `${other} in your package.json, or import ${other} before cdktf-reseller-hosting.`,
    );
  }
  return stack;
}

/** The CDK's TerraformStack, whose `of` also checks that the stack comes from the same CDK package as these constructs. */
export const TerraformStack: typeof Cdk.TerraformStack = new Proxy(loaded.cdk.TerraformStack, {
  get: (target, prop, receiver) => (prop === 'of' ? stackOf : Reflect.get(target, prop, receiver)),
});
export type Annotations = Cdk.Annotations;
export type App = Cdk.App;
export type DefaultTokenResolver = Cdk.DefaultTokenResolver;
export type LocalExecProvisioner = Cdk.LocalExecProvisioner;
export type StringConcat = Cdk.StringConcat;
export type TerraformDataSource = Cdk.TerraformDataSource;
export type TerraformElement = Cdk.TerraformElement;
export type TerraformProvider = Cdk.TerraformProvider;
export type TerraformResource = Cdk.TerraformResource;
export type TerraformStack = Cdk.TerraformStack;
export type Token = Cdk.Token;
export type Tokenization = Cdk.Tokenization;
export type IResolvable = Cdk.IResolvable;
export type IResolveContext = Cdk.IResolveContext;
export type ITerraformDependable = Cdk.ITerraformDependable;
export type TerraformMetaArguments = Cdk.TerraformMetaArguments;
export type TerraformResourceConfig = Cdk.TerraformResourceConfig;
