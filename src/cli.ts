import { EXIT } from './protocol/handler-contract';

/**
 * The `reseller-hosting` command. Each sub-command's module is loaded only when it
 * is used, so that no command pays for another's dependencies.
 */
const USAGE = `usage: reseller-hosting <command> [options]

commands:
  provider install [--stack DIR | --plugins-dir DIR]
                                              place the Terraform provider where 'terraform init'
                                              finds it offline
  handler ensure|update|delete|set-password   reconcile one object (run by Terraform provisioners)
  emulator [--host H] [--port N] [--data FILE] [--api-key KEY] [--provision-delay MS]
                                              run the local emulator of the reseller API
  drift    [--out DIR] [--stack NAME] [--json] [--detailed-exitcode] [--fix]
           [--ignore-unmanaged] [--concurrency N]
                                              compare synthesized stacks with the live account
  import   [--out FILE.ts] [--class-name NAME] [--engine NAME] [--kinds KIND,...]
                                              write a cdktf stack declaring the live account
  import   --blocks | --moved [--stacks PATH] [--stack NAME]
                                              write import blocks, or the moved blocks that
                                              migrate a carrier stack to the provider
  review   PLAN.json [--markdown | --json] [--fail-on CATEGORIES]
                                              summarise a terraform plan for a pull request
  doctor   [--json] [--stacks DIR]            check the setup and the client's assumptions
                                              against the live account (read-only)
  sweep    --prefix PREFIX [--yes] [--json]   list (and with --yes delete) the objects whose
                                              names start with PREFIX (test leftovers)

Run 'reseller-hosting <command> --help' for the options of one command;
'reseller-hosting --version' prints the version (the provider executable's --version prints the same).
`;

type Runner = (argv: string[]) => Promise<number>;

const COMMANDS: Record<string, () => Runner> = {
  handler: () => (argv) => require('./handler/main').run(argv),
  emulator: () => require('./emulator/cli').runEmulatorCli,
  drift: () => require('./drift/cli').runDriftCli,
  import: () => require('./drift/import-cli').runImportCli,
  review: () => require('./drift/review-cli').runReviewCli,
  doctor: () => require('./drift/doctor-cli').runDoctorCli,
  sweep: () => require('./drift/sweep-cli').runSweepCli,
  provider: () => require('./provider/main').runProviderCli,
};

/** The commands `runCli` dispatches (the usage lists each). */
export const COMMAND_NAMES: readonly string[] = Object.keys(COMMANDS);

export async function runCli(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(USAGE);
    return command ? EXIT.ok : EXIT.usage;
  }
  if (command === '--version') {
    // The provider's version is the package's: the executables and the launcher say the same.
    process.stdout.write(`${(require('./provider-mirror') as typeof import('./provider-mirror')).packageVersion()}\n`);
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
