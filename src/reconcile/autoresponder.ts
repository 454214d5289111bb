import type { ResponderEntry, ResponderFields } from '../client';
import { AUTORESPONDER_FIELDS, AutoresponderSpec, canonicalEmail, canonicalTimestamp, checkEmailAddress, Identity, shortText, splitMailKey } from '../protocol';
import { listPackageTypes } from './account';
import type { ReconcileContext } from './context';
import { createdThisRun } from './created';
import { converge } from './converge';
import { describeDiffs, FieldDiff } from './diff';
import type { AccountProblem, KindReconciler } from './kind';
import { ReconcileError } from './errors';
import {
  callsForLookUp, confirmedBy, deleteAddressEntry, listMail, LookUpFirst, mailConfirmList, observeMail, packageOfMailDomain, readMail,
  whyMailMissing, writeMail,
} from './mail-common';
import { Observed, observed } from './observed';
import { packageIndex } from './package-index';
import { listedPackages } from './package';

/**
 * An autoresponder: the one `responder` entry of local@domain in the domain's mail read
 * (shared with mailboxes and forwarders: one read per domain per run). Every setting is
 * changed in place by the update keyed by its `r…` id, which sends them all.
 */

/** The package-type limit code of autoresponders (api-notes "Package types carry limit codes"). */
export const AUTORESPONDER_LIMIT = 'mailAutoresponders';

const SETTINGS = ['subject', 'content', 'contentType', 'enabled', 'startTime', 'endTime', 'forwardTo'] as const;
type Settings = Pick<AutoresponderSpec, (typeof SETTINGS)[number]>;

export const address = (spec: Pick<AutoresponderSpec, 'localPart' | 'domain'>) => `${spec.localPart}@${spec.domain}`;

/**
 * A live entry's settings in the spec's terms (a target address canonical, as the
 * definition's check makes it). A time the client could not read as an instant (kept as
 * read: client/assumptions.ts responderTimeOfRead) is left out: not verifiable, so it is
 * written but never compared (DESIGN §3: a form the API may use must not make
 * reconciliation loop).
 */
function settingsOf(live: ResponderEntry): Partial<Settings> {
  const forwardTo = live.forwardTo === null ? null : checkEmailAddress(live.forwardTo) ? live.forwardTo : canonicalEmail(live.forwardTo);
  const readable = (t: string | null) => t === null || canonicalTimestamp(t) === t;
  const out: { -readonly [K in keyof Settings]?: Settings[K] } = {
    subject: live.subject, content: live.content, contentType: live.type as Settings['contentType'], enabled: live.enabled, forwardTo,
  };
  if (readable(live.startTime)) out.startTime = live.startTime;
  if (readable(live.endTime)) out.endTime = live.endTime;
  return out;
}

const sameSetting = (field: keyof Settings, a: unknown, b: unknown) =>
  field === 'forwardTo' && typeof a === 'string' && typeof b === 'string' ? a.toLowerCase() === b.toLowerCase() : a === b;

/** The declared settings that differ from the live ones; a setting the live object does not show (undefined) is not compared. */
export function diffAutoresponder(spec: Settings, live: Partial<Settings>): FieldDiff[] {
  return SETTINGS.filter((f) => f in live && !sameSetting(f, spec[f], live[f])).map((field) => ({ field, declared: spec[field], live: live[field] }));
}

/** A diff of a long text (the body) as messages show it: its start and length (the definition's `longText`). */
function shortened(diff: FieldDiff): FieldDiff {
  const long = AUTORESPONDER_FIELDS.find((f) => f.name === diff.field)?.longText;
  return long ? { ...diff, declared: shortText(diff.declared), live: shortText(diff.live) } : diff;
}

const wireOf = (spec: AutoresponderSpec): ResponderFields => ({
  subject: spec.subject, content: spec.content, type: spec.contentType, enabled: spec.enabled,
  startTime: spec.startTime, endTime: spec.endTime, forwardTo: spec.forwardTo,
});

