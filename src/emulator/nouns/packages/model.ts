import { arrayOf, bool, Check, fields, int, nullable, isOneOf, str, stringMap } from '../../shape';

/**
 * Hosting packages: their part of the state (a package's type, label, status, document
 * roots and placement; an account's package types; the `packageId` counter), the
 * fixture package types, the checks and their part of the state dump.
 */

declare module '../../backend/model' {
  interface Account {
    packageTypes: PackageType[];
  }
  interface Package {
    /** Package type id (typeRef). */
    typeId: number;
    /** null when the package has no label. */
    label: string | null;
    enabled: boolean;
    /** ISO 8601 with offset. */
    created: string;
    /** Domain -> document root relative path, as given at creation. */
    documentRoots: Record<string, string>;
    /** The cloud server the package lives on, or null for a package on the reseller account. */
    cloudServerId: number | null;
  }
  interface Counters {
    /** Next package id (1000001 upward). */
    packageId: number;
  }
}

declare module '../../snapshot' {
  interface AccountDump {
    packageTypes: PackageTypeDump[];
  }
  interface PackageDump {
    typeRef: number;
    packageTypeName: string;
    platform: Platform;
    label: string | null;
    enabled: boolean;
    created: string;
    documentRoots: Record<string, string>;
    stackUsers: string[];
    /** The cloud server the package lives on, null on the reseller account. */
    cloudServerId: number | null;
  }
}

export type Platform = 'linux' | 'windows';

export interface PackageType {
  id: number;
  label: string;
  platform: Platform;
}

/** A package type in the state dump. */
export interface PackageTypeDump {
  id: number;
  label: string;
  platform: Platform;
}

export const FIRST_PACKAGE_ID = 1_000_001;

/** Package types of every account (GET /reseller/*\/packageTypes). */
export const FIXTURE_PACKAGE_TYPES: readonly PackageType[] = [
  { id: 811, label: 'Linux Unlimited', platform: 'linux' },
  { id: 812, label: 'Linux Starter', platform: 'linux' },
  { id: 813, label: 'Windows Unlimited', platform: 'windows' },
  { id: 820, label: 'Managed Cloud', platform: 'linux' },
];

/** The type a package created on a cloud server gets (POST /cloud_server/{id}/addWeb). */
export const CLOUD_PACKAGE_TYPE_ID = 820;

/** What a package type allows: a number, or the string "INF" for unlimited. */
export type Limit = number | 'INF';

/**
 * `limits` of each fixture package type (and of a package's detail). Unlimited is the
 * string "INF", as a production integration reads it (Upmind's 20i provider compares
 * `limits.domains`, `limits.webspace` and `limits.bandwidth` with 'INF'); otherwise a
 * number (webspace and bandwidth in MB). A type not listed here is unlimited.
 */
const TYPE_LIMITS: Readonly<Record<number, Readonly<Record<string, Limit>>>> = {
  811: { domains: 'INF', webspace: 'INF', bandwidth: 'INF', mailboxes: 'INF', mysqlDatabases: 'INF' },
  812: { domains: 5, webspace: 10240, bandwidth: 'INF', mailboxes: 10, mysqlDatabases: 5, mailAutoresponders: 2 },
  813: { domains: 'INF', webspace: 'INF', bandwidth: 'INF', mailboxes: 'INF', mysqlDatabases: 'INF' },
  820: { domains: 'INF', webspace: 'INF', bandwidth: 'INF', mailboxes: 'INF', mysqlDatabases: 'INF' },
};

/**
 * The web settings' limit codes (nouns/web): free certificates (`freeSsl`) and switching
 * the PHP version (`switchPhpVersion`); 0: the type does not offer it (Windows here).
 */
const WEB_TYPE_LIMITS: Readonly<Record<number, Readonly<Record<string, Limit>>>> = {
  811: { freeSsl: 'INF', switchPhpVersion: 1 },
  812: { freeSsl: 'INF', switchPhpVersion: 1 },
  813: { freeSsl: 0, switchPhpVersion: 0 },
  820: { freeSsl: 'INF', switchPhpVersion: 1 },
};

export function packageTypeLimits(typeId: number): Record<string, Limit> {
  return { ...(TYPE_LIMITS[typeId] ?? TYPE_LIMITS[811]), ...(WEB_TYPE_LIMITS[typeId] ?? WEB_TYPE_LIMITS[811]) };
}

const platform = isOneOf(['linux', 'windows']);

export const accountChecks: Record<string, Check> = {
  packageTypes: arrayOf((t) => fields(t, { id: int, label: str, platform })),
};

export const packageChecks: Record<string, Check> = {
  typeId: int,
  label: nullable(str),
  enabled: bool,
  created: str,
  documentRoots: stringMap,
  cloudServerId: nullable(int),
};
