import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Temporary directories of a benchmark process (stacks, journals, synth output), all
 * under one directory that is removed when the process exits, however a figure ended:
 * a run of every figure makes hundreds, and none must outlive it.
 */
let root: string | undefined;

export function scratchDir(prefix: string): string {
  if (!root) {
    root = mkdtempSync(join(tmpdir(), 'reseller-bench-'));
    process.once('exit', removeScratch);
  }
  return mkdtempSync(join(root, prefix));
}

/**
 * Removes every scratch directory now (a test runner's worker may be stopped with a
 * signal, which skips the exit handler: its tests call this when done).
 */
export function removeScratch(): void {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
}
