// get_account_stats (MCP-TOOLS.md §6.1 row 2): order KPIs for a period of days, each read in its
// store's timezone (§5.6), for one store or all of the account, in total and per day or per store.
import * as v from 'valibot';
import type { Deps } from '../../app.ts';
import { listStores } from '../../db/queries/stores.queries.ts';
import { liveOrdersForStats } from '../../db/queries/orders.queries.ts';
import { ORDER_STATUSES } from '../../db/tables/index.ts';
import { PUSH_STATES, localDay, orderStats, type StatRow } from '../../domain/order-stats.ts';
import { fieldError } from '../../errors.ts';
import type { Caller } from '../caller.ts';
import { storeOf, type StoreRow } from '../tenancy.ts';
import { storeMoney } from '../stores/store-money.ts';
import { uuidInput } from '../fields.ts';
import { RISK_BANDS } from '../../domain/return-risk.ts';

/** A period longer than this is refused: a report, not an export. */
const MAX_STATS_DAYS = 366;

const day = (field: string, description: string) =>
  v.pipe(v.string(`${field} must be a string`), v.isoDate(`${field} must be a date YYYY-MM-DD`), v.description(description));

export const GetAccountStatsInput = v.strictObject({
  from: day('from', "First day, YYYY-MM-DD, in each store's timezone."),
  to: day('to', 'Last day, included.'),
  store_id: v.optional(uuidInput('store_id', 'Only this store; omit for every store of the account.')),
  group_by: v.optional(v.pipe(v.picklist(['day', 'store'], 'group_by must be day or store'), v.description('Also split the totals per day or per store.'))),
});

const RiskBandSummary = v.object({ orders: v.number(), delivered: v.number(), returned: v.number(), return_rate: v.nullable(v.number()) });

const Summary = v.object({
  orders: v.number(),
  by_status: v.record(v.string(), v.number()),
  by_fulfillment: v.pipe(v.record(v.string(), v.number()), v.description('not_pushed, pushed (a cancellation after the push stays pushed), push_failed.')),
  cod_value: v.pipe(v.array(v.object({ currency: v.string(), amount: v.number(), formatted: v.string() })), v.description('Totals of the orders not cancelled, per currency.')),
  confirmation_rate: v.pipe(v.nullable(v.number()), v.description('Confirmed or later ÷ all live orders; null without orders.')),
  delivery_rate: v.pipe(v.nullable(v.number()), v.description('Delivered ÷ (delivered + returned).')),
  return_rate: v.pipe(v.nullable(v.number()), v.description('Returned ÷ (delivered + returned).')),
  buyer_confirmation: v.pipe(
    v.object({
      asked: v.number(),
      by_buyer: v.number(),
      by_support: v.number(),
      cancelled: v.number(),
      unanswered: v.pipe(v.number(), v.description('In the call queue: no answer to the request or its reminder.')),
      rate: v.pipe(v.nullable(v.number()), v.description('Confirmed by the buyer ÷ asked.')),
      median_minutes: v.pipe(v.nullable(v.number()), v.description("Median minutes from the request to the buyer's confirmation.")),
    }),
    v.description('Orders whose buyer was asked to confirm on WhatsApp, and how they answered.'),
  ),
  by_risk: v.pipe(
    v.object(Object.fromEntries(RISK_BANDS.map((band) => [band, RiskBandSummary])) as Record<(typeof RISK_BANDS)[number], typeof RiskBandSummary>),
    v.description('Per return-risk band (low < 30 ≤ medium < 60 ≤ high): delivered versus returned (refused at the door).'),
  ),
});

export const AccountStats = v.object({
  from: v.string(),
  to: v.string(),
  store_id: v.nullable(v.string()),
  totals: Summary,
  groups: v.optional(v.array(v.object({ key: v.pipe(v.string(), v.description('The day (YYYY-MM-DD) or the store id.')), ...Summary.entries }))),
});

type Out<S extends v.GenericSchema> = v.InferOutput<S>;

const DAY_MS = 86_400_000;

function summary(deps: Pick<Deps, 'config'>, rows: readonly StatRow[], countryOf: Map<string, string>): Out<typeof Summary> {
  const s = orderStats(rows);
  return {
    orders: s.orders,
    by_status: Object.fromEntries(ORDER_STATUSES.map((k) => [k, s.by_status[k]])),
    by_fulfillment: Object.fromEntries(PUSH_STATES.map((k) => [k, s.by_fulfillment[k]])),
    cod_value: [...s.codMinor].map(([currency, minor]) => {
      const money = storeMoney(deps, { currency, country: countryOf.get(currency) ?? 'CO' });
      return { currency, amount: money.major(minor), formatted: money.format(minor) };
    }),
    confirmation_rate: s.confirmation_rate,
    delivery_rate: s.delivery_rate,
    return_rate: s.return_rate,
    buyer_confirmation: s.confirmation,
    by_risk: s.by_risk,
  };
}

export async function getAccountStats(deps: Pick<Deps, 'db' | 'config'>, caller: Caller, input: Out<typeof GetAccountStatsInput>): Promise<Out<typeof AccountStats>> {
  if (input.to < input.from) throw fieldError('to', 'to must not be before from');
  const days = (Date.parse(input.to) - Date.parse(input.from)) / DAY_MS + 1;
  if (days > MAX_STATS_DAYS) throw fieldError('to', `a period is at most ${MAX_STATS_DAYS} days`);
  let stores: StoreRow[];
  if (input.store_id !== undefined) stores = [await storeOf(deps, caller, input.store_id)];
  else if (caller.accountId === null) throw fieldError('account', 'which account? pass --account ID or a store_id');
  else stores = await listStores(deps.db, caller.accountId);
  // Every timezone of the Americas and Europe lies within ±14 h of UTC: fetch that much more, then
  // keep the orders whose local day is in the period.
  const fromUtc = new Date(Date.parse(input.from) - DAY_MS).toISOString();
  const toUtc = new Date(Date.parse(input.to) + 2 * DAY_MS).toISOString();
  const zone = new Map(stores.map((s) => [s.id, s.timezone]));
  const formats = new Map<string, Intl.DateTimeFormat>();
  const rows = (await liveOrdersForStats(deps.db, stores.map((s) => s.id), fromUtc, toUtc))
    .map((o) => ({ ...o, day: localDay(o.created_at, zone.get(o.store_id)!, formats) }))
    .filter((o) => o.day >= input.from && o.day <= input.to);
  const countryOf = new Map(stores.map((s) => [s.currency, s.country]));
  const stat = (list: typeof rows) =>
    summary(
      deps,
      list.map((o) => ({ status: o.status, job: o.job, totalMinor: o.total_price_minor, currency: o.currency, riskScore: o.risk_score, confirmation: o.confirmation, askedAt: o.confirmation_asked_at, confirmedAt: o.confirmed_at, confirmedBy: o.confirmed_by })),
      countryOf,
    );
  const out: Out<typeof AccountStats> = { from: input.from, to: input.to, store_id: input.store_id?.toLowerCase() ?? null, totals: stat(rows) };
  if (input.group_by) {
    const keyOf = (o: (typeof rows)[number]) => (input.group_by === 'day' ? o.day : o.store_id);
    const groups = new Map<string, typeof rows>();
    for (const o of rows) groups.set(keyOf(o), [...(groups.get(keyOf(o)) ?? []), o]);
    out.groups = [...groups.keys()].sort().map((key) => ({ key, ...stat(groups.get(key)!) }));
  }
  return out;
}
