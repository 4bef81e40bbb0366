import type { Insertable, Updateable } from 'kysely';
import type { Db } from '../connect.ts';
import type { Tx } from '../transaction.ts';
import type { LandingPagesTable } from '../tables/index.ts';
import { before, containing, type After } from './keyset.ts';

export const insertLanding = (db: Db | Tx, row: Insertable<LandingPagesTable>) => db.insertInto('landing_pages').values(row).execute();

export const findLanding = (db: Db | Tx, id: string) => db.selectFrom('landing_pages').selectAll().where('id', '=', id).executeTakeFirst();

export const findLandingBySlug = (db: Db | Tx, slug: string) => db.selectFrom('landing_pages').selectAll().where('slug', '=', slug).executeTakeFirst();

export interface LandingPageFilter {
  accountId: string | null;
  storeId?: string | undefined;
  productId?: string | undefined;
  published?: boolean | undefined;
  /** Title or slug contains. */
  text?: string | undefined;
  after?: After | undefined;
  limit: number;
}

/** One page of landing pages, newest first. */
export const listLandingPage = (db: Db, f: LandingPageFilter) => {
  let q = db.selectFrom('landing_pages').innerJoin('stores', 'stores.id', 'landing_pages.store_id').selectAll('landing_pages');
  if (f.accountId !== null) q = q.where('stores.account_id', '=', f.accountId);
  if (f.storeId) q = q.where('landing_pages.store_id', '=', f.storeId);
  if (f.productId) q = q.where('landing_pages.product_id', '=', f.productId);
  if (f.published !== undefined) q = q.where('landing_pages.published', '=', f.published ? 1 : 0);
  const text = f.text;
  if (text) q = q.where((eb) => eb.or([containing(db, 'landing_pages.title', text), containing(db, 'landing_pages.slug', text)]));
  if (f.after) q = q.where(before('landing_pages.created_at', 'landing_pages.id', f.after));
  return q.orderBy('landing_pages.created_at', 'desc').orderBy('landing_pages.id', 'desc').limit(f.limit).execute();
};

export const updateLanding = (db: Db | Tx, id: string, change: Updateable<LandingPagesTable>) => db.updateTable('landing_pages').set(change).where('id', '=', id).execute();

export const deleteLanding = (tx: Tx, id: string) => tx.deleteFrom('landing_pages').where('id', '=', id).where('published', '=', 0).executeTakeFirst();

/** Takes every published page of a product (or of a store) offline. */
export const unpublishLandingsWhere = (tx: Tx, where: { productId?: string; storeId?: string }, now: string) => {
  let q = tx.updateTable('landing_pages').set({ published: 0, updated_at: now }).where('published', '=', 1);
  if (where.productId) q = q.where('product_id', '=', where.productId);
  if (where.storeId) q = q.where('store_id', '=', where.storeId);
  return q.executeTakeFirst();
};

/** Whether any landing page sells this product: landing pages keep their product (foreign key). */
export const landingsOfProduct = (db: Db | Tx, productId: string) =>
  db.selectFrom('landing_pages').select(['id', 'slug', 'published']).where('product_id', '=', productId).execute();
