/**
 * Cloud server providers, sizes and locations (spec 2.7, 2.8) and the API's product
 * strings for each provider (api-notes "Cloud servers").
 */

/** Where a managed cloud server runs. */
export enum CloudProvider {
  /** The service's own (native, brandable) cloud (the API's `cloud-20i` / `20icloud`). */
  NATIVE = 'native',
  /** Third-party public cloud platform B (AWS). */
  AWS = 'aws',
  /** Third-party public cloud platform C (Google Cloud). */
  GCP = 'gcp',
}

export const CLOUD_PROVIDERS: readonly CloudProvider[] = [CloudProvider.NATIVE, CloudProvider.AWS, CloudProvider.GCP];

/** Size of one spec: CPU count, RAM and disk (GB), bandwidth (unit unlabelled by the spec). */
export interface CloudSize {
  readonly cpu: number;
  readonly ramGb: number;
  readonly diskGb: number;
  readonly bandwidth: number;
}

/** Order of the spec names, smallest first (spec 2.7). */
export const SPEC_NAMES = [
  'micro', 'small', 'medium', 'large', 'x-large', '2x-large', '4x-large', '8x-large', '16x-large', '32x-large',
] as const;
export type CloudSpecName = (typeof SPEC_NAMES)[number];

function table(rows: Array<[CloudSpecName, number, number, number, number]>): Readonly<Record<string, CloudSize>> {
  const out: Record<string, CloudSize> = {};
  for (const [name, cpu, ramGb, diskGb, bandwidth] of rows) out[name] = { cpu, ramGb, diskGb, bandwidth };
  return Object.freeze(out);
}

export const CLOUD_SIZES: Readonly<Record<CloudProvider, Readonly<Record<string, CloudSize>>>> = {
  [CloudProvider.NATIVE]: table([
    ['micro', 1, 1, 25, 1000], ['small', 1, 2, 50, 2000], ['medium', 2, 4, 80, 4000],
    ['large', 4, 8, 160, 5000], ['x-large', 8, 16, 320, 10000], ['2x-large', 12, 32, 640, 20000],
    ['4x-large', 16, 32, 640, 30000], ['8x-large', 24, 64, 1280, 40000],
    ['16x-large', 32, 96, 1440, 40000], ['32x-large', 48, 128, 1920, 40000],
  ]),
  [CloudProvider.AWS]: table([
    ['micro', 2, 1, 20, 2], ['small', 2, 2, 20, 2], ['medium', 2, 4, 20, 2], ['large', 2, 8, 20, 2],
    ['x-large', 4, 16, 20, 2], ['2x-large', 8, 32, 20, 2], ['4x-large', 16, 64, 20, 2], ['8x-large', 32, 128, 20, 2],
  ]),
  [CloudProvider.GCP]: table([
    ['micro', 1, 3.75, 20, 2], ['small', 2, 8, 20, 2], ['medium', 4, 16, 20, 2], ['large', 8, 32, 20, 2],
    ['x-large', 16, 64, 20, 2], ['2x-large', 32, 128, 20, 2], ['4x-large', 48, 192, 20, 2], ['8x-large', 64, 256, 20, 2],
  ]),
};

export const CLOUD_ZONES: Readonly<Record<CloudProvider, readonly string[]>> = {
  [CloudProvider.NATIVE]: ['dc_location-uk', 'dc_location-usa'],
  [CloudProvider.AWS]: [
    'us-east-1', 'us-east-2', 'us-west-1', 'us-west-2', 'ap-south-1', 'ap-south-2', 'ap-northeast-1', 'ap-northeast-2',
    'ap-northeast-3', 'ap-southeast-1', 'ap-southeast-2', 'ca-central-1', 'eu-central-1', 'eu-west-1', 'eu-west-2',
    'eu-west-3', 'eu-north-1', 'sa-east-1', 'ap-east-1', 'af-south-1', 'ap-southeast-3', 'ap-southeast-4', 'eu-south-1',
    'eu-south-2', 'eu-central-2', 'me-south-1', 'me-central-1',
  ],
  [CloudProvider.GCP]: [
    'asia-east1', 'asia-east2', 'asia-northeast1', 'asia-northeast2', 'asia-northeast3', 'asia-south1', 'asia-south2',
    'asia-southeast1', 'asia-southeast2', 'australia-southeast1', 'australia-southeast2', 'europe-central2',
    'europe-north1', 'europe-southwest1', 'europe-west1', 'europe-west12', 'europe-west2', 'europe-west3',
    'europe-west4', 'europe-west6', 'europe-west8', 'europe-west9', 'me-west1', 'northamerica-northeast1',
    'northamerica-northeast2', 'southamerica-east1', 'southamerica-west1', 'us-central1', 'us-east1', 'us-east4',
    'us-east5', 'us-south1', 'us-west1', 'us-west2', 'us-west3', 'us-west4',
  ],
};

