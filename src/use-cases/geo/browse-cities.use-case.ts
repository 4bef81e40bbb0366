// The city catalogs as the account surfaces browse them (MCP list_cities / canonicalize_city,
// MCP-TOOLS.md §6.9 rows 54-55): the official catalog where the country has one (seed 4.2), else
// the fulfillment catalog; canonicalization is what order creation decides (SPEC 6).
import * as v from 'valibot';
import type { Deps } from '../../app.ts';
import { OFFICIAL_COUNTRIES } from '../../domain/countries.ts';
import { foldCompact } from '../../domain/cities/fold.ts';
import { AppError } from '../../errors.ts';
import { ORDER_FIELD_LIMITS as L } from '../../limits.ts';
import { clampLimit, cursorInput, decodeCursor, encodeCursor, limitInput, type Page } from '../pagination.ts';
import { cleanText } from '../text-input.ts';
import { countryArg, matchCities } from './city-catalogs.use-case.ts';

const collator = new Intl.Collator('es', { sensitivity: 'variant' });

const countryInput = v.pipe(
  v.string('country must be a string'),
  v.regex(/^[A-Za-z]{2}$/, 'country must be an ISO 3166-1 alpha-2 code'),
  v.description('ISO 3166-1 alpha-2 country code, e.g. CO, MX, PE, PA.'),
);

export const ListCatalogCitiesSchema = v.strictObject({
  country: countryInput,
  region: v.optional(v.pipe(cleanText('region', true), v.maxLength(L.departamento.max, `region must be at most ${L.departamento.max} characters`), v.description('Only this region (departamento / estado / provincia), any accents or case.'))),
  query: v.optional(v.pipe(cleanText('query', true), v.maxLength(L.ciudad.max, `query must be at most ${L.ciudad.max} characters`), v.description('Only cities whose name contains this text, ignoring accents and case.'))),
  cursor: cursorInput,
  limit: limitInput,
});

export const CanonicalizeCitySchema = v.strictObject({
  country: countryInput,
  city: v.pipe(cleanText('city', true), v.minLength(1, 'city must not be empty'), v.maxLength(L.ciudad.max, `city must be at most ${L.ciudad.max} characters`), v.description('City as the buyer wrote it.')),
  region: v.optional(v.pipe(cleanText('region', true), v.maxLength(L.departamento.max, `region must be at most ${L.departamento.max} characters`), v.description('Region as the buyer wrote it; improves the match.'))),
});

const OFFICIAL = new Set(OFFICIAL_COUNTRIES);

export async function listCatalogCities(deps: Pick<Deps, 'catalogs'>, input: v.InferOutput<typeof ListCatalogCitiesSchema>) {
  const country = countryArg(input.country);
  const catalog = OFFICIAL.has(country) ? 'official' : 'fulfillment';
  const view = await deps.catalogs.get(country, catalog);
  if (!view) throw new AppError('not_found', `No city catalog for ${country}`, [{ field: 'country', message: 'no city catalog for this country' }]);
  let regions = Object.entries(view.regions);
  if (input.region !== undefined) {
    const wanted = foldCompact(input.region);
    regions = regions.filter(([name]) => foldCompact(name) === wanted);
    if (regions.length === 0) throw new AppError('invalid_input', 'Invalid data', [{ field: 'region', message: `Unknown region for ${country}` }]);
  }
  const needle = input.query === undefined ? '' : foldCompact(input.query);
  const after = decodeCursor(input.cursor, 2);
  const limit = clampLimit(input.limit);
  const items: { region: string; city: string }[] = [];
  let has_more = false;
  // Regions and cities are sorted with the same collator, so the cursor is a position in that order.
  for (const [region, cities] of regions) {
    const regionOrder = after ? collator.compare(region, after[0]!) : 1;
    if (regionOrder < 0) continue;
    for (const city of cities) {
      if (regionOrder === 0 && collator.compare(city, after![1]!) <= 0) continue;
      if (needle && !foldCompact(city).includes(needle)) continue;
      if (items.length === limit) {
        has_more = true;
        break;
      }
      items.push({ region, city });
    }
    if (has_more) break;
  }
  const page: Page<{ region: string; city: string }> & { country: string; catalog: string } = { country, catalog, items, has_more };
  if (has_more) page.next_cursor = encodeCursor([items.at(-1)!.region, items.at(-1)!.city]);
  return page;
}

export async function canonicalizeCity(deps: Pick<Deps, 'catalogs'>, input: v.InferOutput<typeof CanonicalizeCitySchema>) {
  const [decision] = await matchCities(deps, input.country, [{ departamento: input.region ?? '', ciudad: input.city }]);
  const d = decision!;
  return {
    country: countryArg(input.country),
    confident: d.confident,
    region: d.region ?? null,
    city: d.city ?? null,
    code: d.code ?? null,
    score: d.score,
    method: d.method,
    reason: d.reason,
    candidates: d.candidates ?? [],
  };
}
