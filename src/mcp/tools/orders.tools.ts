// Order tools (MCP-TOOLS.md §6.7 rows 35-37): the use-cases do the work; these are the catalog rows.
import { GetAccountOrderSchema, ListAccountOrdersSchema, getAccountOrder, listAccountOrderPage } from '../../use-cases/orders/account-orders.use-case.ts';
import { CreateAccountOrderSchema } from '../../use-cases/orders/create-account-order.schema.ts';
import { createAccountOrder } from '../../use-cases/orders/create-account-order.use-case.ts';
import { defineTool, READ_ONLY } from './tool-definition.ts';

export const orderTools = [
  defineTool({
    name: 'list_orders',
    title: 'List orders',
    description:
      'List order summaries of your stores, newest first, filtered by store, status, review flag or a query on order number, nombre or telefono (a telefono query doubles as the duplicate-buyer check). Use get_order for one full order. Paged with cursor/limit. Scope: orders:read.',
    scope: 'orders:read',
    annotations: READ_ONLY,
    input: ListAccountOrdersSchema,
    hints: { invalid_cursor: 'Pass next_cursor from the previous list_orders answer, or omit cursor to start over.' },
    run: (deps, principal, input) => listAccountOrderPage(deps, principal, input),
  }),
  defineTool({
    name: 'get_order',
    title: 'Get order',
    description:
      'Return one full order: buyer, address, pack, totals, status, city review flag and match, events timeline and fulfillment push state. Use list_orders to find the order_id. Scope: orders:read.',
    scope: 'orders:read',
    annotations: READ_ONLY,
    input: GetAccountOrderSchema,
    hints: { not_found: 'order_id must be an order id returned by list_orders or create_order for this account.' },
    run: (deps, principal, input) => getAccountOrder(deps, principal, input),
  }),
  defineTool({
    name: 'create_order',
    title: 'Create order',
    description:
      "Create a cash-on-delivery order priced from the product's pack (no price input). Enforces the price floor and anti-fraud checks, canonicalizes the city, suppresses duplicates. An unsure city still creates the order with needs_review and city_candidates to confirm with the buyer. Requires idempotency_key. Scope: orders:create.",
    scope: 'orders:create',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    input: CreateAccountOrderSchema,
    hints: {
      not_found: 'store_id comes from get_account; product_id must be a product of that store.',
      conflict: 'This idempotency_key was used for a different order: use a new key for a new order.',
      price_below_floor: 'The pack price is below its floor: the store owner must fix the pack prices.',
    },
    run: (deps, principal, input) => createAccountOrder(deps, principal, input),
  }),
];
