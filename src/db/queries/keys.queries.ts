import type { Insertable } from 'kysely';
import type { Db } from '../connect.ts';
import type { Tx } from '../transaction.ts';
import type { ApiKeysTable } from '../tables/index.ts';

export const insertKey = (db: Db | Tx, row: Insertable<ApiKeysTable>) => db.insertInto('api_keys').values(row).execute();

/** Lookup by hash: the comparison is an index probe on a digest, so it leaks no timing about the key. */
export const findKeyByHash = (db: Db, hash: string) => db.selectFrom('api_keys').selectAll().where('hash', '=', hash).executeTakeFirst();

export const findKey = (db: Db | Tx, id: string) => db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();

export const listKeys = (db: Db, storeId?: string) => {
  let q = db.selectFrom('api_keys').selectAll();
  if (storeId) q = q.where('store_id', '=', storeId);
  return q.orderBy('created_at').execute();
};

export const revokeKey = (db: Db | Tx, id: string, at: string, replacedBy: string | null = null) =>
  db.updateTable('api_keys').set({ revoked_at: at, replaced_by: replacedBy }).where('id', '=', id).execute();

export const touchKey = (db: Db, id: string, at: string) =>
  db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
