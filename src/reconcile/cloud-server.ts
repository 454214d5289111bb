import type { CloudServer } from '../client';
import { ConflictError, PaymentRequiredError, WriteOutcomeUnknownError } from '../client';
import {
  CLOUD_PRODUCT, CLOUD_SIZES, CloudProvider, CloudServerSpec, DEFAULT_CLOUD_TIMEOUT_MINUTES, Identity, providerFromApi,
} from '../protocol';
import type { ReconcileContext } from './context';
import { describeDiffs, FieldDiff } from './diff';
import { ReconcileError, StoppedError } from './errors';
import { resolveUser, retryWithFreshRefs, userRefProblems } from './refs';
import type { KindReconciler } from './kind';
import { Observed, observed } from './observed';
import { formatElapsed, sleep } from './wait';

/** The fields of a cloud server that can only be chosen when ordering. */
export function diffCloudServer(spec: CloudServerSpec, live: CloudServer): FieldDiff[] {
  const diffs: FieldDiff[] = [];
  const liveProvider = providerFromApi(live.configuration.Provider) ?? live.configuration.Provider;
  if (liveProvider !== spec.provider) diffs.push({ field: 'provider', declared: spec.provider, live: liveProvider });
  if (live.configuration.spec !== spec.spec) diffs.push({ field: 'spec', declared: spec.spec, live: live.configuration.spec });
  const liveZone = live.configuration.Zone || live.location;
  if (liveZone !== spec.zone) diffs.push({ field: 'zone', declared: spec.zone, live: liveZone });
  return diffs;
}

export async function findServer(ctx: ReconcileContext, hostName: string): Promise<CloudServer | undefined> {
  return (await ctx.client.cloudServers.list()).find((s) => s.name.toLowerCase() === hostName);
}

/**
 * Waits until a server is listed (orders provision asynchronously), printing progress
 * at least every 15 s so that a long apply never looks hung.
 */
export async function waitForServer(
  ctx: ReconcileContext, path: string, hostName: string, timeoutMinutes = DEFAULT_CLOUD_TIMEOUT_MINUTES, orderId?: number,
): Promise<CloudServer> {
  const started = Date.now();
  const deadline = started + timeoutMinutes * 60_000;
  const progressEvery = ctx.timing.progressIntervalMs;
  const pollEvery = ctx.timing.pollIntervalMs;
  let lastProgress = started;
  for (;;) {
    const server = await findServer(ctx, hostName);
    if (server) {
      if (Date.now() - started > pollEvery) ctx.info(`cloud server ${hostName} is ready (id ${server.id}) after ${formatElapsed(Date.now() - started)}`);
      return server;
    }
    const now = Date.now();
    if (now >= deadline) {
      throw new ReconcileError(
        `${path}: cloud server ${hostName} is still not listed after ${formatElapsed(now - started)}` +
          (orderId !== undefined ? ` (order id ${orderId} stands and will not be placed again)` : '') +
          '; check the control panel, then apply again',
      );
    }
    if (now - lastProgress >= progressEvery) {
      lastProgress = now;
      ctx.info(`waiting for cloud server ${hostName}: ${orderId !== undefined ? `ordered (id ${orderId}), ` : ''}provisioning, not yet listed, ${formatElapsed(now - started)} elapsed`);
    }
    await sleep(Math.min(pollEvery, Math.max(0, deadline - now)), ctx.stop);
  }
}

