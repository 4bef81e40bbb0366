// SQL of the OAuth authorization server (migration 0003). Secrets are looked up by hash.
import type { Insertable } from 'kysely';
import type { Db } from '../connect.ts';
import type { Tx } from '../transaction.ts';
import type {
  OAuthAccessTokensTable,
  OAuthClientsTable,
  OAuthCodesTable,
  OAuthFamiliesTable,
  OAuthRefreshTokensTable,
  OAuthSessionsTable,
  OAuthSigningKeysTable,
} from '../tables/index.ts';

type Q = Db | Tx;

// Redirect allowlist
export const listRedirects = (db: Q) => db.selectFrom('oauth_redirects').selectAll().orderBy('uri').execute();
export const insertRedirect = (db: Q, row: { uri: string; label: string | null; created_at: string }) =>
  db.insertInto('oauth_redirects').values(row).onConflict((oc) => oc.column('uri').doNothing()).execute();
export const deleteRedirect = async (db: Q, uri: string) =>
  Number((await db.deleteFrom('oauth_redirects').where('uri', '=', uri).executeTakeFirst()).numDeletedRows);

// Clients
export const insertClient = (db: Q, row: Insertable<OAuthClientsTable>) => db.insertInto('oauth_clients').values(row).execute();

/** A metadata-document client as last read: inserted, or refreshed in place (a revoked one stays revoked). */
export const saveMetadataClient = (db: Q, row: Insertable<OAuthClientsTable>) =>
  db
    .insertInto('oauth_clients')
    .values(row)
    .onConflict((oc) => oc.column('id').doUpdateSet({ client_name: row.client_name, redirect_uris: row.redirect_uris, grant_types: row.grant_types, metadata_fetched_at: row.metadata_fetched_at }))
    .execute();
export const findClient = (db: Q, id: string) => db.selectFrom('oauth_clients').selectAll().where('id', '=', id).executeTakeFirst();
export const listClients = (db: Q) => db.selectFrom('oauth_clients').selectAll().orderBy('created_at').execute();
export const revokeClientRow = (db: Q, id: string, at: string) =>
  db.updateTable('oauth_clients').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).execute();

