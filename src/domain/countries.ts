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

export type RegionLabel = 'departamento' | 'estado' | 'provincia' | 'región';

export interface CountryProfile {
  code: string;
  name: string;
  /** The currency a new store of this country gets unless told otherwise. */
  currency: string;
  /** What buyers call the first administrative level (the checkout's label for `departamento`). */
  regionLabel: RegionLabel;
  /** The store's default timezone. */
  timezone: string;
}

const profile = (code: string, name: string, currency: string, regionLabel: RegionLabel, timezone: string): CountryProfile => ({ code, name, currency, regionLabel, timezone });

/**
 * The countries a store can sell in: the Spanish-speaking cash-on-delivery markets (MCP-TOOLS.md §5.7,
 * "supported countries from list_countries"). Dial codes and phone lengths come from libphonenumber-js.
 */
export const SUPPORTED_COUNTRIES: readonly CountryProfile[] = [
  profile('AR', 'Argentina', 'ARS', 'provincia', 'America/Argentina/Buenos_Aires'),
  profile('BO', 'Bolivia', 'BOB', 'departamento', 'America/La_Paz'),
  profile('CL', 'Chile', 'CLP', 'región', 'America/Santiago'),
  profile('CO', 'Colombia', 'COP', 'departamento', 'America/Bogota'),
  profile('CR', 'Costa Rica', 'CRC', 'provincia', 'America/Costa_Rica'),
  profile('DO', 'República Dominicana', 'DOP', 'provincia', 'America/Santo_Domingo'),
  profile('EC', 'Ecuador', 'USD', 'provincia', 'America/Guayaquil'),
  profile('ES', 'España', 'EUR', 'provincia', 'Europe/Madrid'),
  profile('GT', 'Guatemala', 'GTQ', 'departamento', 'America/Guatemala'),
  profile('HN', 'Honduras', 'HNL', 'departamento', 'America/Tegucigalpa'),
  profile('MX', 'México', 'MXN', 'estado', 'America/Mexico_City'),
  profile('NI', 'Nicaragua', 'NIO', 'departamento', 'America/Managua'),
  profile('PA', 'Panamá', 'USD', 'provincia', 'America/Panama'),
  profile('PE', 'Perú', 'PEN', 'departamento', 'America/Lima'),
  profile('PY', 'Paraguay', 'PYG', 'departamento', 'America/Asuncion'),
  profile('SV', 'El Salvador', 'USD', 'departamento', 'America/El_Salvador'),
  profile('UY', 'Uruguay', 'UYU', 'departamento', 'America/Montevideo'),
];

export const SUPPORTED_COUNTRY_CODES: readonly string[] = SUPPORTED_COUNTRIES.map((c) => c.code);

const BY_CODE: ReadonlyMap<string, CountryProfile> = new Map(SUPPORTED_COUNTRIES.map((c) => [c.code, c]));

export const countryProfile = (code: string): CountryProfile | undefined => BY_CODE.get(code.toUpperCase());

/** An IANA timezone name this runtime knows, in its canonical spelling; undefined otherwise. */
export function parseTimezone(text: string): string | undefined {
  try {
    return new Intl.DateTimeFormat('en', { timeZone: text.trim() }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}
