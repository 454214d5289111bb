import { nameserverChangeBody, nameserversOfRead, registrationDateOfRead, renewalConstraintOfRead, dnsNameOfRead } from './assumptions';
import { parseZone, zoneChangeBody } from './dns';
import { isMissingObject } from './errors';
import { pathSegment } from './ids';
import { Resource } from './resource';
import * as shape from './shape';
import type { DnsZone, DnsZoneChange, DomainDetail, DomainRegistration, NameserverChange } from './types';

/**
 * Registered domain names (api-notes "Domain names (registrations)"): the list
 * (`GET /domain`), one registration, its nameservers (read in either shape the notes
 * list; changed by a difference, `ns` / `old-ns`), its transfer lock
 * (`/domain/{name}/canTransfer`: true = unlocked) and its DNS zone
 * (`/domain/{name}/dns`, read and written like a package's zone).
 *
 * Registering and renewing (`addDomain`, `renewDomain`) charge the account's balance and
 * need a registrant contact whose members no public source shows: this client does not
 * send them. There is no delete.
 */
export class Domains extends Resource {
  /** Every registration of the account, in the order the API lists them. */
  async list(): Promise<DomainRegistration[]> {
    return this.ctx.transport.call({
      operation: 'listDomains',
      method: 'GET',
      path: '/domain',
      parse: (data) => shape.arrayOf(data, '', parseRegistration),
    });
  }

  /** One registration with its nameservers; undefined when the account does not hold `name` (404). */
  async get(name: string): Promise<DomainDetail | undefined> {
    const operation = 'getDomain';
    return this.ifHeld(() => this.ctx.transport.call({
      operation,
      method: 'GET',
      path: domainPath(name, operation),
      parse: (data) => {
        const body = shape.object(data, '');
        return { name: dnsNameOfRead(body.name, 'name'), nameservers: nameserversOfRead(body.nameservers, 'nameservers') };
      },
    }));
  }

  /** The registration's nameservers as the registry holds them; undefined when the account does not hold `name`. */
  async nameservers(name: string): Promise<string[] | undefined> {
    const operation = 'getDomainNameservers';
    return this.ifHeld(() => this.ctx.transport.call({
      operation,
      method: 'GET',
      path: `${domainPath(name, operation)}/nameservers`,
      parse: (data) => nameserversOfRead(data, ''),
    }));
  }

  /**
   * Changes the nameservers by a difference: `add` (`ns`) and `remove` (`old-ns`, each
   * one the registry holds now). A name in both is refused here, before anything is sent.
   * Resolves when the API accepted it; read the nameservers again to confirm.
   */
  async changeNameservers(name: string, change: NameserverChange): Promise<void> {
    const operation = 'changeDomainNameservers';
    const add = hostList(change?.add, operation, 'add');
    const remove = hostList(change?.remove, operation, 'remove');
    const both = add.filter((n) => remove.includes(n));
    if (both.length) throw new TypeError(`${operation}: ${both.join(', ')} in both add and remove (send only the difference)`);
    if (add.length === 0 && remove.length === 0) throw new TypeError(`${operation}: nothing to add or remove`);
    await this.ctx.transport.call({
      operation,
      method: 'POST',
      path: `${domainPath(name, operation)}/nameservers`,
      body: nameserverChangeBody(add, remove),
      parse: () => undefined, // `{"result": true}`: the caller reads the nameservers back
    });
  }

  /** Whether a transfer away is allowed (`canTransfer`: true = unlocked, false = the transfer lock is on); undefined when not held. */
  async transferAllowed(name: string): Promise<boolean | undefined> {
    const operation = 'getDomainTransferLock';
    return this.ifHeld(() => this.ctx.transport.call({
      operation,
      method: 'GET',
      path: `${domainPath(name, operation)}/canTransfer`,
      parse: (data) => shape.boolean(data, ''),
    }));
  }

  /** Sets the transfer lock: `allowed` false locks the domain (`{"enable": false}`), true unlocks it. */
  async setTransferAllowed(name: string, allowed: boolean): Promise<void> {
    const operation = 'setDomainTransferLock';
    if (typeof allowed !== 'boolean') throw new TypeError(`${operation}: allowed must be a boolean`);
    await this.ctx.transport.call({
      operation,
      method: 'POST',
      path: `${domainPath(name, operation)}/canTransfer`,
      body: { enable: allowed },
      parse: () => undefined,
    });
  }

  /** The registration's DNS zone (the package's zone where a package holds the name); undefined when not held. */
  async getZone(name: string): Promise<DnsZone | undefined> {
    const operation = 'getDomainDnsZone';
    return this.ifHeld(() => this.ctx.transport.call({
      operation,
      method: 'GET',
      path: `${domainPath(name, operation)}/dns`,
      parse: (data) => parseZone(dnsNameOfRead(name, 'name'), data, ''),
    }));
  }

  /** One atomic diff to the registration's zone, in the body of a package zone's write (see `Dns.changeZone`). */
  async changeZone(name: string, change: DnsZoneChange): Promise<void> {
    const operation = 'changeDomainDnsZone';
    const path = `${domainPath(name, operation)}/dns`;
    await this.ctx.transport.call({
      operation,
      method: 'POST',
      path,
      body: zoneChangeBody(name, change, operation),
      parse: () => undefined, // like a package zone's write: read the zone again for the refs
    });
  }

  private async ifHeld<T>(read: () => Promise<T>): Promise<T | undefined> {
    try {
      return await read();
    } catch (error) {
      if (isMissingObject(error)) return undefined;
      throw error;
    }
  }
}

function domainPath(name: string, operation: string): string {
  return `/domain/${pathSegment(name, operation, 'domain name')}`;
}

function hostList(value: unknown, operation: string, what: string): string[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string' && v.trim() !== '')) {
    throw new TypeError(`${operation}: ${what} must be an array of host names`);
  }
  return value.map((v: string) => v.trim().toLowerCase().replace(/\.$/, ''));
}

/** One entry of `GET /domain`: the name is required, every other field read tolerantly (see DomainRegistration). */
export function parseRegistration(value: unknown, where: string): DomainRegistration {
  const entry = shape.object(value, where);
  const f = (key: string) => shape.at(where, key);
  const bool = (key: string) => (typeof entry[key] === 'boolean' ? entry[key] as boolean : entry[key] === undefined || entry[key] === null ? null : shape.boolean(entry[key], f(key)));
  const id = entry.id === undefined || entry.id === null ? null : shape.id(entry.id, f('id'));
  const months = entry.preferredRenewalMonths;
  return {
    id,
    name: dnsNameOfRead(entry.name, f('name')),
    expiryDate: registrationDateOfRead(entry.expiryDate),
    deadDate: registrationDateOfRead(entry.deadDate),
    closeToAnniversary: bool('closeToAnniversary'),
    hasPrivacy: bool('hasPrivacy'),
    pendingTransfer: bool('pendingTransfer'),
    registrantIsVerified: bool('registrantIsVerified'),
    renewalConstraint: renewalConstraintOfRead(entry.renewalConstraint),
    preferredRenewalMonths: months === undefined || months === null || months === '' ? null : shape.number(months, f('preferredRenewalMonths')),
  };
}
