import { canonicalDomain, checkDomainName, checkHostName } from '../names';
import { describeValue } from './checks';
import type { FieldDefinition } from './definition';
import type { Identity } from './identity';

/**
 * What the kinds of a registered domain name share (its nameservers, its transfer lock):
 * the `domain` field that names the registration, identity and import ids by that name.
 * A registration is never created, renewed or deleted by these kinds: they adopt one
 * the account holds (registering charges the balance and needs a registrant contact
 * that no public source shows; see docs/provider.md, "Registered domain names").
 */

/** The identity field of every registration kind. */
export const DOMAIN_FIELD: FieldDefinition = {
  name: 'domain', attribute: 'domain', type: 'string', role: 'identity', presence: 'required', readable: true, words: 'domain name',
  description: 'The registered domain name (one the account holds: it is adopted, never registered); changing it manages another registration.',
};

/** The kinds whose natural key is a registration's name. */
export type RegistrationKind = 'domain-nameservers' | 'domain-transfer-lock';

export function registrationIdentity(kind: RegistrationKind, domain: string, parent = ''): Identity {
  return { kind, key: domain, placement: '', parent };
}

export function checkRegistrationIdentity(id: Identity): string[] {
  const problem = checkDomainName(id.key);
  return problem ? [`domain ${problem}`] : [];
}

export const canonicalRegistrationIdentity = (id: Identity): Identity => ({ ...id, key: canonicalDomain(id.key), placement: '' });

/** `terraform import` id: the domain name. */
export function parseRegistrationImportId(kind: RegistrationKind, text: string): Identity | string {
  const problem = checkDomainName(text);
  return problem ? `import id ${problem} (expected the registered domain name, e.g. example.com)` : registrationIdentity(kind, canonicalDomain(text));
}

/** The most nameservers a registration may have (what registries commonly allow). */
export const MAX_NAMESERVERS = 13;

/**
 * A list of nameservers: host names (lowercase, no trailing dot when canonical), at
 * least two (registries require two for delegation), at most MAX_NAMESERVERS, none
 * twice. Each problem with the element's index, as `nameservers[1]`.
 */
export function nameserverProblems(value: unknown): Array<{ field: string; rule: string }> {
  if (!Array.isArray(value)) return [{ field: 'nameservers', rule: `must be a list of host names, not ${describeValue(value)}` }];
  const out: Array<{ field: string; rule: string }> = [];
  const seen = new Map<string, number>();
  value.forEach((name, i) => {
    const problem = typeof name === 'string' ? checkHostName(name) : `must be a host name, not ${describeValue(name)}`;
    if (problem) {
      out.push({ field: `nameservers[${i}]`, rule: `is not a host name: ${problem}` });
      return;
    }
    const canonical = canonicalNameserver(name as string);
    const first = seen.get(canonical);
    if (first !== undefined) out.push({ field: `nameservers[${i}]`, rule: `"${canonical}" is listed twice (also nameservers[${first}])` });
    else seen.set(canonical, i);
  });
  if (!out.length && seen.size < 2) out.push({ field: 'nameservers', rule: `lists ${seen.size} nameserver${seen.size === 1 ? '' : 's'}; a registration needs at least 2` });
  if (!out.length && seen.size > MAX_NAMESERVERS) out.push({ field: 'nameservers', rule: `lists ${seen.size} nameservers; at most ${MAX_NAMESERVERS} are allowed` });
  return out;
}

/** A nameserver's canonical form: lowercase, IDNA, no trailing dot. */
export const canonicalNameserver = (name: string): string => canonicalDomain(name);
