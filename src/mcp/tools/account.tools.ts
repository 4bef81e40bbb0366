// Account & meta tools (MCP-TOOLS.md §6.1).
import { GetAccountSchema, getAccountOverview } from '../../use-cases/accounts/account-overview.use-case.ts';
import { defineTool, READ_ONLY } from './tool-definition.ts';

export const accountTools = [
  defineTool({
    name: 'get_account',
    title: 'Get account',
    description:
      "Return the caller's account, the scopes this credential was granted, and its stores (id, name, country, currency). Call it first to discover store_id values for list_orders and create_order. Scope: mcp:invoke.",
    scope: 'mcp:invoke',
    annotations: READ_ONLY,
    input: GetAccountSchema,
    run: (deps, principal) => getAccountOverview(deps, principal),
  }),
];
