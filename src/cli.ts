import { HANDLER_VERBS } from './protocol/handler-contract';
import { EXIT, version } from './commands/command';

/**
 * The `reseller-hosting` command. Each command lives in src/commands/<command>/ over
 * the shared surface of src/commands/command.ts; its module is loaded only when it is
 * used, so that no command pays for another's dependencies.
 */
const USAGE = `usage: reseller-hosting <command> [options]

commands:
  provider [install [--stack DIR | --plugins-dir DIR]]
                                              the Terraform provider; install places it where
                                              'terraform init' finds it offline
  handler  ${HANDLER_VERBS.padEnd(36)}reconcile one object (run by the carriers'
                                              provisioners)
  emulator [--host H] [--port N] [--data FILE] [--api-key KEY] [--provision-delay MS]
                                              run the local emulator of the reseller API
  drift    [--stacks DIR] [--stack NAME] [--json] [--detailed-exitcode] [--fix]
           [--fail-on-unmanaged] [--allow-charges] [--concurrency N]
                                              compare synthesized stacks with the live account
  import   [--out FILE.ts] [--class-name NAME] [--engine NAME] [--kinds KIND,...]
                                              write a cdktf stack declaring the live account
  import   --blocks | --moved [--stacks DIR] [--stack NAME]
                                              write import blocks, or the moved blocks that
                                              migrate a carrier stack to the provider
  review   PLAN.json [--markdown | --json] [--fail-on CATEGORIES]
                                              summarise a terraform plan for a pull request
  doctor   [--json] [--stacks DIR]            check the setup and the client's assumptions
                                              against the live account (read-only)
  sweep    --prefix PREFIX [--yes] [--json]   list (and with --yes delete) the objects whose
                                              names start with PREFIX (test leftovers)

Every command takes --help and --version. Exit codes: 0 success, 1 failure,
2 differences found (drift --detailed-exitcode, review --fail-on), 64 usage error.
Run 'reseller-hosting <command> --help' for the options of one command;
'reseller-hosting --version' prints the version (the provider executable's --version prints the same).
`;

type Runner = (argv: string[]) => Promise<number>;

/* eslint-disable @typescript-eslint/no-require-imports */
const COMMANDS: Record<string, () => Runner> = {
  handler: () => require('./commands/handler').runHandlerCommand,
  emulator: () => require('./commands/emulator').runEmulatorCli,
  drift: () => require('./commands/drift').runDriftCli,
  import: () => require('./commands/import').runImportCli,
  review: () => require('./commands/review').runReviewCli,
  doctor: () => require('./commands/doctor').runDoctorCli,
  sweep: () => require('./commands/sweep').runSweepCli,
  provider: () => require('./commands/provider').runProviderCommand,
};

/** The commands `runCli` dispatches (the usage lists each). */
export const COMMAND_NAMES: readonly string[] = Object.keys(COMMANDS);

export async function runCli(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(USAGE);
    return command ? EXIT.ok : EXIT.usage;
  }
  if (command === '--version' || command === 'version') {
    process.stdout.write(`${version()}\n`);
    return EXIT.ok;
  }
  const load = COMMANDS[command];
  if (!load) {
    process.stderr.write(`reseller-hosting: unknown command "${command}"\n\n${USAGE}`);
    return EXIT.usage;
  }
  return load()(rest);
}

export function main(argv: string[]): void {
  runCli(argv).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`reseller-hosting: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = EXIT.failure;
    },
  );
}
