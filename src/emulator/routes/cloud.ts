import { ApiContext } from './context';
import { bare, Router, wrapped } from '../router';
import { brandHeaders, validationError } from '../assumed';
import { notFound } from '../errors';
import { cloudServerEntry, findServer, isReady, orderCloudServer, requireReadyServer } from '../backend/cloud';
import { createPackage } from '../backend/packages';
import { CLOUD_PACKAGE_TYPE_ID } from '../fixtures';
import { readPackageNames } from './packages';
import { expectBody, expectBoolean, expectObject, expectString, expectUserRef } from '../validate';
import {
  CLOUD_PRODUCT,
  CLOUD_PROVIDERS,
  CloudProvider,
  checkCloudSpec,
  checkCloudZone,
  checkPeriodMonths,
} from '../../protocol/cloud';
import { canonicalDomain, checkHostName } from '../../protocol/names';
import { withAssumed } from '../profile';

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

function addCloudServer(ctx: ApiContext) {
  const body = expectBody(ctx.body);
  const config = expectObject(body.configuration, 'configuration');
  const type = expectString(body.type, 'type');
  const provider = CLOUD_PROVIDERS.find((p) => CLOUD_PRODUCT[p].type === type);
  if (!provider) {
    throw validationError(`type must be one of ${CLOUD_PROVIDERS.map((p) => CLOUD_PRODUCT[p].type).join(', ')}`);
  }
  const providerString = expectString(config.provider, 'configuration.provider');
  if (providerString !== CLOUD_PRODUCT[provider].provider) {
    throw validationError(`configuration.provider "${providerString}" does not match type ${type} (expected "${CLOUD_PRODUCT[provider].provider}")`);
  }
  const specProblem = checkCloudSpec(provider, config.spec);
  if (specProblem) throw validationError(`configuration.spec: ${specProblem}`);
  const zoneProblem = checkCloudZone(provider, config.zone);
  if (zoneProblem) throw validationError(`configuration.zone: ${zoneProblem}`);
  const periodMonths = readPeriod(body.periodMonths);
  // The Managed Cloud Hosting API Guide (docs.20i.com): a blank mvpsName gets a default
  // host name, and forUser is optional.
  const blankName = config.mvpsName === undefined || config.mvpsName === null || (typeof config.mvpsName === 'string' && config.mvpsName.trim() === '');
  if (!blankName) {
    const hostProblem = checkHostName(config.mvpsName);
    if (hostProblem) throw validationError(`configuration.mvpsName: ${hostProblem}`);
  }
  const noUser = body.forUser === undefined || body.forUser === null || body.forUser === '';
  const forUserId = noUser ? null : expectUserRef(body.forUser, 'forUser');
  const branded = config.resellerCloudBranded === undefined || config.resellerCloudBranded === null
    ? false
    : expectBoolean(config.resellerCloudBranded, 'configuration.resellerCloudBranded', ctx.form);
  if (branded && provider !== CloudProvider.NATIVE) {
    throw validationError(`configuration.resellerCloudBranded is only possible with provider ${CLOUD_PRODUCT[CloudProvider.NATIVE].provider}`);
  }
  const server = orderCloudServer(ctx.state, ctx.account, {
    type,
    provider: providerString,
    spec: config.spec as string,
    zone: config.zone as string,
    periodMonths,
    bandwidth: readNumericString(config.bandwidth, 'configuration.bandwidth'),
    disk: readNumericString(config.disk, 'configuration.disk'),
    branded,
    name: blankName ? null : canonicalDomain(config.mvpsName as string),
    forUserId,
  }, ctx.nowMs, ctx.provisionDelayMs);
  return wrapped(String(server.id));
}

/** periodMonths: a string in the spec, a number from some clients; either must be an allowed period. */
function readPeriod(value: unknown): number {
  if (value === undefined) throw validationError('periodMonths is required');
  const months = typeof value === 'string' && /^[0-9]{1,3}$/.test(value) ? Number(value) : value;
  const problem = checkPeriodMonths(months);
  if (problem) throw validationError(`periodMonths: ${problem}`);
  return months as number;
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
