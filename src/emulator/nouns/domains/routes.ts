import { ApiContext } from '../../context';
import { bare, Router, wrapped } from '../../router';
import { validationError } from '../../assumed';
import { withAssumed } from '../../profile';
import { expectArray, expectBody, expectBoolean, expectDomain, expectObject } from '../../validate';
import { checkHostName, canonicalDomain } from '../../../protocol/names';
import { writeZone, zoneView } from '../dns/routes';
import { checkYears, domainDetail, domainWriteResult, domainZonePolicies, nameserversBody } from './assumed';
import { changeNameservers, registerDomain, registrationEntry, registrationZone, renewDomain, requireRegistration } from './backend';

/**
 * Domain names (api-notes "Domain names (registrations)"): the list, one registration,
 * its nameservers (read; written as a difference), its transfer lock, its DNS zone
 * (read and written like a package's zone, by DNS's own `zoneView` and `writeZone`),
 * and registering and renewing, which charge the balance.
 */
export function addDomainRoutes(router: Router<ApiContext>): void {
  router.add('GET', '/domain', (ctx) => bare(ctx.account.domains.map((d) => registrationEntry(d, ctx.nowMs, withAssumed(ctx.profile)))));
  router.add('GET', '/domain/:name', (ctx) => {
    const registration = requireRegistration(ctx.account, ctx.params.name);
    const assumed = withAssumed(ctx.profile);
    return bare(domainDetail(registrationEntry(registration, ctx.nowMs, assumed), registration.nameservers, assumed));
  });
  router.add('GET', '/domain/:name/nameservers', (ctx) => {
    const registration = requireRegistration(ctx.account, ctx.params.name);
    return bare(nameserversBody(registration.nameservers, withAssumed(ctx.profile)));
  });
  router.add('POST', '/domain/:name/nameservers', (ctx) => {
    const body = expectBody(ctx.body);
    const registration = requireRegistration(ctx.account, ctx.params.name);
    const add = body.ns === undefined || body.ns === null ? [] : hostNames(body.ns, 'ns');
    const remove = body['old-ns'] === undefined || body['old-ns'] === null ? [] : hostNames(body['old-ns'], 'old-ns');
    if (add.length === 0 && remove.length === 0) throw validationError('ns and/or old-ns must list nameservers');
    changeNameservers(registration, add, remove);
    return wrapped(domainWriteResult());
  });
  router.add('GET', '/domain/:name/canTransfer', (ctx) => bare(requireRegistration(ctx.account, ctx.params.name).transferAllowed));
  router.add('POST', '/domain/:name/canTransfer', (ctx) => {
    const body = expectBody(ctx.body);
    const registration = requireRegistration(ctx.account, ctx.params.name);
    if (body.enable === undefined) throw validationError('enable is required (true allows a transfer, false locks the domain)');
    registration.transferAllowed = expectBoolean(body.enable, 'enable', ctx.form);
    return wrapped(domainWriteResult());
  });
  router.add('GET', '/domain/:name/dns', (ctx) => {
    const { zone } = registrationZone(ctx.account, requireRegistration(ctx.account, ctx.params.name));
    return bare(zoneView(zone, ctx.profile));
  });
  router.add('POST', '/domain/:name/dns', (ctx) =>
    writeZone(ctx, () => registrationZone(ctx.account, requireRegistration(ctx.account, ctx.params.name)).zone, domainZonePolicies()));
  router.add('POST', '/reseller/:reseller/addDomain', addDomain);
  router.add('POST', '/reseller/:reseller/renewDomain', (ctx) => {
    const body = expectBody(ctx.body);
    const years = readYears(body.years);
    renewDomain(ctx.account, expectDomain(body.name, 'name'), years);
    return wrapped(true);
  });
}

/**
 * `{"name", "years", "contact": {…}, "otherContacts"?, "nameservers": [...],
 * "privacyService": bool, "stackUser"?}` (api-notes): the contact must be an object;
 * its members are not shown anywhere, so none is required.
 */
function addDomain(ctx: ApiContext) {
  const body = expectBody(ctx.body);
  const name = expectDomain(body.name, 'name');
  const years = readYears(body.years);
  expectObject(body.contact, 'contact');
  const nameservers = body.nameservers === undefined || body.nameservers === null ? [] : hostNames(body.nameservers, 'nameservers');
  if (nameservers.length === 1) throw validationError('nameservers must list at least 2 host names (or none, for the service\'s own)');
  const privacy = body.privacyService === undefined ? false : expectBoolean(body.privacyService, 'privacyService', ctx.form);
  registerDomain(ctx.state, ctx.account, { name, years, nameservers, privacy }, ctx.nowMs);
  return wrapped(true);
}

function readYears(value: unknown): number {
  const years = typeof value === 'string' && /^[0-9]{1,2}$/.test(value) ? Number(value) : value;
  const problem = checkYears(years);
  if (problem) throw validationError(problem);
  return years as number;
}

/** A list of distinct host names (canonical, without a trailing dot). */
function hostNames(value: unknown, path: string): string[] {
  const out: string[] = [];
  expectArray(value, path).forEach((item, i) => {
    const problem = checkHostName(item);
    if (problem) throw validationError(`${path}[${i}]: ${problem}`);
    const name = canonicalDomain(item as string);
    if (out.includes(name)) throw validationError(`${path}[${i}]: "${name}" is listed twice`);
    out.push(name);
  });
  return out;
}
