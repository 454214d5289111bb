import { arrayOf, bool, Check, fields, hex64, int, str } from '../../shape';

/**
 * Mailboxes and forwarders: their part of the state (a package's `mailboxes` and
 * `forwarders`, the `mailId` counter), the checks and their part of the state dump.
 */

declare module '../../backend/model' {
  interface Package {
    mailboxes: Mailbox[];
    forwarders: Forwarder[];
  }
  interface Counters {
    /** Next mail object id (shared by mailboxes `m<n>` and forwarders `f<n>`). */
    mailId: number;
  }
}

declare module '../../snapshot' {
  interface PackageDump {
    /** One entry per domain name of the package that has mail objects. */
    mail: MailDomainDump[];
  }
}

export interface Mailbox {
  /** Numeric part of the `m<id>` identifier. */
  id: number;
  /** One of the package's names. */
  domain: string;
  /** Canonical (lowercase) local part. */
  local: string;
  send: boolean;
  receive: boolean;
  enabled: boolean;
  quotaMB: number;
  usageMB: number;
  /** sha256 hex of the password that was set; the password itself is never kept. */
  passwordSha256: string;
}

export interface Forwarder {
  /** Numeric part of the `f<id>` identifier. */
  id: number;
  domain: string;
  local: string;
  /** Destination address, domain part lowercased and IDNA. */
  remote: string;
}

export interface MailDomainDump {
  domain: string;
  mailboxes: Array<{
    id: string;
    local: string;
    address: string;
    send: boolean;
    receive: boolean;
    enabled: boolean;
    quotaMB: number;
    usageMB: number;
    /** sha256 hex of the current password. */
    passwordSha256: string;
  }>;
  forwarders: Array<{ id: string; local: string; address: string; remote: string }>;
}

const mailbox: Check = (v) => fields(v, {
  id: int, domain: str, local: str, send: bool, receive: bool, enabled: bool, quotaMB: int, usageMB: int, passwordSha256: hex64,
});
const forwarder: Check = (v) => fields(v, { id: int, domain: str, local: str, remote: str });

export const packageChecks: Record<string, Check> = {
  mailboxes: arrayOf(mailbox),
  forwarders: arrayOf(forwarder),
};
