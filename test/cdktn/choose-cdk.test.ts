import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../scripts/lib/terraform';
import { CdkProbe, chooseCdk } from '../../src/constructs/private/cdk';
import { tempDir } from '../e2e/support';
import { requireBuiltHandler } from '../helpers/emulator';
import { repoVersion } from './user-project';

/**
 * Which CDK package (cdktf or cdktn) the constructs build on: the rule of
 * src/constructs/private/cdk.ts as a table, then as users meet it, in apps (node
 * processes) of a project where both packages are installed.
 */

describe('the rule', () => {
  const both = ['cdktn', 'cdktf'] as const;
  const probe = (p: Partial<CdkProbe>): CdkProbe => ({ loaded: [], declared: [], resolvable: both, ...p });

  test.each([
    ['only cdktn installed', probe({ resolvable: ['cdktn'] }), 'cdktn'],
    ['only cdktf installed', probe({ resolvable: ['cdktf'] }), 'cdktf'],
    ['both installed, the app loaded cdktn first', probe({ loaded: ['cdktn'], declared: ['cdktf'] }), 'cdktn'],
    ['both installed and loaded: the package.json decides', probe({ loaded: both, declared: ['cdktn'] }), 'cdktn'],
    ['both installed, the package.json lists cdktn only', probe({ declared: ['cdktn'] }), 'cdktn'],
    ['both installed, the package.json lists cdktf only', probe({ declared: ['cdktf'] }), 'cdktf'],
    ['both installed, nothing tells', probe({ declared: both }), 'cdktf'],
    ['the override beats every other signal', probe({ override: 'cdktn', loaded: ['cdktf'], declared: ['cdktf'] }), 'cdktn'],
    ['a declared package that is not installed does not count', probe({ declared: ['cdktn'], resolvable: ['cdktf'] }), 'cdktf'],
  ])('%s', (_name, p, expected) => {
    expect(chooseCdk(p)).toBe(expected);
  });

  test('neither installed, a wrong override, an override not installed: errors that say what to do', () => {
    expect(() => chooseCdk(probe({ resolvable: [] }))).toThrow(/needs CDK Terrain or CDK for Terraform in the app: npm install cdktn constructs \(or: npm install cdktf constructs\)/);
    expect(() => chooseCdk(probe({ override: 'cdk8s' }))).toThrow('RESELLER_HOSTING_CDK must be "cdktf" or "cdktn", not "cdk8s"');
    expect(() => chooseCdk(probe({ override: 'cdktn', resolvable: ['cdktf'] }))).toThrow('RESELLER_HOSTING_CDK=cdktn, but the package cdktn is not installed: npm install cdktn');
  });
});

describe('in an app, with both packages installed', () => {
  let dir: string;

  /** A project whose node_modules has cdktf, cdktn, constructs and this library (built). */
  beforeAll(() => {
    requireBuiltHandler();
    dir = tempDir('choose-cdk');
    mkdirSync(join(dir, 'node_modules'));
    for (const name of ['cdktf', 'cdktn', 'constructs']) symlinkSync(join(REPO_ROOT, 'node_modules', name), join(dir, 'node_modules', name), 'dir');
    symlinkSync(REPO_ROOT, join(dir, 'node_modules', 'cdktf-reseller-hosting'), 'dir');
    mkdirSync(join(dir, 'node_modules', 'runner'));
    writeFileSync(join(dir, 'node_modules', 'runner', 'package.json'), JSON.stringify({ name: 'runner', main: 'index.js' }));
    writeFileSync(join(dir, 'node_modules', 'runner', 'index.js'), "require(require('node:path').resolve(process.argv[2]));");
  });

  /**
   * Runs an app that builds a stack with one HostingPackage on `appCdk`'s App and
   * TerraformStack, importing the library `first` or after the CDK; returns the
   * synthesized stamp (the CDK version), or the error.
   */
  function runApp(options: {
    appCdk: 'cdktf' | 'cdktn'; libraryFirst: boolean; declared: string[]; override?: string; viaRunner?: boolean;
  }): { version?: string; error?: string } {
    const deps = Object.fromEntries(options.declared.map((n) => [n, '*']));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'app', private: true, dependencies: deps }));
    const lib = "const lib = require('cdktf-reseller-hosting');";
    const cdk = `const { App, TerraformStack } = require('${options.appCdk}');`;
    writeFileSync(join(dir, 'app.js'), [
      ...(options.libraryFirst ? [lib, cdk] : [cdk, lib]),
      "const app = new App({ outdir: 'out' });",
      "new lib.HostingPackage(new TerraformStack(app, 's'), 'site', { domainName: 'example.com', packageType: 'Linux Unlimited' });",
      'app.synth();',
    ].join('\n'));
    const env = { ...process.env };
    delete env.RESELLER_HOSTING_CDK;
    if (options.override) env.RESELLER_HOSTING_CDK = options.override;
    // A runner in node_modules (as `npx ts-node main.ts` is) is the process's main module, not the app.
    const args = options.viaRunner ? [join(dir, 'node_modules', 'runner', 'index.js'), 'app.js'] : ['app.js'];
    const run = spawnSync(process.execPath, args, { cwd: dir, env, encoding: 'utf8' });
    if (run.status !== 0) return { error: run.stderr };
    const json = JSON.parse(readFileSync(join(dir, 'out', 'stacks', 's', 'cdk.tf.json'), 'utf8'));
    expect(Object.keys(json.resource.reseller_package)).toEqual(['site']); // the default engine, provider
    return { version: json['//'].metadata.version };
  }

  const cdktn = () => ({ version: repoVersion('cdktn') });
  const cdktf = () => ({ version: repoVersion('cdktf') });

  test('the app imports cdktn before the library: cdktn', () => {
    expect(runApp({ appCdk: 'cdktn', libraryFirst: false, declared: ['cdktf', 'cdktn'] })).toEqual(cdktn());
  });

  test('the app imports the library first and its package.json lists cdktn only: cdktn', () => {
    expect(runApp({ appCdk: 'cdktn', libraryFirst: true, declared: ['cdktn'] })).toEqual(cdktn());
  });

  test('run by a runner from node_modules (npx ts-node main.ts), the package.json lists cdktn only: cdktn', () => {
    expect(runApp({ appCdk: 'cdktn', libraryFirst: true, declared: ['cdktn'], viaRunner: true })).toEqual(cdktn());
  });

  test('nothing tells, the override names cdktn: cdktn', () => {
    expect(runApp({ appCdk: 'cdktn', libraryFirst: true, declared: ['cdktf', 'cdktn'], override: 'cdktn' })).toEqual(cdktn());
  });

  test('nothing tells, a cdktf app: cdktf', () => {
    expect(runApp({ appCdk: 'cdktf', libraryFirst: true, declared: ['cdktf', 'cdktn'] })).toEqual(cdktf());
  });

  test('nothing tells, a cdktn app: the construct fails at once, naming itself, the cause and the fixes', () => {
    const { error } = runApp({ appCdk: 'cdktn', libraryFirst: true, declared: ['cdktf', 'cdktn'] });
    expect(error).toContain(
      'Error: s/site: the stack s is not a cdktf TerraformStack (it comes from another copy of the CDK, likely cdktn), but ' +
        'cdktf-reseller-hosting loaded cdktf. Set RESELLER_HOSTING_CDK=cdktn, or list only cdktn in your package.json, or import cdktn before cdktf-reseller-hosting.',
    );
  });
});
