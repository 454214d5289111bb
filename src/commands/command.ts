import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';
import { EXIT } from '../protocol';
import { packageVersion } from '../provider-mirror';

/**
 * The one surface every `reseller-hosting` command shares (DESIGN §1): parsing with
 * `util.parseArgs`, `--help` and `--version`, former option spellings accepted for one
 * release with a warning, the same exit codes (0 success, 1 failure, 2 differences found
 * where a command documents it, 64 usage error) and one JSON `version` field.
 */
export { EXIT };

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

/** The version every command's `--version` prints (the package's; the provider's is the same). */
export function version(): string {
  return packageVersion();
}

/** A `--json` document: its layout version first, under the one name every report uses. */
export function jsonDocument(layoutVersion: number, body: object): string {
  return `${JSON.stringify({ version: layoutVersion, ...body }, null, 2)}\n`;
}

type Options = NonNullable<ParseArgsConfig['options']>;
type Parsed<O extends Options> = ReturnType<typeof parseArgs<{ args: string[]; options: O; strict: true; allowPositionals: true }>>;

export interface CommandDefinition<O extends Options> {
  /** The words after `reseller-hosting` (`drift`, `provider install`): the prefix of every message. */
  readonly name: string;
  /** What `--help` prints (stdout, exit 0) and a usage error repeats (stderr, exit 64). */
  readonly usage: string;
  /** The command's own options; `--help` (`-h`) and `--version` are added. */
  readonly options: O;
  /**
   * Former spellings, accepted for one release: `{ out: 'stacks' }` takes `--out X` as
   * `--stacks X` and warns on stderr with the new spelling. Each needs an entry in
   * `options` of the same type.
   */
  readonly renamed?: Readonly<Record<string, string>>;
  /** How many positional arguments it takes (default: none). */
  readonly positionals?: { readonly min: number; readonly max: number; readonly what: string };
  run(args: { values: Parsed<O>['values']; positionals: string[] }, io: CommandIo): Promise<number> | number;
}

/** A command, runnable with an argument vector (and, for tests, its own io). */
export type Command = (argv: string[], io?: CommandIo) => Promise<number>;

/** Builds a command over the shared surface. */
export function defineCommand<O extends Options>(definition: CommandDefinition<O>): Command {
  return (argv, io = processIo()) => runCommand(definition.name, definition.usage, io, async () => {
    const parsed = usageErrors(() => parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: { ...definition.options, help: { type: 'boolean', short: 'h' }, version: { type: 'boolean' } },
    }));
    const values = parsed.values as Record<string, unknown>;
    const positionals = parsed.positionals;
    if (values.help) {
      io.stdout(definition.usage);
      return EXIT.ok;
    }
    if (values.version) {
      io.stdout(`${version()}\n`);
      return EXIT.ok;
    }
    const given = values;
    for (const [former, current] of Object.entries(definition.renamed ?? {})) {
      if (given[former] === undefined) continue;
      if (given[current] !== undefined) throw new UsageError(`--${former} is the former spelling of --${current}: give one of them`);
      io.stderr(`reseller-hosting ${definition.name}: --${former} is deprecated and will be removed in the next release: use --${current}\n`);
      given[current] = given[former];
      delete given[former];
    }
    const { min, max, what } = definition.positionals ?? { min: 0, max: 0, what: '' };
    if (positionals.length > max) throw new UsageError(`unexpected argument "${positionals[max]}"`);
    if (positionals.length < min) throw new UsageError(`${what} is required`);
    return definition.run({ values: values as Parsed<O>['values'], positionals }, io);
  });
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

/** An integer option in [min, max], or undefined when not given. */
export function integerOption(name: string, text: string | undefined, min: number, max: number): number | undefined {
  if (text === undefined) return undefined;
  if (!/^[0-9]+$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new UsageError(`--${name} must be an integer from ${min} to ${max} (got "${text}")`);
  }
  return Number(text);
}

/** The text of one option line in a usage: the name padded, the explanation wrapped under itself. */
export function optionLine(name: string, text: string, width = 92): string {
  const indent = 23;
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && indent + line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return `  ${name.padEnd(20)} ${[...lines, line].join(`\n${' '.repeat(indent)}`)}`;
}
