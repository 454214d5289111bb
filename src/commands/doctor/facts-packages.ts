import { labelFromPackageLabels } from '../../client/assumptions';
import {
  assumedFact, documentedFields, DoctorArea, held, idOf, isId, isObject, isString, Json, listOf, notHeld, segment, unknowable,
} from './fact';
import { shapeOf } from './shapes';

/**
 * Packages: the list (GET /package), the package types (GET /reseller/{id}/packageTypes),
 * both already read by the setup checks, and the detail of the first package
 * (GET /package/{id}). One GET of its own.
 */
interface PackageSample {
  /** The list's entries that are objects; undefined when the list is not a list. */
  readonly packages?: Json[];
  readonly types: unknown[];
  /** The id of the package whose detail was read, and the detail. */
  readonly detailId?: string;
  readonly detail?: unknown;
}

const IPV4 = /^[0-9]{1,3}(\.[0-9]{1,3}){3}$/;
/** What the client reads as a limit: a number, a string of digits, or "INF" (unlimited). */
const isLimit = (v: unknown) => v === 'INF' || (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && /^[0-9]+(\.[0-9]+)?$/.test(v));
const noPackage = () => unknowable('the account has no package');

export const PACKAGES: DoctorArea<PackageSample> = {
  async read(api) {
    const list = api.packageList;
    const types = listOf(api.packageTypes);
    api.found('package types', types.length, types.length ? shapeOf(types[0]) : undefined);
    api.found('packages', listOf(list).length, listOf(list).length ? shapeOf(listOf(list)[0]) : undefined);
    const detailId = listOf(list).map(idOf).find((id) => id !== undefined);
    const detail = detailId ? await api.body(`/package/${segment(detailId)}`) : undefined;
    if (detail !== undefined) api.found('package detail', 1, shapeOf(detail));
    return { packages: Array.isArray(list) ? list.filter(isObject) : undefined, types, detailId, detail };
  },

  facts: [
    documentedFields<PackageSample>('package list entry', 'GET /package lists each package with id, name, names and typeRef',
      (s) => s.packages, 'package(s)', { id: isId, name: isString, names: Array.isArray, typeRef: isId }),

    assumedFact('labelFromPackageLabels',
      'a package list entry\'s packageLabels is [] without a label, else its first element is the label (a string, or an object with a label or name string)',
      ({ packages }) => {
        if (!packages || packages.length === 0) return noPackage();
        const notArray = packages.filter((p) => !Array.isArray(p.packageLabels)).length;
        if (notArray) return notHeld(`packageLabels is missing or not a list in ${notArray} of ${packages.length} package(s)`);
        const labelled = packages.map((p) => p.packageLabels as unknown[]).filter((l) => l.length > 0);
        if (labelled.length === 0) return unknowable(`every one of ${packages.length} package(s) lists packageLabels: [] (a labelled package would show whether labels are listed here)`);
        const readable = (first: unknown) => typeof first === 'string' || (isObject(first) && (typeof first.label === 'string' || typeof first.name === 'string'));
        const bad = labelled.filter((l) => !readable(l[0])).length;
        return bad ? notHeld(`${bad} of ${labelled.length} non-empty packageLabels have another form`) : held(`${labelled.length} labelled package(s) read`);
      }),

    assumedFact('verifiableLabelFromPackageLabels',
      'an empty packageLabels does not prove "no label" (so the client calls the label not verifiable), and a non-empty one names the label GET /package/{id} gives',
      ({ packages, detailId, detail }) => {
        const entry = packages?.find((p) => idOf(p) === detailId);
        if (!entry || !isObject(detail)) return noPackage();
        if (!Array.isArray(entry.packageLabels)) return unknowable('the list entry has no packageLabels list');
        if (typeof detail.label !== 'string' && detail.label !== null) return unknowable('the package read has no label to compare the list entry with');
        const label = detail.label ?? '';
        if (entry.packageLabels.length === 0) {
          return label === '' ? unknowable('neither the list entry nor the package read shows a label')
            : held('the list entry shows packageLabels: [] for a package whose read has a label: an empty list does not mean "no label"');
        }
        return labelFromPackageLabels(entry.packageLabels) === label ? held('the list entry and the package read give the same label')
          : notHeld('the list entry\'s first packageLabels element is not the label the package read gives');
      }),

    assumedFact('labelFromPackageDetail', 'GET /package/{id} carries the package\'s label as a label string', ({ detail }) => {
      if (!isObject(detail)) return noPackage();
      const { label } = detail;
      if (label === undefined) return unknowable('the detail has no label member: the client writes a label but reports it as not verifiable');
      return typeof label === 'string' || label === null ? held('label is a string') : notHeld(`label is a ${typeof label}`);
    }),

    assumedFact('enabledFromPackageDetail', 'GET /package/{id} says whether the package is enabled: a boolean status, else enabled', ({ detail }) => {
      if (!isObject(detail)) return noPackage();
      const { status, enabled } = detail;
      if (status !== undefined && status !== null) return typeof status === 'boolean' ? held('status is a boolean') : notHeld(`status is a ${typeof status}`);
      if (typeof enabled === 'boolean') return held('no status; enabled is a boolean');
      return notHeld('neither status nor enabled is a boolean');
    }),

    assumedFact('typeRefFromPackageDetail', 'GET /package/{id} names its package type as typeRef, else web.typeRef', ({ detail }) => {
      if (!isObject(detail)) return noPackage();
      if (isId(detail.typeRef)) return held('typeRef is an id');
      if (isObject(detail.web) && isId(detail.web.typeRef)) return held('web.typeRef is an id');
      return notHeld('neither typeRef nor web.typeRef is an id');
    }),

    assumedFact('webIpv4FromPackageDetail', 'GET /package/{id} carries the package\'s web IPv4 address as web.info.ip4Address', ({ detail }) => {
      if (!isObject(detail)) return noPackage();
      const info = isObject(detail.web) ? detail.web.info : undefined;
      if (!isObject(info) || info.ip4Address === undefined || info.ip4Address === null) {
        return unknowable('the detail has no web.info.ip4Address: the client knows no web address for the package');
      }
      const ip = info.ip4Address;
      return typeof ip === 'string' && IPV4.test(ip) ? held('web.info.ip4Address is a dotted IPv4 address')
        : notHeld(`web.info.ip4Address is a ${typeof ip} that is not a dotted IPv4 address`);
    }),

    assumedFact('limitsOfPackageType',
      'GET /reseller/{id}/packageTypes gives each type\'s limits as an object of numbers, "INF" meaning unlimited',
      ({ types }) => {
        if (types.length === 0) return unknowable('the account lists no package type');
        const withLimits = types.filter((t) => isObject(t) && t.limits !== undefined && t.limits !== null);
        if (withLimits.length === 0) return unknowable(`none of ${types.length} package type(s) lists limits: the client knows none`);
        const limits = withLimits.map((t) => (t as Json).limits);
        const notObject = limits.filter((l) => !isObject(l)).length;
        if (notObject) return notHeld(`limits is not an object in ${notObject} of ${withLimits.length} package type(s)`);
        const entries = limits.flatMap((l) => Object.entries(l as Json));
        // Limit names are the API's field names (freeSsl, mailboxes...), not account data.
        const unread = [...new Set(entries.filter(([, v]) => !isLimit(v)).map(([name, v]) => `${name} (${typeof v})`))];
        if (unread.length) return notHeld(`limits the client leaves out, being neither a number nor "INF": ${unread.slice(0, 8).join(', ')}`);
        const unlimited = entries.filter(([, v]) => v === 'INF').length;
        return held(`${withLimits.length} package type(s) list ${entries.length} limit(s), ${unlimited} of them "INF"`);
      }),
  ],
};
