import { arrayOf, bool, Check, fields, hex64, int, nullable, str } from '../../shape';

/**
 * Mailboxes, forwarders and autoresponders: their part of the state (a package's `mailboxes` and
 * `forwarders`, the `mailId` counter), the checks and their part of the state dump.
 */

declare module '../../backend/model' {
  interface Package {
    mailboxes: Mailbox[];
    forwarders: Forwarder[];
    /** Autoresponders (state version 3). */
    responders: Responder[];
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

export interface Responder {
  /** Numeric part of the `r<id>` identifier (drawn from the mail counter). */
  id: number;
  domain: string;
  /** Canonical (lowercase) local part; the address needs no mailbox. */
  local: string;
  subject: string;
  content: string;
  /** `text/plain` or `text/html`. */
  type: string;
  enabled: boolean;
  /** ISO 8601 with milliseconds, UTC (`2026-12-24T09:00:00.000Z`), or null. */
  startTime: string | null;
  endTime: string | null;
  forwardTo: string | null;
}

/** An autoresponder in the state dump. */
export type ResponderDump = Omit<Responder, 'id' | 'domain'> & { id: string; address: string };

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
  responders: ResponderDump[];
}

const mailbox: Check = (v) => fields(v, {
  id: int, domain: str, local: str, send: bool, receive: bool, enabled: bool, quotaMB: int, usageMB: int, passwordSha256: hex64,
});
const forwarder: Check = (v) => fields(v, { id: int, domain: str, local: str, remote: str });
const responder: Check = (v) => fields(v, {
  id: int, domain: str, local: str, subject: str, content: str, type: str, enabled: bool,
  startTime: nullable(str), endTime: nullable(str), forwardTo: nullable(str),
});

export const packageChecks: Record<string, Check> = {
  mailboxes: arrayOf(mailbox),
  forwarders: arrayOf(forwarder),
  responders: arrayOf(responder),
};
