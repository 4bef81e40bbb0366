// The bundled datasets (data/cities/<CC>.json) load on first migrate (SPEC 6): every official
// country into the official catalog, and the same data plus PA into the fulfillment catalog.
import { readFileSync, readdirSync } from 'node:fs';
import type { Db } from '../../db/connect.ts';
import type { Clock } from '../../clock.ts';
import { writeTransaction } from '../../db/transaction.ts';
import { listCatalogVersions, replaceCatalog, type CatalogRow } from '../../db/queries/cities.queries.ts';
import { OFFICIAL_COUNTRIES } from '../../domain/countries.ts';

export const CITIES_DIR = new URL('../../../data/cities/', import.meta.url);

interface DatasetFile {
  country: string;
  regions: Record<string, string[]>;
  codes?: Record<string, { code?: string; cities?: Record<string, string> }>;
}

/** Rows of a dataset in the bundled JSON format; the city code comes from `codes` when present. */
export function datasetRows(data: DatasetFile): CatalogRow[] {
  const rows: CatalogRow[] = [];
  for (const [region, cities] of Object.entries(data.regions)) {
    const codes = data.codes?.[region]?.cities ?? {};
    for (const city of cities) rows.push({ region, city, code: codes[city] ?? null });
  }
  return rows;
}

export function bundledCountries(): string[] {
  return readdirSync(CITIES_DIR)
    .filter((f) => /^[A-Z]{2}\.json$/.test(f))
    .map((f) => f.slice(0, 2))
    .sort();
}

/** Loads each bundled catalog that the database does not have yet; returns what it loaded. */
export async function loadBundledCatalogs(deps: { db: Db; clock: Clock }): Promise<string[]> {
  const have = new Set((await listCatalogVersions(deps.db)).map((v) => `${v.country}:${v.catalog}`));
  const loaded: string[] = [];
  for (const country of bundledCountries()) {
    const kinds = (OFFICIAL_COUNTRIES.includes(country) ? ['official', 'fulfillment'] : ['fulfillment']) as ('official' | 'fulfillment')[];
    const missing = kinds.filter((k) => !have.has(`${country}:${k}`));
    if (missing.length === 0) continue;
    const data = JSON.parse(readFileSync(new URL(`${country}.json`, CITIES_DIR), 'utf8')) as DatasetFile;
    const rows = datasetRows(data);
    const now = deps.clock.now().toISOString();
    await writeTransaction(deps.db, async (tx) => {
      for (const kind of missing) await replaceCatalog(tx, country, kind, rows, `bundled:data/cities/${country}.json`, now);
    });
    loaded.push(...missing.map((k) => `${country}:${k}`));
  }
  return loaded;
}
