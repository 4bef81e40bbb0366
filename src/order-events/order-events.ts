// The one writer of order events (issue 21 §3): the audit trail of every change to an order (SPEC 3),
// recorded in the transaction of the change and handed, in that same transaction, to its subscribers
// — the buyer's WhatsApp notices, the seller's webhook events, the metrics — so a change, its
// timeline entry and what follows from it commit together or not at all. No other code inserts
// into order_events (a test keeps it so); the subscribers are wired once, at the composition root.
import type { Db } from '../db/connect.ts';
import { writeTransaction, type Tx } from '../db/transaction.ts';
import { findOrder, insertEvent, type OrderRow } from '../db/queries/orders.queries.ts';
import { newId } from '../ids.ts';

export interface NewOrderEvent {
  /** Null for an event about a store's request that made no order (an order refused by the anti-bot checks). */
  order_id: string | null;
  store_id: string;
  /** `order.created`, `order.status_changed`, `fulfillment.pushed`, `whatsapp.failed`… */
  type: string;
  /** Who did it: `key:<id>`, `oauth:<client>`, `cli`, `landing:<id>`, `system`, `platform`. */
  actor: string;
  data: object;
  created_at: string;
}

export interface OrderEvent extends Omit<NewOrderEvent, 'data'> {
  id: string;
  data: Record<string, unknown>;
}

/**
 * Runs in the transaction that recorded the event, with the order as that transaction sees it
 * after the change (undefined for an event without an order). A subscriber that throws rolls the
 * change back.
 */
export type OrderEventSubscriber = (tx: Tx, event: OrderEvent, order: OrderRow | undefined) => Promise<void>;

export class OrderEvents {
  readonly #subscribers: OrderEventSubscriber[] = [];

  /** Wired at the composition root (src/app.ts), in the order they run. */
  subscribe(subscriber: OrderEventSubscriber): void {
    this.#subscribers.push(subscriber);
  }

  /**
   * Records an event in the caller's transaction and hands it to every subscriber there. `order` is
   * the event's order exactly as this transaction now holds it, when the caller has that row at hand
   * (the one order creation just inserted, RETURNING it); otherwise it is read here.
   */
  async record(tx: Tx, input: NewOrderEvent, order?: OrderRow): Promise<OrderEvent> {
    const event: OrderEvent = { ...input, id: newId(), data: { ...input.data } as Record<string, unknown> };
    await insertEvent(tx, { ...input, id: event.id, data: JSON.stringify(input.data) });
    if (this.#subscribers.length > 0) {
      if (order && order.id !== input.order_id) throw new Error('record: the order given is not the event\'s');
      order ??= input.order_id ? await findOrder(tx, input.order_id) : undefined;
      for (const subscriber of this.#subscribers) await subscriber(tx, event, order);
    }
    return event;
  }

  /** Records an event that is a change of its own (a settle already committed, a refusal): in a transaction of its own. */
  recordAlone(db: Db, input: NewOrderEvent): Promise<OrderEvent> {
    return writeTransaction(db, (tx) => this.record(tx, input));
  }

}
