// A platform status reaching an order (push answer, webhook, sync): raw status kept, codrail's
// status moved only along the state machine, and an order event either way. One place, so the
// worker, the webhook and `fulfillment sync` apply reports identically.
import type { Tx } from '../db/transaction.ts';
import { findOrder, insertEvent, updateOrderFulfillment } from '../db/queries/orders.queries.ts';
import { applyPlatformStatus } from '../domain/order-status.ts';
import { newId } from '../ids.ts';

export async function applyStatusReport(tx: Tx, orderId: string, raw: string, source: { via: 'push' | 'webhook' | 'sync'; actor: string; remoteId: string; eventId?: string }, now: string) {
  const order = await findOrder(tx, orderId);
  if (!order) return undefined;
  const outcome = applyPlatformStatus(order.status, raw);
  if (order.fulfillment_status === raw && !outcome.moved) return outcome;
  await updateOrderFulfillment(tx, orderId, { status: outcome.to, fulfillment_status: raw, updated_at: now });
  await insertEvent(tx, {
    id: newId(),
    order_id: orderId,
    store_id: order.store_id,
    type: outcome.refused ? 'order.status_refused' : outcome.moved ? 'order.status_changed' : 'order.platform_status',
    actor: source.actor,
    data: JSON.stringify({ from: order.status, to: outcome.to, platform_status: raw, via: source.via, remote_id: source.remoteId, ...(source.eventId ? { event_id: source.eventId } : {}) }),
    created_at: now,
  });
  return outcome;
}
