import type { Deps } from '../../app.ts';
import { AppError } from '../../errors.ts';
import { parseCountry, OFFICIAL_COUNTRIES } from '../../domain/countries.ts';

export interface CitiesData {
  country: string;
  official: boolean;
  regions: Readonly<Record<string, readonly string[]>>;
  /** Catalog version behind this answer (0 when there is none); callers cache by it. */
  version: number;
}

const OFFICIAL = new Set(OFFICIAL_COUNTRIES);

/** GET /api/geo/cities (SPEC 4.2): the official selector, or official:false for other ISO codes. */
export async function listCities(deps: Pick<Deps, 'catalogs'>, countryText: string | undefined): Promise<CitiesData> {
  if (countryText === undefined || countryText.trim() === '')
    throw new AppError('invalid_input', 'Missing country', [{ field: 'country', message: 'country is required (ISO 3166-1 alpha-2)' }]);
  const country = parseCountry(countryText);
  if (!country)
    throw new AppError('invalid_input', 'Invalid country', [{ field: 'country', message: 'country must be an ISO 3166-1 alpha-2 code' }]);
  const view = OFFICIAL.has(country) ? await deps.catalogs.get(country, 'official') : undefined;
  if (!view) return { country, official: false, regions: {}, version: 0 };
  return { country, official: true, regions: view.regions, version: view.version };
}