/**
 * `fresh`: as the API shows it now (a confirmation); otherwise a shared look-up may be
 * older (see readMail). A domain that is not one of the package's is said so, on the
 * `domain` field (the provider points at its attribute).
 */
async function findResponder(ctx: ReconcileContext, spec: AutoresponderSpec, fresh = true): Promise<ResponderEntry | undefined> {
  try {
    return (await readMail(ctx, spec, fresh)).responders.find((r) => r.local.toLowerCase() === spec.localPart);
  } catch (err) {
    if (!(err instanceof ReconcileError)) throw err;
    const why = await whyMailMissing(ctx, autoresponderDefinitionIdentity(spec));
    if (!why) throw err;
    throw new ReconcileError(`${spec.path}: autoresponder ${address(spec)}: ${why}`, why.includes('is not a domain') ? 'domain' : 'packageDomain');
  }
}

const autoresponderDefinitionIdentity = (spec: AutoresponderSpec): Identity =>
  ({ kind: 'autoresponder', key: address(spec), placement: spec.packageDomain, parent: '' });

async function ensureAutoresponder(ctx: ReconcileContext, spec: AutoresponderSpec): Promise<Observed> {
  // On a package this apply created it cannot exist yet: create without reading first
  // (a 409 or 404 to that create sends it to the look-up below).
  let live = createdThisRun(ctx, spec.packageDomain) ? await create(ctx, spec, true) : undefined;
  if (live) ctx.info(`created autoresponder ${address(spec)}`);
  else {
    const found = await findResponder(ctx, spec, false);
    if (!found) {
      live = (await create(ctx, spec, false))!;
      ctx.info(`created autoresponder ${address(spec)}`);
    } else {
      const changed = diffAutoresponder(spec, settingsOf(found));
      live = changed.length ? await update(ctx, spec, found) : found;
      const what = changed.length ? `; updated ${describeDiffs(changed.map(shortened))}` : '';
      ctx.info(ctx.history?.replaced ? `autoresponder ${address(spec)}${changed.length ? `: ${what.slice(2)}` : ' is up to date'}` : `adopted autoresponder ${address(spec)}${what}`);
    }
  }
  return observedResponder(live, spec.packageDomain, spec.domain);
}

