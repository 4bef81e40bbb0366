// When a live order's fulfillment push is released (SPEC 7; issues 12, 25): a store pushes each
// order as it is created (`on_create`, the default) or only once it is confirmed (`on_confirm`, by
// the buyer on WhatsApp or by support). Either way an order whose city awaits review waits for
// support first, and a pending order whose return risk is above the store's `risk_hold` waits for a
// confirmation.
import type { OrderStatus } from './order-status.ts';

export const PUSH_POLICIES = ['on_create', 'on_confirm'] as const;
export type PushPolicy = (typeof PUSH_POLICIES)[number];

const CONFIRMED_OR_LATER: ReadonlySet<OrderStatus> = new Set(['confirmed', 'processing', 'shipped', 'delivered', 'returned']);

/** Whether the order's push job may be due now, or stays held. */
export function pushReleased(
  order: { status: OrderStatus; needs_review: number | boolean; risk_score: number },
  store: { push_policy: PushPolicy; risk_hold: number | null },
): boolean {
  if (order.needs_review === true || order.needs_review === 1) return false;
  if (order.status === 'cancelled') return false;
  if (CONFIRMED_OR_LATER.has(order.status)) return true;
  if (store.risk_hold !== null && order.risk_score > store.risk_hold) return false;
  return store.push_policy === 'on_create';
}

/** Why a held push waits, for people (get_order, the console): the first rule that holds it. */
export function holdReason(order: { status: OrderStatus; needs_review: number | boolean; risk_score: number }, store: { push_policy: PushPolicy; risk_hold: number | null }): 'city_review' | 'risk' | 'confirmation' | null {
  if (pushReleased(order, store) || order.status === 'cancelled') return null;
  if (order.needs_review === true || order.needs_review === 1) return 'city_review';
  if (store.risk_hold !== null && order.risk_score > store.risk_hold) return 'risk';
  return 'confirmation';
}
