// Geo operations (MCP-TOOLS.md §6.9): countries, regions, cities, canonicalization, phones. Local
// catalog tables and libphonenumber metadata only; nothing leaves the server.
import * as v from 'valibot';
import { ORDER_FIELD_LIMITS as L } from '../../limits.ts';
import { countryInput, pageOf, textInput } from '../fields.ts';

export const ListCountriesInput = v.strictObject({});

export const ListRegionsInput = v.strictObject({ country: countryInput('ISO 3166-1 alpha-2 country, e.g. CO (see list_countries).') });

export const NormalizePhoneInput = v.strictObject({
  country: countryInput('Country the number belongs to (ISO 3166-1 alpha-2).'),
  phone: textInput('phone', L.telefono.min, L.telefono.max, 'The number as a buyer typed it, national or with +code.'),
});

export const Country = v.object({
  country: v.string(),
  name: v.string(),
  currency: v.string(),
  dial_code: v.string(),
  region_label: v.pipe(v.string(), v.description('What the checkout calls the region: departamento, estado, provincia, región.')),
  phone_length: v.pipe(v.nullable(v.number()), v.description('Digits of a national mobile number.')),
  timezone: v.string(),
  city_catalog: v.pipe(v.picklist(['official', 'fulfillment', 'none']), v.description('official: region and city selectors; none: free text.')),
  canonicalized: v.pipe(v.boolean(), v.description("Orders' cities are matched to the fulfillment catalog.")),
});

export const CountryList = pageOf(Country);

export const RegionList = v.object({
  ...pageOf(v.object({ name: v.string(), cities: v.number() })).entries,
  country: v.string(),
  region_label: v.string(),
  catalog: v.picklist(['official', 'fulfillment']),
});

export const CityPage = v.object({
  ...pageOf(v.object({ region: v.string(), city: v.string() })).entries,
  country: v.string(),
  catalog: v.string(),
});

export const CityDecision = v.object({
  country: v.string(),
  confident: v.boolean(),
  region: v.nullable(v.string()),
  city: v.nullable(v.string()),
  code: v.nullable(v.string()),
  score: v.number(),
  method: v.string(),
  reason: v.optional(v.string()),
  candidates: v.array(v.object({ region: v.string(), city: v.string(), code: v.optional(v.nullable(v.string())), score: v.optional(v.number()) })),
});

export const NormalizedPhone = v.object({
  country: v.string(),
  valid: v.pipe(v.boolean(), v.description('A possible number of the country (what orders require).')),
  e164: v.nullable(v.string()),
  national: v.nullable(v.string()),
  international: v.nullable(v.string()),
  type: v.pipe(v.nullable(v.string()), v.description('MOBILE, FIXED_LINE, FIXED_LINE_OR_MOBILE… when known.')),
  mobile: v.pipe(v.nullable(v.boolean()), v.description('Can receive WhatsApp/SMS as a mobile; null when unknown.')),
});
