import type { Insertable, Updateable } from 'kysely';
import type { Db } from '../connect.ts';
import type { Tx } from '../transaction.ts';
import type { ApiKeysTable, KeyEnv, KeyType } from '../tables/index.ts';
import { before, type After } from './keyset.ts';
import { compiledOnce } from '../compiled-query.ts';

export const insertKey = (db: Db | Tx, row: Insertable<ApiKeysTable>) => db.insertInto('api_keys').values(row).execute();

/** Lookup by hash: the comparison is an index probe on a digest, so it leaks no timing about the key. */
const keyByHash = compiledOnce((db, hash: string) => db.selectFrom('api_keys').selectAll().where('hash', '=', hash));
export const findKeyByHash = async (db: Db, hash: string) => (await keyByHash(db, hash))[0];

export const findKey = (db: Db | Tx, id: string) => db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();

/** Keys with the names of the OAuth client and user that made them (null for other keys), for listings. */
const keysWithOrigin = (db: Db | Tx) =>
  db
    .selectFrom('api_keys')
    .selectAll('api_keys')
    .select((eb) => [
      eb.selectFrom('oauth_clients').select('oauth_clients.client_name').whereRef('oauth_clients.id', '=', 'api_keys.oauth_client_id').as('oauth_client_name'),
      eb.selectFrom('users').select('users.email').whereRef('users.id', '=', 'api_keys.oauth_user_id').as('oauth_user_email'),
    ]);

export const findKeyWithOrigin = (db: Db | Tx, id: string) => keysWithOrigin(db).where('api_keys.id', '=', id).executeTakeFirst();

export const listKeys = (db: Db, storeId?: string) => {
  let q = db.selectFrom('api_keys').selectAll();
  if (storeId) q = q.where('store_id', '=', storeId);
  return q.orderBy('created_at').execute();
};

export interface KeyPageFilter {
  accountId: string | null;
  storeId?: string | undefined;
  type?: KeyType | undefined;
  env?: KeyEnv | undefined;
  /** Also keys whose revocation time has passed. */
  includeRevoked: boolean;
  now: string;
  after?: After | undefined;
  limit: number;
}

/** One page of keys, newest first; keys inside a roll's grace period count as live. */
export const listKeyPage = (db: Db, f: KeyPageFilter) => {
  let q = keysWithOrigin(db);
  if (f.accountId !== null) q = q.where('api_keys.account_id', '=', f.accountId);
  if (f.storeId) q = q.where('api_keys.store_id', '=', f.storeId);
  if (f.type) q = q.where('api_keys.type', '=', f.type);
  if (f.env) q = q.where('api_keys.env', '=', f.env);
  if (!f.includeRevoked) q = q.where((eb) => eb.or([eb('api_keys.revoked_at', 'is', null), eb('api_keys.revoked_at', '>', f.now)]));
  if (f.after) q = q.where(before('api_keys.created_at', 'api_keys.id', f.after));
  return q.orderBy('api_keys.created_at', 'desc').orderBy('api_keys.id', 'desc').limit(f.limit).execute();
};

export const updateKey = (db: Db | Tx, id: string, change: Updateable<ApiKeysTable>) => db.updateTable('api_keys').set(change).where('id', '=', id).execute();

export const revokeKey = (db: Db | Tx, id: string, at: string, replacedBy: string | null = null) =>
  db.updateTable('api_keys').set({ revoked_at: at, replaced_by: replacedBy }).where('id', '=', id).execute();

/** Live publishable keys of a store (archiving the store disables them). */
export const livePublishableKeys = (db: Db | Tx, storeId: string, now: string) =>
  db
    .selectFrom('api_keys')
    .selectAll()
    .where('store_id', '=', storeId)
    .where('type', '=', 'publishable')
    .where((eb) => eb.or([eb('revoked_at', 'is', null), eb('revoked_at', '>', now)]))
    .execute();

/**
 * Issue 19 §2: a key made through OAuth lives no longer than the authorization that made it. Revokes
 * now (also a key inside a roll's grace period) every key made by this token family; run in the
 * transaction that revokes the family.
 */
export const revokeFamilyKeys = (tx: Tx, familyId: string, at: string) =>
  tx
    .updateTable('api_keys')
    .set({ revoked_at: at })
    .where('oauth_family_id', '=', familyId)
    .where((eb) => eb.or([eb('revoked_at', 'is', null), eb('revoked_at', '>', at)]))
    .execute();

/** The same for every key made through any authorization of an OAuth client (the client is revoked). */
export const revokeClientKeys = (tx: Tx, clientId: string, at: string) =>
  tx
    .updateTable('api_keys')
    .set({ revoked_at: at })
    .where('oauth_client_id', '=', clientId)
    .where((eb) => eb.or([eb('revoked_at', 'is', null), eb('revoked_at', '>', at)]))
    .execute();

export const touchKey = (db: Db, id: string, at: string) => db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
