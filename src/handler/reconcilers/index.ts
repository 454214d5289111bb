import { Identity, Kind, ObjectSpec } from '../../protocol';
import { HandlerContext } from '../context';
import { deleteCloudServer, ensureCloudServer, updateCloudServer } from './cloud-server';
import { deleteForwarder, ensureForwarder, updateForwarder } from './forwarder';
import { deleteMailbox, ensureMailbox, setMailboxPassword, updateMailbox } from './mailbox';
import { deletePackage, ensurePackage, updatePackage } from './package';

/** One reconciler per kind: ensure (create or adopt, full state), update (settings), delete. */
export interface Reconciler {
  ensure(ctx: HandlerContext, spec: ObjectSpec): Promise<void>;
  update(ctx: HandlerContext, spec: ObjectSpec): Promise<void>;
  remove(ctx: HandlerContext, identity: Identity): Promise<void>;
  setPassword?(ctx: HandlerContext, spec: ObjectSpec): Promise<void>;
}

type SpecOf<K extends Kind> = Extract<ObjectSpec, { kind: K }>;

function reconciler<K extends Kind>(r: {
  ensure(ctx: HandlerContext, spec: SpecOf<K>): Promise<void>;
  update(ctx: HandlerContext, spec: SpecOf<K>): Promise<void>;
  remove(ctx: HandlerContext, identity: Identity): Promise<void>;
  setPassword?(ctx: HandlerContext, spec: SpecOf<K>): Promise<void>;
}): Reconciler {
  return r as Reconciler;
}

export const RECONCILERS: Record<Kind, Reconciler> = {
  package: reconciler<'package'>({ ensure: ensurePackage, update: updatePackage, remove: deletePackage }),
  mailbox: reconciler<'mailbox'>({ ensure: ensureMailbox, update: updateMailbox, remove: deleteMailbox, setPassword: setMailboxPassword }),
  forwarder: reconciler<'forwarder'>({ ensure: ensureForwarder, update: updateForwarder, remove: deleteForwarder }),
  'cloud-server': reconciler<'cloud-server'>({ ensure: ensureCloudServer, update: updateCloudServer, remove: deleteCloudServer }),
};
