// Orders (MCP-TOOLS.md §6.7 rows 35-37). Their CLI commands come with the order's life (issue 12):
// `codrail orders list|show` are the operator's support views today.
import { GetAccountOrderSchema, ListAccountOrdersSchema, getAccountOrder, listAccountOrderPage } from '../orders/account-orders.use-case.ts';
import { CreateAccountOrderSchema } from '../orders/create-account-order.schema.ts';
import { createAccountOrder } from '../orders/create-account-order.use-case.ts';
import { CreatedAccountOrder, OrderDetail, OrderPage } from '../orders/order.schemas.ts';
import { READ_ONLY, defineOperation } from './operation.ts';

export const orderOperations = [
  defineOperation({
    name: 'list_orders',
    title: 'List orders',
    description:
      'List order summaries of your stores, newest first, filtered by store, status, review flag or a query on order number, nombre or telefono (a telefono query doubles as the duplicate-buyer check). Use get_order for one full order. Paged with cursor/limit. Scope: orders:read.',
    scope: 'orders:read',
    annotations: READ_ONLY,
    input: ListAccountOrdersSchema,
    output: OrderPage,
    hints: { invalid_cursor: 'Pass next_cursor from the previous list_orders answer, or omit cursor to start over.' },
    http: 'GET /orders',
    run: listAccountOrderPage,
  }),
  defineOperation({
    name: 'get_order',
    title: 'Get order',
    description:
      'Return one full order: buyer, address, pack, totals, status, city review flag and match, events timeline and fulfillment push state. Use list_orders to find the order_id. Scope: orders:read.',
    scope: 'orders:read',
    annotations: READ_ONLY,
    input: GetAccountOrderSchema,
    output: OrderDetail,
    hints: { not_found: 'order_id must be an order id returned by list_orders or create_order for this account.' },
    http: 'GET /orders/:order_id',
    run: getAccountOrder,
  }),
  defineOperation({
    name: 'create_order',
    title: 'Create order',
    description:
      "Create a cash-on-delivery order priced from the product's pack (no price input). Enforces the price floor and anti-fraud checks, canonicalizes the city, suppresses duplicates. An unsure city still creates the order with needs_review and city_candidates to confirm with the buyer. Requires idempotency_key. Scope: orders:create.",
    scope: 'orders:create',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    input: CreateAccountOrderSchema,
    output: CreatedAccountOrder,
    hints: {
      not_found: 'store_id comes from get_account; product_id must be a product of that store.',
      conflict: 'This idempotency_key was used for a different order: use a new key for a new order.',
      price_below_floor: 'The pack price is below its floor: the store owner must fix the pack prices.',
    },
    http: 'POST /orders',
    creates: true,
    run: createAccountOrder,
  }),
];
