// Orders need only libphonenumber's small metadata; the full one (line types) and the example
// numbers are in phone-details.ts, loaded by what lists countries and describes numbers.
import { parsePhoneNumberFromString, getCountryCallingCode, isSupportedCountry, type CountryCode } from 'libphonenumber-js';

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

export const dialCode = (country: string): string | undefined => (isSupportedCountry(country) ? `+${getCountryCallingCode(country as CountryCode)}` : undefined);

/** The national significant digits of an E.164 number, as platforms that want "the phone without the country code" take it. */
export function nationalDigits(e164: string): string {
  return parsePhoneNumberFromString(e164)?.nationalNumber ?? phoneDigits(e164);
}
