import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../scripts/lib/terraform';
import { EXAMPLE_STACK_NAME } from '../../examples/stack';

/**
 * A user's project as `npm install` makes it: the library from `npm pack` (exactly what
 * would be published), plus one CDK package (`cdktn` or `cdktf`) and `constructs`, at
 * the versions this repository's lockfile pins, so that npm finds them in its cache
 * (`--prefer-offline`: the registry is asked only for what the cache lacks). The
 * example stack is the repository's examples/stack.ts and examples/main.ts with their
 * imports pointed at the installed packages: the code a user writes.
 */

export interface UserProject {
  readonly dir: string;
  /** Runs a command in the project; throws with its output unless it exits 0. */
  run(command: string, args: string[], env?: NodeJS.ProcessEnv): string;
  /** Compiles the example (tsc, strict) and runs it: `cdktf.out/stacks/<stack>/cdk.tf.json`, parsed. */
  synthExample(env?: NodeJS.ProcessEnv): { stackDir: string; json: any };
}

function run(cwd: string, command: string, args: string[], env: NodeJS.ProcessEnv = process.env): string {
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited ${result.status} in ${cwd}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`);
  }
  return result.stdout;
}

/** The version of a package installed in this repository (from its lockfile, via node_modules). */
export function repoVersion(name: string): string {
  return JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;
}

/** `npm pack` of this repository (dist/ must be built: `npm test` builds it) into `dir`; the tarball's path. */
export function packLibrary(dir: string): string {
  const out = run(REPO_ROOT, 'npm', ['pack', '--json', '--pack-destination', dir]);
  const [{ filename }] = JSON.parse(out) as Array<{ filename: string }>;
  return join(dir, filename);
}

/** Environment of npm and of the user's app: none of this repository's npm settings or CDK choice. */
export function userEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!/^npm_(config|package|lifecycle)_/i.test(k) && k !== 'RESELLER_HOSTING_CDK' && k !== 'INIT_CWD') env[k] = v;
  }
  // The user's npm cache is this machine's: keep it (offline installs come from there).
  if (process.env.npm_config_cache) env.npm_config_cache = process.env.npm_config_cache;
  return { ...env, ...extra };
}

/**
 * Creates the project in `dir` and installs it. `devDependencies` adds packages (by
 * exact version); their install scripts run only when `scripts` is set.
 */
export function createUserProject(
  dir: string, tarball: string, cdk: 'cdktn' | 'cdktf', options: { devDependencies?: Record<string, string>; scripts?: boolean } = {},
): UserProject {
  mkdirSync(dir, { recursive: true });
  const pkg = {
    name: `user-app-${cdk}`,
    private: true,
    dependencies: {
      [cdk]: repoVersion(cdk),
      constructs: repoVersion('constructs'),
      'cdktf-reseller-hosting': `file:${tarball}`,
    },
    devDependencies: options.devDependencies ?? {},
  };
  writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg, null, 2));
  // The compiler options of cdktn's (and cdktf's) TypeScript project template, as
  // `cdktn init` writes them (minus source maps and incremental builds).
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: {
      alwaysStrict: true, experimentalDecorators: true, lib: ['es2018'], module: 'CommonJS', noEmitOnError: true,
      noFallthroughCasesInSwitch: true, noImplicitAny: true, noImplicitReturns: true, noImplicitThis: true,
      noUnusedLocals: true, noUnusedParameters: true, resolveJsonModule: true, strict: true, strictNullChecks: true,
      strictPropertyInitialization: true, stripInternal: true, target: 'ES2018', skipLibCheck: true, types: [],
    },
    include: ['*.ts'],
  }));
  const rewrite = (text: string) => text.replace(/from 'cdktf'/g, `from '${cdk}'`).replace(/from '\.\.\/src'/g, "from 'cdktf-reseller-hosting'");
  for (const file of ['stack.ts', 'main.ts']) {
    writeFileSync(join(dir, file), rewrite(readFileSync(join(REPO_ROOT, 'examples', file), 'utf8')));
  }
  run(dir, 'npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', ...(options.scripts ? [] : ['--ignore-scripts'])], userEnv());
  const tsc = join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  return {
    dir,
    run: (command, args, env = userEnv()) => run(dir, command, args, env),
    synthExample(env = userEnv()) {
      run(dir, process.execPath, [tsc, '-p', '.'], env);
      run(dir, process.execPath, ['main.js'], env);
      const stackDir = join(dir, 'cdktf.out', 'stacks', EXAMPLE_STACK_NAME);
      return { stackDir, json: JSON.parse(readFileSync(join(stackDir, 'cdk.tf.json'), 'utf8')) };
    },
  };
}
