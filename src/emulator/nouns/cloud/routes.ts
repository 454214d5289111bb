import { ApiContext } from '../../context';
import { bare, Router, wrapped } from '../../router';
import { validationError } from '../../assumed';
import { brandHeaders } from './assumed';
import { notFound } from '../../errors';
import { cloudServerEntry, findServer, isReady, orderCloudServer, requireReadyServer } from './backend';
import { createPackage } from '../packages/backend';
import { CLOUD_PACKAGE_TYPE_ID } from '../packages/model';
import { readPackageNames } from '../packages/routes';
import { expectBody, expectBoolean, expectObject, expectUserRef } from '../../validate';
import { canonicalDomain, checkHostName } from '../../../protocol/names';
import { withAssumed } from '../../profile';

/** Managed cloud servers (spec 4.5, 4.6, 4.7; api-notes "Cloud servers"). */
export function addCloudRoutes(router: Router<ApiContext>): void {
  router.add('GET', '/cloud_server', (ctx) =>
    bare(ctx.account.cloudServers.filter((s) => isReady(s, ctx.nowMs, ctx.provisionDelayMs)).map(cloudServerEntry)),
  );
  router.add('GET', '/cloud_server/:server', getServer);
  router.add('POST', '/reseller/:reseller/addCloudServer', addCloudServer);
  router.add('POST', '/cloud_server/:server/addWeb', addWebOnServer);
}

/** One server; 404 while provisioning. A branded server carries the account's brand as headers. */
function getServer(ctx: ApiContext) {
  const server = findServer(ctx.account, ctx.params.server);
  if (!server || !isReady(server, ctx.nowMs, ctx.provisionDelayMs)) throw notFound(`cloud server ${ctx.params.server} not found`);
  // The header names are assumed: the documented profile sends no brand headers.
  const headers = server.branded && ctx.account.brand && withAssumed(ctx.profile) ? brandHeaders(ctx.account.brand) : undefined;
  return bare(cloudServerEntry(server), headers);
}

/**
 * Reads the order's shape (which members, of which JSON types); the ordering rules
 * (type/provider pairs, sizes, zones, periods, branding, users, names, balance) are
 * the backend's (`orderCloudServer`).
 */
function addCloudServer(ctx: ApiContext) {
  const body = expectBody(ctx.body);
  const config = expectObject(body.configuration, 'configuration');
  // The Managed Cloud Hosting API Guide (docs.20i.com): a blank mvpsName gets a default
  // host name, and forUser is optional.
  const blankName = config.mvpsName === undefined || config.mvpsName === null || (typeof config.mvpsName === 'string' && config.mvpsName.trim() === '');
  if (!blankName) {
    const hostProblem = checkHostName(config.mvpsName);
    if (hostProblem) throw validationError(`configuration.mvpsName: ${hostProblem}`);
  }
  const noUser = body.forUser === undefined || body.forUser === null || body.forUser === '';
  const server = orderCloudServer(ctx.state, ctx.account, {
    type: body.type,
    provider: config.provider,
    spec: config.spec,
    zone: config.zone,
    periodMonths: readPeriod(body.periodMonths),
    bandwidth: readNumericString(config.bandwidth, 'configuration.bandwidth'),
    disk: readNumericString(config.disk, 'configuration.disk'),
    branded: config.resellerCloudBranded === undefined || config.resellerCloudBranded === null
      ? false
      : expectBoolean(config.resellerCloudBranded, 'configuration.resellerCloudBranded', ctx.form),
    name: blankName ? null : canonicalDomain(config.mvpsName as string),
    forUserId: noUser ? null : expectUserRef(body.forUser, 'forUser'),
  }, ctx.nowMs, ctx.provisionDelayMs);
  return wrapped(String(server.id));
}

/** periodMonths: a string in the spec, a number from some clients (whether the period is allowed is the backend's rule). */
function readPeriod(value: unknown): unknown {
  if (value === undefined) throw validationError('periodMonths is required');
  return typeof value === 'string' && /^[0-9]{1,3}$/.test(value) ? Number(value) : value;
}

/** bandwidth / disk: optional numeric strings. */
function readNumericString(value: unknown, path: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || !/^[0-9]{1,9}$/.test(value)) throw validationError(`${path} must be a numeric string`);
  return value;
}

/** POST /cloud_server/{id}/addWeb: a package of type "Managed Cloud" on a ready server. */
function addWebOnServer(ctx: ApiContext) {
  const server = requireReadyServer(ctx.account, ctx.params.server, ctx.nowMs, ctx.provisionDelayMs);
  const names = readPackageNames(expectBody(ctx.body));
  const pkg = createPackage(ctx.state, ctx.account, {
    typeId: CLOUD_PACKAGE_TYPE_ID,
    names,
    label: null,
    documentRoots: {},
    stackUserId: null,
    cloudServerId: server.id,
  }, ctx.nowMs);
  server.packageIds = [...server.packageIds, pkg.id].sort((a, b) => a - b);
  return wrapped(pkg.id);
}
