// Order KPIs of a period (get_account_stats, MCP-TOOLS.md §6.1 row 2; the contract of issue 12):
// counts by status and push state, cash-on-delivery value by currency, and three rates over live
// orders: confirmation = confirmed or later ÷ all; delivery = delivered ÷ (delivered + returned);
// return = returned ÷ (delivered + returned). An order cancelled after its push counts as pushed.
import { ORDER_STATUSES, type OrderStatus } from './order-status.ts';
import { RISK_BANDS, riskBand, type RiskBand } from './return-risk.ts';

export type PushState = 'not_pushed' | 'pushed' | 'push_failed';
export const PUSH_STATES: readonly PushState[] = ['not_pushed', 'pushed', 'push_failed'];

export interface StatRow {
  status: OrderStatus;
  /** The outbox job's state, or null when the order has none. */
  job: string | null;
  totalMinor: number;
  currency: string;
  /** Issue 25: the return risk, and the buyer's confirmation (null when never asked). */
  riskScore: number;
  confirmation: string | null;
  askedAt: string | null;
  confirmedAt: string | null;
  confirmedBy: string | null;
}

/** How buyers answered the confirmation they were asked for. */
export interface ConfirmationStats {
  asked: number;
  /** Confirmed by the buyer themself (a tap or the correction page). */
  by_buyer: number;
  /** Confirmed by support after asking (often after a call). */
  by_support: number;
  /** Cancelled, by anyone, after the buyer was asked. */
  cancelled: number;
  /** Still in the call queue (no answer to the request or its reminder). */
  unanswered: number;
  /** Confirmed by the buyer ÷ asked. */
  rate: number | null;
  /** Median minutes from the request to the buyer's confirmation. */
  median_minutes: number | null;
}

export interface RiskBandStats {
  orders: number;
  delivered: number;
  returned: number;
  return_rate: number | null;
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
  confirmation: ConfirmationStats;
  by_risk: Record<RiskBand, RiskBandStats>;
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
  const asked = { asked: 0, by_buyer: 0, by_support: 0, cancelled: 0, unanswered: 0 };
  const minutes: number[] = [];
  const by_risk = Object.fromEntries(RISK_BANDS.map((b) => [b, { orders: 0, delivered: 0, returned: 0, return_rate: null }])) as Record<RiskBand, RiskBandStats>;
  for (const row of rows) {
    const band = by_risk[riskBand(row.riskScore)];
    band.orders++;
    if (row.status === 'delivered') band.delivered++;
    if (row.status === 'returned') band.returned++;
    if (row.askedAt !== null) {
      asked.asked++;
      if (row.confirmedBy === 'buyer') {
        asked.by_buyer++;
        if (row.confirmedAt) minutes.push((Date.parse(row.confirmedAt) - Date.parse(row.askedAt)) / 60_000);
      } else if (row.confirmedBy !== null) asked.by_support++;
      if (row.status === 'cancelled') asked.cancelled++;
      else if (row.confirmation === 'call') asked.unanswered++;
    }
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
    confirmation: { ...asked, rate: ratio(asked.by_buyer, asked.asked), median_minutes: median(minutes) },
    by_risk: Object.fromEntries(RISK_BANDS.map((b) => [b, { ...by_risk[b], return_rate: ratio(by_risk[b].returned, by_risk[b].delivered + by_risk[b].returned) }])) as Record<RiskBand, RiskBandStats>,
  };
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const m = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return Math.round(m * 10) / 10;
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
