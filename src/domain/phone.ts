import { parsePhoneNumberFromString, getCountryCallingCode, getExampleNumber, isSupportedCountry, type CountryCode } from 'libphonenumber-js';
import { parsePhoneNumberFromString as parseFull } from 'libphonenumber-js/max';
import mobileExamples from 'libphonenumber-js/mobile/examples';

export interface NormalizedPhone {
  e164: string;
  national: string;
}

/**
 * A buyer's phone must be a possible number of the store's country (SPEC 4.1 step 7):
 * parsed with libphonenumber-js against that country, it must be possible and carry that
 * country's calling code. Returns undefined otherwise.
 */
export function normalizePhone(text: string, country: string): NormalizedPhone | undefined {
  if (!isSupportedCountry(country)) return undefined;
  const cc = country as CountryCode;
  const parsed = parsePhoneNumberFromString(text, { defaultCountry: cc, extract: false });
  if (!parsed || !parsed.isPossible()) return undefined;
  if (parsed.countryCallingCode !== getCountryCallingCode(cc)) return undefined;
  return { e164: parsed.number, national: parsed.formatNational() };
}

/** Digits only, for rate-limit buckets keyed by a phone before it is validated. */
export const phoneDigits = (text: string): string => text.replace(/\D+/g, '');

export interface PhoneDetails extends NormalizedPhone {
  international: string;
  /** libphonenumber's line type: MOBILE, FIXED_LINE, FIXED_LINE_OR_MOBILE… (undefined when unknown). */
  type: string | undefined;
  /** A valid number (not only a possible one) per the full metadata. */
  valid: boolean;
}

/** For normalize_phone: the full metadata tells mobiles from landlines, which orders do not need. */
export function phoneDetails(text: string, country: string): PhoneDetails | undefined {
  const base = normalizePhone(text, country);
  if (!base) return undefined;
  const full = parseFull(text, { defaultCountry: country as CountryCode, extract: false });
  return { ...base, international: full?.formatInternational() ?? base.e164, type: full?.getType(), valid: full?.isValid() ?? false };
}

/** Example mobile number length of a country (its national significant number), for list_countries. */
export function mobileNumberLength(country: string): number | undefined {
  return isSupportedCountry(country) ? getExampleNumber(country as CountryCode, mobileExamples)?.nationalNumber.length : undefined;
}

export const dialCode = (country: string): string | undefined => (isSupportedCountry(country) ? `+${getCountryCallingCode(country as CountryCode)}` : undefined);

/** The national significant digits of an E.164 number, as platforms that want "the phone without the country code" take it. */
export function nationalDigits(e164: string): string {
  return parsePhoneNumberFromString(e164)?.nationalNumber ?? phoneDigits(e164);
}
