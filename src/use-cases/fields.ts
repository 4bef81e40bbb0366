// Input pieces the account operations share: one definition gives the TypeScript type, the JSON
// Schema an assistant reads (with a description on every property, MCP-TOOLS.md §3.4) and the field
// error a caller gets. Actions JSON Schema cannot say (trim, checks) stay out of the schema's text.
import * as v from 'valibot';
import { MAX_MONEY_MAJOR, NAME_MAX } from '../limits.ts';
import { hasAtMostTwoDecimals } from '../domain/money.ts';
import { SUPPORTED_COUNTRY_CODES, parseCurrency, parseTimezone } from '../domain/countries.ts';
import { normalizeDomainEntry } from '../domain/domains.ts';

export { orderRefInput, uuidInput } from './validate.ts';
import { cleanText } from './text-input.ts';

/** A trimmed string of min..max characters, clean (cleanText: no control characters, NFC…); `multiline` keeps line breaks. */
export const textInput = (field: string, min: number, max: number, description: string, multiline = false) =>
  v.pipe(
    cleanText(field, !multiline),
    v.minLength(min, min === 1 ? `${field} must not be empty` : `${field} must be at least ${min} characters`),
    v.maxLength(max, `${field} must be at most ${max} characters`),
    v.description(description),
  );

export const nameInput = (field: string, description: string) => textInput(field, 1, NAME_MAX, description);

/** An optional clean text of at most max characters; "" stays "" (a field that "" clears). */
export const optionalText = (field: string, max: number, description: string, multiline = false) =>
  v.optional(v.pipe(cleanText(field, !multiline), v.maxLength(max, `${field} must be at most ${max} characters`), v.description(description)));

/** Money in major units of the store's currency (§5.5); the currency's decimals are checked by the use-case. */
export const moneyInput = (field: string, description: string) =>
  v.pipe(
    v.number(`${field} must be a number`),
    v.finite(`${field} must be a finite number`),
    v.minValue(0, `${field} must not be negative`),
    v.maxValue(MAX_MONEY_MAJOR, `${field} is out of range (at most ${MAX_MONEY_MAJOR})`),
    v.check(hasAtMostTwoDecimals, `${field} must have at most 2 decimals`),
    v.description(description),
  );

export const booleanInput = (field: string, description: string) => v.pipe(v.boolean(`${field} must be true or false`), v.description(description));

export const integerInput = (field: string, min: number, max: number, description: string) =>
  v.pipe(
    v.number(`${field} must be a number`),
    v.integer(`${field} must be a whole number`),
    v.minValue(min, `${field} must be at least ${min}`),
    v.maxValue(max, `${field} must be at most ${max}`),
    v.description(description),
  );

/** One of the supported countries (list_countries), any case. */
export const countryInput = (description: string) =>
  v.pipe(
    v.string('country must be a string'),
    v.toUpperCase(),
    v.picklist(SUPPORTED_COUNTRY_CODES, `country must be one of ${SUPPORTED_COUNTRY_CODES.join(', ')} (see list_countries)`),
    v.description(description),
  );

export const currencyInput = (description: string) =>
  v.pipe(
    v.string('currency must be a string'),
    v.regex(/^[A-Za-z]{3}$/, 'currency must be an ISO 4217 code such as COP or MXN'),
    v.transform((s) => parseCurrency(s) ?? ''),
    v.minLength(3, 'currency must be an ISO 4217 code such as COP or MXN'),
    v.description(description),
  );

export const timezoneInput = (description: string) =>
  v.pipe(
    v.string('timezone must be a string'),
    v.transform((s) => parseTimezone(s) ?? ''),
    v.minLength(1, 'timezone must be an IANA timezone such as America/Bogota'),
    v.description(description),
  );

/** A checkout host: lower case, no scheme, port or path; `*.example.com` for subdomains. */
export const domainInput = (description: string) =>
  v.pipe(
    cleanText('domain', true),
    v.transform((s) => normalizeDomainEntry(s) ?? ''),
    v.minLength(1, 'domain must be a host name like shop.example.com or *.example.com'),
    v.description(description),
  );

/** Page output of every list operation (§5.8): `{items, has_more, next_cursor?}`. */
export const pageOf = <T extends v.GenericSchema>(item: T) =>
  v.object({
    items: v.array(item),
    has_more: v.pipe(v.boolean(), v.description('More items follow: pass next_cursor to get them.')),
    next_cursor: v.optional(v.pipe(v.string(), v.description('Cursor of the next page, present when has_more.'))),
  });

/** A timestamp field of an output. */
export const timestamp = (description: string) => v.pipe(v.string(), v.description(description));
export const nullableTimestamp = (description: string) => v.pipe(v.nullable(v.string()), v.description(description));
