import { canonicalDomain, canonicalLocalPart, checkDomainName, checkLocalPart } from '../names';
import type { Identity } from './identity';
import { splitMailKey } from './identity';
import { FieldDefinition, ProblemList } from './definition';

/** What mailboxes, forwarders and autoresponders share: where they live and their natural key. */
export type MailPlacement = {
  /** Primary domain of the package the mail domain belongs to. */
  readonly packageDomain: string;
  readonly domain: string;
  readonly localPart: string;
};

export const MAIL_IDENTITY_FIELDS: readonly FieldDefinition[] = [
  { name: 'packageDomain', attribute: 'package', type: 'string', role: 'identity', presence: 'required', readable: true, words: 'package',
    description: 'Primary domain of the hosting package the mail domain belongs to.' },
  { name: 'domain', attribute: 'domain', type: 'string', role: 'identity', presence: 'default', defaultFrom: 'packageDomain', readable: true,
    description: 'Mail domain: one of the package\'s domain names; defaults to its primary domain.' },
  { name: 'localPart', attribute: 'local_part', type: 'string', role: 'identity', presence: 'required', readable: true, words: 'local part',
    description: 'Local part of the address (before the @), case-insensitive.' },
];

export function checkMailPlacement(p: ProblemList, spec: MailPlacement): void {
  // The package may be a reference still unknown at plan time (the provider leaves its problems for later).
  p.add('packageDomain', checkDomainName(spec.packageDomain));
  p.add('domain', checkDomainName(spec.domain));
  p.add('localPart', checkLocalPart(spec.localPart));
}

export function canonicalMailPlacement<S extends MailPlacement>(spec: S): S {
  return { ...spec, packageDomain: canonicalDomain(spec.packageDomain), domain: canonicalDomain(spec.domain), localPart: canonicalLocalPart(spec.localPart) };
}

/** The kinds that live on a mail domain, found by local@domain. */
export type MailKind = 'mailbox' | 'forwarder' | 'autoresponder';

export function mailIdentity(kind: MailKind, spec: MailPlacement, parent: string): Identity {
  return { kind, key: `${spec.localPart}@${spec.domain}`, placement: spec.packageDomain, parent };
}

export function checkMailIdentity(id: Identity): string[] {
  const out: string[] = [];
  const { localPart, domain } = splitMailKey(id.key);
  const add = (field: string, problem: string | undefined) => problem && out.push(`${field} ${problem}`);
  add('localPart', checkLocalPart(localPart));
  add('domain', checkDomainName(domain));
  add('package', checkDomainName(id.placement));
  return out;
}

export function canonicalMailIdentity(id: Identity): Identity {
  const { localPart, domain } = splitMailKey(id.key);
  return { ...id, key: `${canonicalLocalPart(localPart)}@${canonicalDomain(domain)}`, placement: canonicalDomain(id.placement) };
}

/** A mail object lives on a hosting package; its address names it only on that package's domains. */
export const MAIL_PARENT = { field: 'packageDomain', kind: 'package', placesKey: true } as const;

/** The import id of a mail identity: `package/local@domain` when the domain is not the package's primary one (see parseMailImportId). */
export function formatMailImportId(id: Identity): string {
  const domain = id.key.slice(id.key.lastIndexOf('@') + 1);
  return id.placement && id.placement !== domain ? `${id.placement}/${id.key}` : id.key;
}

/**
 * Import id of a mail object: `local@domain` (the package is found by the domain) or
 * `package/local@domain` when the mail domain is an extra name of another package.
 */
export function parseMailImportId(kind: MailKind, text: string): Identity | string {
  const slash = text.indexOf('/');
  const packageDomain = slash >= 0 ? text.slice(0, slash) : '';
  const address = slash >= 0 ? text.slice(slash + 1) : text;
  const at = address.lastIndexOf('@');
  if (at <= 0 || at === address.length - 1) return `import id "${text}" must be local@domain (or package/local@domain)`;
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  const problems = [checkLocalPart(local), checkDomainName(domain), packageDomain ? checkDomainName(packageDomain) : undefined].filter(Boolean);
  if (problems.length) return `import id "${text}": ${problems.join('; ')}`;
  const d = canonicalDomain(domain);
  return { kind, key: `${canonicalLocalPart(local)}@${d}`, placement: packageDomain ? canonicalDomain(packageDomain) : d, parent: '' };
}
