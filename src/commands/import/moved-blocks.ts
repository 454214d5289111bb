import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { CarrierType, findStackFiles, readProviderObjects, readStackJson } from '../../stacks';
import { CommandError } from '../command';

/**
 * `reseller-hosting import --moved`: the `moved` and `removed` blocks that migrate a stack
 * deployed with a carrier engine to the provider, written next to the stack's (already
 * switched and synthesized) cdk.tf.json. The constructs keep their Terraform names across
 * engines, so each `reseller_<kind>.<name>` moves from the carrier `<carrier>.<name>` (the
 * provider's MoveResourceState rebuilds the state), and the settings carrier
 * `<carrier>.<name>_settings` (`_password` of stacks synthesized by 0.1) is forgotten,
 * never destroyed. No API call: the refresh of the next plan reads the objects.
 */

export const MOVED_BLOCKS_FILE = 'reseller-migrate.tf.json';

export interface StackMovedBlocks {
  readonly stack: string;
  readonly file: string;
  readonly moved: { from: string; to: string }[];
  readonly removed: { from: string; lifecycle: { destroy: false } }[];
}

export function writeMovedBlocks(options: { stacks?: string; stack?: string; cwd?: string; from: CarrierType }): StackMovedBlocks[] {
  const cwd = options.cwd ?? process.cwd();
  const files = findStackFiles(options.stacks, cwd).filter((f) => options.stack === undefined || f.name === options.stack);
  if (files.length === 0) throw new CommandError(`no stack named "${options.stack}"`);
  const results: StackMovedBlocks[] = [];
  for (const { name, file } of files) {
    const config = readStackJson(file, cwd);
    const objects = readProviderObjects(name, config?.resource ?? {}, config?.data ?? {}).filter((o) => !o.absent);
    if (objects.length === 0) {
      throw new CommandError(`stack ${name} declares no reseller_* resources: switch it to engine 'provider' and synthesize it (cdktf synth) first`);
    }
    const moved = objects.map((o) => ({ from: `${options.from}.${o.logicalId}`, to: o.address }));
    // A removed block whose resource is not in the state does nothing, so _password may always be named.
    const suffixes = ['_settings', '_password'];
    const removed = objects.flatMap((o) => suffixes.map((s) => ({ from: `${options.from}.${o.logicalId}${s}`, lifecycle: { destroy: false as const } })));
    const target = join(dirname(resolve(cwd, file)), MOVED_BLOCKS_FILE);
    const doc = {
      '//': `Written by reseller-hosting import --moved: moves the ${moved.length} object(s) of stack ${name} from the ${options.from} carriers to the provider; the settings carriers are forgotten, not destroyed.`,
      moved,
      removed,
    };
    mkdirSync(dirname(target), { recursive: true });
    const tmp = `${target}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(doc, null, 2)}\n`);
    renameSync(tmp, target);
    results.push({ stack: name, file: relative(cwd, target) || target, moved, removed });
  }
  return results;
}
