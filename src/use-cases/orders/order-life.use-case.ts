// The order's life after checkout (MCP-TOOLS.md §6.7; issue 12): a call centre confirms it (or puts
// it back to pending), corrects the buyer's details until it is pushed, writes notes, and reads its
// timeline. Every change is an order event with its actor, written in the change's transaction; the
// push job follows the store's push policy (an on_confirm store releases it on confirmation).
import type * as v from 'valibot';
import type { Deps } from '../../app.ts';
import { newId } from '../../ids.ts';
import { cancelPushJob, insertJobRow } from '../../db/queries/fulfillment.queries.ts';
import { platformDestination } from '../../platforms/connections.ts';
import { writeTransaction, type Tx } from '../../db/transaction.ts';
import type { Db } from '../../db/connect.ts';
import { findJobByOrder, findOrder, listEventPage, setUnstartedJobState, updateOrder, type OrderRow } from '../../db/queries/orders.queries.ts';
import { canMove, type OrderStatus } from '../../domain/order-status.ts';
import { pushReleased } from '../../domain/push-policy.ts';
import { CANONICALIZED_COUNTRIES, POSTAL_CODE_REQUIRED } from '../../domain/countries.ts';
import { storeCityDecision } from '../geo/store-cities.ts';
import { normalizePhone } from '../../domain/phone.ts';
import { fieldError, invalidState } from '../../errors.ts';
import type { Caller } from '../caller.ts';
import { clampLimit, keysetPage, pageAfter } from '../pagination.ts';
import { orderOf, type StoreRow } from '../tenancy.ts';
import { orderDetail } from './orders.use-case.ts';
import type { AddOrderNoteInput, CancelOrderInput, ListOrderEventsInput, OrderEventPage, UpdateOrderBuyerInput, UpdateOrderStatusInput } from './order-life.schemas.ts';

type Out<S extends v.GenericSchema> = v.InferOutput<S>;

/** Job states that mean the order reached (or is reaching) the platform: its details are no longer ours. */
const STARTED = new Set(['in_flight', 'done']);

async function event(deps: Pick<Deps, 'orderEvents'>, tx: Tx, order: OrderRow, caller: Caller, type: string, data: object, now: string): Promise<void> {
  await deps.orderEvents.record(tx, { order_id: order.id, store_id: order.store_id, type, actor: caller.actor, data, created_at: now });
}

/** Holds or releases the order's push job (when it has not started) as the store's policy says. */
export async function followPolicy(tx: Tx, order: Pick<OrderRow, 'id' | 'status' | 'needs_review' | 'risk_score'>, store: StoreRow, now: string): Promise<void> {
  const job = await findJobByOrder(tx, order.id);
  if (!job || (job.state !== 'queued' && job.state !== 'held')) return;
  const state = pushReleased(order, store) ? 'queued' : 'held';
  if (state !== job.state) await setUnstartedJobState(tx, job.id, state, now);
}

/**
 * The COD state machine, driven by a person: forward as the machine allows, or from confirmed back
 * to pending while the push has not started (a call centre's mistake). Cancelling is cancel_order's.
 */
export async function updateOrderStatus(deps: Pick<Deps, 'db' | 'clock' | 'config' | 'nudge' | 'orderEvents'>, caller: Caller, input: Out<typeof UpdateOrderStatusInput>) {
  const { order, store } = await orderOf(deps, caller, input.order_id);
  const now = deps.clock.now().toISOString();
  await writeTransaction(deps.db, async (tx) => changeStatus(deps, tx, (await findOrder(tx, order.id))!, store, caller.actor, input.status as OrderStatus, input.note ?? null, now));
  deps.nudge.fulfillment();
  deps.nudge.whatsapp();
  return orderDetail(deps, (await findOrder(deps.db, order.id))!);
}

/**
 * One status change in the caller's transaction, by whoever makes it (a person, a tool, the buyer's
 * tap): forward as the machine allows, or confirmed back to pending while the push has not started.
 * The push job then follows the store's policy. The same status again changes nothing.
 */
export async function changeStatus(deps: Pick<Deps, 'orderEvents'>, tx: Tx, current: OrderRow, store: StoreRow, actor: string, to: OrderStatus, note: string | null, now: string): Promise<void> {
  if (current.status === to) return;
  const job = await findJobByOrder(tx, current.id);
  const back = current.status === 'confirmed' && to === 'pending';
  if (back && job && STARTED.has(job.state)) throw invalidState('The order was already sent to the fulfillment platform: it cannot go back to pending', [{ field: 'status', message: 'already pushed' }]);
  if (!back && !canMove(current.status, to)) throw invalidState(`An order cannot go from ${current.status} to ${to}`, [{ field: 'status', message: `not allowed from ${current.status}` }]);
  await updateOrder(tx, current.id, { status: to, updated_at: now });
  await deps.orderEvents.record(tx, { order_id: current.id, store_id: current.store_id, type: 'order.status_changed', actor, data: { from: current.status, to, note }, created_at: now });
  await followPolicy(tx, (await findOrder(tx, current.id))!, store, now);
}

