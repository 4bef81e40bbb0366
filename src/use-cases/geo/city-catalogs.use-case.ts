// Support and self-hoster operations on the city catalogs (SPEC 6): import one country's catalog
// atomically, list catalogs and their cities, and ask the matcher what it would decide.
import type { Deps } from '../../app.ts';
import type { CatalogKind } from '../../db/tables/index.ts';
import { writeTransaction } from '../../db/transaction.ts';
import { catalogSummaries, catalogVersion, replaceCatalog } from '../../db/queries/cities.queries.ts';
import { parseCountry, OFFICIAL_COUNTRIES } from '../../domain/countries.ts';
import type { CityDecision } from '../../domain/cities/matcher.ts';
import { foldCompact } from '../../domain/cities/fold.ts';
import { AppError, fieldError, notFound } from '../../errors.ts';
import { detectFormat, readCatalogFile } from './catalog-file.ts';

const CATALOG_KINDS: readonly CatalogKind[] = ['official', 'fulfillment'];

export function countryArg(text: string): string {
  const country = parseCountry(text);
  if (!country) throw fieldError('country', 'country must be an ISO 3166-1 alpha-2 code');
  return country;
}

function catalogArg(text: string | undefined): CatalogKind | undefined {
  if (text === undefined) return undefined;
  if (!CATALOG_KINDS.includes(text as CatalogKind)) throw fieldError('catalog', 'catalog must be official or fulfillment');
  return text as CatalogKind;
}

export interface ImportCatalogInput {
  country: string;
  catalog?: string | undefined;
  fileName: string;
  content: string;
}

/**
 * Replaces one country's catalog from a file, in one transaction: a broken file changes nothing.
 * Without --catalog both catalogs the country has are replaced (official countries feed the public
 * selector and the matcher from the same data, as the bundled load does); only the eight official
 * countries (SPEC 6) may have an official catalog.
 */
export async function importCatalog(deps: Pick<Deps, 'db' | 'clock' | 'catalogs'>, input: ImportCatalogInput) {
  const country = countryArg(input.country);
  const only = catalogArg(input.catalog);
  const official = OFFICIAL_COUNTRIES.includes(country);
  if (only === 'official' && !official)
    throw fieldError('catalog', `only ${OFFICIAL_COUNTRIES.join(' ')} have an official catalog; import ${country} with --catalog fulfillment`);
  const kinds: CatalogKind[] = only ? [only] : official ? ['official', 'fulfillment'] : ['fulfillment'];
  const rows = readCatalogFile(input.content, detectFormat(input.fileName, input.content), country);
  const now = deps.clock.now().toISOString();
  const source = `import:${input.fileName.split(/[\\/]/).pop()}`;
  await writeTransaction(deps.db, async (tx) => {
    for (const kind of kinds) await replaceCatalog(tx, country, kind, rows, source, now);
  });
  deps.catalogs.invalidate(country);
  const versions = await Promise.all(kinds.map(async (kind) => ({ catalog: kind, version: (await catalogVersion(deps.db, country, kind))!.version })));
  return { country, catalogs: versions, regions: new Set(rows.map((r) => r.region)).size, cities: rows.length, source, updated_at: now };
}

export async function listCatalogs(deps: Pick<Deps, 'db'>) {
  return (await catalogSummaries(deps.db)).map((c) => ({ ...c, cities: Number(c.cities), regions: Number(c.regions) }));
}

/** One country's catalog, region by region, in Spanish collation. */
export async function showCatalog(deps: Pick<Deps, 'catalogs'>, countryText: string, catalogText?: string, regionText?: string) {
  const country = countryArg(countryText);
  const catalog = catalogArg(catalogText) ?? 'fulfillment';
  const view = await deps.catalogs.get(country, catalog);
  if (!view) throw notFound(`${catalog} catalog for ${country}`);
  const codes = new Map(view.rows.map((r) => [`${r.region}\u0000${r.city}`, r.code]));
  let regions = Object.entries(view.regions);
  if (regionText !== undefined) {
    const wanted = foldCompact(regionText);
    regions = regions.filter(([name]) => foldCompact(name) === wanted);
    if (regions.length === 0) throw notFound(`Region "${regionText}" in the ${country} ${catalog} catalog`);
  }
  return {
    country,
    catalog,
    version: view.version,
    regions: regions.map(([region, cities]) => ({ region, cities: cities.map((city) => ({ city, code: codes.get(`${region}\u0000${city}`) ?? null })) })),
  };
}

export interface CityMatchInput {
  departamento: string;
  ciudad: string;
}

/** What order creation would decide for this text (SPEC 6), against the fulfillment catalog. */
export async function matchCities(deps: Pick<Deps, 'catalogs'>, countryText: string, inputs: readonly CityMatchInput[]): Promise<(CityMatchInput & CityDecision)[]> {
  const country = countryArg(countryText);
  const view = await deps.catalogs.get(country, 'fulfillment');
  if (!view) throw new AppError('not_found', `No fulfillment catalog for ${country}: import one with codrail cities import`);
  return inputs.map((input) => ({ departamento: input.departamento, ciudad: input.ciudad, ...view.matcher.match(input.departamento, input.ciudad) }));
}
