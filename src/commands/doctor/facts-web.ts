import { isFreeCertificateProvider, phpVersionOfAvailable, phpVersionOfRead, phpVersionOnWire } from '../../client/assumptions';
import {
  assumedFact, badFields, documentedFields, DoctorArea, held, idOf, isObject, isString, listOf, notHeld, notReadOnly, segment, unknowable,
} from './fact';
import { shapeOf } from './shapes';

/**
 * Web settings (api-notes "Web: HTTPS and PHP version of a package"): of the first
 * MAX_PACKAGES packages, GET …/web/forceSSL, …/web/certificates, …/web/phpVersion and
 * …/web/availablePhpVersions. Four GETs per package.
 */
interface WebSample {
  readonly packages: number;
  /** Bodies of the 2xx answers, per read. */
  readonly forceSsl: unknown[];
  readonly certificates: unknown[];
  readonly phpVersions: unknown[];
  readonly available: unknown[];
}

const MAX_PACKAGES = 3;

export const WEB: DoctorArea<WebSample> = {
  async read(api) {
    const ids = listOf(api.packageList).map(idOf).filter((id): id is string => id !== undefined).slice(0, MAX_PACKAGES);
    const sample: WebSample = { packages: ids.length, forceSsl: [], certificates: [], phpVersions: [], available: [] };
    for (const id of ids) {
      const read = async (noun: string) => api.answer(`/package/${segment(id)}/web/${noun}`);
      const ok = (a: Awaited<ReturnType<typeof read>>) => a !== undefined && a.status >= 200 && a.status < 300;
      const [force, certificates, php, available] = await Promise.all(['forceSSL', 'certificates', 'phpVersion', 'availablePhpVersions'].map(read));
      if (ok(force)) sample.forceSsl.push(force!.body);
      if (ok(certificates)) sample.certificates.push(...listOf(certificates!.body));
      if (ok(php)) sample.phpVersions.push(php!.body);
      if (ok(available)) sample.available.push(...listOf(available!.body));
    }
    api.found('certificates', sample.certificates.length, sample.certificates.length ? shapeOf(sample.certificates[0]) : undefined);
    api.found('available PHP versions', sample.available.length, sample.available.length ? shapeOf(sample.available[0]) : undefined);
    return sample;
  },

  facts: [
    {
      fact: 'force-HTTPS read', basis: 'documented', assumptions: [],
      says: 'GET /package/{id}/web/forceSSL answers a bare true or false',
      check: ({ packages, forceSsl }) => {
        if (!packages) return unknowable('the account has no package');
        if (!forceSsl.length) return unknowable('no force-HTTPS read answered 2xx');
        const bad = forceSsl.filter((v) => typeof v !== 'boolean').length;
        return bad ? notHeld(`${bad} of ${forceSsl.length} read(s) are not a bare boolean`) : held(`${forceSsl.length} read(s)`);
      },
    },
    documentedFields<WebSample>('certificate entry', 'a certificate list entry has id, commonName and provider',
      (s) => s.certificates, 'certificate(s)', { id: (v) => isString(v) || typeof v === 'number', commonName: isString, provider: isString }),

    assumedFact('isFreeCertificateProvider', 'a free certificate is listed with a provider starting "letsencrypt" (letsencrypt/standard)', ({ certificates }) => {
      const providers = certificates.filter(isObject).map((c) => c.provider).filter(isString);
      if (!providers.length) return unknowable('no certificate was read (the packages read have none)');
      const free = providers.filter(isFreeCertificateProvider).length;
      return free ? held(`${free} of ${providers.length} certificate(s) have a Let's Encrypt provider`)
        : unknowable(`none of ${providers.length} certificate(s) has a Let's Encrypt provider (they may all be bought ones)`);
    }),

    assumedFact(['phpVersionOnWire', 'phpVersionOfRead'], 'GET /package/{id}/web/phpVersion answers a string "php" and the version\'s digits ("php82")', ({ phpVersions }) => {
      if (!phpVersions.length) return unknowable('no PHP version read answered 2xx');
      const bad = phpVersions.filter((v) => {
        const version = phpVersionOfRead(v);
        return version === undefined || phpVersionOnWire(version) !== String(v).trim().toLowerCase();
      }).length;
      return bad ? notHeld(`${bad} of ${phpVersions.length} read(s) are not in the form php<digits> (the client reads them, but writes php<digits>)`)
        : held(`${phpVersions.length} read(s) in the form php<digits>`);
    }),

    assumedFact('phpVersionOfAvailable', 'each available PHP version names its major.minor version in FullVersion (or Handler)', ({ available }) => {
      if (!available.length) return unknowable('no available PHP version was read');
      const bad = badFields(available, { FullVersion: (v) => v === undefined || isString(v) || typeof v === 'number' });
      const unread = available.filter((v) => !isObject(v) || phpVersionOfAvailable(v) === undefined).length;
      if (unread) return notHeld(`${unread} of ${available.length} entr(ies) name no version the client can read${bad.length ? `; ${bad.join(', ')}` : ''}`);
      return held(`${available.length} entr(ies) read`);
    }),

    notReadOnly('forceHttpsAlreadySo', 'setting force-HTTPS to the value it has is answered 409, meaning "already so"',
      'only the answer to a write (setting force-HTTPS) shows it'),
    notReadOnly('phpVersionWriteBody', 'the PHP version is set with the body {"value": "php82"}',
      'only a write (setting the PHP version) shows which body the API takes'),
  ],
};
