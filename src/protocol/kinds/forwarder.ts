import { canonicalEmail, checkEmailAddress } from '../names';
import { Checked, FieldDefinition, KindDefinition, ProblemList } from './definition';
import type { Identity } from './identity';
import {
  canonicalMailIdentity, canonicalMailPlacement, checkMailIdentity, checkMailPlacement, formatMailImportId, MAIL_IDENTITY_FIELDS, MAIL_PARENT,
  mailIdentity, MailPlacement, parseMailImportId,
} from './mail';

/** A forwarder (spec 4.9-4.11): owns its local part's forwarding, to exactly one remote address. */
export type ForwarderSpec = MailPlacement & {
  readonly kind: 'forwarder';
  readonly path: string;
  /** Destination e-mail address. */
  readonly remote: string;
};

export const FORWARDER_FIELDS: readonly FieldDefinition[] = [
  ...MAIL_IDENTITY_FIELDS,
  { name: 'remote', attribute: 'remote', type: 'string', role: 'setting', presence: 'required', readable: true, words: 'target',
    description: 'Destination e-mail address; changed by creating the new target, then deleting the old.' },
  { name: 'forwarderIds', attribute: 'forwarder_ids', type: 'list(string)', role: 'computed', presence: 'optional', readable: true, derivesFrom: ['packageDomain', 'domain', 'localPart', 'remote'],
    description: 'Ids of the forwarder entries in the API.' },
];

export function checkForwarder(raw: ForwarderSpec, path: string = raw.path): Checked<ForwarderSpec> {
  const p = new ProblemList(path);
  checkMailPlacement(p, raw);
  p.add('remote', checkEmailAddress(raw.remote));
  if (p.problems.length) return { spec: raw, problems: p.problems };
  return { spec: { ...canonicalMailPlacement(raw), remote: canonicalEmail(raw.remote) }, problems: [] };
}

/** Forwarding targets are compared case-insensitively. */
export const sameRemote = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

export const forwarderDefinition = {
  kind: 'forwarder',
  label: 'forwarder',
  description: 'A mail forwarder on a hosting package\'s mail domain, found by local@domain.',
  order: 4,
  resourceType: 'reseller_forwarder',
  keyName: 'address',
  importIdHelp: 'the address local@domain',
  fields: FORWARDER_FIELDS,
  check: checkForwarder,
  identity: (spec: ForwarderSpec, parent = ''): Identity => mailIdentity('forwarder', spec, parent),
  jsonSettings: [],
  settings: (spec: ForwarderSpec): Record<string, string> => ({ remote: spec.remote }),
  checkIdentity: checkMailIdentity,
  canonicalIdentity: canonicalMailIdentity,
  parseImportId: (text: string) => parseMailImportId('forwarder', text),
  formatImportId: formatMailImportId,
  parent: MAIL_PARENT,
  import: {
    construct: 'Forwarder',
    idPrefix: 'fwd',
    props: [{ field: 'packageDomain', prop: 'package' }, 'localPart', 'domain', 'remote'],
    cannotDeclare(live) {
      const { remote, localPart, domain } = live.fields;
      // The core lists the targets of one local part as one forwarder.
      if (Array.isArray(remote)) {
        return `it has ${remote.length} targets (${remote.join(', ')}), and a Forwarder owns its local part with exactly one target: it would remove the others`;
      }
      const self = typeof remote === 'string' && !checkEmailAddress(remote) && canonicalEmail(remote).toLowerCase() === `${String(localPart)}@${String(domain)}`;
      return self ? `it forwards to itself (${remote}), which the Forwarder construct refuses` : undefined;
    },
  },
} satisfies KindDefinition<'forwarder', ForwarderSpec>;
