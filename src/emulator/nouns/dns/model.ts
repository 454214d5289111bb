import { arrayOf, Check, fields, int, isOneOf, nullable, str } from '../../shape';
import { isPlainObject } from '../../util';

/**
 * DNS zones: their part of the state (a package's `zones`, the `dnsRef` counter), the
 * record types, the checks and their part of the state dump. Zones joined the state in
 * version 2 (`since` in index.ts): an older data file gets each package's zones on load.
 */

declare module '../../backend/model' {
  interface Package {
    /** One DNS zone per zone apex among the package's names (see `zoneApexes` in assumed.ts), in the order they joined. */
    zones: DnsZone[];
  }
  interface Counters {
    /** Next DNS record ref: a ref is never reused, not even after its record is deleted. */
    dnsRef: number;
  }
}

declare module '../../snapshot' {
  interface PackageDump {
    /** The package's DNS zones, one per apex name, in the order the names joined. */
    dns: DnsZoneDump[];
  }
}

/** The record types `new` may carry (api-notes: no NS key, and the SOA is the zone's own). */
export const WRITABLE_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'SRV'] as const;
export type WritableType = (typeof WRITABLE_TYPES)[number];

/** The record types a zone can hold; SOA and NS are read-only through the API. */
export type DnsRecordType = 'SOA' | 'NS' | WritableType;

/** The record types whose records the API shows (SOA and NS included). */
export const RECORD_TYPES: readonly DnsRecordType[] = ['SOA', 'NS', ...WRITABLE_TYPES];

export interface DnsZone {
  /** Canonical apex name (one of the package's names). */
  apex: string;
  /** In the order they were added. */
  records: DnsRecord[];
}

export interface DnsRecord {
  /** Numeric id, stable and never reused; null for the SOA (api-notes: the SOA's is null). */
  ref: number | null;
  type: DnsRecordType;
  /** Fully qualified owner name, canonical lowercase, no trailing dot (`www.example.com`). */
  host: string;
  /**
   * The type's wire fields (A `ip`, MX `pri` + `target`, SOA `mname` ...), numbers as
   * numbers, names without a trailing dot.
   */
  data: Record<string, string | number>;
}

export interface DnsZoneDump {
  apex: string;
  /**
   * Records as the API reads them (default profile): `{type, host, ref, ...fields}`,
   * `host` fully qualified, `ref` null for the SOA.
   */
  records: Array<Record<string, string | number | null>>;
}

export const FIRST_DNS_REF = 7_000_001;

const recordData: Check = (v) => isPlainObject(v) && Object.values(v).every((x) => str(x) || int(x));
const dnsRecord: Check = (v) => fields(v, { ref: nullable(int), type: isOneOf(RECORD_TYPES), host: str, data: recordData });
const zone: Check = (v) => fields(v, { apex: str, records: arrayOf(dnsRecord) });

export const packageChecks: Record<string, Check> = { zones: arrayOf(zone) };

/** The structural check of one zone, for a noun that keeps a zone of its own (a registered domain's). */
export const dnsZoneCheck: Check = zone;
