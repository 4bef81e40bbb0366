import type { Db } from '../connect.ts';
import type { Tx } from '../transaction.ts';
import type { CatalogKind } from '../tables/index.ts';

export interface CatalogRow {
  region: string;
  city: string;
  code: string | null;
}

export const catalogRows = (db: Db, country: string, catalog: CatalogKind): Promise<CatalogRow[]> =>
  db
    .selectFrom('city_catalogs')
    .select(['region', 'city', 'code'])
    .where('country', '=', country)
    .where('catalog', '=', catalog)
    .execute();

export const catalogVersion = (db: Db, country: string, catalog: CatalogKind) =>
  db
    .selectFrom('catalog_versions')
    .select(['version', 'updated_at', 'source'])
    .where('country', '=', country)
    .where('catalog', '=', catalog)
    .executeTakeFirst();

export const listCatalogVersions = (db: Db) => db.selectFrom('catalog_versions').selectAll().orderBy('country').orderBy('catalog').execute();

/** Replaces one country's catalog; run inside a transaction so readers see old or new, never half. */
export async function replaceCatalog(tx: Tx, country: string, catalog: CatalogKind, rows: CatalogRow[], source: string, now: string) {
  await tx.deleteFrom('city_catalogs').where('country', '=', country).where('catalog', '=', catalog).execute();
  const CHUNK = 200;
  for (let i = 0; i < rows.length; i += CHUNK) {
    await tx
      .insertInto('city_catalogs')
      .values(rows.slice(i, i + CHUNK).map((r) => ({ country, catalog, region: r.region, city: r.city, code: r.code })))
      .execute();
  }
  const current = await tx
    .selectFrom('catalog_versions')
    .select('version')
    .where('country', '=', country)
    .where('catalog', '=', catalog)
    .executeTakeFirst();
  await tx
    .insertInto('catalog_versions')
    .values({ country, catalog, version: (current?.version ?? 0) + 1, source, updated_at: now })
    .onConflict((oc) => oc.columns(['country', 'catalog']).doUpdateSet({ version: (current?.version ?? 0) + 1, source, updated_at: now }))
    .execute();
}

/** Each catalog with its version and size, for `codrail cities list`. */
export const catalogSummaries = (db: Db) =>
  db
    .selectFrom('catalog_versions as v')
    .select((eb) => [
      'v.country',
      'v.catalog',
      'v.version',
      'v.source',
      'v.updated_at',
      eb.selectFrom('city_catalogs as c').whereRef('c.country', '=', 'v.country').whereRef('c.catalog', '=', 'v.catalog').select((e) => e.fn.countAll<number>().as('n')).as('cities'),
      eb
        .selectFrom('city_catalogs as c')
        .whereRef('c.country', '=', 'v.country')
        .whereRef('c.catalog', '=', 'v.catalog')
        .select((e) => e.fn.count<number>('c.region').distinct().as('n'))
        .as('regions'),
    ])
    .orderBy('v.country')
    .orderBy('v.catalog')
    .execute();
