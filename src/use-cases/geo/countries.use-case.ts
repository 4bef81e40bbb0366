// list_countries, list_regions and normalize_phone (MCP-TOOLS.md §6.9 rows 52, 53, 56).
import type * as v from 'valibot';
import type { Deps } from '../../app.ts';
import { CANONICALIZED_COUNTRIES, OFFICIAL_COUNTRIES, SUPPORTED_COUNTRIES, countryProfile } from '../../domain/countries.ts';
import { dialCode } from '../../domain/phone.ts';
import { mobileNumberLength, phoneDetails } from '../../domain/phone-details.ts';
import { AppError } from '../../errors.ts';
import type { CountryList, ListRegionsInput, NormalizedPhone, NormalizePhoneInput, RegionList } from './geo.schemas.ts';

type Out<S extends v.GenericSchema> = v.InferOutput<S>;

const OFFICIAL = new Set(OFFICIAL_COUNTRIES);
/** Countries with a fulfillment catalog bundled (PA has no official one, SPEC 6). */
const BUNDLED_FULFILLMENT = new Set([...OFFICIAL_COUNTRIES, 'PA']);

export async function listCountries(): Promise<Out<typeof CountryList>> {
  const items = SUPPORTED_COUNTRIES.map((c) => ({
    country: c.code,
    name: c.name,
    currency: c.currency,
    dial_code: dialCode(c.code) ?? '',
    region_label: c.regionLabel,
    phone_length: mobileNumberLength(c.code) ?? null,
    timezone: c.timezone,
    city_catalog: OFFICIAL.has(c.code) ? ('official' as const) : BUNDLED_FULFILLMENT.has(c.code) ? ('fulfillment' as const) : ('none' as const),
    canonicalized: CANONICALIZED_COUNTRIES.has(c.code),
  }));
  return { items, has_more: false };
}

export async function listRegions(deps: Pick<Deps, 'catalogs'>, _caller: unknown, input: Out<typeof ListRegionsInput>): Promise<Out<typeof RegionList>> {
  const catalog = OFFICIAL.has(input.country) ? 'official' : 'fulfillment';
  const view = await deps.catalogs.get(input.country, catalog);
  if (!view) throw new AppError('not_found', `No city catalog for ${input.country}: its checkout takes the region as free text`, [{ field: 'country', message: 'no city catalog' }]);
  return {
    country: input.country,
    region_label: countryProfile(input.country)!.regionLabel,
    catalog,
    items: Object.entries(view.regions).map(([name, cities]) => ({ name, cities: cities.length })),
    has_more: false,
  };
}

export async function normalizePhoneNumber(_deps: unknown, _caller: unknown, input: Out<typeof NormalizePhoneInput>): Promise<Out<typeof NormalizedPhone>> {
  const d = phoneDetails(input.phone, input.country);
  if (!d) return { country: input.country, valid: false, e164: null, national: null, international: null, type: null, mobile: null };
  const mobile = d.type === 'MOBILE' ? true : d.type === 'FIXED_LINE_OR_MOBILE' || d.type === undefined ? null : false;
  return { country: input.country, valid: true, e164: d.e164, national: d.national, international: d.international, type: d.type ?? null, mobile };
}