/** Creates it and reads back until it is there; `unchecked` (nobody looked first): a refusal that a look-up explains gives undefined. */
async function create(ctx: ReconcileContext, spec: AutoresponderSpec, unchecked: boolean): Promise<ResponderEntry | undefined> {
  let live: ResponderEntry | undefined;
  let attempts = 0;
  try {
    await converge(ctx, {
      what: `${spec.path}: create autoresponder ${address(spec)}`,
      conflictMayBeOurs: true,
      log: (l) => ctx.warn(l),
      isDone: async () => {
        const tick = ctx.lists.tick();
        live = await findResponder(ctx, spec);
        if (live) confirmedBy(ctx, spec, tick);
        return live !== undefined && diffAutoresponder(spec, settingsOf(live)).length === 0;
      },
      write: async () => {
        attempts++;
        try {
          await writeMail(ctx, spec, () => ctx.client.responders.create(spec.packageDomain, spec.domain, spec.localPart, wireOf(spec)));
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

/** Sends every setting keyed by its id (an idempotent write) and reads back until it shows them. */
async function update(ctx: ReconcileContext, spec: AutoresponderSpec, initial: ResponderEntry): Promise<ResponderEntry> {
  ctx.confirmed?.clear();
  let live = initial;
  await converge(ctx, {
    what: `${spec.path}: update autoresponder ${address(spec)}`,
    log: (l) => ctx.warn(l),
    isDone: async () => {
      const found = await findResponder(ctx, spec);
      if (found) live = found;
      return !!found && diffAutoresponder(spec, settingsOf(found)).length === 0;
    },
    write: () => writeMail(ctx, spec, () => ctx.client.responders.update(spec.packageDomain, spec.domain, initial.id, wireOf(spec))),
  });
  return live;
}

async function deleteAutoresponder(ctx: ReconcileContext, id: Identity): Promise<void> {
  await deleteAddressEntry(ctx, id, 'autoresponder', (mail) => mail.responders, (domain, live) => ctx.client.responders.delete(id.placement, domain, live.id));
}

function observedResponder(live: ResponderEntry, packageDomain: string, domain: string, id?: Identity): Observed {
  const localPart = live.local.toLowerCase();
  const identity = id ?? { kind: 'autoresponder', key: `${localPart}@${domain}`, placement: packageDomain, parent: '' };
  return observed({ ...identity, placement: packageDomain }, live.id, { packageDomain, domain, localPart, ...settingsOf(live) }, { autoresponderId: live.id });
}

async function observeAutoresponder(ctx: ReconcileContext, id: Identity): Promise<Observed | undefined> {
  const { localPart, domain } = splitMailKey(id.key);
  const packageDomain = await packageOfMailDomain(ctx, id.placement, domain);
  const live = (await observeMail(ctx, packageDomain, domain))?.responders.find((r) => r.local.toLowerCase() === localPart);
  return live && observedResponder(live, packageDomain, domain, id);
}

async function listAutoresponders(ctx: ReconcileContext): Promise<Observed[]> {
  return (await listMail(ctx)).flatMap(({ packageDomain, domain, mail }) => mail.responders.map((r) => observedResponder(r, packageDomain, domain)));
}

async function diffObserved(_ctx: ReconcileContext, spec: AutoresponderSpec, live: Observed): Promise<FieldDiff[]> {
  return diffAutoresponder(spec, live.fields as Partial<Settings>);
}

/**
 * The package-type limit (`mailAutoresponders`): 0 means the type has no
 * autoresponders; a number caps how many the package may hold (across its domains);
 * unlimited, or a type that names no such limit, allows any. Checked only for a new
 * autoresponder on a package the account already holds (one that this plan creates
 * is not known yet); the reads are the shared package, package-type and mail reads.
 */
async function limitProblems(ctx: ReconcileContext, spec: AutoresponderSpec): Promise<AccountProblem[]> {
  const pkg = packageIndex(await listedPackages(ctx)).byPrimary.get(spec.packageDomain);
  if (!pkg) return [];
  const type = (await listPackageTypes(ctx)).find((t) => t.id === pkg.typeRef);
  const limit = type?.limits?.[AUTORESPONDER_LIMIT];
  if (limit === undefined || limit === null) return [];
  const held = (await Promise.all(pkg.names.map((name) => observeMail(ctx, spec.packageDomain, name.toLowerCase()))))
    .flatMap((mail, i) => (mail?.responders ?? []).map((r) => `${r.local.toLowerCase()}@${pkg.names[i].toLowerCase()}`));
  if (held.includes(address(spec))) return [];
  if (limit === 0) {
    return [{ field: 'packageDomain', rule: `names package ${spec.packageDomain}, whose package type ${type!.label} has no autoresponders (its limit ${AUTORESPONDER_LIMIT} is 0)` }];
  }
  if (held.length >= limit) {
    return [{ field: 'packageDomain', rule: `names package ${spec.packageDomain}, which already has ${held.length} autoresponder(s), the most its package type ${type!.label} allows (${AUTORESPONDER_LIMIT} ${limit})` }];
  }
  return [];
}

export const autoresponderReconciler = {
  confirmList: mailConfirmList,
  observe: observeAutoresponder,
  list: listAutoresponders,
  diff: diffObserved,
  ensure: ensureAutoresponder,
  remove: deleteAutoresponder,
  whyMissing: whyMailMissing,
  entries: (o) => [{ id: o.liveId, detail: `"${String(o.fields.subject)}"${o.fields.enabled === false ? ' (disabled)' : ''}` }],
  async checkAccount(ctx, spec, checked) {
    const placed = checked('packageDomain') || checked('domain') || checked('localPart');
    return { problems: placed ? await limitProblems(ctx, spec) : [] };
  },
} satisfies KindReconciler<'autoresponder'>;
