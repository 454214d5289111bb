import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { Kind } from '../protocol';
import { definitionOf } from '../protocol';
import { runDrift, DriftOptions } from './drift';
import { CommandError } from './io';

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

export async function writeImportBlocks(options: Pick<DriftOptions, 'out' | 'stack' | 'env' | 'cwd' | 'client'>): Promise<StackImportBlocks[]> {
  const cwd = options.cwd ?? process.cwd();
  const { document, desired } = await runDrift({ ...options, countUnmanaged: false });
  const results: StackImportBlocks[] = [];
  for (const stack of document.stacks) {
    const objects = document.objects.filter((o) => o.stack === stack.name && o.address.startsWith('reseller_') && o.declared === 'present');
    if (desired.objects.some((o) => o.stack === stack.name && o.resourceType.startsWith('reseller_')) === false) {
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