export async function ensureCloudServer(ctx: ReconcileContext, spec: CloudServerSpec): Promise<void> {
  const orderName = `order:${ctx.accountScope}:${spec.hostName}`;
  let live = await findServer(ctx, spec.hostName);
  let verb = 'adopted';
  if (!live && ctx.history?.replaced) {
    // Its settings resource was replaced, so the server existed: ordering (and paying
    // for) another one behind a plan that said "update" would be a surprise.
    throw new ReconcileError(
      `${spec.path}: cloud server ${spec.hostName} is not listed in the account (cancelled outside Terraform?); ` +
        'to order a new one (charged), replace its object resource: terraform apply -replace=<its object resource>',
    );
  }
  if (!live) {
    // An order provisions for minutes before it is listed: a previous run (this apply
    // or one that failed) may already have placed it. Ordering again would bill twice.
    // The note lives only as long as this object's own wait (timeoutMinutes): an order
    // that was never listed by then has failed or was cancelled, and ordering again is
    // safe (the API refuses a duplicate host name that is still provisioning with 409).
    let order = ctx.store.read<{ id?: number }>(orderName, spec.timeoutMinutes * 60_000);
    try {
      if (order) {
        ctx.info(`cloud server ${spec.hostName} was already ordered${order.id !== undefined ? ` (id ${order.id})` : ''}; waiting for it`);
      } else {
        order = { id: await placeOrder(ctx, spec, orderName) };
        ctx.info(`ordered cloud server ${spec.hostName} (id ${order.id ?? 'unknown'}): ${spec.provider} ${spec.spec} in ${spec.zone}, ${spec.periodMonths} month(s)`);
      }
      live = await waitForServer(ctx, spec.path, spec.hostName, spec.timeoutMinutes, order.id);
    } catch (err) {
      // A Ctrl-C during the minutes of provisioning: say what stands, so that nobody orders it again by hand.
      if (!(err instanceof StoppedError) || !order) throw err;
      throw new StoppedError(
        `${spec.path}: stopped while waiting for cloud server ${spec.hostName}: Terraform asked the provider to stop. ` +
          `The order${order.id !== undefined ? ` (id ${order.id})` : ''} stands and is not placed again: apply again to wait for the server`,
      );
    }
    verb = 'created';
  }
  // Listed: the order has done its job. A later order of the same host name (after a
  // cancellation, `-replace` of the object) must not wait for this one.
  ctx.store.remove(orderName);
  const diffs = diffCloudServer(spec, live);
  if (diffs.length) throw immutableError(spec, diffs);
  if (verb === 'adopted') await warnIfBranded(ctx, spec, live.id);
  ctx.info(`${verb} cloud server ${spec.hostName} (id ${live.id})`);
}

export async function warnIfBranded(ctx: ReconcileContext, spec: CloudServerSpec, id: number): Promise<void> {
  if (spec.branded) return;
  const withBrand = await ctx.client.cloudServers.get(id);
  if (withBrand?.brand) ctx.warn(`${spec.path}: cloud server ${spec.hostName} was ordered branded; branding can only be chosen when ordering`);
}

async function placeOrder(ctx: ReconcileContext, spec: CloudServerSpec, orderName: string): Promise<number | undefined> {
  // No user declared: the order names none (the API makes forUser optional).
  const userRef = spec.forUser;
  const forUser = userRef === undefined ? undefined : await resolveUser(ctx, spec.path, 'forUser', userRef);
  const size = CLOUD_SIZES[spec.provider][spec.spec];
  const product = CLOUD_PRODUCT[spec.provider];
  // Recorded before the request: if the process dies mid-request, the next run waits
  // for the server instead of ordering (and paying for) a second one.
  ctx.store.write(orderName, {});
  try {
    let id = 0;
    // forUser may come from this apply's cached user list: a refusal is answered by
    // resolving it afresh and, if it changed, ordering with the current reference.
    await retryWithFreshRefs(
      forUser,
      async (user) => {
        id = await ctx.client.cloudServers.order({
          configuration: {
            spec: spec.spec,
            zone: spec.zone,
            provider: product.provider,
            mvpsName: spec.hostName,
            ...(spec.provider !== CloudProvider.NATIVE ? { bandwidth: String(size.bandwidth), disk: String(size.diskGb) } : {}),
            ...(spec.branded ? { resellerCloudBranded: true } : {}),
          },
          periodMonths: spec.periodMonths,
          type: product.type,
          forUser: user,
        });
      },
      async () => (userRef === undefined ? undefined : resolveUser(ctx, spec.path, 'forUser', userRef, true)),
      (a, b) => a === b,
      (line) => ctx.warn(`${spec.path}: order cloud server ${spec.hostName}: ${line}`),
    );
    ctx.store.write(orderName, { id });
    return id;
  } catch (err) {
    if (err instanceof WriteOutcomeUnknownError) {
      ctx.warn(`${spec.path}: the order of cloud server ${spec.hostName} may or may not have been placed; waiting for it to be listed instead of ordering again`);
      return undefined;
    }
    if (err instanceof ConflictError) {
      ctx.warn(`${spec.path}: the API says cloud server ${spec.hostName} already exists (${err.apiMessage ?? '409'}); waiting for it to be listed`);
      return undefined;
    }
    ctx.store.remove(orderName); // the API answered: nothing was ordered
    if (err instanceof PaymentRequiredError) {
      throw new ReconcileError(`${spec.path}: cloud server ${spec.hostName} was not ordered: the account balance is too low (${err.apiMessage ?? '402'}); top it up and apply again`);
    }
    throw err;
  }
}

