import type { CloudServerSpec, ForwarderSpec, Kind, MailboxSpec, ObjectSpec, PackageSpec, SpecOf, StackUserSpec } from '../protocol';
import { userKey } from '../protocol';
import * as cloudServer from './cloud-server';
import type { ReconcileContext } from './context';
import { describeDiffs } from './diff';
import { ReconcileError } from './errors';
import * as forwarder from './forwarder';
import * as mailbox from './mailbox';
import * as pkg from './package';
import * as stackUser from './stack-user';

/**
 * The commands of stacks synthesized by 0.1, all in this one place: `handler update`
 * (their settings resource reconciled an existing object's settings) and
 * `handler set-password` (their separate password resource). Still served, each
 * reconciling for real; stacks synthesized since run `ensure` only.
 */

async function updatePackage(ctx: ReconcileContext, spec: PackageSpec): Promise<void> {
  const live = await pkg.findPrimary(ctx, spec);
  if (!live) {
    throw new ReconcileError(
      `${spec.path}: package ${spec.domainName} does not exist in the account (deleted outside Terraform?); ` +
        `run 'reseller-hosting drift --fix' to recreate it`,
    );
  }
  const changed = await pkg.applyPackageSettings(ctx, await pkg.resolvePackage(ctx, spec), pkg.livePackageFromDetail(live));
  ctx.info(changed.length ? `updated package ${spec.domainName}: ${describeDiffs(changed)}` : `package ${spec.domainName} is up to date`);
}

/** Reconciles send/receive of an existing mailbox. */
async function updateMailbox(ctx: ReconcileContext, spec: MailboxSpec): Promise<void> {
  const live = await mailbox.findMailbox(ctx, spec);
  const address = mailbox.address(spec);
  if (!live) throw new ReconcileError(`${spec.path}: mailbox ${address} does not exist (deleted outside Terraform?); run 'reseller-hosting drift --fix'`);
  const changed = await mailbox.applyMailboxSettings(ctx, spec, live);
  ctx.info(changed.length ? `updated mailbox ${address}: ${describeDiffs(changed)}` : `mailbox ${address} is up to date`);
}

/** `handler set-password`: 0.1's password resource was replaced only on rotation. */
async function setPassword(ctx: ReconcileContext, spec: MailboxSpec): Promise<void> {
  const password = mailbox.passwordOf(ctx, spec);
  const address = mailbox.address(spec);
  if (!password) throw new ReconcileError(`${spec.path}: no password to set for mailbox ${address} (the variable or environment value is empty)`);
  const live = await mailbox.findMailbox(ctx, spec);
  if (!live) throw new ReconcileError(`${spec.path}: mailbox ${address} does not exist`);
  await mailbox.writePassword(ctx, spec, live.id, password);
  ctx.info(`set password of mailbox ${address} (version ${spec.passwordVersion ?? 1})`);
}

async function updateForwarder(ctx: ReconcileContext, spec: ForwarderSpec): Promise<void> {
  const outcome = await forwarder.reconcileForwarder(ctx, spec);
  const address = forwarder.address(spec);
  ctx.info(outcome === 'adopted' ? `forwarder ${address} is up to date` : `updated forwarder ${address}: remote -> ${spec.remote}`);
}

async function updateCloudServer(ctx: ReconcileContext, spec: CloudServerSpec): Promise<void> {
  const live = await cloudServer.findServer(ctx, spec.hostName);
  if (!live) throw new ReconcileError(`${spec.path}: cloud server ${spec.hostName} is not listed in the account (cancelled outside Terraform?)`);
  const diffs = cloudServer.diffCloudServer(spec, live);
  if (diffs.length) throw cloudServer.immutableError(spec, diffs);
  await cloudServer.warnIfBranded(ctx, spec, live.id);
  ctx.info(`cloud server ${spec.hostName} is up to date`);
}

/** Nothing of a user is changeable: reports a difference. */
async function updateStackUser(ctx: ReconcileContext, spec: StackUserSpec): Promise<void> {
  const live = await stackUser.findUser(ctx, userKey(spec.email));
  if (!live) throw new ReconcileError(`${spec.path}: stack user ${spec.email} does not exist (deleted outside Terraform?); run 'reseller-hosting drift --fix'`);
  stackUser.reportFixed(ctx, spec, live);
  ctx.info(`stack user ${spec.email} is up to date`);
}

/** The kinds 0.1 synthesized settings resources for; a kind added since has no `handler update`. */
const UPDATES: { [K in Kind]?: (ctx: ReconcileContext, spec: SpecOf<K>) => Promise<void> } = {
  package: updatePackage,
  mailbox: updateMailbox,
  forwarder: updateForwarder,
  'cloud-server': updateCloudServer,
  'stack-user': updateStackUser,
};

export const legacy = {
  /** `handler update`: reconciles the settings of an existing object. */
  async update(ctx: ReconcileContext, spec: ObjectSpec): Promise<void> {
    const update = UPDATES[spec.kind] as ((ctx: ReconcileContext, spec: ObjectSpec) => Promise<void>) | undefined;
    if (!update) throw new ReconcileError(`${spec.path}: handler update is a command of stacks synthesized by 0.1, which had no ${spec.kind} objects; synthesize the stack again`);
    return update(ctx, spec);
  },
  /** `handler set-password` of a mailbox (0.1's password resource); other kinds have no password resource. */
  async setPassword(ctx: ReconcileContext, spec: ObjectSpec): Promise<void> {
    // 0.1 synthesized a password resource for mailboxes only.
    if (spec.kind !== 'mailbox') throw new ReconcileError(`set-password applies to mailboxes only, not to ${spec.kind}`);
    return setPassword(ctx, spec);
  },
};
