// Jest globalSetup / globalTeardown (plain JavaScript: it runs in jest's own process).
//
// The whole test run has HOME in a temporary directory, removed at the end: synth with
// the provider engine places the provider in the per-user implied mirror
// ~/.terraform.d/plugins, and Terraform reads it from there, so no test may see or
// change the real user's directory (other runs share this machine's HOME). It is set
// here, in the real environment of jest's process, and not in a test file's sandbox:
// workers inherit it, and so does every child process, also one spawned without `env`.
const { mkdtempSync, rmSync } = require('node:fs');
const { homedir, tmpdir } = require('node:os');
const { join } = require('node:path');

//
// The run's temporary files go to a directory of its own too (TMPDIR, which os.tmpdir(),
// Terraform and the provider's socket directories follow), removed at the end with
// everything a test, or a process a test killed, left in it.
module.exports = async function isolateHome() {
  const home = mkdtempSync(join(tmpdir(), 'test-home-'));
  const temp = mkdtempSync(join(tmpdir(), 'test-tmp-'));
  // npm's cache stays the machine's: the tests that install a user project do it offline from there.
  if (!process.env.npm_config_cache) process.env.npm_config_cache = join(homedir(), '.npm');
  process.env.RESELLER_TEST_HOME = home;
  process.env.HOME = home;
  process.env.RESELLER_TEST_TMPDIR = temp;
  process.env.TMPDIR = temp;
};

module.exports.teardown = async function removeHome() {
  for (const dir of [process.env.RESELLER_TEST_HOME, process.env.RESELLER_TEST_TMPDIR]) {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
};
