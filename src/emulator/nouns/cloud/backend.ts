import { Account, State } from '../../backend/model';
import { CloudServer } from './model';
import { cloudServerOpaqueFields, dataDiskSizeGb, generatedServerName, monthlyPriceCents } from './assumed';
import { conflictingObjectError, validationError } from '../../assumed';
import { notFound, paymentRequired } from '../../errors';
import { countryOfZone } from './geo';
import { findUser } from '../users/backend';
import {
  CLOUD_PRODUCT,
  CLOUD_PROVIDERS,
  CLOUD_SIZES,
  CloudProvider,
  checkCloudSpec,
  checkCloudZone,
  checkPeriodMonths,
  providerFromApi,
} from '../../../protocol/cloud';

/**
 * Managed cloud servers (spec 2.6, 4.5, 4.7; api-notes "Cloud servers").
 *
 * Provisioning is asynchronous: a server is ready once `provisionDelayMs` has passed
 * since its order. Readiness is computed from the clock, so no timers run and a
 * restart keeps it. The delay is the smaller of the one in force at the order and
 * the one in force now: lowering the delay (POST /__emulator/settings) speeds up
 * servers still provisioning, raising it never makes a ready server unready.
 */

export function readyAtMs(server: CloudServer, currentDelayMs: number): number {
  return server.orderedAtMs + Math.min(server.provisionDelayMs, currentDelayMs);
}

export function isReady(server: CloudServer, nowMs: number, currentDelayMs: number): boolean {
  return nowMs >= readyAtMs(server, currentDelayMs);
}

export function findServer(account: Account, id: string): CloudServer | undefined {
  return /^[0-9]+$/.test(id) ? account.cloudServers.find((s) => s.id === Number(id)) : undefined;
}

/** GET /cloud_server entry (spec 2.6). */
export function cloudServerEntry(server: CloudServer): Record<string, unknown> {
  const provider = providerFromApi(server.provider);
  const size = provider ? CLOUD_SIZES[provider][server.spec] : undefined;
  const opaque = cloudServerOpaqueFields(server);
  return {
    id: server.id,
    name: server.name,
    location: server.zone,
    configuration: {
      CpuCores: size?.cpu ?? 0,
      RamMb: Math.round((size?.ramGb ?? 0) * 1024),
      OsDiskSizeGb: size?.diskGb ?? 0,
      DataDiskSizeGb: dataDiskSizeGb(server),
      Provider: server.provider,
      Zone: server.zone,
      Country: countryOfZone(server.zone),
      VpsOsId: opaque.vpsOsId,
      spec: server.spec,
    },
    externalId: server.externalId,
    productSpec: opaque.productSpec,
    count: opaque.count,
    cpanel: opaque.cpanel,
    cpanelInfo: opaque.cpanelInfo,
    cpanelRebuilding: opaque.cpanelRebuilding,
    isCloud: true,
    isManaged: true,
    packageIds: [...server.packageIds],
    profileId: opaque.profileId,
    timelineService: opaque.timelineService,
  };
}

/**
 * An order as the route read it: the fields of the stored server the client chooses.
 * The product fields (`type`, `provider`, `spec`, `zone`, `periodMonths`) are as sent,
 * for `orderCloudServer` to check; the user is still an id (the stored server keeps its
 * `stack-user:<n>` reference).
 */
export type CloudOrder = Pick<CloudServer, 'bandwidth' | 'disk' | 'branded'> & {
  type: unknown;
  provider: unknown;
  spec: unknown;
  zone: unknown;
  periodMonths: unknown;
  /** Host name, already checked; null: generate one (blank mvpsName). */
  name: string | null;
  /** null: ordered for no particular user (forUser is optional). */
  forUserId: number | null;
};

/** The product of an order, once its fields are known to be consistent. */
type CheckedProduct = Pick<CloudServer, 'type' | 'provider' | 'spec' | 'zone' | 'periodMonths'>;

/**
 * The ordering rules of spec 4.7 and the protocol tables: a known type, the provider
 * of that type, a size and a zone of that provider, an allowed period, and branding on
 * the native platform only.
 */
function checkProduct(order: CloudOrder): CheckedProduct {
  const provider = CLOUD_PROVIDERS.find((p) => CLOUD_PRODUCT[p].type === order.type);
  if (typeof order.type !== 'string' || !provider) {
    throw validationError(`type must be one of ${CLOUD_PROVIDERS.map((p) => CLOUD_PRODUCT[p].type).join(', ')}`);
  }
  if (typeof order.provider !== 'string') throw validationError('configuration.provider must be a string');
  if (order.provider !== CLOUD_PRODUCT[provider].provider) {
    throw validationError(`configuration.provider "${order.provider}" does not match type ${order.type} (expected "${CLOUD_PRODUCT[provider].provider}")`);
  }
  const specProblem = checkCloudSpec(provider, order.spec);
  if (specProblem) throw validationError(`configuration.spec: ${specProblem}`);
  const zoneProblem = checkCloudZone(provider, order.zone);
  if (zoneProblem) throw validationError(`configuration.zone: ${zoneProblem}`);
  const periodProblem = checkPeriodMonths(order.periodMonths);
  if (periodProblem) throw validationError(`periodMonths: ${periodProblem}`);
  if (order.branded && provider !== CloudProvider.NATIVE) {
    throw validationError(`configuration.resellerCloudBranded is only possible with provider ${CLOUD_PRODUCT[CloudProvider.NATIVE].provider}`);
  }
  return { type: order.type, provider: order.provider, spec: order.spec as string, zone: order.zone as string, periodMonths: order.periodMonths as number };
}

/**
 * POST /reseller/{id}/addCloudServer: checks the ordering rules (checkProduct) and the
 * account-relative ones, charges the whole period at once (402 and nothing ordered when
 * the balance is too low).
 */
export function orderCloudServer(state: State, account: Account, order: CloudOrder, nowMs: number, delayMs: number): CloudServer {
  const product = checkProduct(order);
  if (order.forUserId !== null && !findUser(account, order.forUserId)) {
    throw validationError(`forUser: unknown user stack-user:${order.forUserId}`);
  }
  if (order.name !== null && account.cloudServers.some((s) => s.name === order.name)) {
    throw conflictingObjectError(`a cloud server named ${order.name} already exists`);
  }
  const price = monthlyPriceCents(product.spec) * product.periodMonths;
  if (price > account.balanceCents) {
    throw paymentRequired(
      `not enough account balance: the order costs ${(price / 100).toFixed(2)}, the balance is ${(account.balanceCents / 100).toFixed(2)}`,
    );
  }
  account.balanceCents -= price;
  const id = state.counters.serverId++;
  const server: CloudServer = {
    id,
    externalId: 5_000_000 + id,
    name: order.name ?? generatedServerName(id),
    ...product,
    bandwidth: order.bandwidth,
    disk: order.disk,
    branded: order.branded,
    forUser: order.forUserId === null ? '' : `stack-user:${order.forUserId}`,
    chargedCents: price,
    orderedAtMs: nowMs,
    provisionDelayMs: delayMs,
    packageIds: [],
  };
  account.cloudServers.push(server);
  return server;
}

/** The server for POST /cloud_server/{id}/addWeb: 404 unknown, 409 still provisioning. */
export function requireReadyServer(account: Account, id: string, nowMs: number, delayMs: number): CloudServer {
  const server = findServer(account, id);
  if (!server) throw notFound(`cloud server ${id} not found`);
  if (!isReady(server, nowMs, delayMs)) throw conflictingObjectError(`cloud server ${id} is still provisioning`);
  return server;
}