/** The order body's `type` and `configuration.provider` for each provider (api-notes, docs). */
export const CLOUD_PRODUCT: Readonly<Record<CloudProvider, { readonly type: string; readonly provider: string }>> = {
  [CloudProvider.NATIVE]: { type: 'cloud-20i', provider: '20icloud' },
  [CloudProvider.AWS]: { type: 'cloud-aws', provider: 'aws' },
  [CloudProvider.GCP]: { type: 'cloud-gcp', provider: 'gcp' },
};

/** Billing periods a server may be ordered for. The spec only says "months": assumed. */
export const PERIOD_MONTHS: readonly number[] = [1, 3, 6, 12, 24, 36];

/** The provider whose API `type` or `configuration.provider` string is given, if any. */
export function providerFromApi(value: string): CloudProvider | undefined {
  return CLOUD_PROVIDERS.find((p) => CLOUD_PRODUCT[p].type === value || CLOUD_PRODUCT[p].provider === value);
}

export function checkCloudProvider(provider: unknown): string | undefined {
  return (CLOUD_PROVIDERS as readonly unknown[]).includes(provider)
    ? undefined
    : `must be one of ${CLOUD_PROVIDERS.join(', ')}`;
}

export function checkCloudSpec(provider: CloudProvider, spec: unknown): string | undefined {
  const sizes = CLOUD_SIZES[provider];
  if (typeof spec === 'string' && sizes[spec]) return undefined;
  return `"${String(spec)}" is not a size of provider ${provider}; allowed: ${Object.keys(sizes).join(', ')}`;
}

export function checkCloudZone(provider: CloudProvider, zone: unknown): string | undefined {
  if (typeof zone === 'string' && CLOUD_ZONES[provider].includes(zone)) return undefined;
  const zones = CLOUD_ZONES[provider];
  const shown = zones.length > 6 ? `${zones.slice(0, 6).join(', ')}, … (${zones.length} in all)` : zones.join(', ');
  return `"${String(zone)}" is not a location of provider ${provider}; allowed: ${shown}`;
}

export function checkPeriodMonths(months: unknown): string | undefined {
  return typeof months === 'number' && PERIOD_MONTHS.includes(months)
    ? undefined
    : `${String(months)} is not a billing period; allowed months: ${PERIOD_MONTHS.join(', ')}`;
}

/**
 * Every size of every provider in words, for descriptions users read where they write
 * `spec` (the provider's schema, the generated resource page): `native: micro (1 CPU,
 * 1 GB RAM, 25 GB disk), small (...)...; aws: ...`.
 */
export function cloudSizesText(): string {
  return CLOUD_PROVIDERS.map((p) => `${p}: ${Object.entries(CLOUD_SIZES[p])
    .map(([name, s]) => `${name} (${s.cpu} CPU, ${s.ramGb} GB RAM, ${s.diskGb} GB disk)`).join(', ')}`).join('; ');
}

/** Every zone of every provider in words, for descriptions (`native: dc_location-uk, dc_location-usa; aws: ...`). */
export function cloudZonesText(): string {
  return CLOUD_PROVIDERS.map((p) => `${p}: ${CLOUD_ZONES[p].join(', ')}`).join('; ');
}
