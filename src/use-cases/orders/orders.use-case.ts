// Support's view of orders: list, show (with events and outbox state), search.
import * as v from 'valibot';
import type { Deps } from '../../app.ts';
import { createdEventData, findJobByOrder, listEvents, searchOrders, type OrderRow } from '../../db/queries/orders.queries.ts';
import { accountOrderRows, ListAccountOrdersSchema, type AccountScope } from './account-orders.use-case.ts';
import { fieldError } from '../../errors.ts';
import { OPERATOR } from '../caller.ts';
import { orderOf } from '../tenancy.ts';
import { orderView } from './order-view.ts';
import { orderRefInput, parseWith } from '../validate.ts';

const ShowOrderInput = v.strictObject({ order: orderRefInput('order', 'Order id or number.') });

/**
 * The CLI's list: list_orders' filters and rule (ListAccountOrdersSchema, accountOrderRows), each
 * order whole with its store's name, and why a flagged one waits.
 */
export async function listOrderSummaries(deps: Pick<Deps, 'db'>, caller: AccountScope, input: unknown) {
  const { rows: page, limit } = await accountOrderRows(deps, caller, parseWith(ListAccountOrdersSchema, input));
  const rows = page.slice(0, limit);
  // The matcher's own words and candidates, recorded with the order: support sees why, and where it may be.
  const decisions = new Map<string, CityNote>();
  for (const e of await createdEventData(deps.db, rows.filter((o) => o.needs_review === 1).map((o) => o.id))) {
    const city = (JSON.parse(e.data) as { city?: CityNote | null }).city;
    if (city && e.order_id) decisions.set(e.order_id, city);
  }
  return rows.map((o) => ({ ...orderView(o), review_reason: reviewReason(o, decisions.get(o.id)) }));
}

interface CityNote {
  reason?: string;
  candidates?: { region: string; city: string }[];
}

/** Why an order waits for support, in words they can act on (null when it does not wait). */
export function reviewReason(o: Pick<OrderRow, 'needs_review' | 'ciudad_input' | 'departamento_input'>, city?: CityNote): string | null {
  if (o.needs_review !== 1) return null;
  const why = city?.reason ? ` (${city.reason.replace(/\.$/, '')})` : '';
  const where = city?.candidates?.length ? `; it may be ${city.candidates.map((c) => `${c.city} (${c.region})`).join(' or ')}` : '';
  return `the buyer's city "${o.ciudad_input}" (${o.departamento_input}) matched no catalog city with confidence${why}${where}: fix it with orders resolve-city`;
}

/** By id, or by order number (with --store when several stores have that number). */
export async function showOrder(deps: Pick<Deps, 'db'>, idOrNumber: string, storeId?: string) {
  const { order: ref } = parseWith(ShowOrderInput, { order: idOrNumber });
  return orderDetail(deps, (await orderOf(deps, OPERATOR, ref, 'order', storeId)).order);
}

/** The full order: the record, its events and its outbox job. */
export async function orderDetail(deps: Pick<Deps, 'db'>, order: OrderRow) {
  const [events, job, cancel] = await Promise.all([listEvents(deps.db, order.id), findJobByOrder(deps.db, order.id), findJobByOrder(deps.db, order.id, 'cancel')]);
  const timeline = events.map((e) => ({ ...e, data: JSON.parse(e.data) as unknown }));
  // Why the matcher held the city and where it may be: support picks a candidate (resolve_order_city).
  // The latest decision: creation's, or that of a city a buyer correction gave since.
  const decided = timeline.findLast((e) => (e.type === 'order.created' || e.type === 'order.buyer_updated') && typeof e.data === 'object' && e.data !== null && 'city' in e.data);
  const city = order.needs_review === 1 ? (decided?.data as { city?: CityNote | null } | undefined)?.city : undefined;
  return {
    ...orderView(order),
    city_review: order.needs_review === 1 ? { reason: city?.reason ?? null, candidates: (city?.candidates ?? []).map((c) => ({ region: c.region, city: c.city })) } : null,
    events: timeline,
    fulfillment: job
      ? {
          state: job.state,
          attempts: job.attempts,
          next_attempt_at: job.next_attempt_at,
          last_error: job.last_error,
          remote_id: job.remote_id,
          // The platform side of a cancellation: queued, in_flight, failed (retrying), dead, done.
          cancel: cancel ? { state: cancel.state, attempts: cancel.attempts, last_error: cancel.last_error } : null,
        }
      : null,
  };
}

export async function searchOrderSummaries(deps: Pick<Deps, 'db'>, text: string, limit: number) {
  const q = text.trim();
  if (q.length < 2) throw fieldError('text', 'search text must be at least 2 characters');
  return (await searchOrders(deps.db, q, limit)).map(orderView);
}
