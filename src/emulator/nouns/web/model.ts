import { arrayOf, bool, Check, fields, int, str } from '../../shape';

/**
 * The web settings of a package (api-notes "Web: HTTPS and PHP version of a package"):
 * their part of the state (a package's `web`, an account's certificate issuance delay,
 * the `certificateId` counter), the checks and their part of the state dump.
 */

declare module '../../backend/model' {
  interface Account {
    /** How long a requested free certificate takes to be issued, ms (POST /__emulator/web/settings). */
    certificateDelayMs: number;
  }
  interface Package {
    web: WebState;
  }
  interface Counters {
    /** Next certificate id. */
    certificateId: number;
  }
}

declare module '../../snapshot' {
  interface AccountDump {
    /** How long a requested free certificate takes to be issued, ms. */
    certificateDelayMs: number;
  }
  interface PackageDump {
    web: WebDump;
  }
}

export interface WebState {
  forceSsl: boolean;
  /** As the API reads it back ("php81"). */
  phpVersion: string;
  /** Installed and requested certificates; a free one is listed once it is issued (see backend.ts). */
  certificates: Certificate[];
  /** Free certificates asked for names that do not point at this service: never issued (DNS). */
  waitingForDns: WaitingName[];
}

export interface Certificate {
  id: number;
  /** Lowercase host name. */
  commonName: string;
  provider: string;
  requestedAtMs: number;
  /** The issuance delay in force when it was asked for (0 for one installed at once). */
  delayMs: number;
}

export interface WaitingName {
  name: string;
  requestedAtMs: number;
}

export interface WebDump {
  forceHttps: boolean;
  phpVersion: string;
  certificates: Array<{ id: number; commonName: string; provider: string; state: 'issued' | 'issuing'; issuedAt: string }>;
  /** Free certificates asked for names whose DNS does not point here: never issued. */
  waitingForDns: Array<{ name: string; requestedAt: string }>;
}

export const FIRST_CERTIFICATE_ID = 4001;

const certificate: Check = (v) => fields(v, { id: int, commonName: str, provider: str, requestedAtMs: int, delayMs: int });
const waiting: Check = (v) => fields(v, { name: str, requestedAtMs: int });

export const accountChecks: Record<string, Check> = { certificateDelayMs: int };
export const packageChecks: Record<string, Check> = {
  web: (v) => fields(v, { forceSsl: bool, phpVersion: str, certificates: arrayOf(certificate), waitingForDns: arrayOf(waiting) }),
};