const BUYER_FIELDS = ['nombre', 'telefono', 'departamento', 'ciudad', 'direccion', 'barrio', 'referencia', 'distrito', 'colonia', 'codigo_postal'] as const;
const OPTIONAL = new Set(['barrio', 'referencia', 'distrito', 'colonia', 'codigo_postal']);

/** Corrections until the order is pushed; a new region or city is canonicalized again (SPEC 6). */
export async function updateOrderBuyer(deps: Pick<Deps, 'db' | 'clock' | 'catalogs' | 'orderEvents'>, caller: Caller, input: Out<typeof UpdateOrderBuyerInput>) {
  const { order, store } = await orderOf(deps, caller, input.order_id);
  const correction = await buyerCorrection(deps, order, store, input);
  if (!correction) return orderDetail(deps, order);
  const now = deps.clock.now().toISOString();
  await writeTransaction(deps.db, (tx) => applyBuyerCorrection(deps, tx, order, store, caller.actor, correction, now));
  return orderDetail(deps, (await findOrder(deps.db, order.id))!);
}

/** What a correction changes, checked and with its city canonicalized again, before any write. */
export interface BuyerCorrection {
  change: Partial<OrderRow>;
  changes: Record<string, { from: unknown; to: unknown }>;
  /** The matcher's decision on a new city (null: not a canonicalized country; undefined: the city did not change). */
  cityNote: object | null | undefined;
}

/** The one rule of a buyer correction (a person's, or the buyer's own page): undefined when nothing changes. */
export async function buyerCorrection(deps: Pick<Deps, 'catalogs'>, order: OrderRow, store: StoreRow, input: Omit<Out<typeof UpdateOrderBuyerInput>, 'order_id'>): Promise<BuyerCorrection | undefined> {
  const change: Partial<OrderRow> = {};
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const field of BUYER_FIELDS) {
    const value = input[field];
    if (value === undefined) continue;
    const next = value === '' && OPTIONAL.has(field) ? null : value;
    if (next !== order[field]) {
      (change as Record<string, unknown>)[field] = next;
      changes[field] = { from: order[field], to: next };
    }
  }
  if (POSTAL_CODE_REQUIRED.has(store.country) && 'codigo_postal' in change && !change.codigo_postal) throw fieldError('codigo_postal', `codigo_postal is required for ${store.country}`);
  if (change.telefono !== undefined) {
    const phone = normalizePhone(change.telefono!, store.country);
    if (!phone) throw fieldError('telefono', `telefono is not a valid phone number for ${store.country}`);
    change.telefono_e164 = phone.e164;
  }
  // The matcher's decision on a new city, recorded with the event as order creation records its own:
  // get_order's city_review reads the latest one, not the decision on the city the buyer first gave.
  let cityNote: object | null | undefined;
  if (change.departamento !== undefined || change.ciudad !== undefined) {
    const region = change.departamento ?? order.departamento_input;
    const city = change.ciudad ?? order.ciudad_input;
    Object.assign(change, { departamento_input: region, ciudad_input: city, departamento: region, ciudad: city, city_code: null, city_match: 'not_applicable', needs_review: 0 });
    cityNote = null;
    if (CANONICALIZED_COUNTRIES.has(store.country)) {
      const decision = await storeCityDecision(deps, store, region, city);
      if (decision) cityNote = { method: decision.method, score: decision.score, confident: decision.confident, reason: decision.reason, candidates: decision.candidates ?? [] };
      if (decision?.confident) Object.assign(change, { departamento: decision.region, ciudad: decision.city, city_code: decision.code ?? null, city_match: decision.method });
      else Object.assign(change, { city_match: 'none', needs_review: 1 });
    }
  }
  return Object.keys(changes).length === 0 ? undefined : { change, changes, cityNote };
}