/** The API has no cancel operation: the server is retained, and the user is told so loudly. */
export async function deleteCloudServer(ctx: ReconcileContext, id: Identity): Promise<void> {
  const live = await findServer(ctx, id.key);
  const which = live ? `${id.key} (id ${live.id})` : id.key;
  ctx.warn(
    `WARNING: cloud server ${which} was NOT cancelled and keeps running: the reseller API has no cancel operation, ` +
      'so billing continues. Cancel it in the control panel (Managed Cloud Servers) if it is no longer needed; ' +
      "'reseller-hosting drift' lists it as unmanaged until then.",
  );
  ctx.info(`retained cloud server ${which} (removed from Terraform only)`);
}

export function immutableError(spec: CloudServerSpec, diffs: FieldDiff[]): ReconcileError {
  return new ReconcileError(
    `${spec.path}: cloud server ${spec.hostName} differs from its declaration (${describeDiffs(diffs)}), ` +
      'and the API cannot change a server after it is ordered; change it in the control panel or restore the declared values',
  );
}

/** The context's list name of the account's cloud servers. */
export const CLOUD_SERVERS = 'cloud-servers';

/** The account's cloud servers through the context's lists (one read per context). */
export function listedServers(ctx: ReconcileContext): Promise<CloudServer[]> {
  return ctx.lists.get(CLOUD_SERVERS, () => ctx.client.cloudServers.list());
}

function observedServer(live: CloudServer, id: Identity = { kind: 'cloud-server', key: live.name.toLowerCase(), placement: '', parent: '' }): Observed {
  return observed(
    id,
    live.id,
    {
      hostName: live.name.toLowerCase(),
      provider: providerFromApi(live.configuration.Provider) ?? live.configuration.Provider,
      spec: live.configuration.spec,
      zone: live.configuration.Zone || live.location,
    },
    // Its size in numbers, as the API lists it (import's comment on each server).
    { serverId: live.id, packageIds: [...live.packageIds], cpuCores: live.configuration.CpuCores, ramMb: live.configuration.RamMb },
  );
}

/**
 * The server with its brand, which only its own read shows (one request per server,
 * shared through the context's lists with the data source's read): `branded` and the
 * brand's name. Only a native server can be branded: on another, `branded` can only
 * be false, so it stays unknown and a declaration leaves it at its default.
 */
async function declarableServer(ctx: ReconcileContext, o: Observed): Promise<Observed> {
  const id = Number(o.computed.serverId);
  const read = await ctx.lists.get(`cloud-server:${id}`, () => ctx.client.cloudServers.get(id));
  const brand = read?.brand;
  if (!brand && o.fields.provider !== CloudProvider.NATIVE) return o;
  return {
    ...o,
    fields: { ...o.fields, branded: brand !== undefined },
    computed: { ...o.computed, ...(brand ? { brand: brand.name } : {}) },
    unverifiable: o.unverifiable.filter((f) => f !== 'branded'),
  };
}

async function observeCloudServer(ctx: ReconcileContext, id: Identity): Promise<Observed | undefined> {
  const live = (await listedServers(ctx)).find((s) => s.name.toLowerCase() === id.key);
  return live && observedServer(live, id);
}

async function diffObservedCloudServer(_ctx: ReconcileContext, spec: CloudServerSpec, live: Observed): Promise<FieldDiff[]> {
  const diffs: FieldDiff[] = [];
  for (const field of ['provider', 'spec', 'zone'] as const) {
    if (live.fields[field] !== spec[field]) diffs.push({ field, declared: spec[field], live: live.fields[field] });
  }
  return diffs;
}

export const cloudServerReconciler = {
  observe: observeCloudServer,
  list: async (ctx) => (await listedServers(ctx)).map((s) => observedServer(s)),
  diff: diffObservedCloudServer,
  ensure: ensureCloudServer,
  remove: deleteCloudServer,
  whyMissing: async () => 'not listed in the account (cancelled, or still provisioning)',
  // The user an order is for, when named by number: no plan can create that one (see userRefProblems).
  checkAccount: async (ctx, spec, checked) => ({ problems: checked('forUser') ? await userRefProblems(ctx, 'forUser', spec.forUser) : [] }),
  declarable: declarableServer,
  entries(o) {
    const packages = (o.computed.packageIds as number[]).length;
    return [{ id: o.liveId, detail: `${String(o.fields.provider)} ${String(o.fields.spec)} in ${String(o.fields.zone)}${packages ? `, ${packages} package(s) on it` : ''}` }];
  },
} satisfies KindReconciler<'cloud-server'>;
