// The return-risk score of an order (issue 25 §3; the rule is src/domain/return-risk.ts), from what
// the account knows: the phone's other orders across its stores, the city match, the address, the
// size of the order, its local hour and where its confirmation stands. Computed in the transaction
// that creates the order (so a store's risk hold applies to its first push), and computed again as
// the order's events arrive — its own (a confirmation, a corrected address, silence) and the
// outcome of the phone's other orders (a refusal raises the risk of the buyer's open orders).
import type { Tx } from '../../db/transaction.ts';
import { findOrder, phoneOrders, updateOrder, type OrderRow, type PhoneOrder } from '../../db/queries/orders.queries.ts';
import { findStore } from '../../db/queries/stores.queries.ts';
import { returnRisk, type Risk, type RiskFacts } from '../../domain/return-risk.ts';
import type { OrderEvent } from '../../order-events/order-events.ts';
import type { StoreRow } from '../tenancy.ts';

type Subject = Pick<OrderRow, 'id' | 'telefono_e164' | 'sandbox' | 'created_at' | 'direccion' | 'pack_units' | 'quantity' | 'city_match' | 'needs_review' | 'confirmation' | 'confirmed_by'>;

const DAY_MS = 86_400_000;
const OPEN = new Set(['pending', 'confirmed', 'processing']);

const hourFormats = new Map<string, Intl.DateTimeFormat>();
const QUARTER_MS = 15 * 60_000;
/** Per zone, the local hour of the last quarter hour asked (formatting a date is the slow part of a score). */
const lastHour = new Map<string, { quarter: number; hour: number }>();
function localHour(at: string, timezone: string): number {
  // Every zone's offset from UTC is a whole number of quarter hours: within one UTC quarter hour the local hour is the same.
  const t = Date.parse(at);
  const quarter = Math.floor(t / QUARTER_MS);
  const last = lastHour.get(timezone);
  if (last?.quarter === quarter) return last.hour;
  let f = hourFormats.get(timezone);
  if (!f) hourFormats.set(timezone, (f = new Intl.DateTimeFormat('en-US', { timeZone: timezone, hour: 'numeric', hourCycle: 'h23' })));
  const hour = Number(f.format(new Date(t))) % 24;
  lastHour.set(timezone, { quarter, hour });
  return hour;
}

const cityFact = (o: Pick<OrderRow, 'needs_review' | 'city_match'>): RiskFacts['city'] =>
  o.needs_review === 1 ? 'review' : o.city_match === 'not_applicable' ? 'not_applicable' : o.city_match === 'fuzzy' ? 'fuzzy' : 'confident';

/**
 * The score of an order as the account sees it now, and the phone's other open orders of the same
 * day (whose score this one changes). `read` is the phone's other orders when the caller has
 * just read them (phoneOrders, as order creation does for its duplicate check).
 */
export async function orderRisk(tx: Tx, o: Subject, store: Pick<StoreRow, 'account_id' | 'timezone'>, read?: readonly PhoneOrder[]): Promise<Risk & { neighbours: string[] }> {
  const others = read ?? (await phoneOrders(tx, { accountId: store.account_id, phone: o.telefono_e164, sandbox: o.sandbox, excludeId: o.id }));
  const t = Date.parse(o.created_at);
  const history = { delivered: 0, returned: 0, cancelled: 0, unanswered: 0 };
  let recent = 0;
  const neighbours: string[] = [];
  for (const other of others) {
    const at = Date.parse(other.created_at);
    if (Math.abs(at - t) <= DAY_MS) {
      recent++;
      if (OPEN.has(other.status)) neighbours.push(other.id);
    }
    if (at > t) continue;
    if (other.status === 'delivered') history.delivered++;
    else if (other.status === 'returned') history.returned++;
    else if (other.confirmation === 'call' || other.cancel_reason === 'unreachable') history.unanswered++;
    else if (other.status === 'cancelled' && other.cancel_reason !== 'duplicate') history.cancelled++;
  }
  const risk = returnRisk({
    history,
    recent,
    city: cityFact(o),
    direccion: o.direccion,
    units: o.pack_units * o.quantity,
    quantity: o.quantity,
    localHour: localHour(o.created_at, store.timezone),
    confirmation: o.confirmation,
    confirmedBy: o.confirmed_by,
  });
  return { ...risk, neighbours };
}

/** Computes an order's score again and stores it when it changed; returns the order as stored. */
export async function refreshRisk(tx: Tx, orderId: string, store?: StoreRow): Promise<OrderRow | undefined> {
  const order = await findOrder(tx, orderId);
  if (!order) return undefined;
  const s = store ?? (await findStore(tx, order.store_id));
  if (!s) return order;
  const risk = await orderRisk(tx, order, s);
  const reasons = JSON.stringify(risk.reasons);
  if (risk.score === order.risk_score && reasons === order.risk_reasons) return order;
  await updateOrder(tx, order.id, { risk_score: risk.score, risk_reasons: reasons });
  return { ...order, risk_score: risk.score, risk_reasons: reasons };
}

/** Events that change what the score of their own order sees. */
const OWN = new Set(['order.status_changed', 'order.cancelled', 'order.buyer_updated', 'order.city_resolved', 'confirmation.unanswered']);

export const changesRisk = (event: Pick<OrderEvent, 'type'>): boolean => OWN.has(event.type);
/** Outcomes that change the history of the phone's other orders. */
const OUTCOMES = new Set(['delivered', 'returned', 'cancelled']);

/**
 * Keeps scores current as events arrive (run by the order-event subscriber of confirmation.use-case):
 * the event's own order, and when an order ends (delivered, returned, cancelled) or lands in the call
 * queue, the phone's open orders too. `onOpen` lets the caller re-apply the push policy to them.
 */
export async function refreshRiskOn(tx: Tx, event: OrderEvent, order: OrderRow, onOpen: (order: OrderRow) => Promise<void>): Promise<void> {
  if (!changesRisk(event)) return;
  const store = await findStore(tx, order.store_id);
  if (!store) return;
  await refreshRisk(tx, order.id, store);
  const ended = (event.type === 'order.status_changed' && OUTCOMES.has(String(event.data.to))) || event.type === 'order.cancelled' || event.type === 'confirmation.unanswered';
  if (!ended) return;
  const others = await phoneOrders(tx, { accountId: store.account_id, phone: order.telefono_e164, sandbox: order.sandbox, excludeId: order.id });
  for (const other of others) {
    if (!OPEN.has(other.status)) continue;
    const refreshed = await refreshRisk(tx, other.id);
    if (refreshed) await onOpen(refreshed);
  }
}
