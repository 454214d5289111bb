import { DEFAULT_API_KEY, DEFAULT_PROVISION_DELAY_MS, EMULATOR_PROFILES, startEmulator } from '../../emulator';
import { isEmulatorProfile } from '../../emulator/profile';
import { CommandError, CommandIo, defineCommand, EXIT, integerOption, processIo, UsageError } from '../command';

/**
 * `reseller-hosting emulator [flags]`: runs the emulator until SIGINT or SIGTERM.
 * Prints exactly one line on stdout, `listening on http://HOST:PORT`, once it accepts
 * requests (scripts wait for it); request lines and errors go to stderr.
 * Exit codes: 0 after a clean stop, 64 for bad flags, 1 when it cannot start.
 */

export const EMULATOR_USAGE = `usage: reseller-hosting emulator [options]

Runs a local emulator of the reseller API (see docs/emulator.md). Point the commands,
the provider and the handler at it with RESELLER_API_URL=http://HOST:PORT (the line it
prints) and RESELLER_API_KEY (the --api-key).

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
  --version               print the version
`;

/** The emulator command's io: a command's, plus a signal that stops it like SIGTERM does (in-process use, tests). */
export interface EmulatorCommandIo extends CommandIo {
  readonly signal?: AbortSignal;
}

/** `reseller-hosting emulator`. */
export function runEmulatorCli(argv: string[], io: EmulatorCommandIo = processIo()): Promise<number> {
  return emulatorCommand(argv, io);
}

const emulatorCommand = defineCommand({
  name: 'emulator',
  usage: EMULATOR_USAGE,
  options: {
    host: { type: 'string' },
    port: { type: 'string' },
    data: { type: 'string' },
    'api-key': { type: 'string' },
    'provision-delay': { type: 'string' },
    profile: { type: 'string' },
    quiet: { type: 'boolean' },
  },
  async run({ values }, io: EmulatorCommandIo) {
    for (const name of ['host', 'data', 'api-key'] as const) {
      if (values[name] === '') throw new UsageError(`--${name} must not be empty`);
    }
    const profile = values.profile ?? 'default';
    if (!isEmulatorProfile(profile)) throw new UsageError(`--profile must be one of ${EMULATOR_PROFILES.join(', ')} (got "${profile}")`);
    const host = values.host ?? '127.0.0.1';
    const port = integerOption('port', values.port, 0, 65535) ?? 8080;
    const provisionDelayMs = integerOption('provision-delay', values['provision-delay'], 0, 86_400_000) ?? DEFAULT_PROVISION_DELAY_MS;
    let emulator: Awaited<ReturnType<typeof startEmulator>>;
    try {
      emulator = await startEmulator({
        host,
        port,
        dataFile: values.data,
        apiKey: values['api-key'] ?? (io.env.RESELLER_API_KEY || DEFAULT_API_KEY),
        provisionDelayMs,
        profile,
        quiet: values.quiet === true,
        log: (line) => io.stderr(`${line}\n`),
      });
    } catch (err) {
      throw new CommandError(err instanceof Error ? err.message : String(err));
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
    const shownHost = host.includes(':') ? `[${host}]` : host;
    io.stdout(`listening on http://${shownHost}:${emulator.port}\n`);
    await stopped;
    // Every write is already on disk (saves are synchronous); stopping releases the lock.
    await emulator.stop();
    return EXIT.ok;
  },
});
