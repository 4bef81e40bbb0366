// What normalize_phone and list_countries say about a number beyond an order's needs: its line
// type and strict validity (libphonenumber's full metadata), and a country's mobile length (its
// example numbers). Their own module, so the order path and the CLI do not load 300 KB of
// metadata they never read (issue 26).
import { getExampleNumber, isSupportedCountry, type CountryCode } from 'libphonenumber-js';
import { parsePhoneNumberFromString as parseFull } from 'libphonenumber-js/max';
import mobileExamples from 'libphonenumber-js/mobile/examples';
import { normalizePhone, type NormalizedPhone } from './phone.ts';

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
