import { EXIT } from '../protocol';

/**
 * Where a command reads its environment and writes its output. The CLI uses the
 * process's; tests pass their own to run a command in-process.
 */
export interface CommandIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
}

export function processIo(): CommandIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
  };
}

/** A command-line mistake: the command prints it with its usage and exits 64. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** An operational failure with a message that already says what to do: printed as is, exit 1. */
export class CommandError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CommandError';
  }
}

/** Runs a command-line parser (`util.parseArgs`), turning its errors into UsageErrors. */
export function usageErrors<T>(parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    throw new UsageError((err as Error).message.replace(/^TypeError \[[A-Z_]+\]: /, ''));
  }
}

/**
 * Runs a command body with the shared error handling: usage errors print the usage and
 * exit 64; every other error prints one line and exits 1.
 */
export async function runCommand(name: string, usage: string, io: CommandIo, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr(`reseller-hosting ${name}: ${err.message}\n\n${usage}`);
      return EXIT.usage;
    }
    const message = err instanceof Error ? err.message : String(err);
    io.stderr(`reseller-hosting ${name}: error: ${message}\n`);
    return EXIT.failure;
  }
}

/** Runs `work` over `items` with at most `limit` in flight; results in input order. */
export async function mapConcurrent<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}

/** Orders strings by UTF-16 code units: the same on every machine (unlike localeCompare). */
export function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
