// An account's orders as the account surfaces see them (MCP list_orders / get_order, MCP-TOOLS.md
// §6.7 rows 35-36): every id is resolved inside the caller's account; another account's order is
// not_found, so existence does not leak (§5.14).
import * as v from 'valibot';
import type { Deps } from '../../app.ts';
import { listAccountOrders } from '../../db/queries/orders.queries.ts';
import { ORDER_STATUSES } from '../../db/tables/index.ts';
import { clampLimit, cursorInput, decodeCursor, limitInput, toPage } from '../pagination.ts';
import { orderRefInput, uuidInput } from '../validate.ts';
import { cleanText } from '../text-input.ts';
import type { Caller } from '../caller.ts';
import { orderOf } from '../tenancy.ts';
import { orderSummary } from './order-view.ts';
import { orderDetail } from './orders.use-case.ts';

export const ListAccountOrdersSchema = v.strictObject({
  store_id: v.optional(uuidInput('store_id', 'Only this store (ids from get_account).')),
  status: v.optional(
    v.pipe(v.array(v.picklist(ORDER_STATUSES, `status must be one of ${ORDER_STATUSES.join(', ')}`)), v.description('Only orders in one of these statuses.')),
  ),
  query: v.optional(
    v.pipe(cleanText('query', true), v.minLength(2, 'query must be at least 2 characters'), v.maxLength(100, 'query must be at most 100 characters'), v.description('Order number, buyer nombre or telefono (also the duplicate-buyer check).')),
  ),
  needs_review: v.optional(v.pipe(v.boolean('needs_review must be a boolean'), v.description('true: only orders whose city awaits review; false: only the others.'))),
  cursor: cursorInput,
  limit: limitInput,
});

export const GetAccountOrderSchema = v.strictObject({
  order_id: orderRefInput('order_id', 'Order id or number (1001, TD-1001).'),
});

export type AccountScope = Pick<Caller, 'accountId'>;

export async function listAccountOrderPage(deps: Pick<Deps, 'db'>, caller: AccountScope, input: v.InferOutput<typeof ListAccountOrdersSchema>) {
  const limit = clampLimit(input.limit);
  const after = decodeCursor(input.cursor, 2);
  const rows = await listAccountOrders(deps.db, {
    accountId: caller.accountId,
    storeId: input.store_id?.toLowerCase(),
    statuses: input.status,
    needsReview: input.needs_review,
    text: input.query,
    after: after ? { createdAt: after[0]!, id: after[1]! } : undefined,
    limit: limit + 1,
  });
  return toPage(rows, limit, (o) => [o.created_at, o.id], orderSummary);
}

export async function getAccountOrder(deps: Pick<Deps, 'db'>, caller: AccountScope, input: v.InferOutput<typeof GetAccountOrderSchema>) {
  return orderDetail(deps, (await orderOf(deps, caller, input.order_id)).order);
}
