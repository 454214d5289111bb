import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { clientFor, connectionFromEnv } from '../../client';
import type { Kind } from '../../protocol';
import { CDK_PACKAGES, CdkPackage, DEFINITIONS, isKind, KINDS } from '../../protocol';
import { CommandError, CommandIo, defineCommand, EXIT, optionLine as option, UsageError } from '../command';
import { DEFAULT_IMPORT_KINDS, importKinds, readImportAccount } from './account';
import { IMPORT_BLOCKS_FILE, writeImportBlocks } from './blocks';
import { listWords } from './code';
import { referenceKinds, unmatchedReferences } from './emitters';
import { DEFAULT_CLASS_NAME, generateStack, summaryOf } from './generate';
import { MOVED_BLOCKS_FILE, writeMovedBlocks } from './moved-blocks';
import { projectCdk } from './project-cdk';

export { DEFAULT_CLASS_NAME, generateStack, summaryOf } from './generate';
export type { ImportOptions, ImportResult } from './generate';
export { DEFAULT_IMPORT_KINDS, importKinds, readImportAccount } from './account';
export type { ImportAccount } from './account';
export type { ImportCounts } from './emitters';
export { IMPORT_BLOCKS_FILE, writeImportBlocks } from './blocks';
export { MOVED_BLOCKS_FILE, writeMovedBlocks } from './moved-blocks';

/** The flags that selected one kind each before `--kinds` (a kind's import facet names its own): accepted for one release, with a warning. */
const FORMER_FLAGS = DEFINITIONS.flatMap((d) => (d.import.formerFlag ? [{ flag: d.import.formerFlag, kind: d.kind }] : []));

const referable = listWords(referenceKinds().map((d) => d.label));

export const IMPORT_USAGE = `usage: reseller-hosting import [--out FILE.ts] [--class-name NAME] [--kinds KIND,...] [--reference NAME]...
       reseller-hosting import --blocks [--stacks PATH] [--stack NAME]
       reseller-hosting import --moved [--from terraform_data|null_resource] [--stacks PATH] [--stack NAME]

Reads the live reseller account and writes a cdktf stack (TypeScript) that declares every
object of the chosen kinds in it. Deploying the stack adopts them as they are and changes
nothing.

options:
${option('--out FILE.ts', 'write the stack to FILE.ts (default: standard output)')}
${option('--class-name NAME', `name of the TerraformStack subclass (default ${DEFAULT_CLASS_NAME})`)}
${option('--kinds KIND,...', `the kinds to declare, each with the kinds its objects live on: ${KINDS.join(', ')} (default: ${DEFAULT_IMPORT_KINDS.join(',')}). Repeatable`)}
${option('--engine NAME', 'declare the stack\'s engine (ResellerHosting engine): provider, terraform_data or null_resource (default: none, the library\'s default)')}
${option('--reference NAME', `do not manage this ${referable} (found by any of its names): write a reference that the provider engine reads through a data source (a missing one fails the plan); what is named within it is not declared. Repeatable`)}
${option('--cdk NAME', 'the CDK the code imports from: cdktf or cdktn (default: RESELLER_HOSTING_CDK, else the only one the project\'s package.json lists, else cdktf)')}
${option('--blocks', `instead: for synthesized provider-engine stacks (engine: 'provider'), write Terraform import blocks (${IMPORT_BLOCKS_FILE} next to each cdk.tf.json) that adopt every declared object the account has`)}
${option('--moved', `instead: for a carrier stack switched to engine 'provider' and synthesized again, write the moved and removed blocks that migrate its state (${MOVED_BLOCKS_FILE} next to each cdk.tf.json); no API call`)}
${option('--from TYPE', 'with --moved: the carrier engine the stack was deployed with (default terraform_data)')}
${option('--stacks PATH', 'with --blocks/--moved: the synthesized output (default cdktf.out), as for drift')}
${option('--stack NAME', 'with --blocks/--moved: only this stack')}
${option('--version', 'print the version')}

environment: RESELLER_API_KEY (required), RESELLER_API_URL, RESELLER_ID.
`;

const CLASS_NAME = /^[A-Z_$][A-Za-z0-9_$]*$/;

/** The options that only writing a stack takes (not --blocks, not --moved). */
const STACK_OPTIONS = ['out', 'class-name', 'kinds', ...FORMER_FLAGS.map((f) => f.flag), 'reference', 'engine', 'cdk'] as const;

/** The kinds `--kinds` names (comma-separated, repeatable). */
function parseKinds(values: readonly string[]): Kind[] {
  const names = values.flatMap((v) => v.split(',')).map((n) => n.trim()).filter((n) => n !== '');
  if (names.length === 0) throw new UsageError(`--kinds names no kind (choose from ${KINDS.join(', ')})`);
  const unknown = names.filter((n) => !isKind(n));
  if (unknown.length) throw new UsageError(`--kinds ${unknown.map((n) => `"${n}"`).join(', ')}: not a kind (choose from ${KINDS.join(', ')})`);
  return names.filter(isKind);
}

/**
 * The kinds to declare: `--kinds`, else the default ones; a former per-kind flag adds its
 * kind and warns on stderr with the `--kinds` spelling that says the same.
 */
