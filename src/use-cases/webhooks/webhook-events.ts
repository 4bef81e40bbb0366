// The seller's webhook events, as a subscriber of the one order-event writer (issue 21 §4): an
// order event that matters outside becomes one or more typed events (src/domain/webhook-events.ts),
// written with the order as it was, in the transaction of the change — with one delivery per
// enabled endpoint of the store that subscribed to the type. A store without any endpoint gets no
// event row: the order's hot path stays as it was until a seller asks for webhooks.
import type { Nudges } from '../../app.ts';
import { afterCommit, type Tx } from '../../db/transaction.ts';
import { enabledEndpointsOfStore, insertDelivery, insertWebhookEvent, storeHasEndpoints, type EndpointRow } from '../../db/queries/webhooks.queries.ts';
import { eventId, orderSnapshot, outsideEvents, storeEvent, subscribes, type OrderFacts } from '../../domain/webhook-events.ts';
import { findStore } from '../../db/queries/stores.queries.ts';
import { newId } from '../../ids.ts';
import type { OrderEventSubscriber } from '../../order-events/order-events.ts';
import { endpointDestination } from '../../webhooks/deliveries.ts';

export interface WrittenEvent {
  id: string;
  seq: number;
  type: string;
}

/** The body every delivery of an event POSTs, exactly: Stripe's shape, the order in `data.object`. */
export function eventBody(e: { id: string; type: string; created_at: string; livemode: boolean; store_id: string; data: Record<string, unknown> }): string {
  return JSON.stringify({ id: e.id, object: 'event', type: e.type, created_at: e.created_at, livemode: e.livemode, store_id: e.store_id, data: e.data });
}

/** Writes one event and a delivery to each of these endpoints that subscribed to its type. */
export async function writeEvent(
  tx: Tx,
  e: { accountId: string; storeId: string; orderId: string | null; type: string; livemode: boolean; createdAt: string; data: Record<string, unknown> },
  endpoints: readonly EndpointRow[],
): Promise<WrittenEvent> {
  const id = eventId(newId());
  const body = eventBody({ id, type: e.type, created_at: e.createdAt, livemode: e.livemode, store_id: e.storeId, data: e.data });
  const seq = await insertWebhookEvent(tx, { id, account_id: e.accountId, store_id: e.storeId, order_id: e.orderId, type: e.type, livemode: e.livemode ? 1 : 0, body, created_at: e.createdAt });
  for (const endpoint of endpoints) if (subscribes(JSON.parse(endpoint.event_types) as string[], e.type)) await insertDelivery(tx, newDelivery(endpoint.id, { id, seq, orderId: e.orderId }, e.createdAt));
  return { id, seq, type: e.type };
}

/** A delivery row, due now. One order's deliveries to one endpoint go in event order (ordering_key + seq). */
export function newDelivery(endpointId: string, event: { id: string; seq: number; orderId: string | null }, now: string, once = false) {
  return {
    id: newId(),
    event_id: event.id,
    event_seq: event.seq,
    endpoint_id: endpointId,
    ordering_key: event.orderId ?? event.id,
    state: 'queued' as const,
    attempts: 0,
    next_attempt_at: now,
    lease_until: null,
    last_error: null,
    first_attempt_at: null,
    unknown_outcome: 0,
    destination: endpointDestination(endpointId),
    last_status: null,
    last_latency_ms: null,
    delivered_at: null,
    once: once ? 1 : 0,
    created_at: now,
    updated_at: now,
  };
}

export const webhookEvents =
  (nudge: Nudges): OrderEventSubscriber =>
  async (tx, event, order) => {
    if (!order) {
      // A store's own event (its platform connection paused, resumed): `data` says what, with no order.
      const outside = storeEvent(event);
      if (!outside || !(await storeHasEndpoints(tx, event.store_id))) return;
      const store = (await findStore(tx, event.store_id))!;
      const endpoints = await enabledEndpointsOfStore(tx, event.store_id);
      await writeEvent(tx, { accountId: store.account_id, storeId: event.store_id, orderId: null, type: outside.type, livemode: true, createdAt: event.created_at, data: { object: { object: 'store', id: event.store_id }, ...outside.extra } }, endpoints);
      if (endpoints.length > 0) afterCommit(tx, () => nudge.webhooks());
      return;
    }
    const outside = outsideEvents(event, order);
    if (outside.length === 0 || !(await storeHasEndpoints(tx, order.store_id))) return;
    const store = (await findStore(tx, order.store_id))!;
    const endpoints = await enabledEndpointsOfStore(tx, order.store_id);
    const snapshot = orderSnapshot(order as OrderFacts);
    for (const { type, extra } of outside)
      await writeEvent(tx, { accountId: store.account_id, storeId: order.store_id, orderId: order.id, type, livemode: order.sandbox === 0, createdAt: event.created_at, data: { object: snapshot, ...extra } }, endpoints);
    if (endpoints.length > 0) afterCommit(tx, () => nudge.webhooks());
  };
