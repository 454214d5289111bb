import type { MailboxEntry } from '../client';
import { WriteOutcomeUnknownError } from '../client';
import { Identity, MailboxSpec, splitMailKey } from '../protocol';
import type { ReconcileContext } from './context';
import { createdThisRun } from './created';
import { converge } from './converge';
import { describeDiffs, FieldDiff } from './diff';
import { ReconcileError } from './errors';
import type { KindReconciler } from './kind';
import {
  callsForLookUp, confirmedBy, deleteAddressEntry, listMail, LookUpFirst, mailConfirmList, observeMail, packageOfMailDomain, readMail,
  whyMailMissing, writeMail,
} from './mail-common';
import { Observed, observed } from './observed';
import { secretDue } from './secret';

export function diffMailbox(spec: Pick<MailboxSpec, 'send' | 'receive'>, live: Pick<MailboxEntry, 'send' | 'receive'>): FieldDiff[] {
  const diffs: FieldDiff[] = [];
  if (spec.send !== live.send) diffs.push({ field: 'send', declared: spec.send, live: live.send });
  if (spec.receive !== live.receive) diffs.push({ field: 'receive', declared: spec.receive, live: live.receive });
  return diffs;
}

export const address = (spec: Pick<MailboxSpec, 'localPart' | 'domain'>) => `${spec.localPart}@${spec.domain}`;

/** `fresh`: as the API shows it now (a confirmation); otherwise a shared look-up may be older (see readMail). */
export async function findMailbox(ctx: ReconcileContext, spec: MailboxSpec, fresh = true): Promise<MailboxEntry | undefined> {
  return (await readMail(ctx, spec, fresh)).mailboxes.find((m) => m.local.toLowerCase() === spec.localPart);
}

/** The password the adapter gives for this mailbox (the context's secret). Never printed. */
export function passwordOf(ctx: ReconcileContext, spec: MailboxSpec): string | undefined {
  return ctx.secret(spec) || undefined;
}

export async function ensureMailbox(ctx: ReconcileContext, spec: MailboxSpec): Promise<void> {
  const password = passwordOf(ctx, spec);
  // On a package this apply created, the mailbox cannot exist yet: create it without
  // reading the domain first. If it exists after all, the API refuses the duplicate
  // (409) and the mailbox is looked up and adopted as usual.
  if (password && createdThisRun(ctx, spec.packageDomain)) {
    const created = await createMailbox(ctx, spec, password, true);
    if (created) return finishCreated(ctx, spec, created);
  }
  const live = await findMailbox(ctx, spec, false);
  if (live) {
    const replaced = ctx.history?.replaced;
    const changed = await applyMailboxSettings(ctx, spec, live);
    const parts = changed.length ? [`updated ${describeDiffs(changed)}`] : [];
    const due = password ? secretDue(ctx, spec) : 'no';
    if (password && due === 'yes') {
      await writePassword(ctx, spec, live.id, password);
      parts.push(`set its password (version ${spec.passwordVersion ?? 1})`);
    } else if (due === 'undeclared-before') {
      parts.push(
        `kept its current password: none was declared for it before (or the stack was synthesized by 0.1); ` +
          `raise passwordVersion to ${(spec.passwordVersion ?? 1) + 1} to set the declared one`,
      );
    }
    if (replaced) ctx.info(parts.length ? `mailbox ${address(spec)}: ${parts.join('; ')}` : `mailbox ${address(spec)} is up to date`);
    else ctx.info(`adopted mailbox ${address(spec)}${parts.length ? `; ${parts.join('; ')}` : ''}`);
    return;
  }
  if (!password) {
    throw new ReconcileError(
      `${spec.path}: mailbox ${address(spec)} does not exist and no password was given ` +
        `(${spec.passwordEnv ? `environment variable ${spec.passwordEnv} is empty` : 'set password or passwordEnv'}); a mailbox cannot be created without one`,
    );
  }
  return finishCreated(ctx, spec, (await createMailbox(ctx, spec, password, false))!);
}

async function finishCreated(ctx: ReconcileContext, spec: MailboxSpec, created: MailboxEntry): Promise<void> {
  await applyMailboxSettings(ctx, spec, created);
  ctx.info(`created mailbox ${address(spec)}`);
}

/**
 * Creates the mailbox and reads back until it is there. `unchecked`: nobody looked
 * for it first, so a 409 (or 404) to the first create is not about a write of ours:
 * then undefined is returned, for the caller to look it up (and adopt it, or report the
 * missing package or domain).
 */