function chosenKinds(values: Readonly<Record<string, unknown>>, io: CommandIo): Kind[] | undefined {
  const wanted = values.kinds === undefined ? undefined : parseKinds(values.kinds as string[]);
  const former = FORMER_FLAGS.filter((f) => values[f.flag] === true);
  if (former.length === 0) return wanted;
  const kinds = importKinds([...(wanted ?? DEFAULT_IMPORT_KINDS), ...former.map((f) => f.kind)]);
  const flags = former.map((f) => `--${f.flag}`);
  io.stderr(`reseller-hosting import: ${listWords(flags, 'and')} ${flags.length > 1 ? 'are' : 'is'} deprecated and will be removed in the next release: use --kinds ${kinds.join(',')}\n`);
  return kinds;
}

/** `reseller-hosting import`. */
export const runImportCli = defineCommand({
  name: 'import',
  usage: IMPORT_USAGE,
  options: {
    out: { type: 'string' },
    'class-name': { type: 'string' },
    kinds: { type: 'string', multiple: true },
    ...Object.fromEntries(FORMER_FLAGS.map((f) => [f.flag, { type: 'boolean' as const }])),
    reference: { type: 'string', multiple: true },
    engine: { type: 'string' },
    cdk: { type: 'string' },
    blocks: { type: 'boolean' },
    moved: { type: 'boolean' },
    from: { type: 'string' },
    stacks: { type: 'string' },
    stack: { type: 'string' },
  },
  async run({ values }, io) {
    const given = values as Readonly<Record<string, unknown>>;
    if (values.moved) {
      for (const name of [...STACK_OPTIONS, 'blocks']) if (given[name] !== undefined) throw new UsageError(`--${name} does not go with --moved`);
      const from = values.from ?? 'terraform_data';
      if (from !== 'terraform_data' && from !== 'null_resource') throw new UsageError(`--from "${from}" must be terraform_data or null_resource`);
      for (const r of writeMovedBlocks({ stacks: values.stacks, stack: values.stack, cwd: io.cwd, from })) {
        io.stdout(`wrote ${r.file}: ${r.moved.length} moved and ${r.removed.length} removed block(s) for stack ${r.stack}\n`);
      }
      return EXIT.ok;
    }
    if (values.from !== undefined) throw new UsageError('--from goes with --moved');
    if (values.blocks) {
      for (const name of STACK_OPTIONS) if (given[name] !== undefined) throw new UsageError(`--${name} does not go with --blocks`);
      const results = await writeImportBlocks({ stacks: values.stacks, stack: values.stack, env: io.env, cwd: io.cwd });
      for (const r of results) {
        io.stdout(`wrote ${r.file}: ${r.blocks.length} import block(s) for stack ${r.stack}\n`);
        if (r.missing.length) io.stdout(`  not in the account (terraform apply creates them): ${r.missing.join(', ')}\n`);
      }
      return EXIT.ok;
    }
    if (values.stacks !== undefined || values.stack !== undefined) throw new UsageError('--stacks and --stack go with --blocks or --moved');
    const className = values['class-name'] ?? DEFAULT_CLASS_NAME;
    const engine = values.engine;
    if (engine !== undefined && engine !== 'provider' && engine !== 'terraform_data' && engine !== 'null_resource') {
      throw new UsageError(`--engine "${engine}" must be provider, terraform_data or null_resource`);
    }
    if (values.cdk !== undefined && !(CDK_PACKAGES as readonly string[]).includes(values.cdk)) throw new UsageError(`--cdk "${values.cdk}" must be cdktf or cdktn`);
    let cdk: CdkPackage;
    try {
      cdk = (values.cdk as CdkPackage | undefined) ?? projectCdk(io.cwd, io.env);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    if (!CLASS_NAME.test(className)) throw new UsageError(`--class-name "${className}" is not a TypeScript class name (a capital letter, then letters, digits or _)`);
    if (values.out !== undefined && !/\.tsx?$/.test(values.out)) throw new UsageError(`--out "${values.out}" must name a .ts file`);
    const kinds = chosenKinds(given, io);

    // A missing or wrong setting (ConnectionError) says what to do: one line, exit 1.
    const connection = connectionFromEnv(io.env);
    const client = clientFor(connection);
    try {
      const account = await readImportAccount(client, { kinds });
      const unknown = unmatchedReferences(account, values.reference ?? []);
      if (unknown.length) {
        const labels = listWords(referenceKinds(account.kinds).map((d) => d.label));
        throw new CommandError(`--reference ${unknown.join(', ')}: no ${labels || 'object that can be referenced'} of the account has this name`);
      }
      const { source, counts } = generateStack(account, {
        className,
        source: `${connection.baseUrl} (reseller ${connection.resellerId})`,
        reference: values.reference,
        engine,
        cdk,
      });
      const summary = summaryOf(account.kinds, counts);
      if (values.out === undefined) {
        io.stdout(source);
        io.stderr(`imported ${summary}\n`);
      } else {
        const file = resolve(io.cwd, values.out);
        mkdirSync(dirname(file), { recursive: true });
        const tmp = `${file}.${process.pid}.tmp`;
        writeFileSync(tmp, source);
        renameSync(tmp, file);
        io.stdout(`wrote ${values.out}: class ${className} with ${summary}\n`);
      }
      return EXIT.ok;
    } finally {
      client.close();
    }
  },
});
