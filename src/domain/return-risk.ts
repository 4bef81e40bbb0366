// The return-risk score of a cash-on-delivery order (issue 25 §3): 0–100, the likelihood the parcel
// comes back refused, made of points a person can read and argue with — no model, no training data.
// Each reason says what it saw and what it added; the score is their sum over a base, clamped.
// The weights follow what COD sellers check by hand before shipping: a buyer who refused before
// is the strongest sign, a buyer who received before the strongest reassurance; orders placed again
// and again, a town nobody could place, an address with no street or number, an order far larger than
// usual and the small hours come next; a buyer's own confirmation lowers the risk, silence raises it.
import type { ConfirmationState, ConfirmedBy } from './confirmation.ts';

export interface RiskFacts {
  /** The phone's earlier live orders across the account, this one excluded. */
  history: { delivered: number; returned: number; cancelled: number; unanswered: number };
  /** Other orders from the same phone in the 24 hours before this one, across the account. */
  recent: number;
  /** How the city was matched: confidently, by a guess (fuzzy), not at all (review), or not checked. */
  city: 'confident' | 'fuzzy' | 'review' | 'not_applicable';
  direccion: string;
  /** Units (pack units × quantity) and packs ordered. */
  units: number;
  quantity: number;
  /** The hour the order was placed, in the store's timezone (0–23). */
  localHour: number;
  confirmation: ConfirmationState | null;
  confirmedBy: ConfirmedBy | null;
}

export const RISK_REASONS = [
  'refused_before',
  'cancelled_before',
  'unanswered_before',
  'delivered_before',
  'repeat_orders',
  'city_unmatched',
  'city_guessed',
  'bare_address',
  'large_quantity',
  'large_total',
  'night_hour',
  'confirmed_by_buyer',
  'confirmed_by_support',
  'no_answer',
] as const;
export type RiskReasonCode = (typeof RISK_REASONS)[number];

export interface RiskReason {
  code: RiskReasonCode;
  points: number;
  text: string;
}

export interface Risk {
  score: number;
  reasons: RiskReason[];
}

/** Every order starts here: most COD parcels arrive, some do not. */
export const RISK_BASE = 10;

/** Bands for the numbers a seller watches (get_account_stats, /metrics). */
export const RISK_BANDS = ['low', 'medium', 'high'] as const;
export type RiskBand = (typeof RISK_BANDS)[number];
export const riskBand = (score: number): RiskBand => (score >= 60 ? 'high' : score >= 30 ? 'medium' : 'low');

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** An address a courier cannot find a door with: no house number at all, or a few words. */
export const bareAddress = (direccion: string): boolean => !/\d/.test(direccion) || direccion.trim().length < 8;

export function returnRisk(f: RiskFacts): Risk {
  const reasons: RiskReason[] = [];
  const add = (code: RiskReasonCode, points: number, text: string) => void reasons.push({ code, points, text });
  const h = f.history;
  if (h.returned > 0) add('refused_before', Math.min(50, 35 + 15 * (h.returned - 1)), `refused or returned ${plural(h.returned, 'earlier order', 'earlier orders')}`);
  if (h.cancelled > 0) add('cancelled_before', Math.min(20, 10 * h.cancelled), `cancelled ${plural(h.cancelled, 'earlier order', 'earlier orders')}`);
  if (h.unanswered > 0) add('unanswered_before', Math.min(20, 10 * h.unanswered), `never answered ${plural(h.unanswered, 'earlier confirmation', 'earlier confirmations')}`);
  if (h.delivered > 0) add('delivered_before', -Math.min(30, 15 * h.delivered), `received ${plural(h.delivered, 'earlier order', 'earlier orders')}`);
  if (f.recent > 0) add('repeat_orders', Math.min(30, 15 * f.recent), `${plural(f.recent, 'other order', 'other orders')} from this phone in 24 hours`);
  if (f.city === 'review') add('city_unmatched', 15, 'the city could not be matched to a town the courier knows');
  else if (f.city === 'fuzzy') add('city_guessed', 5, 'the city was matched from a misspelling');
  if (bareAddress(f.direccion)) add('bare_address', 15, 'the address has no street or house number');
  if (f.units >= 5) add('large_quantity', 10, `${f.units} units, more than buyers usually order`);
  if (f.quantity >= 3) add('large_total', 10, `${f.quantity} packs: a total far above the usual order`);
  if (f.localHour < 5) add('night_hour', 5, `placed at ${String(f.localHour).padStart(2, '0')}:00 at night`);
  if (f.confirmedBy === 'buyer') add('confirmed_by_buyer', -20, 'the buyer confirmed the order');
  else if (f.confirmedBy === 'support') add('confirmed_by_support', -10, 'support confirmed the order with the buyer');
  if (f.confirmation === 'call') add('no_answer', 15, 'the buyer did not answer the confirmation or its reminder');
  const score = Math.max(0, Math.min(100, RISK_BASE + reasons.reduce((sum, r) => sum + r.points, 0)));
  return { score, reasons };
}
