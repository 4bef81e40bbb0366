// Token families for support and the account owner (`codrail oauth tokens list|revoke`): one row
// per authorization, with every refresh and access token descended from it.
import type { Deps } from '../../app.ts';
import { findFamily, listFamilies, revokeFamilyRow } from '../../db/queries/oauth.queries.ts';
import { notFound } from '../../errors.ts';

export async function listGrants(deps: Pick<Deps, 'db' | 'clock'>, f: { clientId?: string | undefined; accountId?: string | undefined; all?: boolean }) {
  const now = deps.clock.now().toISOString();
  const rows = await listFamilies(deps.db, { clientId: f.clientId, accountId: f.accountId, active: !f.all, now });
  return rows.map((r) => ({ ...r, state: r.revoked_at ? 'revoked' : r.expires_at <= now ? 'expired' : 'active' }));
}

/** Revokes a family: its refresh tokens stop refreshing and its access tokens fail at /api/mcp at once. */
export async function revokeGrant(deps: Pick<Deps, 'db' | 'clock'>, familyId: string, reason = 'revoked_by_operator') {
  const family = await findFamily(deps.db, familyId);
  if (!family) throw notFound('Token family');
  await revokeFamilyRow(deps.db, familyId, deps.clock.now().toISOString(), reason);
  const after = (await findFamily(deps.db, familyId))!;
  return { id: after.id, client_id: after.client_id, account_id: after.account_id, revoked_at: after.revoked_at, revoked_reason: after.revoked_reason };
}

