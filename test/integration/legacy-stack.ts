import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/**
 * A stack as cdktf-reseller-hosting 0.1 synthesized it (fixtures/legacy-0.1.cdk.tf.json,
 * synthesized by commit 8e4a47d, the last with that layout, and stored as it wrote it, with only the handler path replaced by HANDLER and
 * the backend removed): the object resource runs `ensure` (RESELLER_OBJECT_ID =
 * `${self.id}`) and `delete`, the settings resource runs `update`, and the mailbox's
 * `<id>_password` resource runs `set-password`. No depends_on: the order comes from
 * references only. Users upgrading the package apply such stacks until they synthesize
 * again, so the handler and drift must keep understanding them.
 *
 * Stack `legacy`: package legacy-shop.com, mailbox info@ (password var.mailbox_password,
 * passwordVersion 1), forwarder sales@ -> team@example.org.
 */
export interface LegacyOptions {
  /** The mailbox's send flag (a settings trigger and in every spec). */
  readonly send?: boolean;
  /** The mailbox's password version (the password resource's trigger and in every spec). */
  readonly passwordVersion?: number;
}

const FIXTURE = join(__dirname, 'fixtures', 'legacy-0.1.cdk.tf.json');
const HANDLER = resolve(__dirname, '..', '..', 'bin', 'reseller-hosting.js');
export const LEGACY_STACK = 'legacy';

/** Writes the 0.1 stack to `<outdir>/stacks/legacy/cdk.tf.json`; returns its directory and JSON. */
export function legacyStack(outdir: string, options: LegacyOptions = {}) {
  const stackDir = join(outdir, 'stacks', LEGACY_STACK);
  const json = JSON.parse(readFileSync(FIXTURE, 'utf8'));
  const resources: Record<string, any> = json.resource.terraform_data;
  const handler = relative(stackDir, HANDLER).split('\\').join('/');
  for (const [name, body] of Object.entries(resources)) {
    for (const p of body.provisioner) {
      const exec = p['local-exec'];
      exec.interpreter[1] = handler;
      if (name.startsWith('info') && exec.when !== 'destroy') {
        const spec = JSON.parse(exec.environment.RESELLER_SPEC);
        if (options.send !== undefined) spec.send = options.send;
        if (options.passwordVersion !== undefined) spec.passwordVersion = options.passwordVersion;
        exec.environment.RESELLER_SPEC = JSON.stringify(spec);
      }
    }
  }
  if (options.send !== undefined) resources.info_settings.triggers_replace.send = String(options.send);
  if (options.passwordVersion !== undefined) resources.info_password.triggers_replace.passwordVersion = String(options.passwordVersion);
  mkdirSync(stackDir, { recursive: true });
  writeFileSync(join(stackDir, 'cdk.tf.json'), JSON.stringify(json, null, 2));
  return { stackDir, json };
}
