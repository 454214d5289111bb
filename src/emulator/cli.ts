import { DEFAULT_API_KEY, DEFAULT_PROVISION_DELAY_MS, startEmulator } from './index';
import { EMULATOR_PROFILES, EmulatorProfile, isEmulatorProfile } from './profile';

/**
 * `reseller-hosting emulator [flags]`: runs the emulator until SIGINT or SIGTERM.
 * Prints exactly one line on stdout, `listening on http://HOST:PORT`, once it accepts
 * requests (scripts wait for it); request lines and errors go to stderr.
 * Exit codes: 0 after a clean stop, 64 for bad flags, 1 when it cannot start.
 */

const USAGE = `usage: reseller-hosting emulator [options]

Runs a local emulator of the reseller API (see docs/emulator.md).

options:
  --host HOST             interface to listen on (default 127.0.0.1)
  --port N                port, 0 for any free one (default 8080)
  --data FILE             keep the state in FILE (default: in memory only)
  --api-key KEY           key of the default account (default: $RESELLER_API_KEY, else ${DEFAULT_API_KEY})
  --provision-delay MS    cloud server provisioning time in ms (default ${DEFAULT_PROVISION_DELAY_MS})
  --profile NAME          default, or documented: leave out every response field and
                          behaviour that no public source shows (default: default)
  --quiet                 do not log requests on stderr
  --help                  show this help
`;

export interface EmulatorCliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  env: Record<string, string | undefined>;
  /** Stops the emulator like SIGTERM does (for in-process use and tests). */
  signal?: AbortSignal;
}

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 64;

interface Flags {
  host: string;
  port: number;
  data?: string;
  apiKey?: string;
  provisionDelayMs: number;
  profile: EmulatorProfile;
  quiet: boolean;
  help: boolean;
}

class UsageError extends Error {}

function parseFlags(argv: readonly string[]): Flags {
  const flags: Flags = { host: '127.0.0.1', port: 8080, provisionDelayMs: DEFAULT_PROVISION_DELAY_MS, profile: 'default', quiet: false, help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const value = (): string => {
      const v = eq > 0 ? arg.slice(eq + 1) : argv[++i];
      if (v === undefined || (eq < 0 && v.startsWith('--'))) throw new UsageError(`${name} needs a value`);
      return v;
    };
    const integer = (text: string, min: number, max: number): number => {
      if (!/^[0-9]+$/.test(text) || Number(text) < min || Number(text) > max) {
        throw new UsageError(`${name} must be an integer from ${min} to ${max} (got "${text}")`);
      }
      return Number(text);
    };
    switch (name) {
      case '--help':
      case '-h':
        flags.help = true;
        break;
      case '--quiet':
        flags.quiet = true;
        break;
      case '--host':
        flags.host = value();
        if (flags.host === '') throw new UsageError('--host must not be empty');
        break;
      case '--port':
        flags.port = integer(value(), 0, 65535);
        break;
      case '--data':
        flags.data = value();
        if (flags.data === '') throw new UsageError('--data must not be empty');
        break;
      case '--api-key':
        flags.apiKey = value();
        if (flags.apiKey === '') throw new UsageError('--api-key must not be empty');
        break;
      case '--provision-delay':
        flags.provisionDelayMs = integer(value(), 0, 86_400_000);
        break;
      case '--profile': {
        const profile = value();
        if (!isEmulatorProfile(profile)) throw new UsageError(`--profile must be one of ${EMULATOR_PROFILES.join(', ')} (got "${profile}")`);
        flags.profile = profile;
        break;
      }
      default:
        throw new UsageError(`unknown option "${arg}"`);
    }
  }
  return flags;
}

export async function runEmulatorCli(argv: string[], io: Partial<EmulatorCliIo> = {}): Promise<number> {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  const env = io.env ?? process.env;

  let flags: Flags;
  try {
    flags = parseFlags(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    stderr.write(`reseller-hosting emulator: ${err.message}\n\n${USAGE}`);
    return EXIT_USAGE;
  }
  if (flags.help) {
    stdout.write(USAGE);
    return EXIT_OK;
  }

  let emulator: Awaited<ReturnType<typeof startEmulator>>;
  try {
    emulator = await startEmulator({
      host: flags.host,
      port: flags.port,
      dataFile: flags.data,
      apiKey: flags.apiKey ?? (env.RESELLER_API_KEY || DEFAULT_API_KEY),
      provisionDelayMs: flags.provisionDelayMs,
      profile: flags.profile,
      quiet: flags.quiet,
      log: (line) => stderr.write(`${line}\n`),
    });
  } catch (err) {
    stderr.write(`reseller-hosting emulator: ${err instanceof Error ? err.message : String(err)}\n`);
    return EXIT_FAILURE;
  }

  // Handlers first, then the line: whoever waits for the line may signal at once.
  const stopped = new Promise<void>((resolve) => {
    const done = () => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      io.signal?.removeEventListener('abort', done);
      resolve();
    };
    process.on('SIGINT', done);
    process.on('SIGTERM', done);
    if (io.signal?.aborted) done();
    else io.signal?.addEventListener('abort', done);
  });
  const shownHost = flags.host.includes(':') ? `[${flags.host}]` : flags.host;
  stdout.write(`listening on http://${shownHost}:${emulator.port}\n`);
  await stopped;
  // Every write is already on disk (saves are synchronous); stopping releases the lock.
  await emulator.stop();
  return EXIT_OK;
}

// `node dist/src/emulator/cli.js [flags]` works too, without the reseller-hosting wrapper.
if (require.main === module) {
  runEmulatorCli(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`reseller-hosting emulator: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = EXIT_FAILURE;
    },
  );
}
