// The caller's account at a glance (MCP get_account, MCP-TOOLS.md §6.1 row 1): who it is, what the
// credential may do, and the store ids every other operation takes.
import * as v from 'valibot';
import type { Deps } from '../../app.ts';
import { findAccount } from '../../db/queries/accounts.queries.ts';
import { listStores } from '../../db/queries/stores.queries.ts';
import type { Principal } from '../../domain/oauth/principal.ts';
import { sortScopes } from '../../domain/oauth/scopes.ts';
import { notFound } from '../../errors.ts';

export const GetAccountSchema = v.strictObject({});

export async function getAccountOverview(deps: Pick<Deps, 'db'>, principal: Principal) {
  const [account, stores] = await Promise.all([findAccount(deps.db, principal.accountId), listStores(deps.db, principal.accountId)]);
  if (!account) throw notFound('Account');
  return {
    account: { id: account.id, name: account.name },
    credential: principal.kind,
    granted_scopes: sortScopes(principal.scopes),
    stores: stores.map((s) => ({ id: s.id, name: s.name, country: s.country, currency: s.currency, archived: s.archived_at !== null })),
  };
}
