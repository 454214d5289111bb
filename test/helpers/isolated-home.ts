import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Every test file runs with HOME in a temporary directory of its own (removed after the
 * file): synth with the provider engine places the provider in the per-user implied
 * mirror ~/.terraform.d/plugins, and Terraform reads it from there, so a test must never
 * see or change the real user's directory (other runs share this machine's HOME).
 */
const home = mkdtempSync(join(tmpdir(), 'test-home-'));
process.env.HOME = home;

afterAll(() => rmSync(home, { recursive: true, force: true }));
