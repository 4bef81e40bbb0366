// Token families for support and the account owner (`codrail oauth tokens list|revoke`): one row
// per authorization, with every refresh and access token descended from it, and every API key made
// through it (issue 19 §2).
import type { Deps } from '../../app.ts';
import { writeTransaction, type Tx } from '../../db/transaction.ts';
import { revokeFamilyKeys } from '../../db/queries/keys.queries.ts';
import { findFamily, listFamilies, revokeFamilyRow } from '../../db/queries/oauth.queries.ts';
import { notFound } from '../../errors.ts';

/**
 * Ends an authorization: its refresh tokens stop refreshing, its access tokens fail at /api/mcp, and
 * the API keys made through it are revoked (issue 19 §2: a key lives no longer than the authorization
 * that made it). Every revocation of a family goes through here, inside the caller's transaction:
 * the operator's, RFC 7009 revocation of a refresh token, refresh-token reuse, a replayed code.
 * Expiry is not revocation: the keys of a family that merely expired keep working.
 */
export async function revokeFamily(tx: Tx, familyId: string, at: string, reason: string): Promise<void> {
  await revokeFamilyRow(tx, familyId, at, reason);
  await revokeFamilyKeys(tx, familyId, at);
}

export async function listGrants(deps: Pick<Deps, 'db' | 'clock'>, f: { clientId?: string | undefined; accountId?: string | undefined; all?: boolean }) {
  const now = deps.clock.now().toISOString();
  const rows = await listFamilies(deps.db, { clientId: f.clientId, accountId: f.accountId, active: !f.all, now });
  return rows.map((r) => ({ ...r, state: r.revoked_at ? 'revoked' : r.expires_at <= now ? 'expired' : 'active' }));
}

/** Revokes a family at once: its tokens and the keys made through it (revokeFamily). */
export async function revokeGrant(deps: Pick<Deps, 'db' | 'clock'>, familyId: string, reason = 'revoked_by_operator') {
  const family = await findFamily(deps.db, familyId);
  if (!family) throw notFound('Token family');
  const now = deps.clock.now().toISOString();
  await writeTransaction(deps.db, (tx) => revokeFamily(tx, familyId, now, reason));
  const after = (await findFamily(deps.db, familyId))!;
  return { id: after.id, client_id: after.client_id, account_id: after.account_id, revoked_at: after.revoked_at, revoked_reason: after.revoked_reason };
}

