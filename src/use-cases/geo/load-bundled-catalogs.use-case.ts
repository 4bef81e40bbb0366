// The bundled datasets (data/cities/<CC>.json) load on first migrate (SPEC 6): every official
// country into the official catalog, and the same data plus PA into the fulfillment catalog.
// A catalog that came from the bundle is refreshed when a release ships a newer file (new
// municipalities); one an operator imported (`codrail cities import`) is never touched.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import type { Db } from '../../db/connect.ts';
import type { Clock } from '../../clock.ts';
import { writeTransaction } from '../../db/transaction.ts';
import { listCatalogVersions, replaceCatalog, type CatalogRow } from '../../db/queries/cities.queries.ts';
import { OFFICIAL_COUNTRIES } from '../../domain/countries.ts';
import { packageFile } from '../../package-files.ts';

export const CITIES_DIR = packageFile('data/cities/');

interface DatasetFile {
  country: string;
  regions: Record<string, string[]>;
  codes?: Record<string, { code?: string; cities?: Record<string, string> }>;
}

/** Rows of a dataset in the bundled JSON format; the city code comes from `codes` when present. */
export function datasetRows(data: DatasetFile): CatalogRow[] {
  const rows: CatalogRow[] = [];
  for (const [region, cities] of Object.entries(data.regions)) {
    // Names from the file select codes: own properties only, so a city called "constructor" has no code (issue 19 §5).
    const codes = (data.codes && Object.hasOwn(data.codes, region) ? data.codes[region]?.cities : undefined) ?? {};
    for (const city of cities) rows.push({ region, city, code: (Object.hasOwn(codes, city) ? codes[city] : undefined) ?? null });
  }
  return rows;
}

export function bundledCountries(): string[] {
  return readdirSync(CITIES_DIR)
    .filter((f) => /^[A-Z]{2}\.json$/.test(f))
    .map((f) => f.slice(0, 2))
    .sort();
}

/** What a catalog loaded from the bundle records as its source: the file and a digest of its bytes. */
export const bundledSource = (country: string, bytes: string | Buffer): string =>
  `${BUNDLED_PREFIX}${country}.json#${createHash('sha256').update(bytes).digest('hex').slice(0, 12)}`;
const BUNDLED_PREFIX = 'bundled:data/cities/';

/**
 * Loads each bundled catalog the database does not have yet, and reloads those that came from an
 * older bundle (their source names the same file with another digest, or none); returns what it loaded.
 */
export async function loadBundledCatalogs(deps: { db: Db; clock: Clock }): Promise<string[]> {
  const have = new Map((await listCatalogVersions(deps.db)).map((v) => [`${v.country}:${v.catalog}`, v.source]));
  const loaded: string[] = [];
  for (const country of bundledCountries()) {
    const bytes = readFileSync(new URL(`${country}.json`, CITIES_DIR));
    const source = bundledSource(country, bytes);
    const kinds = (OFFICIAL_COUNTRIES.includes(country) ? ['official', 'fulfillment'] : ['fulfillment']) as ('official' | 'fulfillment')[];
    const stale = kinds.filter((k) => {
      const current = have.get(`${country}:${k}`);
      if (current === undefined) return true;
      const fromBundle = current === `${BUNDLED_PREFIX}${country}.json` || current.startsWith(`${BUNDLED_PREFIX}${country}.json#`);
      return fromBundle && current !== source;
    });
    if (stale.length === 0) continue;
    const rows = datasetRows(JSON.parse(bytes.toString('utf8')) as DatasetFile);
    const now = deps.clock.now().toISOString();
    await writeTransaction(deps.db, async (tx) => {
      for (const kind of stale) await replaceCatalog(tx, country, kind, rows, source, now);
    });
    loaded.push(...stale.map((k) => `${country}:${k}`));
  }
  return loaded;
}
