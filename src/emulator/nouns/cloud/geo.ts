/**
 * 2-letter country of each cloud location (spec 2.6 `configuration.Country`). The
 * spec lists the location codes (2.8) but not their countries; these are the
 * countries where the providers' regions of those names are.
 */
export const COUNTRY_OF_ZONE: Readonly<Record<string, string>> = {
  // Native provider
  'dc_location-uk': 'GB', 'dc_location-usa': 'US',
  // Platform B
  'us-east-1': 'US', 'us-east-2': 'US', 'us-west-1': 'US', 'us-west-2': 'US', 'ap-south-1': 'IN', 'ap-south-2': 'IN',
  'ap-northeast-1': 'JP', 'ap-northeast-2': 'KR', 'ap-northeast-3': 'JP', 'ap-southeast-1': 'SG', 'ap-southeast-2': 'AU',
  'ca-central-1': 'CA', 'eu-central-1': 'DE', 'eu-west-1': 'IE', 'eu-west-2': 'GB', 'eu-west-3': 'FR', 'eu-north-1': 'SE',
  'sa-east-1': 'BR', 'ap-east-1': 'HK', 'af-south-1': 'ZA', 'ap-southeast-3': 'ID', 'ap-southeast-4': 'AU',
  'eu-south-1': 'IT', 'eu-south-2': 'ES', 'eu-central-2': 'CH', 'me-south-1': 'BH', 'me-central-1': 'AE',
  // Platform C
  'asia-east1': 'TW', 'asia-east2': 'HK', 'asia-northeast1': 'JP', 'asia-northeast2': 'JP', 'asia-northeast3': 'KR',
  'asia-south1': 'IN', 'asia-south2': 'IN', 'asia-southeast1': 'SG', 'asia-southeast2': 'ID',
  'australia-southeast1': 'AU', 'australia-southeast2': 'AU', 'europe-central2': 'PL', 'europe-north1': 'FI',
  'europe-southwest1': 'ES', 'europe-west1': 'BE', 'europe-west12': 'IT', 'europe-west2': 'GB', 'europe-west3': 'DE',
  'europe-west4': 'NL', 'europe-west6': 'CH', 'europe-west8': 'IT', 'europe-west9': 'FR', 'me-west1': 'IL',
  'northamerica-northeast1': 'CA', 'northamerica-northeast2': 'CA', 'southamerica-east1': 'BR',
  'southamerica-west1': 'CL', 'us-central1': 'US', 'us-east1': 'US', 'us-east4': 'US', 'us-east5': 'US',
  'us-south1': 'US', 'us-west1': 'US', 'us-west2': 'US', 'us-west3': 'US', 'us-west4': 'US',
};

export function countryOfZone(zone: string): string {
  return COUNTRY_OF_ZONE[zone] ?? 'US';
}
