// The caller's account at a glance (get_account, MCP-TOOLS.md §6.1 row 1): who it is, what the
// credential may do, the limits that apply, and the store ids every other operation takes.
import * as v from 'valibot';
import type { Deps } from '../../app.ts';
import { findAccount } from '../../db/queries/accounts.queries.ts';
import { listStores } from '../../db/queries/stores.queries.ts';
import { sortScopes } from '../../domain/oauth/scopes.ts';
import { AppError, fieldError } from '../../errors.ts';
import { MAX_PACKS, MAX_PRICE_UPDATES, MAX_SECTIONS, ORDER_QUANTITY, TOOL_LIST_DEFAULT_LIMIT, TOOL_LIST_MAX_LIMIT } from '../../limits.ts';
import type { Caller } from '../caller.ts';

export const GetAccountSchema = v.strictObject({});

export const AccountOverview = v.object({
  account: v.object({ id: v.string(), name: v.string() }),
  credential: v.pipe(v.picklist(['secret_key', 'oauth', 'operator']), v.description('How this call authenticated.')),
  granted_scopes: v.pipe(v.array(v.string()), v.description('What this credential may do (never a scope OAuth cannot grant).')),
  stores: v.array(v.object({ id: v.string(), name: v.string(), country: v.string(), currency: v.string(), archived: v.boolean() })),
  limits: v.pipe(
    v.object({
      orders_per_ip_per_minute: v.number(),
      orders_per_key_per_minute: v.number(),
      orders_per_phone_per_hour: v.number(),
      order_quantity_max: v.number(),
      packs_per_product_max: v.number(),
      sections_per_landing_max: v.number(),
      price_updates_per_call_max: v.number(),
      list_page_default: v.number(),
      list_page_max: v.number(),
    }),
    v.description('This server is self-hosted: no plan, only these operational limits.'),
  ),
});

export async function getAccountOverview(deps: Pick<Deps, 'db' | 'config'>, caller: Caller): Promise<v.InferOutput<typeof AccountOverview>> {
  if (caller.accountId === null) throw fieldError('account', 'which account? pass --account ID');
  // A buyer's one-time link acts on one order, never on the account.
  if (caller.credential === 'buyer') throw new AppError('forbidden', 'Not an account credential');
  const [account, stores] = await Promise.all([findAccount(deps.db, caller.accountId), listStores(deps.db, caller.accountId)]);
  if (!account) throw new AppError('not_found', 'Account not found', [{ field: 'account', message: 'Unknown account' }]);
  return {
    account: { id: account.id, name: account.name },
    credential: caller.credential,
    granted_scopes: sortScopes(caller.scopes),
    stores: stores.map((s) => ({ id: s.id, name: s.name, country: s.country, currency: s.currency, archived: s.archived_at !== null })),
    limits: {
      orders_per_ip_per_minute: deps.config.rateIpPerMin,
      orders_per_key_per_minute: deps.config.rateKeyPerMin,
      orders_per_phone_per_hour: deps.config.ratePhonePerHour,
      order_quantity_max: ORDER_QUANTITY.max,
      packs_per_product_max: MAX_PACKS,
      sections_per_landing_max: MAX_SECTIONS,
      price_updates_per_call_max: MAX_PRICE_UPDATES,
      list_page_default: TOOL_LIST_DEFAULT_LIMIT,
      list_page_max: TOOL_LIST_MAX_LIMIT,
    },
  };
}