// Sessions
export const insertSession = (db: Q, row: OAuthSessionsTable) => db.insertInto('oauth_sessions').values(row).execute();
export const findSessionUser = (db: Q, hash: string, now: string) =>
  db
    .selectFrom('oauth_sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['u.id', 'u.email', 'u.account_id', 'u.role'])
    .where('s.hash', '=', hash)
    .where('s.expires_at', '>', now)
    .where('u.disabled_at', 'is', null)
    .executeTakeFirst();
export const deleteSession = (db: Q, hash: string) => db.deleteFrom('oauth_sessions').where('hash', '=', hash).execute();

// Codes
export const insertCode = (db: Q, row: Insertable<OAuthCodesTable>) => db.insertInto('oauth_codes').values(row).execute();
/** Atomic single use (OAUTH.md decision 8): true for exactly one caller of a live, unused code. */
export const consumeCode = async (tx: Tx, hash: string, now: string): Promise<boolean> => {
  const r = await tx.updateTable('oauth_codes').set({ used_at: now }).where('hash', '=', hash).where('used_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
};
export const findCode = (db: Q, hash: string) => db.selectFrom('oauth_codes').selectAll().where('hash', '=', hash).executeTakeFirst();
export const setCodeFamily = (tx: Tx, hash: string, familyId: string) => tx.updateTable('oauth_codes').set({ family_id: familyId }).where('hash', '=', hash).execute();

// Families
export const insertFamily = (db: Q, row: Insertable<OAuthFamiliesTable>) => db.insertInto('oauth_families').values(row).execute();
export const findFamily = (db: Q, id: string) => db.selectFrom('oauth_families').selectAll().where('id', '=', id).executeTakeFirst();
export const revokeFamilyRow = (db: Q, id: string, at: string, reason: string) =>
  db.updateTable('oauth_families').set({ revoked_at: at, revoked_reason: reason }).where('id', '=', id).where('revoked_at', 'is', null).execute();
export const revokeClientFamilies = (db: Q, clientId: string, at: string, reason: string) =>
  db.updateTable('oauth_families').set({ revoked_at: at, revoked_reason: reason }).where('client_id', '=', clientId).where('revoked_at', 'is', null).execute();
export const touchFamily = (db: Q, id: string, at: string) => db.updateTable('oauth_families').set({ last_used_at: at }).where('id', '=', id).execute();
export const listFamilies = (db: Q, f: { clientId?: string | undefined; accountId?: string | undefined; active?: boolean; now: string }) => {
  let q = db
    .selectFrom('oauth_families as f')
    .innerJoin('oauth_clients as c', 'c.id', 'f.client_id')
    .innerJoin('users as u', 'u.id', 'f.user_id')
    .select(['f.id', 'f.client_id', 'c.client_name', 'f.account_id', 'f.user_id', 'u.email', 'f.scope', 'f.resource', 'f.created_at', 'f.last_used_at', 'f.expires_at', 'f.revoked_at', 'f.revoked_reason']);
  if (f.clientId) q = q.where('f.client_id', '=', f.clientId);
  if (f.accountId) q = q.where('f.account_id', '=', f.accountId);
  if (f.active) q = q.where('f.revoked_at', 'is', null).where('f.expires_at', '>', f.now);
  return q.orderBy('f.created_at').execute();
};

// Refresh tokens
export const insertRefreshToken = (db: Q, row: Insertable<OAuthRefreshTokensTable>) => db.insertInto('oauth_refresh_tokens').values(row).execute();
export const findRefreshToken = (db: Q, hash: string) =>
  db
    .selectFrom('oauth_refresh_tokens as r')
    .innerJoin('oauth_families as f', 'f.id', 'r.family_id')
    .select(['r.hash', 'r.family_id', 'r.expires_at', 'r.rotated_at', 'f.client_id', 'f.user_id', 'f.account_id', 'f.scope', 'f.resource', 'f.revoked_at as family_revoked_at', 'f.expires_at as family_expires_at'])
    .where('r.hash', '=', hash)
    .executeTakeFirst();
/** Atomic rotation: true for exactly one caller of a refresh token not rotated yet. */
export const rotateRefreshToken = async (tx: Tx, hash: string, now: string): Promise<boolean> => {
  const r = await tx.updateTable('oauth_refresh_tokens').set({ rotated_at: now }).where('hash', '=', hash).where('rotated_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
};

// Access tokens
export const insertAccessToken = (db: Q, row: Insertable<OAuthAccessTokensTable>) => db.insertInto('oauth_access_tokens').values(row).execute();
/** What /api/mcp checks after the signature: token, family, client and user all still live. */
export const findAccessTokenState = (db: Q, jti: string) =>
  db
    .selectFrom('oauth_access_tokens as t')
    .innerJoin('oauth_families as f', 'f.id', 't.family_id')
    .innerJoin('oauth_clients as c', 'c.id', 'f.client_id')
    .innerJoin('users as u', 'u.id', 'f.user_id')
    .select([
      't.jti',
      't.family_id',
      't.scope',
      't.revoked_at',
      't.expires_at',
      'f.revoked_at as family_revoked_at',
      'f.account_id',
      'f.user_id',
      'f.client_id',
      'f.resource',
      'c.revoked_at as client_revoked_at',
      'u.disabled_at as user_disabled_at',
    ])
    .where('t.jti', '=', jti)
    .executeTakeFirst();
export const revokeAccessTokenRow = (db: Q, jti: string, at: string) =>
  db.updateTable('oauth_access_tokens').set({ revoked_at: at }).where('jti', '=', jti).where('revoked_at', 'is', null).execute();
/** Rows that can no longer mean anything: expired access-token ids, sessions and unredeemed codes. */
/**
 * Housekeeping (issue 13 §4): expired access-token ids, sessions and unredeemed codes at once; refresh
 * tokens dead (idle-expired or rotated) for longer than `pruneBefore`; and token families that ended
 * (their absolute expiry, or a revocation) before `pruneBefore`, with everything that hangs from them.
 */
export const deleteExpiredOAuthRows = async (db: Db, now: string, pruneBefore: string): Promise<number> =>
  db.transaction().execute(async (tx) => {
    const ended = tx
      .selectFrom('oauth_families')
      .select('id')
      .where((eb) => eb.or([eb('expires_at', '<', pruneBefore), eb('revoked_at', '<', pruneBefore)]));
    const results = [
      await tx.deleteFrom('oauth_access_tokens').where((eb) => eb.or([eb('expires_at', '<', now), eb('family_id', 'in', ended)])).executeTakeFirst(),
      await tx.deleteFrom('oauth_sessions').where('expires_at', '<', now).executeTakeFirst(),
      await tx.deleteFrom('oauth_codes').where((eb) => eb.or([eb.and([eb('expires_at', '<', now), eb('family_id', 'is', null)]), eb('family_id', 'in', ended)])).executeTakeFirst(),
      await tx.deleteFrom('oauth_refresh_tokens').where((eb) => eb.or([eb('expires_at', '<', pruneBefore), eb('family_id', 'in', ended)])).executeTakeFirst(),
      await tx.deleteFrom('oauth_families').where('id', 'in', ended).executeTakeFirst(),
    ];
    return results.reduce((n, r) => n + Number(r.numDeletedRows), 0);
  });

// Signing keys
export const insertSigningKey = (db: Q, row: OAuthSigningKeysTable) => db.insertInto('oauth_signing_keys').values(row).execute();
export const currentSigningKey = (db: Q) =>
  db.selectFrom('oauth_signing_keys').selectAll().where('retired_at', 'is', null).orderBy('created_at', 'desc').orderBy('kid', 'desc').limit(1).executeTakeFirst();
export const findSigningKey = (db: Q, kid: string) => db.selectFrom('oauth_signing_keys').selectAll().where('kid', '=', kid).executeTakeFirst();
export const listSigningKeys = (db: Q) => db.selectFrom('oauth_signing_keys').select(['kid', 'alg', 'created_at', 'retired_at']).orderBy('created_at').execute();
export const sealSigningKey = (db: Q, kid: string, sealed: string) => db.updateTable('oauth_signing_keys').set({ private_jwk: sealed }).where('kid', '=', kid).execute();
export const allSigningKeySecrets = (db: Q) => db.selectFrom('oauth_signing_keys').select(['kid', 'private_jwk']).execute();
export const retireSigningKeys = (db: Q, at: string) => db.updateTable('oauth_signing_keys').set({ retired_at: at }).where('retired_at', 'is', null).execute();
