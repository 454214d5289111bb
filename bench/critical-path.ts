import { rmSync } from 'node:fs';
import { findTerraform } from '../scripts/lib/terraform';
import { PathStep, timeline } from './lib/api-timing';
import type { BenchEmulator } from './lib/emulator';
import { providerSites, writeProviderStack } from './lib/provider-config';
import { scratchDir } from './lib/scratch';
import { APPLY, providerEnv, tf } from './provider';

/** One object chain's apply: its wall time and the requests on its path. */
export interface CriticalPath {
  wallMs: number;
  steps: PathStep[];
  /** The emulator's time summed over those requests. */
  apiMs: number;
}

/**
 * The critical path of one object: `terraform apply` of a package with its mailbox and
 * forwarder (the mail objects wait for the package) from an empty state, each write
 * confirmed by a read. Everything on the path that is not the emulator's own time is
 * Terraform's and the provider's (process starts, plan, RPCs) or a wait between polls.
 */
export async function criticalPath(emu: BenchEmulator): Promise<CriticalPath> {
  const binary = findTerraform();
  const env = providerEnv(emu);
  const dir = writeProviderStack(scratchDir('critical-'), providerSites(3, 'path'));
  try {
    await tf(binary, dir, ['init', '-input=false', '-no-color'], env);
    await emu.reset();
    await emu.clearRequests();
    const startedAt = Date.now();
    const wallMs = await tf(binary, dir, APPLY, env);
    const steps = timeline(await emu.requests(), startedAt);
    return { wallMs, steps, apiMs: steps.reduce((sum, s) => sum + s.ms, 0) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
