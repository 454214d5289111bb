import { spawnSync } from 'node:child_process';
import { cpus, loadavg, totalmem } from 'node:os';
import { findTerraform, terraformEnv } from '../../scripts/lib/terraform';

export interface MachineInfo {
  cpu: string;
  cores: number;
  memoryGiB: number;
  node: string;
  terraform: string;
  os: string;
}

export function machineInfo(): MachineInfo {
  let terraform = 'not found';
  try {
    const bin = findTerraform();
    const out = spawnSync(bin, ['version'], { encoding: 'utf8', env: terraformEnv() }).stdout;
    terraform = out.split('\n')[0].trim();
  } catch {
    /* reported as not found */
  }
  return {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    terraform,
    os: `${process.platform} ${process.arch}`,
  };
}

/** 1-minute load average divided by the number of cores (1.0 = every core busy). */
export function loadPerCore(): number {
  return loadavg()[0] / Math.max(1, cpus().length);
}