/** Writes a correction in the caller's transaction, while the order is still ours (not pushed). */
export async function applyBuyerCorrection(deps: Pick<Deps, 'orderEvents'>, tx: Tx, order: OrderRow, store: StoreRow, actor: string, c: BuyerCorrection, now: string): Promise<void> {
  if (await pushStarted(tx, order.id)) throw invalidState('The order was already sent to the fulfillment platform: change its address there', [{ field: 'order_id', message: 'already pushed' }]);
  await updateOrder(tx, order.id, { ...c.change, updated_at: now });
  await deps.orderEvents.record(tx, { order_id: order.id, store_id: order.store_id, type: 'order.buyer_updated', actor, data: { changes: c.changes, needs_review: c.change.needs_review === 1, ...(c.cityNote !== undefined && { city: c.cityNote }) }, created_at: now });
  await followPolicy(tx, (await findOrder(tx, order.id))!, store, now);
}

/**
 * Cancels an order (pending, confirmed or processing). A push that never left is cancelled with it;
 * one that started, or reached the platform, gets a cancel job in the same outbox, which cancels
 * whatever the push created there (looked up by reference when its answer was lost). Cancelling a
 * cancelled order changes nothing.
 */
export async function cancelOrder(deps: Pick<Deps, 'db' | 'clock' | 'nudge' | 'orderEvents'>, caller: Caller, input: Out<typeof CancelOrderInput>) {
  const { order } = await orderOf(deps, caller, input.order_id);
  const now = deps.clock.now().toISOString();
  const queued = await writeTransaction(deps.db, async (tx) => (await cancelInTx(deps, tx, (await findOrder(tx, order.id))!, caller.actor, input.reason, input.note ?? null, now)) === 'platform');
  if (queued) deps.nudge.fulfillment();
  return orderDetail(deps, (await findOrder(deps.db, order.id))!);
}

/** Whether the order's push started or reached the platform: a cancel then needs the platform too. */
export async function pushStarted(tx: Db | Tx, orderId: string): Promise<boolean> {
  const job = await findJobByOrder(tx, orderId);
  return job !== undefined && (STARTED.has(job.state) || job.remote_id !== null);
}

/**
 * One cancellation in the caller's transaction: `unchanged` for a cancelled order, `local` when
 * nothing can exist at the platform, `platform` when a cancel job was queued for it.
 */
export async function cancelInTx(deps: Pick<Deps, 'orderEvents'>, tx: Tx, current: OrderRow, actor: string, reason: string, note: string | null, now: string): Promise<'unchanged' | 'local' | 'platform'> {
  if (current.status === 'cancelled') return 'unchanged';
  if (!canMove(current.status, 'cancelled')) throw invalidState(`An order that is ${current.status} cannot be cancelled`, [{ field: 'order_id', message: `${current.status}: the parcel has left` }]);
  await updateOrder(tx, current.id, { status: 'cancelled', cancel_reason: reason, updated_at: now });
  const push = await findJobByOrder(tx, current.id);
  // Never attempted: nothing can exist at the platform.
  const untouched = !push || ((push.state === 'queued' || push.state === 'held') && push.attempts === 0 && push.last_error === null);
  if (push && push.state !== 'in_flight' && push.state !== 'done') await cancelPushJob(tx, push.id, now);
  const platform = !untouched && !(await findJobByOrder(tx, current.id, 'cancel'));
  if (platform)
    await insertJobRow(tx, { id: newId(), order_id: current.id, action: 'cancel', state: 'queued', attempts: 0, next_attempt_at: now, lease_until: null, last_error: null, remote_id: push?.remote_id ?? null, first_attempt_at: null, unknown_outcome: 0, destination: platformDestination(current.store_id), created_at: now, updated_at: now });
  await deps.orderEvents.record(tx, { order_id: current.id, store_id: current.store_id, type: 'order.cancelled', actor, data: { from: current.status, reason, note, platform_cancel: platform ? 'queued' : 'not_needed' }, created_at: now });
  return platform ? 'platform' : 'local';
}

export async function addOrderNote(deps: Pick<Deps, 'db' | 'clock' | 'orderEvents'>, caller: Caller, input: Out<typeof AddOrderNoteInput>) {
  const { order } = await orderOf(deps, caller, input.order_id);
  const now = deps.clock.now().toISOString();
  await writeTransaction(deps.db, (tx) => event(deps, tx, order, caller, 'order.note', { text: input.text }, now));
  return orderDetail(deps, order);
}

export async function listOrderEvents(deps: Pick<Deps, 'db'>, caller: Caller, input: Out<typeof ListOrderEventsInput>): Promise<Out<typeof OrderEventPage>> {
  const { order } = await orderOf(deps, caller, input.order_id);
  const limit = clampLimit(input.limit);
  const rows = await listEventPage(deps.db, { orderId: order.id, after: pageAfter(input.cursor), limit: limit + 1 });
  return keysetPage(rows, limit, (e) => ({ id: e.id, type: e.type, actor: e.actor, data: JSON.parse(e.data) as unknown, created_at: e.created_at }));
}
