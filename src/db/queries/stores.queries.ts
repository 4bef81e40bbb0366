import type { Insertable } from 'kysely';
import type { Db } from '../connect.ts';
import type { Tx } from '../transaction.ts';
import type { BlockKind, LandingPagesTable, ProductPacksTable, ProductsTable, StoresTable } from '../tables/index.ts';

export const insertStore = (db: Db | Tx, row: Insertable<StoresTable>) => db.insertInto('stores').values(row).execute();

export const findStore = (db: Db | Tx, id: string) => db.selectFrom('stores').selectAll().where('id', '=', id).executeTakeFirst();

export const listStores = (db: Db, accountId?: string) => {
  let q = db.selectFrom('stores').selectAll();
  if (accountId) q = q.where('account_id', '=', accountId);
  return q.orderBy('created_at').execute();
};

export const setStoreDomains = (db: Db | Tx, id: string, domains: string[]) =>
  db.updateTable('stores').set({ allowed_domains: JSON.stringify(domains) }).where('id', '=', id).execute();

/** Takes the next gapless order number; only ever called inside the order's transaction. */
export async function takeOrderNumber(tx: Tx, storeId: string): Promise<number> {
  const row = await tx
    .updateTable('stores')
    .set((eb) => ({ next_order_number: eb('next_order_number', '+', 1) }))
    .where('id', '=', storeId)
    .returning('next_order_number')
    .executeTakeFirstOrThrow();
  return row.next_order_number - 1;
}

export const insertProduct = (db: Db | Tx, row: Insertable<ProductsTable>) => db.insertInto('products').values(row).execute();
export const insertPack = (db: Db | Tx, row: Insertable<ProductPacksTable>) => db.insertInto('product_packs').values(row).execute();

export const findProduct = (db: Db | Tx, id: string) =>
  db.selectFrom('products').selectAll().where('id', '=', id).executeTakeFirst();

export const findProductBySku = (db: Db, storeId: string, sku: string) =>
  db.selectFrom('products').selectAll().where('store_id', '=', storeId).where('sku', '=', sku).executeTakeFirst();

export const listProducts = (db: Db, storeId?: string) => {
  let q = db.selectFrom('products').selectAll();
  if (storeId) q = q.where('store_id', '=', storeId);
  return q.orderBy('created_at').execute();
};

export const listPacks = (db: Db | Tx, productId: string) =>
  db.selectFrom('product_packs').selectAll().where('product_id', '=', productId).orderBy('position').execute();

export const findPack = (db: Db | Tx, productId: string, code: string) =>
  db.selectFrom('product_packs').selectAll().where('product_id', '=', productId).where('code', '=', code).executeTakeFirst();

export const insertLanding = (db: Db | Tx, row: Insertable<LandingPagesTable>) => db.insertInto('landing_pages').values(row).execute();

export const findLanding = (db: Db | Tx, id: string) =>
  db.selectFrom('landing_pages').selectAll().where('id', '=', id).executeTakeFirst();

export const findLandingBySlug = (db: Db, slug: string) =>
  db.selectFrom('landing_pages').selectAll().where('slug', '=', slug).executeTakeFirst();

export const listLandings = (db: Db, storeId?: string) => {
  let q = db.selectFrom('landing_pages').selectAll();
  if (storeId) q = q.where('store_id', '=', storeId);
  return q.orderBy('created_at').execute();
};

export const setLandingPublished = (db: Db | Tx, id: string, published: boolean, now: string) =>
  db.updateTable('landing_pages').set({ published: published ? 1 : 0, updated_at: now }).where('id', '=', id).execute();

/** Which of the phone / IP is on the store's block list. */
export async function blockedValues(db: Db, storeId: string, phone: string, ip: string | null): Promise<Set<`${BlockKind}`>> {
  const rows = await db
    .selectFrom('block_list')
    .select('kind')
    .where('store_id', '=', storeId)
    .where((eb) => eb.or([eb.and([eb('kind', '=', 'phone'), eb('value', '=', phone)]), eb.and([eb('kind', '=', 'ip'), eb('value', '=', ip ?? '')])]))
    .execute();
  return new Set(rows.map((r) => r.kind));
}

export const insertBlock = (db: Db | Tx, row: { store_id: string; kind: BlockKind; value: string; reason: string | null; created_at: string }) =>
  db.insertInto('block_list').values(row).onConflict((oc) => oc.doNothing()).execute();
