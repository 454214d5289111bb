import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * How this machine runs a program built for a Linux platform: directly when it is
 * this machine's, or under qemu-aarch64 (Debian's qemu-user, with the arm64 C
 * libraries of libc6-arm64-cross and libstdc++6-arm64-cross in /usr/aarch64-linux-gnu)
 * for arm64 on an amd64 machine. Undefined when neither works.
 */
export interface Runner {
  /** The command and the arguments before the program's path. */
  readonly prefix: readonly string[];
  readonly emulated: boolean;
}

const HOST_PLATFORM: Record<string, string> = { x64: 'linux_amd64', arm64: 'linux_arm64' };
export const hostPlatform = (): string | undefined => (process.platform === 'linux' ? HOST_PLATFORM[process.arch] : undefined);

/** The sysroot qemu-aarch64 loads the arm64 C libraries from (-L). */
export const AARCH64_SYSROOT = '/usr/aarch64-linux-gnu';

export const QEMU_HINT =
  'qemu-aarch64 with the arm64 C libraries is needed to start the linux_arm64 executable on this machine: ' +
  'apt-get install qemu-user libc6-arm64-cross libstdc++6-arm64-cross (Debian/Ubuntu; npm test installs them: scripts/test-prerequisites.sh)';

export function runnerFor(platform: string): Runner | undefined {
  if (platform === hostPlatform()) return { prefix: [], emulated: false };
  if (platform === 'linux_arm64' && hostPlatform() === 'linux_amd64' && qemuAarch64Works()) {
    return { prefix: ['qemu-aarch64', '-L', AARCH64_SYSROOT], emulated: true };
  }
  return undefined;
}

let qemuChecked: boolean | undefined;

function qemuAarch64Works(): boolean {
  if (qemuChecked === undefined) {
    const probe = spawnSync('qemu-aarch64', ['-version'], { encoding: 'utf8' });
    qemuChecked = probe.status === 0 && existsSync(`${AARCH64_SYSROOT}/lib/ld-linux-aarch64.so.1`) && existsSync(`${AARCH64_SYSROOT}/lib/libstdc++.so.6`);
  }
  return qemuChecked;
}

/** [command, args] running `program args` for `platform`, or an error with the hint when this machine cannot. */
export function commandFor(platform: string, program: string, args: readonly string[] = []): [string, string[]] {
  const runner = runnerFor(platform);
  if (!runner) throw new Error(`cannot start a ${platform} program on this ${hostPlatform() ?? `${process.platform}_${process.arch}`} machine: ${QEMU_HINT}`);
  const [command, ...prefix] = [...runner.prefix, program];
  return [command, [...prefix, ...args]];
}