async function createMailbox(ctx: ReconcileContext, spec: MailboxSpec, password: string, unchecked: boolean): Promise<MailboxEntry | undefined> {
  let live: MailboxEntry | undefined;
  let attempts = 0;
  try {
    await converge(ctx, {
      what: `${spec.path}: create mailbox ${address(spec)}`,
      conflictMayBeOurs: true,
      log: (l) => ctx.warn(l),
      isDone: async () => {
        const tick = ctx.lists.tick();
        live = await findMailbox(ctx, spec);
        if (live) confirmedBy(ctx, spec, tick);
        return live !== undefined;
      },
      write: async () => {
        attempts++;
        try {
          await writeMail(ctx, spec, () => ctx.client.mail.createMailbox(spec.packageDomain, spec.domain, {
            local: spec.localPart, send: spec.send, receive: spec.receive, password,
          }));
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

export async function writePassword(ctx: ReconcileContext, spec: MailboxSpec, id: MailboxEntry['id'], password: string): Promise<void> {
  // A password cannot be read back; the write is idempotent, so an unknown outcome is
  // answered by writing once more.
  ctx.confirmed?.clear();
  for (let attempt = 1; ; attempt++) {
    try {
      await ctx.client.mail.updateMailbox(spec.packageDomain, spec.domain, { id, password });
      return;
    } catch (err) {
      if (!(err instanceof WriteOutcomeUnknownError) || attempt >= 3) throw err;
      ctx.warn(`${spec.path}: setting the password of mailbox ${address(spec)}: outcome unknown, writing again`);
    }
  }
}

export async function deleteMailbox(ctx: ReconcileContext, id: Identity): Promise<void> {
  await deleteAddressEntry(ctx, id, 'mailbox', (mail) => mail.mailboxes, (domain, live) => ctx.client.mail.delete(id.placement, domain, [live.id]));
}

export async function applyMailboxSettings(ctx: ReconcileContext, spec: MailboxSpec, initial: MailboxEntry): Promise<FieldDiff[]> {
  const first = diffMailbox(spec, initial);
  if (first.length === 0) return first;
  ctx.confirmed?.clear();
  const patch = { id: initial.id, ...(spec.send !== initial.send ? { send: spec.send } : {}), ...(spec.receive !== initial.receive ? { receive: spec.receive } : {}) };
  await converge(ctx, {
    what: `${spec.path}: update mailbox ${address(spec)}`,
    log: (l) => ctx.warn(l),
    isDone: async () => {
      const live = await findMailbox(ctx, spec);
      return !!live && diffMailbox(spec, live).length === 0;
    },
    write: () => ctx.client.mail.updateMailbox(spec.packageDomain, spec.domain, patch),
  });
  return first;
}

function observedMailbox(live: MailboxEntry, packageDomain: string, domain: string, id?: Identity): Observed {
  const localPart = live.local.toLowerCase();
  const identity = id ?? { kind: 'mailbox', key: `${localPart}@${domain}`, placement: packageDomain, parent: '' };
  return observed({ ...identity, placement: packageDomain }, live.id, { packageDomain, domain, localPart, send: live.send, receive: live.receive }, { mailboxId: live.id });
}

async function observeMailbox(ctx: ReconcileContext, id: Identity): Promise<Observed | undefined> {
  const { localPart, domain } = splitMailKey(id.key);
  const packageDomain = await packageOfMailDomain(ctx, id.placement, domain);
  const mail = await observeMail(ctx, packageDomain, domain);
  const live = mail?.mailboxes.find((m) => m.local.toLowerCase() === localPart);
  return live && observedMailbox(live, packageDomain, domain, id);
}

async function listMailboxes(ctx: ReconcileContext): Promise<Observed[]> {
  return (await listMail(ctx)).flatMap(({ packageDomain, domain, mail }) => mail.mailboxes.map((m) => observedMailbox(m, packageDomain, domain)));
}

async function diffObservedMailbox(_ctx: ReconcileContext, spec: MailboxSpec, live: Observed): Promise<FieldDiff[]> {
  return diffMailbox(spec, { send: live.fields.send === true, receive: live.fields.receive === true });
}

export const mailboxReconciler = {
  confirmList: mailConfirmList,
  observe: observeMailbox,
  list: listMailboxes,
  diff: diffObservedMailbox,
  ensure: ensureMailbox,
  remove: deleteMailbox,
  whyMissing: whyMailMissing,
  entries: (o) => [{ id: o.liveId, detail: `send ${String(o.fields.send)}, receive ${String(o.fields.receive)}` }],
} satisfies KindReconciler<'mailbox'>;
