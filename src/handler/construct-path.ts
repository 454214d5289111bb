import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Identity } from '../protocol';

/**
 * The construct path of the object a destroy-time provisioner deletes. Its environment
 * may reference nothing but `self` (the identity triggers), so the path is looked up,
 * only when there is an error to report, in the synthesized stack Terraform runs in
 * (`cdk.tf.json` in the working directory): the carrier whose triggers hold this
 * identity names its construct in its metadata. Undefined when it cannot be found.
 */
export function constructPathOf(identity: Identity, dir: string = process.cwd()): string | undefined {
  let stack: { resource?: Record<string, Record<string, Record<string, unknown>>> };
  try {
    stack = JSON.parse(readFileSync(join(dir, 'cdk.tf.json'), 'utf8')) as typeof stack;
  } catch {
    return undefined;
  }
  for (const type of ['terraform_data', 'null_resource']) {
    for (const body of Object.values(stack.resource?.[type] ?? {})) {
      const triggers = (body.triggers_replace ?? body.triggers) as Record<string, unknown> | undefined;
      if (!triggers || triggers.kind !== identity.kind || triggers.key !== identity.key) continue;
      if ((triggers.placement ?? '') !== identity.placement) continue;
      const path = (body['//'] as { metadata?: { path?: unknown } } | undefined)?.metadata?.path;
      if (typeof path === 'string') return path.replace(/\/Object$/, '');
    }
  }
  return undefined;
}
