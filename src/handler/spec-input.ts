import {
  canonicalDomain, canonicalEmail, canonicalLocalPart,
  checkCloudProvider, checkCloudSpec, checkCloudZone, checkDomainName, checkEmailAddress, checkHostName,
  checkLocalPart, checkPeriodMonths, checkStackUserRef, CloudProvider, describeObject, Identity, isKind, ObjectSpec, splitMailKey,
} from '../protocol';
import { HandlerError } from './errors';

/**
 * Reads and checks the spec a provisioner passed. Synth-time validation skips values
 * that were Terraform tokens then; here they are resolved, so everything is checked.
 */
export function parseSpec(raw: string | undefined): ObjectSpec {
  const spec = parseJsonObject(raw) as unknown as ObjectSpec;
  if (!isKind(spec.kind)) throw new HandlerError(`RESELLER_SPEC: unknown kind ${JSON.stringify(spec.kind)}`);
  const problems = specProblems(spec);
  if (problems.length) throw new HandlerError(`${spec.path ?? spec.kind}: ${problems.join('; ')}`);
  return canonicalSpec(spec);
}

/**
 * Names in canonical form. The constructs canonicalise literal values at synth, but a
 * value that was a Terraform variable arrives here exactly as the user typed it.
 */
function canonicalSpec(spec: ObjectSpec): ObjectSpec {
  switch (spec.kind) {
    case 'package':
      return {
        ...spec,
        domainName: canonicalDomain(spec.domainName),
        extraDomainNames: (spec.extraDomainNames ?? []).map(canonicalDomain),
        documentRoots: Object.fromEntries(Object.entries(spec.documentRoots ?? {}).map(([d, root]) => [canonicalDomain(d), root])),
        enabled: spec.enabled ?? true,
        ...(spec.cloudServer !== undefined ? { cloudServer: canonicalDomain(spec.cloudServer) } : {}),
      };
    case 'mailbox':
      return { ...spec, packageDomain: canonicalDomain(spec.packageDomain), domain: canonicalDomain(spec.domain), localPart: canonicalLocalPart(spec.localPart) };
    case 'forwarder':
      return {
        ...spec, packageDomain: canonicalDomain(spec.packageDomain), domain: canonicalDomain(spec.domain),
        localPart: canonicalLocalPart(spec.localPart), remote: canonicalEmail(spec.remote),
      };
    case 'cloud-server':
      return { ...spec, hostName: canonicalDomain(spec.hostName) };
  }
}

/** The identity's names in canonical form (see canonicalSpec). */
function canonicalIdentity(id: Identity): Identity {
  if (id.kind === 'mailbox' || id.kind === 'forwarder') {
    const { localPart, domain } = splitMailKey(id.key);
    return { ...id, key: `${canonicalLocalPart(localPart)}@${canonicalDomain(domain)}`, placement: canonicalDomain(id.placement) };
  }
  return { ...id, key: canonicalDomain(id.key), placement: id.placement ? canonicalDomain(id.placement) : '' };
}

/** The identity a destroy-time provisioner passes (`jsonencode(self.triggers_replace)`). */
export function parseIdentity(raw: string | undefined): Identity {
  const id = parseJsonObject(raw) as unknown as Identity;
  if (!isKind(id.kind) || typeof id.key !== 'string' || id.key === '') {
    throw new HandlerError('RESELLER_SPEC: expected the object identity {kind, key, placement, parent}');
  }
  let identity: Identity;
  try {
    identity = canonicalIdentity({ kind: id.kind, key: id.key, placement: String(id.placement ?? ''), parent: String(id.parent ?? '') });
  } catch (err) {
    throw new HandlerError(`RESELLER_SPEC: ${(err as Error).message}`);
  }
  // A name that does not survive canonicalisation must never address another object.
  const problems = identityProblems(id.kind, id.key, String(id.placement ?? ''));
  if (problems.length) throw new HandlerError(`RESELLER_SPEC: ${describeObject({ kind: id.kind, key: id.key })}: ${problems.join('; ')}`);
  return identity;
}

function identityProblems(kind: Identity['kind'], key: string, placement: string): string[] {
  const out: string[] = [];
  const check = (field: string, problem: string | undefined) => problem && out.push(`${field} ${problem}`);
  if (kind === 'mailbox' || kind === 'forwarder') {
    const { localPart, domain } = splitMailKey(key);
    check('localPart', checkLocalPart(localPart));
    check('domain', checkDomainName(domain));
    check('package', checkDomainName(placement));
  } else {
    check(kind === 'package' ? 'domainName' : 'hostName', checkDomainName(key));
    if (placement !== '') check('cloudServer', checkHostName(placement));
  }
  return out;
}

function parseJsonObject(raw: string | undefined): Record<string, unknown> {
  if (!raw) throw new HandlerError('RESELLER_SPEC is not set: this command is run by the provisioners that cdktf-reseller-hosting synthesizes');
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new HandlerError('RESELLER_SPEC is not valid JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new HandlerError('RESELLER_SPEC must be a JSON object');
  return value as Record<string, unknown>;
}

function specProblems(spec: ObjectSpec): string[] {
  const out: string[] = [];
  const check = (field: string, problem: string | undefined) => problem && out.push(`${field} ${problem}`);
  switch (spec.kind) {
    case 'package':
      check('domainName', checkDomainName(spec.domainName));
      (spec.extraDomainNames ?? []).forEach((d, i) => check(`extraDomainNames[${i}]`, checkDomainName(d)));
      if (spec.stackUser !== undefined) check('stackUser', checkStackUserRef(spec.stackUser));
      if (spec.cloudServer !== undefined) check('cloudServer', checkHostName(spec.cloudServer));
      break;
    case 'mailbox':
    case 'forwarder':
      check('domain', checkDomainName(spec.domain));
      check('localPart', checkLocalPart(spec.localPart));
      if (spec.kind === 'forwarder') check('remote', checkEmailAddress(spec.remote));
      break;
    case 'cloud-server': {
      check('hostName', checkHostName(spec.hostName));
      const providerProblem = checkCloudProvider(spec.provider);
      check('provider', providerProblem);
      if (!providerProblem) {
        check('spec', checkCloudSpec(spec.provider as CloudProvider, spec.spec));
        check('zone', checkCloudZone(spec.provider as CloudProvider, spec.zone));
      }
      check('periodMonths', checkPeriodMonths(spec.periodMonths));
      check('forUser', checkStackUserRef(spec.forUser));
      break;
    }
  }
  return out;
}
