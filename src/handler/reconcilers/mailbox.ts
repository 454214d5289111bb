import type { MailboxEntry } from '../../client';
import { WriteOutcomeUnknownError } from '../../client';
import { Identity, MailboxSpec, splitMailKey } from '../../protocol';
import { alreadyApplied, appliedRecord, recordApplied } from '../applied';
import { HandlerContext } from '../context';
import { createdThisRun } from '../created';
import { converge } from '../converge';
import { describeDiffs, FieldDiff } from '../diff';
import { HandlerError } from '../errors';
import { callsForLookUp, LookUpFirst, readMail, readMailIfPresent } from './mail-common';

export function diffMailbox(spec: Pick<MailboxSpec, 'send' | 'receive'>, live: MailboxEntry): FieldDiff[] {
  const diffs: FieldDiff[] = [];
  if (spec.send !== live.send) diffs.push({ field: 'send', declared: spec.send, live: live.send });
  if (spec.receive !== live.receive) diffs.push({ field: 'receive', declared: spec.receive, live: live.receive });
  return diffs;
}

const address = (spec: Pick<MailboxSpec, 'localPart' | 'domain'>) => `${spec.localPart}@${spec.domain}`;

async function findMailbox(ctx: HandlerContext, spec: MailboxSpec): Promise<MailboxEntry | undefined> {
  return (await readMail(ctx, spec)).mailboxes.find((m) => m.local.toLowerCase() === spec.localPart);
}

/** The password from the provisioner environment or the variable `passwordEnv` names. Never printed. */
function passwordOf(ctx: HandlerContext, spec: MailboxSpec): string | undefined {
  if (spec.passwordEnv) return process.env[spec.passwordEnv] || undefined;
  return ctx.password || undefined;
}

export async function ensureMailbox(ctx: HandlerContext, spec: MailboxSpec): Promise<void> {
  const password = passwordOf(ctx, spec);
  // On a package this apply created, the mailbox cannot exist yet: create it without
  // reading the domain first. If it exists after all, the API refuses the duplicate
  // (409) and the mailbox is looked up and adopted as usual.
  if (password && createdThisRun(ctx, spec.packageDomain)) {
    const created = await createMailbox(ctx, spec, password, true);
    if (created) return finishCreated(ctx, spec, created);
  }
  const live = await findMailbox(ctx, spec);
  if (live) {
    // Adopting keeps the mailbox's password: a declared one is set by the password
    // resource that runs next (it sees no record of this run having set it).
    const changed = await applyMailboxSettings(ctx, spec, live);
    ctx.info(`adopted mailbox ${address(spec)}${changed.length ? `; updated ${describeDiffs(changed)}` : ''}`);
    recordApplied(ctx, spec, {});
    return;
  }
  if (!password) {
    throw new HandlerError(
      `${spec.path}: mailbox ${address(spec)} does not exist and no password was given ` +
        `(${spec.passwordEnv ? `environment variable ${spec.passwordEnv} is empty` : 'set password or passwordEnv'}); a mailbox cannot be created without one`,
    );
  }
  return finishCreated(ctx, spec, (await createMailbox(ctx, spec, password, false))!);
}

async function finishCreated(ctx: HandlerContext, spec: MailboxSpec, created: MailboxEntry): Promise<void> {
  await applyMailboxSettings(ctx, spec, created);
  ctx.info(`created mailbox ${address(spec)}`);
  recordApplied(ctx, spec, { passwordVersion: spec.passwordVersion ?? 1 });
}

/**
 * Creates the mailbox and reads back until it is there. `unchecked`: nobody looked
 * for it first, so a 409 (or 404) to the first create is not about a write of ours:
 * then undefined is returned, for the caller to look it up (and adopt it, or report the
 * missing package or domain).
 */
