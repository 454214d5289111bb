import { createHash } from 'node:crypto';
import type { ResellerClient } from '../client';
import type { HandlerCommand } from '../protocol';
import { Journal } from './journal';

/** What every reconciler gets: the API client, output, the journal and the object's Terraform id. */
export interface HandlerContext {
  readonly client: ResellerClient;
  /** The handler command being run; undefined when reconciling for drift --fix. */
  readonly command?: HandlerCommand;
  readonly journal: Journal;
  /** Terraform id of the object resource (RESELLER_OBJECT_ID), when the provisioner passed it. */
  readonly objectId?: string;
  /** Distinguishes accounts and endpoints in journal names (a hash: the key never reaches disk). */
  readonly accountScope: string;
  /** One line per action, on stdout. */
  info(line: string): void;
  /** Warnings, on stderr. */
  warn(line: string): void;
  /** Mailbox password from the provisioner environment, if any (never printed). */
  readonly password?: string;
}

export function accountScope(baseUrl: string, resellerId: string, apiKey: string): string {
  return createHash('sha256').update(`${baseUrl}\n${resellerId}\n${apiKey}`).digest('hex').slice(0, 24);
}
