// Account & meta (MCP-TOOLS.md §6.1 row 1).
import { AccountOverview, GetAccountSchema, getAccountOverview } from '../accounts/account-overview.use-case.ts';
import { AccountStats, GetAccountStatsInput, getAccountStats } from '../orders/account-stats.use-case.ts';
import { READ_ONLY, defineOperation } from './operation.ts';

export const accountOperations = [
  defineOperation({
    name: 'get_account',
    title: 'Get account',
    description:
      "The caller's account, this credential's scopes, its limits and its stores (id, name, country, currency). Call it first to discover store_id values. Scope: mcp:invoke.",
    scope: 'mcp:invoke',
    annotations: READ_ONLY,
    input: GetAccountSchema,
    output: AccountOverview,
    http: 'GET /account',
    cli: 'account get',
    run: (deps, caller) => getAccountOverview(deps, caller),
  }),
  defineOperation({
    name: 'get_account_stats',
    title: 'Get account stats',
    description:
      "Order KPIs for a period (days in each store's timezone): counts by status and push state, COD value by currency, confirmation, delivery and return rates; one store or all, per day or store. Live orders only. Scope: orders:read.",
    scope: 'orders:read',
    annotations: READ_ONLY,
    input: GetAccountStatsInput,
    output: AccountStats,
    hints: { not_found: 'store_id must be a store id from get_account or list_stores.' },
    http: 'GET /account/stats',
    cli: 'account stats',
    run: getAccountStats,
  }),
];