async function createMailbox(ctx: HandlerContext, spec: MailboxSpec, password: string, unchecked: boolean): Promise<MailboxEntry | undefined> {
  let live: MailboxEntry | undefined;
  let attempts = 0;
  try {
    await converge({
      what: `${spec.path}: create mailbox ${address(spec)}`,
      conflictMayBeOurs: true,
      log: (l) => ctx.warn(l),
      isDone: async () => (live = await findMailbox(ctx, spec)) !== undefined,
      write: async () => {
        attempts++;
        try {
          await ctx.client.createMailbox(spec.packageDomain, spec.domain, {
            local: spec.localPart, send: spec.send, receive: spec.receive, password,
          });
        } catch (err) {
          if (unchecked && attempts === 1 && callsForLookUp(err)) throw new LookUpFirst();
          throw err;
        }
      },
    });
  } catch (err) {
    if (err instanceof LookUpFirst) return undefined;
    throw err;
  }
  return live;
}

export async function updateMailbox(ctx: HandlerContext, spec: MailboxSpec): Promise<void> {
  if (alreadyApplied(ctx, spec)) {
    ctx.info(`mailbox ${address(spec)} is up to date (settings applied when it was created)`);
    return;
  }
  const live = await findMailbox(ctx, spec);
  if (!live) throw new HandlerError(`${spec.path}: mailbox ${address(spec)} does not exist (deleted outside Terraform?); run 'reseller-hosting drift --fix'`);
  const changed = await applyMailboxSettings(ctx, spec, live);
  ctx.info(changed.length ? `updated mailbox ${address(spec)}: ${describeDiffs(changed)}` : `mailbox ${address(spec)} is up to date`);
}

/** Sets the password when its version changed (the password resource is replaced only then). */
export async function setMailboxPassword(ctx: HandlerContext, spec: MailboxSpec): Promise<void> {
  const version = spec.passwordVersion ?? 1;
  if (appliedRecord(ctx)?.passwordVersion === version) {
    ctx.info(`mailbox ${address(spec)}: password version ${version} was set when it was created`);
    return;
  }
  const password = passwordOf(ctx, spec);
  if (!password) throw new HandlerError(`${spec.path}: no password to set for mailbox ${address(spec)} (the variable or environment value is empty)`);
  const live = await findMailbox(ctx, spec);
  if (!live) throw new HandlerError(`${spec.path}: mailbox ${address(spec)} does not exist`);
  // A password cannot be read back; the write is idempotent, so an unknown outcome is
  // answered by writing once more.
  for (let attempt = 1; ; attempt++) {
    try {
      await ctx.client.updateMailbox(spec.packageDomain, spec.domain, { id: live.id, password });
      break;
    } catch (err) {
      if (!(err instanceof WriteOutcomeUnknownError) || attempt >= 3) throw err;
      ctx.warn(`${spec.path}: setting the password of mailbox ${address(spec)}: outcome unknown, writing again`);
    }
  }
  ctx.info(`set password of mailbox ${address(spec)} (version ${version})`);
}

export async function deleteMailbox(ctx: HandlerContext, id: Identity): Promise<void> {
  const { localPart, domain } = splitMailKey(id.key);
  const place = { path: id.key, packageDomain: id.placement, domain };
  const find = async () => (await readMailIfPresent(ctx, place))?.mailboxes.find((m) => m.local.toLowerCase() === localPart);
  const live = await find();
  if (!live) {
    ctx.info(`mailbox ${id.key} is already absent`);
    return;
  }
  await converge({
    what: `delete mailbox ${id.key}`,
    log: (l) => ctx.warn(l),
    isDone: async () => (await find()) === undefined,
    write: () => ctx.client.deleteMail(id.placement, domain, [live.id]),
  });
  ctx.info(`deleted mailbox ${id.key}`);
}

async function applyMailboxSettings(ctx: HandlerContext, spec: MailboxSpec, initial: MailboxEntry): Promise<FieldDiff[]> {
  const first = diffMailbox(spec, initial);
  if (first.length === 0) return first;
  const patch = { id: initial.id, ...(spec.send !== initial.send ? { send: spec.send } : {}), ...(spec.receive !== initial.receive ? { receive: spec.receive } : {}) };
  await converge({
    what: `${spec.path}: update mailbox ${address(spec)}`,
    log: (l) => ctx.warn(l),
    isDone: async () => {
      const live = await findMailbox(ctx, spec);
      return !!live && diffMailbox(spec, live).length === 0;
    },
    write: () => ctx.client.updateMailbox(spec.packageDomain, spec.domain, patch),
  });
  return first;
}
