import type { Insertable, Updateable } from 'kysely';
import type { Db } from '../connect.ts';
import type { Tx } from '../transaction.ts';
import type { BlockKind, StoresTable } from '../tables/index.ts';
import { before, type After } from './keyset.ts';
import { compiledOnce } from '../compiled-query.ts';
import { FIRST_ORDER_NUMBER } from '../../limits.ts';

export const insertStore = (db: Db | Tx, row: Insertable<StoresTable>) => db.insertInto('stores').values(row).execute();

const storeById = compiledOnce((db, id: string) => db.selectFrom('stores').selectAll().where('id', '=', id));
export const findStore = async (db: Db | Tx, id: string) => (await storeById(db, id))[0];

export const listStores = (db: Db, accountId?: string) => {
  let q = db.selectFrom('stores').selectAll();
  if (accountId) q = q.where('account_id', '=', accountId);
  return q.orderBy('created_at').execute();
};

export interface StorePageFilter {
  accountId: string | null;
  archived?: boolean | undefined;
  country?: string | undefined;
  after?: After | undefined;
  limit: number;
}

/** One page of stores, newest first. */
export const listStorePage = (db: Db, f: StorePageFilter) => {
  let q = db.selectFrom('stores').selectAll();
  if (f.accountId !== null) q = q.where('account_id', '=', f.accountId);
  if (f.archived !== undefined) q = q.where('archived_at', f.archived ? 'is not' : 'is', null);
  if (f.country) q = q.where('country', '=', f.country);
  if (f.after) q = q.where(before('created_at', 'id', f.after));
  return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(f.limit).execute();
};

export const updateStore = (db: Db | Tx, id: string, change: Updateable<StoresTable>) => db.updateTable('stores').set(change).where('id', '=', id).execute();

export const setStoreDomains = (db: Db | Tx, id: string, domains: string[], now?: string) =>
  db
    .updateTable('stores')
    .set(now ? { allowed_domains: JSON.stringify(domains), updated_at: now } : { allowed_domains: JSON.stringify(domains) })
    .where('id', '=', id)
    .execute();

/** What get_store reports next to the store. */
export async function storeCounts(db: Db, storeId: string) {
  const count = async (q: Promise<{ n: number | string | bigint } | undefined>) => Number((await q)?.n ?? 0);
  const [products, landingPages, publishedLandingPages, activeKeys, orders] = await Promise.all([
    count(db.selectFrom('products').select((eb) => eb.fn.countAll<number>().as('n')).where('store_id', '=', storeId).where('status', '!=', 'archived').executeTakeFirst()),
    count(db.selectFrom('landing_pages').select((eb) => eb.fn.countAll<number>().as('n')).where('store_id', '=', storeId).executeTakeFirst()),
    count(db.selectFrom('landing_pages').select((eb) => eb.fn.countAll<number>().as('n')).where('store_id', '=', storeId).where('published', '=', 1).executeTakeFirst()),
    count(db.selectFrom('api_keys').select((eb) => eb.fn.countAll<number>().as('n')).where('store_id', '=', storeId).where('revoked_at', 'is', null).executeTakeFirst()),
    count(db.selectFrom('orders').select((eb) => eb.fn.countAll<number>().as('n')).where('store_id', '=', storeId).executeTakeFirst()),
  ]);
  return { products, landing_pages: landingPages, published_landing_pages: publishedLandingPages, active_keys: activeKeys, orders };
}

/** Every amount a store's packs and floors hold, in minor units (a currency change must fit them all). */
export async function storeAmounts(db: Db | Tx, storeId: string): Promise<number[]> {
  const packs = await db
    .selectFrom('product_packs')
    .innerJoin('products', 'products.id', 'product_packs.product_id')
    .select(['product_packs.price_minor', 'product_packs.compare_at_price_minor', 'product_packs.min_price_minor'])
    .where('products.store_id', '=', storeId)
    .execute();
  const floors = await db.selectFrom('products').select('min_unit_price_minor').where('store_id', '=', storeId).execute();
  return [...packs.flatMap((p) => [p.price_minor, p.compare_at_price_minor ?? 0, p.min_price_minor ?? 0]), ...floors.map((f) => f.min_unit_price_minor)];
}

export const storeHasOrders = async (db: Db | Tx, storeId: string): Promise<boolean> =>
  (await db.selectFrom('orders').select('id').where('store_id', '=', storeId).limit(1).executeTakeFirst()) !== undefined;

/** Takes the next gapless order number; only ever called inside the order's transaction. One statement. */
export async function takeOrderNumber(tx: Tx, storeId: string): Promise<number> {
  const [row] = await nextOrderNumber(tx, storeId, FIRST_ORDER_NUMBER + 1);
  return row!.next_order_number - 1;
}

const nextOrderNumber = compiledOnce((tx, storeId: string, second: number) =>
  tx
    .insertInto('store_order_numbers')
    .values({ store_id: storeId, next_order_number: second })
    .onConflict((oc) => oc.column('store_id').doUpdateSet((eb) => ({ next_order_number: eb('store_order_numbers.next_order_number', '+', 1) })))
    .returning('next_order_number'),
);

const blocks = compiledOnce((db, storeId: string, phone: string, ip: string) =>
  db
    .selectFrom('block_list')
    .select('kind')
    .where('store_id', '=', storeId)
    .where((eb) => eb.or([eb.and([eb('kind', '=', 'phone'), eb('value', '=', phone)]), eb.and([eb('kind', '=', 'ip'), eb('value', '=', ip)])])),
);

/** Which of the phone / IP is on the store's block list. */
export async function blockedValues(db: Db, storeId: string, phone: string, ip: string | null): Promise<Set<`${BlockKind}`>> {
  return new Set((await blocks(db, storeId, phone, ip ?? '')).map((r) => r.kind));
}

export const insertBlock = (db: Db | Tx, row: { store_id: string; kind: BlockKind; value: string; reason: string | null; created_at: string }) =>
  db.insertInto('block_list').values(row).onConflict((oc) => oc.doNothing()).execute();

export const listBlocks = (db: Db, storeId: string, kind?: BlockKind) => {
  let q = db.selectFrom('block_list').selectAll().where('store_id', '=', storeId);
  if (kind) q = q.where('kind', '=', kind);
  return q.orderBy('created_at').orderBy('kind').orderBy('value').execute();
};

export const deleteBlock = (db: Db, storeId: string, kind: BlockKind, value: string) =>
  db.deleteFrom('block_list').where('store_id', '=', storeId).where('kind', '=', kind).where('value', '=', value).execute();
