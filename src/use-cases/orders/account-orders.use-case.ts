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
import { orderOf, productOf, storeOf } from '../tenancy.ts';
import { listStores } from '../../db/queries/stores.queries.ts';
import { dayStartUtc } from '../../domain/order-stats.ts';
import { fieldError } from '../../errors.ts';
import { integerInput } from '../fields.ts';
import { CONFIRMATION_STATES } from '../../domain/confirmation.ts';
import { orderSummary } from './order-view.ts';
import { orderDetail } from './orders.use-case.ts';

const PUSH_STATES = ['not_pushed', 'pushed', 'push_failed'] as const;

function day(field: string, description: string) {
  return v.pipe(v.string(`${field} must be a string`), v.isoDate(`${field} must be a date YYYY-MM-DD`), v.description(description));
}

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

export const ListAccountOrdersSchema = v.strictObject({
  store_id: v.optional(uuidInput('store_id', 'Only this store (ids from get_account).')),
  status: v.optional(
    v.pipe(v.array(v.picklist(ORDER_STATUSES, `status must be one of ${ORDER_STATUSES.join(', ')}`)), v.description('Only orders in one of these statuses.')),
  ),
  query: v.optional(
    v.pipe(cleanText('query', true), v.minLength(2, 'query must be at least 2 characters'), v.maxLength(100, 'query must be at most 100 characters'), v.description('Number, nombre, telefono or ciudad (duplicate-buyer check).')),
  ),
  needs_review: v.optional(v.pipe(v.boolean('needs_review must be a boolean'), v.description('true: city awaits review; false: the others.'))),
  sandbox: v.optional(v.pipe(v.boolean('sandbox must be a boolean'), v.description('true: only test-key orders.'))),
  fulfillment_state: v.optional(v.pipe(v.picklist(PUSH_STATES, `fulfillment_state must be one of ${PUSH_STATES.join(', ')}`), v.description('Push: not yet, done, or failed.'))),
  created_from: v.optional(day('created_from', "From this day (store's timezone).")),
  created_to: v.optional(day('created_to', 'To this day, included.')),
  departamento: v.optional(v.pipe(cleanText('departamento', true), v.maxLength(100, 'departamento must be at most 100 characters'), v.description('Stored region, e.g. Antioquia.'))),
  product_id: v.optional(uuidInput('product_id', 'Only this product.')),
  confirmation: v.optional(v.pipe(v.picklist(CONFIRMATION_STATES, `confirmation must be one of ${CONFIRMATION_STATES.join(', ')}`), v.description('call: unanswered, call them.'))),
  risk_min: v.optional(integerInput('risk_min', 0, 100, 'Risk at least this.')),
  sort: v.optional(v.pipe(v.picklist(['newest', 'risk'], 'sort must be newest or risk'), v.description('risk: riskiest first.'))),
  cursor: cursorInput,
  limit: limitInput,
});

export const GetAccountOrderSchema = v.strictObject({
  order_id: orderRefInput('order_id', 'Order id or number (1001, TD-1001).'),
});

export type AccountScope = Pick<Caller, 'accountId'>;

/** Each store's window of days, from its own timezone (MCP-TOOLS.md §5.6): the UTC bounds the query compares. */
async function createdWindows(deps: Pick<Deps, 'db'>, caller: AccountScope, input: v.InferOutput<typeof ListAccountOrdersSchema>) {
  if (input.created_from === undefined && input.created_to === undefined) return undefined;
  if (input.created_from !== undefined && input.created_to !== undefined && input.created_from > input.created_to)
    throw fieldError('created_to', 'created_to must not be before created_from');
  const stores = input.store_id !== undefined ? [await storeOf(deps, caller, input.store_id)] : await listStores(deps.db, caller.accountId ?? undefined);
  return stores.map((s) => ({
    storeId: s.id,
    from: input.created_from && dayStartUtc(input.created_from, s.timezone),
    to: input.created_to && dayStartUtc(nextDay(input.created_to), s.timezone),
  }));
}

export async function listAccountOrderPage(deps: Pick<Deps, 'db'>, caller: AccountScope, input: v.InferOutput<typeof ListAccountOrdersSchema>) {
  const { rows, limit, byRisk } = await accountOrderRows(deps, caller, input);
  return toPage(rows, limit, (o) => (byRisk ? [String(o.risk_score), o.created_at, o.id] : [o.created_at, o.id]), orderSummary);
}

/** The rows of one page of list_orders (one more than the limit, to tell whether more follow): the one filter rule, for the operation and the CLI's list. */
export async function accountOrderRows(deps: Pick<Deps, 'db'>, caller: AccountScope, input: v.InferOutput<typeof ListAccountOrdersSchema>) {
  const limit = clampLimit(input.limit);
  const productId = input.product_id === undefined ? undefined : (await productOf(deps, caller, input.product_id)).product.id;
  const created = await createdWindows(deps, caller, input);
  const byRisk = input.sort === 'risk';
  const after = decodeCursor(input.cursor, byRisk ? 3 : 2);
  if (after && byRisk && !/^\d{1,3}$/.test(after[0]!)) throw fieldError('cursor', 'cursor is not one this list gave');
  const rows = await listAccountOrders(deps.db, {
    accountId: caller.accountId,
    storeId: input.store_id?.toLowerCase(),
    statuses: input.status,
    needsReview: input.needs_review,
    sandbox: input.sandbox,
    text: input.query,
    pushState: input.fulfillment_state,
    created,
    departamento: input.departamento,
    productId,
    confirmation: input.confirmation,
    riskMin: input.risk_min,
    sort: input.sort,
    after: after ? (byRisk ? { risk: Number(after[0]), createdAt: after[1]!, id: after[2]! } : { createdAt: after[0]!, id: after[1]! }) : undefined,
    limit: limit + 1,
  });
  return { rows, limit, byRisk };
}

export async function getAccountOrder(deps: Pick<Deps, 'db'>, caller: AccountScope, input: v.InferOutput<typeof GetAccountOrderSchema>) {
  return orderDetail(deps, (await orderOf(deps, caller, input.order_id)).order);
}
