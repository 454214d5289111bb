import { parseArgs } from 'node:util';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { clientFor, connectionFromEnv } from '../client';
import { canonicalDomain, CDK_PACKAGES, CdkPackage, EXIT } from '../protocol';
import { DEFAULT_CLASS_NAME, generateStack, ImportAccount, readImportAccount } from './import';
import { IMPORT_BLOCKS_FILE, writeImportBlocks } from './import-blocks';
import { MOVED_BLOCKS_FILE, writeMovedBlocks } from './moved-blocks';
import { projectCdk } from './project-cdk';
import { CommandError, CommandIo, usageErrors, processIo, runCommand, UsageError } from './io';

export const IMPORT_USAGE = `usage: reseller-hosting import [--out FILE.ts] [--class-name NAME]
       reseller-hosting import --blocks [--stacks PATH] [--stack NAME]
       reseller-hosting import --moved [--from terraform_data|null_resource] [--stacks PATH] [--stack NAME]

Reads the live reseller account and writes a cdktf stack (TypeScript) that declares every
package, mailbox, forwarder and cloud server in it (and with --users, every control-panel
user). Deploying the stack adopts them as they are and changes nothing.

options:
  --out FILE.ts        write the stack to FILE.ts (default: standard output)
  --class-name NAME    name of the TerraformStack subclass (default ${DEFAULT_CLASS_NAME})
  --engine NAME        declare the stack's engine (ResellerHosting engine): provider,
                       terraform_data or null_resource (default: none, the library's default)
  --users              declare the control-panel users too (StackUser); packages
                       linked to one user then refer to it
  --dns                declare every package's DNS records too (DnsRecord: A, AAAA,
                       CNAME, MX, TXT, SRV; the zone's SOA and NS are the service's)
  --reference NAME     do not manage this package (any of its domain names) or cloud
                       server (host name): write a reference that the provider engine
                       reads through a data source (a missing one fails the plan); the
                       package's mail is left out. Repeatable
  --cdk NAME           the CDK the code imports from: cdktf or cdktn (default:
                       RESELLER_HOSTING_CDK, else the only one the project's package.json
                       lists, else cdktf)
  --blocks             instead: for synthesized provider-engine stacks (engine: 'provider'),
                       write Terraform import blocks (${IMPORT_BLOCKS_FILE} next to each
                       cdk.tf.json) that adopt every declared object the account has
  --moved              instead: for a carrier stack switched to engine 'provider' and
                       synthesized again, write the moved and removed blocks that migrate
                       its state (${MOVED_BLOCKS_FILE} next to each cdk.tf.json); no API call
  --from TYPE          with --moved: the carrier engine the stack was deployed with
                       (default terraform_data)
  --stacks PATH        with --blocks/--moved: the cdktf output (default cdktf.out), as drift --out
  --stack NAME         with --blocks/--moved: only this stack

environment: RESELLER_API_KEY (required), RESELLER_API_URL, RESELLER_ID.
`;

const CLASS_NAME = /^[A-Z_$][A-Za-z0-9_$]*$/;

/** `reseller-hosting import`. */
export async function runImportCli(argv: string[], io: CommandIo = processIo()): Promise<number> {
  return runCommand('import', IMPORT_USAGE, io, async () => {
    const { values, positionals } = usageErrors(() => parseArgs({ args: argv, allowPositionals: true, strict: true, options: {
      out: { type: 'string' },
      'class-name': { type: 'string' },
      users: { type: 'boolean' },
      dns: { type: 'boolean' },
      reference: { type: 'string', multiple: true },
      engine: { type: 'string' },
      cdk: { type: 'string' },
      blocks: { type: 'boolean' },
      moved: { type: 'boolean' },
      from: { type: 'string' },
      stacks: { type: 'string' },
      stack: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    } }));
    if (values.help) {
      io.stdout(IMPORT_USAGE);
      return EXIT.ok;
    }
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    if (values.moved) {
      for (const option of ['out', 'class-name', 'users', 'dns', 'reference', 'engine', 'cdk', 'blocks'] as const) if (values[option] !== undefined) throw new UsageError(`--${option} does not go with --moved`);
      const from = values.from ?? 'terraform_data';
      if (from !== 'terraform_data' && from !== 'null_resource') throw new UsageError(`--from "${from}" must be terraform_data or null_resource`);
      for (const r of writeMovedBlocks({ out: values.stacks, stack: values.stack, cwd: io.cwd, from })) {
        io.stdout(`wrote ${r.file}: ${r.moved.length} moved and ${r.removed.length} removed block(s) for stack ${r.stack}\n`);
      }
      return EXIT.ok;
    }
    if (values.from !== undefined) throw new UsageError('--from goes with --moved');
    if (values.blocks) {
      for (const option of ['out', 'class-name', 'users', 'dns', 'reference', 'engine', 'cdk'] as const) if (values[option] !== undefined) throw new UsageError(`--${option} does not go with --blocks`);
      const results = await writeImportBlocks({ out: values.stacks, stack: values.stack, env: io.env, cwd: io.cwd });
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

    let connection;
    try {
      connection = connectionFromEnv(io.env);
    } catch (err) {
      throw new CommandError((err as Error).message);
    }
    const client = clientFor(connection);
    try {
      const account = await readImportAccount(client, { dns: values.dns ?? false });
      const unknown = unmatchedReferences(account, values.reference ?? []);
      if (unknown.length) throw new CommandError(`--reference ${unknown.join(', ')}: no package or cloud server of the account has this name`);
      const { source, counts } = generateStack(account, {
        className,
        source: `${connection.baseUrl} (reseller ${connection.resellerId})`,
        users: values.users ?? false,
        reference: values.reference,
        dns: values.dns ?? false,
        engine,
        cdk,
      });
      const summary =
        `${counts.cloudServers} cloud server(s), ${counts.packages} package(s), ${counts.mailboxes} mailbox(es), ` +
        `${counts.forwarders} forwarder(s)${values.users ? `, ${counts.users} stack user(s)` : ''}${values.dns ? `, ${counts.dnsRecords} DNS record(s)` : ''}${counts.skipped ? `; ${counts.skipped} left out or referenced only (see the comments)` : ''}`;
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
  });
}

/** The --reference names that are neither a package's domain name nor a cloud server's host name. */
function unmatchedReferences(account: ImportAccount, names: readonly string[]): string[] {
  const known = new Set([
    ...account.live.packages.flatMap((p) => [p.name, ...p.names].map(canonicalDomain)),
    ...account.live.servers.map((s) => canonicalDomain(s.name)),
  ]);
  return names.filter((n) => !known.has(canonicalDomain(n.trim())));
}
