// A platform status reaching an order (push answer, webhook, sync): raw status kept, codrail's
// status moved only along the state machine, and an order event either way. One place, so the
// worker, the webhook and `fulfillment sync` apply reports identically.
import type { Tx } from '../db/transaction.ts';
import { findOrder, insertEvent, updateOrderFulfillment, type OrderRow } from '../db/queries/orders.queries.ts';
import { applyPlatformStatus, type OrderStatus } from '../domain/order-status.ts';
import { newId } from '../ids.ts';

/** Runs in the transaction that moved an order's status (the buyer's WhatsApp notifications). */
export type StatusReportHook = (tx: Tx, order: OrderRow, to: OrderStatus, now: string) => Promise<void>;

export async function applyStatusReport(
  tx: Tx,
  orderId: string,
  raw: string,
  source: { via: 'push' | 'webhook' | 'sync' | 'cancel'; actor: string; remoteId: string; eventId?: string; tracking?: string | null | undefined },
  now: string,
  onStatus?: StatusReportHook,
) {
  const order = await findOrder(tx, orderId);
  if (!order) return undefined;
  const outcome = applyPlatformStatus(order.status, raw);
  const tracking = source.tracking && source.tracking !== order.tracking_number ? source.tracking : undefined;
  if (order.fulfillment_status === raw && !outcome.moved && !tracking) return outcome;
  await updateOrderFulfillment(tx, orderId, { status: outcome.to, fulfillment_status: raw, updated_at: now, ...(tracking ? { tracking_number: tracking } : {}) });
  await insertEvent(tx, {
    id: newId(),
    order_id: orderId,
    store_id: order.store_id,
    type: outcome.refused ? 'order.status_refused' : outcome.moved ? 'order.status_changed' : 'order.platform_status',
    actor: source.actor,
    data: JSON.stringify({ from: order.status, to: outcome.to, platform_status: raw, via: source.via, remote_id: source.remoteId, ...(tracking ? { tracking_number: tracking } : {}), ...(source.eventId ? { event_id: source.eventId } : {}) }),
    created_at: now,
  });
  if (outcome.moved && onStatus) await onStatus(tx, { ...order, tracking_number: tracking ?? order.tracking_number }, outcome.to, now);
  return outcome;
}
