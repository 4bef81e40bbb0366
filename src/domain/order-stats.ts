// Order KPIs of a period (get_account_stats, MCP-TOOLS.md §6.1 row 2; the contract of issue 12):
// counts by status and push state, cash-on-delivery value by currency, and three rates over live
// orders: confirmation = confirmed or later ÷ all; delivery = delivered ÷ (delivered + returned);
// return = returned ÷ (delivered + returned). An order cancelled after its push counts as pushed.
import { ORDER_STATUSES, type OrderStatus } from './order-status.ts';

export type PushState = 'not_pushed' | 'pushed' | 'push_failed';
export const PUSH_STATES: readonly PushState[] = ['not_pushed', 'pushed', 'push_failed'];

export interface StatRow {
  status: OrderStatus;
  /** The outbox job's state, or null when the order has none. */
  job: string | null;
  totalMinor: number;
  currency: string;
}

export interface OrderStats {
  orders: number;
  by_status: Record<OrderStatus, number>;
  by_fulfillment: Record<PushState, number>;
  /** Summed totals of the orders not cancelled, per currency, minor units. */
  codMinor: Map<string, number>;
  confirmation_rate: number | null;
  delivery_rate: number | null;
  return_rate: number | null;
}

const CONFIRMED_OR_LATER: ReadonlySet<OrderStatus> = new Set(['confirmed', 'processing', 'shipped', 'delivered', 'returned']);

export function pushState(job: string | null): PushState {
  if (job === 'done') return 'pushed';
  if (job === 'failed' || job === 'dead') return 'push_failed';
  return 'not_pushed';
}

const ratio = (n: number, d: number): number | null => (d === 0 ? null : Math.round((n / d) * 10_000) / 10_000);

export function orderStats(rows: readonly StatRow[]): OrderStats {
  const by_status = Object.fromEntries(ORDER_STATUSES.map((s) => [s, 0])) as Record<OrderStatus, number>;
  const by_fulfillment = Object.fromEntries(PUSH_STATES.map((s) => [s, 0])) as Record<PushState, number>;
  const codMinor = new Map<string, number>();
  let confirmed = 0;
  for (const row of rows) {
    by_status[row.status]++;
    by_fulfillment[pushState(row.job)]++;
    if (CONFIRMED_OR_LATER.has(row.status)) confirmed++;
    if (row.status !== 'cancelled') codMinor.set(row.currency, (codMinor.get(row.currency) ?? 0) + row.totalMinor);
  }
  const settled = by_status.delivered + by_status.returned;
  return {
    orders: rows.length,
    by_status,
    by_fulfillment,
    codMinor,
    confirmation_rate: ratio(confirmed, rows.length),
    delivery_rate: ratio(by_status.delivered, settled),
    return_rate: ratio(by_status.returned, settled),
  };
}

/**
 * The UTC instant a calendar day (`YYYY-MM-DD`) starts at in a timezone: the local midnight, found
 * by asking the zone its offset there (twice, for a day that starts inside a DST change).
 */
export function dayStartUtc(day: string, timeZone: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(y, m - 1, d);
  const format = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
  const offset = (instant: number) => {
    const p = Object.fromEntries(format.formatToParts(new Date(instant)).map((x) => [x.type, Number(x.value)]));
    return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!) - instant;
  };
  let instant = wall - offset(wall);
  instant = wall - offset(instant);
  return new Date(instant).toISOString();
}

/** The calendar day an instant falls on in a timezone, `YYYY-MM-DD`. */
export function localDay(instant: string, timeZone: string, formats: Map<string, Intl.DateTimeFormat> = new Map()): string {
  let format = formats.get(timeZone);
  if (!format) formats.set(timeZone, (format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })));
  return format.format(new Date(instant));
}
