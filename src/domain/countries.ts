// ISO 3166-1 alpha-2: the 249 officially assigned codes.
const ISO_3166_ALPHA2 =
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
  'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR ' +
  'GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP ' +
  'KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT ' +
  'MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW ' +
  'SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG ' +
  'UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW';

// 249 codes; a test checks the count.
export const COUNTRY_CODES: ReadonlySet<string> = new Set(ISO_3166_ALPHA2.split(' '));

/** Case-insensitive: returns the upper-case code, or undefined when it is not ISO 3166-1 alpha-2. */
export function parseCountry(text: string): string | undefined {
  const code = text.trim().toUpperCase();
  return /^[A-Z]{2}$/.test(code) && COUNTRY_CODES.has(code) ? code : undefined;
}

const CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'));

/** ISO 4217 code, upper case, or undefined. */
export function parseCurrency(text: string): string | undefined {
  const code = text.trim().toUpperCase();
  return /^[A-Z]{3}$/.test(code) && CURRENCIES.has(code) ? code : undefined;
}

/** Countries whose orders need `codigo_postal` (SPEC 4.1 step 7). */
export const POSTAL_CODE_REQUIRED: ReadonlySet<string> = new Set(['MX', 'ES']);

/** Countries whose submitted city is canonicalized against the fulfillment catalog (SPEC 6). */
export const CANONICALIZED_COUNTRIES: ReadonlySet<string> = new Set(['PY', 'MX', 'CO', 'PA', 'EC']);

/** Countries with an official bundled dataset, public in /api/geo/cities (seed 4.2). */
export const OFFICIAL_COUNTRIES: readonly string[] = ['AR', 'CL', 'CO', 'EC', 'GT', 'MX', 'PE', 'PY'];
