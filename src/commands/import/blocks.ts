import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { ResellerClient } from '../../client';
import { clientFor } from '../../client';
import type { Kind } from '../../protocol';
import { definitionOf } from '../../protocol';
import { createContext } from '../../reconcile';
import { compare, connectionForStacks, readStacks } from '../../stacks';
import { CommandError } from '../command';

/**
 * `reseller-hosting import --blocks`: for a provider-engine stack that is already
 * synthesized, the Terraform `import` blocks that adopt every declared object the
 * account already has. The file is written next to the stack's cdk.tf.json
 * (Terraform reads every `*.tf.json` of the directory), so `terraform plan` there shows
 * each object as imported and `terraform apply` sends no write for an object that is
 * as declared. Import blocks of objects already in the state are no-ops, so the file
 * may stay; objects the account does not have are left out (they are created).
 */

export const IMPORT_BLOCKS_FILE = 'reseller-import.tf.json';

export interface ImportBlock {
  readonly to: string;
  readonly id: string;
}

export interface StackImportBlocks {
  readonly stack: string;
  /** The file written (relative to cwd when below it). */
  readonly file: string;
  readonly blocks: ImportBlock[];
  /** Declared objects the account does not have: not imported, `terraform apply` creates them. */
  readonly missing: string[];
}

/** The import id of a reported object: its definition's `formatImportId` (the inverse of the provider's import parsing). */
function importIdOf(o: { kind: Kind | null; key: string | null; placement: string | null }): string {
  return definitionOf(o.kind!).formatImportId({ kind: o.kind!, key: o.key!, placement: o.placement ?? '', parent: '' });
}

export interface ImportBlocksOptions {
  /** The synthesized output (as drift's `--stacks`). @default cdktf.out */
  readonly stacks?: string;
  readonly stack?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  /** For tests: this client instead of one from the environment. */
  readonly client?: ResellerClient;
}

export async function writeImportBlocks(options: ImportBlocksOptions): Promise<StackImportBlocks[]> {
  const cwd = options.cwd ?? process.cwd();
  const { all, selected } = readStacks({ stacks: options.stacks, stack: options.stack, cwd });
  const names = new Set(selected.map((s) => s.name));
  const client = options.client ?? clientFor(connectionForStacks(options.env ?? process.env, selected));
  let reports;
  try {
    // Which declared objects the account has: one read per list, as drift reads them.
    const comparison = await compare(createContext({ client, oneReadPerList: true }), all.objects.filter((o) => names.has(o.stack)), all.objects);
    reports = comparison.objects.map((o) => o.report);
  } finally {
    if (!options.client) client.close();
  }
  const results: StackImportBlocks[] = [];
  for (const stack of selected) {
    const objects = reports.filter((o) => o.stack === stack.name && o.address.startsWith('reseller_') && o.declared === 'present');
    if (all.objects.some((o) => o.stack === stack.name && o.resourceType.startsWith('reseller_')) === false) {
      throw new CommandError(
        `stack ${stack.name} declares no reseller_* resources: import blocks are for provider-engine stacks (engine: 'provider'); ` +
          'for a carrier stack, deploying the stack adopts the objects (reseller-hosting import writes its TypeScript)',
      );
    }
    const blocks: ImportBlock[] = [];
    const missing: string[] = [];
    for (const o of objects) {
      if (o.key === null) {
        throw new CommandError(`${o.address} (${o.path}): its natural key depends on Terraform variables, so its import id is unknown; import it by hand`);
      }
      if (o.status === 'missing') missing.push(o.address);
      else blocks.push({ to: o.address, id: importIdOf(o) });
    }
    const file = join(dirname(resolve(cwd, stack.file)), IMPORT_BLOCKS_FILE);
    const doc = {
      '//': `Written by reseller-hosting import --blocks: adopts the ${blocks.length} object(s) of stack ${stack.name} that the account already has.`,
      import: blocks,
    };
    mkdirSync(dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(doc, null, 2)}\n`);
    renameSync(tmp, file);
    results.push({ stack: stack.name, file: relative(cwd, file) || file, blocks, missing });
  }
  return results;
}
