import type { Account, Package } from '../../backend/model';
import type { ApiNoun } from '../registry';
import { defaultPhpVersion } from './assumed';
import { isIssued, issuedAtMs } from './backend';
import { accountChecks, FIRST_CERTIFICATE_ID, packageChecks, WebDump } from './model';
import { certificateCount, issuingNotice, webSection } from './page';
import { addWebControlRoutes, addWebRoutes } from './routes';

/**
 * The web settings of a package (api-notes "Web: HTTPS and PHP version of a package"):
 * force-HTTPS, certificates (free ones issued asynchronously, and only for names that
 * point here) and the PHP version, under `/package/{id}/web/…`. The package type's
 * limits `freeSsl` and `switchPhpVersion` (packages/model.ts) refuse what a type lacks.
 */
export const web = {
  name: 'web',
  since: 3,
  counters: { certificateId: FIRST_CERTIFICATE_ID },
  account: {
    check: accountChecks,
    fresh: () => ({ certificateDelayMs: 0 }),
    dump: (account) => ({ certificateDelayMs: account.certificateDelayMs }),
  },
  package: {
    check: packageChecks,
    fresh: () => ({ web: { forceSsl: false, phpVersion: defaultPhpVersion(), certificates: [], waitingForDns: [] } }),
    dump: (pkg, { account, nowMs }) => ({ web: webDump(account, pkg, nowMs) }),
  },
  routes: addWebRoutes,
  control: addWebControlRoutes,
  page: {
    figures: [{ label: 'Certificates', value: certificateCount }],
    section: webSection,
    pending: issuingNotice,
  },
} satisfies ApiNoun;

function webDump(account: Account, pkg: Package, nowMs: number): WebDump {
  return {
    forceHttps: pkg.web.forceSsl,
    phpVersion: pkg.web.phpVersion,
    certificates: pkg.web.certificates.map((c) => ({
      id: c.id, commonName: c.commonName, provider: c.provider,
      state: isIssued(account, c, nowMs) ? 'issued' : 'issuing', issuedAt: new Date(issuedAtMs(account, c)).toISOString(),
    })),
    waitingForDns: pkg.web.waitingForDns.map((w) => ({ name: w.name, requestedAt: new Date(w.requestedAtMs).toISOString() })),
  };
}
