import type { ApiContext, ControlContext } from '../../context';
import { bare, Router, wrapped } from '../../router';
import { validationError } from '../../assumed';
import { targetAccount } from '../../backend/accounts';
import { expectArray, expectBody, expectBoolean, expectDomain, expectString } from '../../validate';
import { requirePackage } from '../packages/backend';
import { forceSslAlreadySo, phpVersionOfWrite } from './assumed';
import { certificateList, deleteCertificates, installCertificate, phpVersionsOf, requireLimit, setFreeSsl, setPhpVersion } from './backend';

/** The routes of a package's web settings (api-notes "Web: HTTPS and PHP version of a package"). */
export function addWebRoutes(router: Router<ApiContext>): void {
  router.add('GET', '/package/:pkg/web/forceSSL', (ctx) => bare(requirePackage(ctx.account, ctx.params.pkg).web.forceSsl));
  router.add('POST', '/package/:pkg/web/forceSSL', (ctx) => {
    const pkg = requirePackage(ctx.account, ctx.params.pkg);
    const value = expectBoolean(expectBody(ctx.body).value, 'value', ctx.form);
    if (pkg.web.forceSsl === value) {
      const already = forceSslAlreadySo(ctx.profile);
      if (already) throw already;
    }
    pkg.web.forceSsl = value;
    return wrapped(true);
  });

  router.add('GET', '/package/:pkg/web/certificates', (ctx) => bare(certificateList(ctx.account, requirePackage(ctx.account, ctx.params.pkg), ctx.nowMs)));
  router.add('POST', '/package/:pkg/web/certificates', (ctx) => {
    const pkg = requirePackage(ctx.account, ctx.params.pkg);
    return wrapped(deleteCertificates(pkg, expectArray(expectBody(ctx.body).delete, 'delete')));
  });
  router.add('POST', '/package/:pkg/web/freeSSL', (ctx) => {
    const pkg = requirePackage(ctx.account, ctx.params.pkg);
    const body = expectBody(ctx.body);
    const name = expectDomain(body.name, 'name');
    const enabled = body.enabled === undefined ? true : expectBoolean(body.enabled, 'enabled', ctx.form);
    if (enabled) requireLimit(ctx.account, pkg, 'freeSsl', 'free SSL certificates');
    setFreeSsl(ctx.state, ctx.account, pkg, name, enabled, ctx.nowMs);
    return wrapped(true);
  });

  router.add('GET', '/package/:pkg/web/phpVersion', (ctx) => bare(requirePackage(ctx.account, ctx.params.pkg).web.phpVersion));
  router.add('POST', '/package/:pkg/web/phpVersion', (ctx) => {
    const pkg = requirePackage(ctx.account, ctx.params.pkg);
    setPhpVersion(ctx.account, pkg, phpVersionOfWrite(expectBody(ctx.body), ctx.profile));
    return wrapped(true);
  });
  router.add('GET', '/package/:pkg/web/availablePhpVersions', (ctx) => bare(phpVersionsOf(ctx.account, requirePackage(ctx.account, ctx.params.pkg))));
}

/**
 * Control-API extras: `POST /__emulator/web/settings` `{account?, certificateDelayMs}` sets
 * how long a free certificate takes to be issued; `POST /__emulator/web/certificates`
 * `{account?, package, commonName, provider?}` installs one at once, as the control panel
 * does (an uploaded certificate, provider other than Let's Encrypt, is left alone by
 * every tool).
 */
export function addWebControlRoutes(router: Router<ControlContext>): void {
  router.add('POST', '/__emulator/web/settings', ({ emu, body }) => {
    const input = expectBody(body);
    const delay = readCertificateDelay(input.certificateDelayMs);
    const id = emu.store.transact((state) => {
      const account = targetAccount(state, input.account);
      account.certificateDelayMs = delay;
      return account.id;
    });
    return bare({ ok: true, account: id, certificateDelayMs: delay });
  });
  router.add('POST', '/__emulator/web/certificates', ({ emu, body }) => {
    const input = expectBody(body);
    const commonName = expectDomain(input.commonName, 'commonName');
    const provider = input.provider === undefined ? 'letsencrypt/standard' : expectString(input.provider, 'provider', { min: 1, max: 100 });
    const pkgRef = typeof input.package === 'number' ? String(input.package) : expectString(input.package, 'package', { min: 1 });
    const certificate = emu.store.transact((state) => installCertificate(state, requirePackage(targetAccount(state, input.account), pkgRef), commonName, provider, Date.now()));
    return bare({ ok: true, certificate: { id: certificate.id, commonName, provider } });
  });
}

function readCertificateDelay(value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 86_400_000) {
    throw validationError('certificateDelayMs must be an integer number of milliseconds from 0 to 86400000');
  }
  return value;
}
