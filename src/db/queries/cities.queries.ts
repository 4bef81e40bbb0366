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

/** A store's platform catalog (issue 22 §4): its rows, its version (0: none). */
export const platformCatalogRows = (db: Db, storeId: string): Promise<CatalogRow[]> =>
  db.selectFrom('platform_city_catalogs').select(['region', 'city', 'code']).where('store_id', '=', storeId).execute();

export const platformCatalogVersion = (db: Db, storeId: string) =>
  db.selectFrom('platform_catalog_versions').select(['version', 'platform', 'source', 'updated_at']).where('store_id', '=', storeId).executeTakeFirst();

/** Replaces a store's platform catalog in one transaction: readers see the old one or the new one. */
export async function replacePlatformCatalog(tx: Tx, storeId: string, platform: string, rows: CatalogRow[], source: string, now: string): Promise<number> {
  await tx.deleteFrom('platform_city_catalogs').where('store_id', '=', storeId).execute();
  const CHUNK = 200;
  for (let i = 0; i < rows.length; i += CHUNK)
    await tx
      .insertInto('platform_city_catalogs')
      .values(rows.slice(i, i + CHUNK).map((r) => ({ store_id: storeId, region: r.region, city: r.city, code: r.code })))
      .execute();
  const current = await tx.selectFrom('platform_catalog_versions').select('version').where('store_id', '=', storeId).executeTakeFirst();
  const version = (current?.version ?? 0) + 1;
  await tx
    .insertInto('platform_catalog_versions')
    .values({ store_id: storeId, platform, version, source, updated_at: now })
    .onConflict((oc) => oc.column('store_id').doUpdateSet({ platform, version, source, updated_at: now }))
    .execute();
  return version;
}
