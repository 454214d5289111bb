// Jest globalSetup (plain JavaScript: it runs in jest's own process): the run's
// isolated HOME and TMPDIR (isolated-home.js), then the provider executables, built
// once per run (scripts/executables/build.ts; cached across runs in node_modules/.cache,
// so only a changed program rebuilds them). They go to a directory of their own, not to
// dist/executables, so the packed library the cdktn tests install stays launcher-only;
// RESELLER_PROVIDER_EXECUTABLES points synth and test/install at them. A failed build
// does not stop the other suites: test/install fails with its message.
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const isolateHome = require('./isolated-home');

const ROOT = join(__dirname, '..', '..');

module.exports = async function globalSetup() {
  await isolateHome();
  const builder = join(ROOT, 'dist', 'scripts', 'executables', 'build.js');
  if (!existsSync(builder)) {
    process.env.RESELLER_EXECUTABLES_BUILD_ERROR = `${builder} is missing: run 'npm run build' first`;
    return;
  }
  const outDir = join(ROOT, 'node_modules', '.cache', 'cdktf-reseller-hosting', 'test-executables');
  const started = Date.now();
  try {
    require(builder).buildExecutables({ outDir, log: (line) => process.stderr.write(`\n[executables] ${line}`) });
    process.env.RESELLER_PROVIDER_EXECUTABLES = outDir;
    if (Date.now() - started > 5000) process.stderr.write(`\n[executables] built in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  } catch (err) {
    process.env.RESELLER_EXECUTABLES_BUILD_ERROR = err instanceof Error ? err.message : String(err);
    process.stderr.write(`\n[executables] the build failed; test/install will fail: ${process.env.RESELLER_EXECUTABLES_BUILD_ERROR}\n`);
  }
};
