// When a live order's fulfillment push is released (SPEC 7; issue 12): a store pushes each order as
// it is created (`on_create`, the default) or only once its call centre confirmed it (`on_confirm`);
// either way an order whose city awaits review waits for support first.
import type { OrderStatus } from './order-status.ts';

export const PUSH_POLICIES = ['on_create', 'on_confirm'] as const;
export type PushPolicy = (typeof PUSH_POLICIES)[number];

const CONFIRMED_OR_LATER: ReadonlySet<OrderStatus> = new Set(['confirmed', 'processing', 'shipped', 'delivered', 'returned']);

/** Whether the order's push job may be due now, or stays held. */
export function pushReleased(order: { status: OrderStatus; needs_review: number | boolean }, policy: PushPolicy): boolean {
  if (order.needs_review === true || order.needs_review === 1) return false;
  if (order.status === 'cancelled') return false;
  return policy === 'on_create' || CONFIRMED_OR_LATER.has(order.status);
}
