// Account & meta (MCP-TOOLS.md §6.1 row 1).
import { AccountOverview, GetAccountSchema, getAccountOverview } from '../accounts/account-overview.use-case.ts';
import { READ_ONLY, defineOperation } from './operation.ts';

export const accountOperations = [
  defineOperation({
    name: 'get_account',
    title: 'Get account',
    description:
      "Return the caller's account, the scopes this credential was granted, its operational limits and its stores (id, name, country, currency). Call it first to discover store_id values for the other tools. Scope: mcp:invoke.",
    scope: 'mcp:invoke',
    annotations: READ_ONLY,
    input: GetAccountSchema,
    output: AccountOverview,
    http: 'GET /account',
    cli: 'account get',
    run: (deps, caller) => getAccountOverview(deps, caller),
  }),
];
