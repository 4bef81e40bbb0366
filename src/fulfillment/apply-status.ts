// A platform status reaching an order (push answer, webhook, sync): raw status kept, codrail's
// status moved only along the state machine as the platform's own table maps it, and an order event
// either way (whose subscribers — the buyer's WhatsApp notice, the seller's webhook — run in the
// same transaction). A status the platform's table does not know moves nothing and is logged. One
// place, so the worker, the webhook and `fulfillment sync` apply reports identically.
import type { Logger } from 'pino';
import type { Tx } from '../db/transaction.ts';
import { findOrder, updateOrderFulfillment } from '../db/queries/orders.queries.ts';
import { applyPlatformStatus } from '../domain/order-status.ts';
import type { OrderEvents } from '../order-events/order-events.ts';
import type { Platform } from '../platforms/platform.ts';

export async function applyStatusReport(
  deps: { orderEvents: OrderEvents; log: Logger },
  tx: Tx,
  orderId: string,
  platform: Pick<Platform, 'name' | 'status'>,
  raw: string,
  source: { via: 'push' | 'webhook' | 'sync' | 'cancel'; actor: string; remoteId: string; eventId?: string; tracking?: string | null | undefined },
  now: string,
) {
  const order = await findOrder(tx, orderId);
  if (!order) return undefined;
  const mapping = platform.status(raw);
  if (!mapping.known) deps.log.warn({ orderId, platform: platform.name, platformStatus: raw.slice(0, 100), via: source.via }, 'fulfillment: a platform status this release does not know; the order keeps its status');
  const outcome = applyPlatformStatus(order.status, mapping.to);
  const tracking = source.tracking && source.tracking !== order.tracking_number ? source.tracking : undefined;
  if (order.fulfillment_status === raw && !outcome.moved && !tracking) return outcome;
  await updateOrderFulfillment(tx, orderId, { status: outcome.to, fulfillment_status: raw, updated_at: now, ...(tracking ? { tracking_number: tracking } : {}) });
  await deps.orderEvents.record(tx, {
    order_id: orderId,
    store_id: order.store_id,
    type: outcome.refused ? 'order.status_refused' : outcome.moved ? 'order.status_changed' : 'order.platform_status',
    actor: source.actor,
    data: {
      from: order.status,
      to: outcome.to,
      platform_status: raw,
      via: source.via,
      remote_id: source.remoteId,
      ...(mapping.known ? {} : { unknown_status: true }),
      ...(tracking ? { tracking_number: tracking } : {}),
      ...(source.eventId ? { event_id: source.eventId } : {}),
    },
    created_at: now,
  });
  return outcome;
}
