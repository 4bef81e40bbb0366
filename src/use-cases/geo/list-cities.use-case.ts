import type { Deps } from '../../app.ts';
import { AppError } from '../../errors.ts';
import { parseCountry, OFFICIAL_COUNTRIES } from '../../domain/countries.ts';
import { readAliases, readCommonNames } from './aliases.ts';
import type { CatalogView } from './catalogs.ts';

/**
 * The names buyers use beside the catalog's (issue 23 §1), for the city combobox: `common` is the
 * one a buyer knows the city by, where it differs from the catalog's ("Cali" for "Santiago de
 * Cali"); `aliases` are other names the search accepts ("Cartagena", "Santafé de Bogotá"). Both are
 * region → catalog city → name(s), only for cities that have any; the order still stores the
 * catalog's name.
 */
export interface CityNames {
  common: Readonly<Record<string, Readonly<Record<string, string>>>>;
  aliases: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>;
}

export interface CitiesData {
  country: string;
  official: boolean;
  regions: Readonly<Record<string, readonly string[]>>;
  /** Catalog version behind this answer (0 when there is none); callers cache by it. */
  version: number;
  /** Only when asked for (`names=1`): the seed's shape stays the default. */
  names?: CityNames;
}

const OFFICIAL = new Set(OFFICIAL_COUNTRIES);
/** ISO 3166-2 codes are matcher data, not names a buyer searches by. */
const CODE = /^[A-Z]{2}-[A-Z0-9]{1,3}$/;
const names = new WeakMap<CatalogView, CityNames>();

/** The shipped alias data restricted to the cities of this catalog version (computed once per version). */
function namesOf(view: CatalogView): CityNames {
  let found = names.get(view);
  if (found) return found;
  const inCatalog = (region: string, city: string) => view.regions[region]?.includes(city) === true;
  const common: Record<string, Record<string, string>> = {};
  for (const [region, cities] of Object.entries(readCommonNames(view.country)))
    for (const [city, name] of Object.entries(cities)) if (inCatalog(region, city)) (common[region] ??= {})[city] = name;
  const aliases: Record<string, Record<string, string[]>> = {};
  for (const [region, cities] of Object.entries(readAliases(view.country).cities ?? {}))
    for (const [city, list] of Object.entries(cities)) {
      const kept = list.filter((name) => !CODE.test(name) && name !== common[region]?.[city]);
      if (inCatalog(region, city) && kept.length > 0) (aliases[region] ??= {})[city] = kept;
    }
  names.set(view, (found = { common, aliases }));
  return found;
}

function namesFlag(text: string | undefined): boolean {
  if (text === undefined || text === '0' || text === 'false') return false;
  if (text === '1' || text === 'true') return true;
  throw new AppError('invalid_input', 'Invalid names', [{ field: 'names', message: 'names is 1 (add the names buyers use) or 0' }]);
}

/** GET /api/geo/cities (SPEC 4.2): the official selector, or official:false for other ISO codes. */
export async function listCities(deps: Pick<Deps, 'catalogs'>, countryText: string | undefined, namesText?: string): Promise<CitiesData> {
  if (countryText === undefined || countryText.trim() === '')
    throw new AppError('invalid_input', 'Missing country', [{ field: 'country', message: 'country is required (ISO 3166-1 alpha-2)' }]);
  const country = parseCountry(countryText);
  if (!country)
    throw new AppError('invalid_input', 'Invalid country', [{ field: 'country', message: 'country must be an ISO 3166-1 alpha-2 code' }]);
  const withNames = namesFlag(namesText);
  const view = OFFICIAL.has(country) ? await deps.catalogs.get(country, 'official') : undefined;
  if (!view) return { country, official: false, regions: {}, version: 0, ...(withNames && { names: { common: {}, aliases: {} } }) };
  return { country, official: true, regions: view.regions, version: view.version, ...(withNames && { names: namesOf(view) }) };
}
