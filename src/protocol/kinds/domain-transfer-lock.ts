import { canonicalDomain, checkDomainName } from '../names';
import { canonicalJson } from '../canonical-json';
import { checkBool } from './checks';
import { Checked, FieldDefinition, KindDefinition, ProblemList } from './definition';
import { canonicalRegistrationIdentity, checkRegistrationIdentity, DOMAIN_FIELD, parseRegistrationImportId, registrationIdentity } from './domain';

/**
 * The transfer lock of a registered domain name (api-notes: `GET /domain/{name}/canTransfer`,
 * true = unlocked; `POST … {"enable": false}` locks): adopted from a registration the
 * account holds, read back at every plan. Its own small resource rather than an
 * attribute of the nameservers, so that a registration's lock can be managed without
 * its nameservers (and a plan of nameservers reads nothing more). Destroy leaves the
 * lock as it is.
 */
export type DomainTransferLockSpec = {
  readonly kind: 'domain-transfer-lock';
  readonly path: string;
  readonly domain: string;
  /** True: a transfer to another registrar is refused. */
  readonly locked: boolean;
};

export const DOMAIN_TRANSFER_LOCK_FIELDS: readonly FieldDefinition[] = [
  DOMAIN_FIELD,
  { name: 'locked', attribute: 'locked', type: 'bool', role: 'setting', presence: 'default', defaultValue: true, readable: true,
    description: 'Whether the transfer lock is on (a transfer to another registrar is refused); false unlocks it, e.g. to move the domain away.' },
];

export function checkDomainTransferLock(raw: DomainTransferLockSpec, path: string = raw.path): Checked<DomainTransferLockSpec> {
  const p = new ProblemList(path);
  p.add('domain', checkDomainName(raw.domain));
  p.add('locked', checkBool(raw.locked));
  if (p.problems.length) return { spec: raw, problems: p.problems };
  return { spec: { ...raw, domain: canonicalDomain(raw.domain), locked: raw.locked ?? true }, problems: [] };
}

export const domainTransferLockDefinition = {
  kind: 'domain-transfer-lock',
  label: 'domain transfer lock',
  shortLabel: 'transfer lock',
  description: 'The transfer lock of a registered domain name the account holds (adopted, never registered): on, a transfer to another registrar is refused. ' +
    'Read back at every plan (`canTransfer`), so a lock lifted in the control panel shows as a change. Its own resource, so that a lock is managed without the nameservers and a plan of nameservers reads no lock. ' +
    'Destroy leaves the lock as it is, and the plan says so.',
  order: 7,
  resourceType: 'reseller_domain_transfer_lock',
  keyName: 'domain name',
  importIdHelp: 'the registered domain name (example.com)',
  fields: DOMAIN_TRANSFER_LOCK_FIELDS,
  check: checkDomainTransferLock,
  identity: (spec: DomainTransferLockSpec, parent = '') => registrationIdentity('domain-transfer-lock', spec.domain, parent),
  jsonSettings: ['locked'],
  settings: (spec: DomainTransferLockSpec): Record<string, string> => ({ locked: canonicalJson(spec.locked) }),
  checkIdentity: checkRegistrationIdentity,
  canonicalIdentity: canonicalRegistrationIdentity,
  parseImportId: (text: string) => parseRegistrationImportId('domain-transfer-lock', text),
  formatImportId: (id) => id.key,
  lifecycle: { deleteForgets: 'the registration keeps its transfer lock as it is' },
  reportsUnmanaged: false,
  import: {
    construct: 'DomainTransferLock',
    idPrefix: 'lock',
    byDefault: false,
    props: ['domain', 'locked'],
  },
} satisfies KindDefinition<'domain-transfer-lock', DomainTransferLockSpec>;
