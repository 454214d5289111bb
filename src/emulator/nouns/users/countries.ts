/**
 * ISO 3166-1 country codes, 2-letter to 3-letter. Integrations send a user's country
 * as `cc` with 2 letters (Clientexec's and Upmind's 20i modules) while the contact
 * record shows both (`ccAlpha2`, `ccAlpha3`, and `cc` with 3 letters, spec 2.2), so the
 * emulator must translate. Countries missing here are still accepted (see
 * `resolveCountry`).
 */
const PAIRS =
  'AD AND AE ARE AF AFG AG ATG AL ALB AM ARM AO AGO AR ARG AT AUT AU AUS AZ AZE BA BIH BB BRB BD BGD BE BEL ' +
  'BF BFA BG BGR BH BHR BI BDI BJ BEN BN BRN BO BOL BR BRA BS BHS BT BTN BW BWA BY BLR BZ BLZ CA CAN CD COD ' +
  'CF CAF CG COG CH CHE CI CIV CL CHL CM CMR CN CHN CO COL CR CRI CU CUB CV CPV CY CYP CZ CZE DE DEU DJ DJI ' +
  'DK DNK DM DMA DO DOM DZ DZA EC ECU EE EST EG EGY ER ERI ES ESP ET ETH FI FIN FJ FJI FM FSM FR FRA GA GAB ' +
  'GB GBR GD GRD GE GEO GG GGY GH GHA GI GIB GM GMB GN GIN GQ GNQ GR GRC GT GTM GW GNB GY GUY HK HKG HN HND ' +
  'HR HRV HT HTI HU HUN ID IDN IE IRL IL ISR IM IMN IN IND IQ IRQ IR IRN IS ISL IT ITA JE JEY JM JAM JO JOR ' +
  'JP JPN KE KEN KG KGZ KH KHM KI KIR KM COM KN KNA KP PRK KR KOR KW KWT KZ KAZ LA LAO LB LBN LC LCA LI LIE ' +
  'LK LKA LR LBR LS LSO LT LTU LU LUX LV LVA LY LBY MA MAR MC MCO MD MDA ME MNE MG MDG MH MHL MK MKD ML MLI ' +
  'MM MMR MN MNG MO MAC MR MRT MT MLT MU MUS MV MDV MW MWI MX MEX MY MYS MZ MOZ NA NAM NE NER NG NGA NI NIC ' +
  'NL NLD NO NOR NP NPL NR NRU NZ NZL OM OMN PA PAN PE PER PG PNG PH PHL PK PAK PL POL PR PRI PS PSE PT PRT ' +
  'PW PLW PY PRY QA QAT RO ROU RS SRB RU RUS RW RWA SA SAU SB SLB SC SYC SD SDN SE SWE SG SGP SI SVN SK SVK ' +
  'SL SLE SM SMR SN SEN SO SOM SR SUR SS SSD ST STP SV SLV SY SYR SZ SWZ TD TCD TG TGO TH THA TJ TJK TL TLS ' +
  'TM TKM TN TUN TO TON TR TUR TT TTO TV TUV TW TWN TZ TZA UA UKR UG UGA US USA UY URY UZ UZB VA VAT VC VCT ' +
  'VE VEN VN VNM VU VUT WS WSM YE YEM ZA ZAF ZM ZMB ZW ZWE';

const ALPHA3_OF = new Map<string, string>();
const ALPHA2_OF = new Map<string, string>();
{
  const codes = PAIRS.split(' ');
  for (let i = 0; i < codes.length; i += 2) {
    ALPHA3_OF.set(codes[i], codes[i + 1]);
    ALPHA2_OF.set(codes[i + 1], codes[i]);
  }
}

/**
 * A country given as 2 or 3 letters (any case) -> both codes, or undefined when it is
 * not 2 or 3 letters. A well-formed code missing from the table is kept as given, with
 * the other code empty: refusing a real country would fail a real client.
 */
export function resolveCountry(code: string): { alpha2: string; alpha3: string } | undefined {
  const upper = code.trim().toUpperCase();
  if (/^[A-Z]{2}$/.test(upper)) return { alpha2: upper, alpha3: ALPHA3_OF.get(upper) ?? '' };
  if (/^[A-Z]{3}$/.test(upper)) return { alpha2: ALPHA2_OF.get(upper) ?? '', alpha3: upper };
  return undefined;
}
