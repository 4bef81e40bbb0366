import { sql, type Insertable, type Updateable } from 'kysely';
import type { Db } from '../connect.ts';
import type { Tx } from '../transaction.ts';
import type { ProductPacksTable, ProductsTable, ProductStatus } from '../tables/index.ts';
import { before, containing, type After } from './keyset.ts';
import { compiledOnce } from '../compiled-query.ts';

export const insertProduct = (db: Db | Tx, row: Insertable<ProductsTable>) => db.insertInto('products').values(row).execute();
export const insertPack = (db: Db | Tx, row: Insertable<ProductPacksTable>) => db.insertInto('product_packs').values(row).execute();

const productById = compiledOnce((db, id: string) => db.selectFrom('products').selectAll().where('id', '=', id));
export const findProduct = async (db: Db | Tx, id: string) => (await productById(db, id))[0];

export const findProductBySku = (db: Db | Tx, storeId: string, sku: string) =>
  db.selectFrom('products').selectAll().where('store_id', '=', storeId).where('sku', '=', sku).executeTakeFirst();

export interface ProductPageFilter {
  accountId: string | null;
  storeId?: string | undefined;
  status?: ProductStatus | undefined;
  /** Name or SKU contains. */
  text?: string | undefined;
  linked?: boolean | undefined;
  stockBelow?: number | undefined;
  after?: After | undefined;
  limit: number;
}

/** One page of products, newest first, inside an account (or every account for the operator). */
export const listProductPage = (db: Db, f: ProductPageFilter) => {
  let q = db.selectFrom('products').innerJoin('stores', 'stores.id', 'products.store_id').selectAll('products').select('stores.currency');
  if (f.accountId !== null) q = q.where('stores.account_id', '=', f.accountId);
  if (f.storeId) q = q.where('products.store_id', '=', f.storeId);
  if (f.status) q = q.where('products.status', '=', f.status);
  const text = f.text;
  if (text) q = q.where((eb) => eb.or([containing(db, 'products.name', text), containing(db, 'products.sku', text)]));
  if (f.linked !== undefined) q = q.where('products.fulfillment_product_ref', f.linked ? 'is not' : 'is', null);
  if (f.stockBelow !== undefined) q = q.where('products.stock', '<', f.stockBelow);
  if (f.after) q = q.where(before('products.created_at', 'products.id', f.after));
  return q.orderBy('products.created_at', 'desc').orderBy('products.id', 'desc').limit(f.limit).execute();
};

export const updateProduct = (db: Db | Tx, id: string, change: Updateable<ProductsTable>) => db.updateTable('products').set(change).where('id', '=', id).execute();

export const listPacks = (db: Db | Tx, productId: string) =>
  db.selectFrom('product_packs').selectAll().where('product_id', '=', productId).orderBy('position').execute();

export const listPacksOf = (db: Db, productIds: readonly string[]) =>
  productIds.length === 0 ? Promise.resolve([]) : db.selectFrom('product_packs').selectAll().where('product_id', 'in', productIds).orderBy('position').execute();

const packByCode = compiledOnce((db, productId: string, code: string) => db.selectFrom('product_packs').selectAll().where('product_id', '=', productId).where('code', '=', code));
export const findPack = async (db: Db | Tx, productId: string, code: string) => (await packByCode(db, productId, code))[0];

export const deletePacks = (tx: Tx, productId: string) => tx.deleteFrom('product_packs').where('product_id', '=', productId).execute();

export const updatePackPrice = (tx: Tx, productId: string, units: number, change: Pick<Updateable<ProductPacksTable>, 'price_minor' | 'compare_at_price_minor'>) =>
  tx.updateTable('product_packs').set(change).where('product_id', '=', productId).where('units', '=', units).executeTakeFirst();

/** How many landing pages sell the product, and how many of those are published. */
export async function productLandingCounts(db: Db | Tx, productId: string): Promise<{ total: number; published: number }> {
  const row = await db
    .selectFrom('landing_pages')
    .select((eb) => [eb.fn.countAll<number>().as('total'), eb.fn.sum<number>('published').as('published')])
    .where('product_id', '=', productId)
    .executeTakeFirst();
  return { total: Number(row?.total ?? 0), published: Number(row?.published ?? 0) };
}

/** Packs of a store priced under their product's floor × units. */
export const packsBelowFloor = (db: Db, storeId: string) =>
  db
    .selectFrom('product_packs')
    .innerJoin('products', 'products.id', 'product_packs.product_id')
    .select(['products.id as product_id', 'products.name', 'products.min_unit_price_minor', 'product_packs.code', 'product_packs.units', 'product_packs.price_minor'])
    .where('products.store_id', '=', storeId)
    .where('products.status', '!=', 'archived')
    .where(sql<boolean>`product_packs.price_minor < products.min_unit_price_minor * product_packs.units`)
    .orderBy('products.created_at')
    .orderBy('product_packs.position')
    .execute();

/** A store's orders since a time whose total was under their product's current floor, newest first. */
export const ordersBelowFloor = (db: Db, f: { storeId: string; since: string; after?: After | undefined; limit: number }) => {
  let q = db
    .selectFrom('orders')
    .innerJoin('products', 'products.id', 'orders.product_id')
    .select([
      'orders.id',
      'orders.order_number',
      'orders.product_id',
      'products.name as product_name',
      'orders.pack',
      'orders.pack_units',
      'orders.quantity',
      'orders.total_price_minor',
      'products.min_unit_price_minor',
      'orders.status',
      'orders.created_at',
    ])
    .where('orders.store_id', '=', f.storeId)
    .where('orders.created_at', '>=', f.since)
    .where(sql<boolean>`orders.total_price_minor < products.min_unit_price_minor * orders.pack_units * orders.quantity`);
  if (f.after) q = q.where(before('orders.created_at', 'orders.id', f.after));
  return q.orderBy('orders.created_at', 'desc').orderBy('orders.id', 'desc').limit(f.limit).execute();
};
