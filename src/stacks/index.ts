/**
 * Reading synthesized stacks (`cdktf.out/stacks/<stack>/cdk.tf.json`): what they
 * declare, in the kinds' terms, for either engine (carrier resources or `reseller_*`
 * provider resources), and how the live account compares with it. Shared by the
 * commands that start from a synthesized stack: drift, import --blocks / --moved, doctor.
 * No command's own logic lives here; nothing here runs the user's app or cdktf.
 */
import { DesiredState, findStackFiles, readDesired } from './desired';
import { StackError } from './errors';

export { compare, DRIFT_STATUSES, objectName, readLiveObjects } from './compare';
export type { ComparedObject, Comparison, LiveObjects, ObjectReport, ObjectStatus, ReportDiff, UnmanagedObject } from './compare';
export { connectionForStacks } from './connection';
export { findStackFiles, literalText, readDesired, readStack, readStackJson } from './desired';
export type { CarrierType, DesiredObject, DesiredState, StackFile, StackSettings } from './desired';
export { StackError } from './errors';
export { byText, mapConcurrent } from './order';
export { readProviderObjects } from './provider-stack';

/** The default cdktf output directory (unless `./cdktf.json` names another `output`). */
export const DEFAULT_STACKS_DIR = 'cdktf.out';

export interface SelectedStacks {
  /** Every stack found: their objects count as managed even when only some are selected. */
  readonly all: DesiredState;
  /** The stacks asked for (`--stack`), or all of them. */
  readonly selected: DesiredState['stacks'];
}

/** The stacks below `stacks` (see findStackFiles), with `stack` the one asked for (an unknown name is an error naming the others). */
export function readStacks(options: { stacks?: string; stack?: string; cwd: string }): SelectedStacks {
  const all = readDesired(findStackFiles(options.stacks, options.cwd), options.cwd);
  const selected = options.stack === undefined ? all.stacks : all.stacks.filter((s) => s.name === options.stack);
  if (selected.length === 0) {
    throw new StackError(`no stack named "${options.stack}"; the stacks found are: ${all.stacks.map((s) => s.name).join(', ')}`);
  }
  return { all, selected };
}
