// Hosted product images (issue 23 §3): stored once per content hash, read by primary key.
import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../connect.ts';
import type { Tx } from '../transaction.ts';
import type { ImagesTable, ImageVariantFormat, ImageVariantsTable } from '../tables/index.ts';

export type ImageRow = Selectable<ImagesTable>;

export const findImage = (db: Db | Tx, id: string) => db.selectFrom('images').selectAll().where('id', '=', id).executeTakeFirst();

export const findImages = (db: Db | Tx, ids: readonly string[]) =>
  ids.length === 0 ? Promise.resolve([] as ImageRow[]) : db.selectFrom('images').selectAll().where('id', 'in', ids).execute();

/** Stores an image and its files unless an image of the same bytes is there already (another request, another server). */
export async function insertImage(tx: Tx, image: Insertable<ImagesTable>, variants: readonly Insertable<ImageVariantsTable>[]): Promise<void> {
  const added = await tx.insertInto('images').values(image).onConflict((oc) => oc.column('id').doNothing()).executeTakeFirst();
  if (Number(added.numInsertedOrUpdatedRows ?? 0n) === 0) return;
  for (const variant of variants) await tx.insertInto('image_variants').values(variant).execute();
}

/** One file as a browser asks for it: the primary key only. */
export const findImageVariant = (db: Db, imageId: string, width: number, format: ImageVariantFormat) =>
  db.selectFrom('image_variants').select(['bytes', 'digest']).where('image_id', '=', imageId).where('width', '=', width).where('format', '=', format).executeTakeFirst();

/** Products of an account (every account for the operator), or of one store, whose images include an external URL: the legacy ones to host. */
export const productsWithExternalImages = (db: Db, f: { accountId: string | null; storeId?: string | undefined; productId?: string | undefined }) => {
  let q = db.selectFrom('products').innerJoin('stores', 'stores.id', 'products.store_id').selectAll('products').where('products.images', 'like', '%"url"%');
  if (f.accountId !== null) q = q.where('stores.account_id', '=', f.accountId);
  if (f.storeId) q = q.where('products.store_id', '=', f.storeId);
  if (f.productId) q = q.where('products.id', '=', f.productId);
  return q.orderBy('products.created_at').orderBy('products.id').execute();
};
