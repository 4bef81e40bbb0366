// Orders as the account operations return them (MCP-TOOLS.md §6.7 rows 35-37): summaries in lists,
// the full record with its events and push state otherwise. Money in major units.
import * as v from 'valibot';
import { ORDER_STATUSES } from '../../db/tables/index.ts';
import { pageOf } from '../fields.ts';
import { CONFIRMATION_STATES } from '../../domain/confirmation.ts';
import { RISK_BANDS, RISK_REASONS } from '../../domain/return-risk.ts';

export const OrderSummary = v.object({
  id: v.string(),
  store_id: v.string(),
  order_number: v.number(),
  status: v.picklist(ORDER_STATUSES),
  needs_review: v.boolean(),
  sandbox: v.boolean(),
  nombre: v.string(),
  telefono: v.string(),
  departamento: v.string(),
  ciudad: v.string(),
  pack: v.string(),
  quantity: v.number(),
  total_price: v.number(),
  currency: v.string(),
  fulfillment_status: v.nullable(v.string()),
  risk_score: v.pipe(v.number(), v.description('Return risk 0–100 (get_order has its reasons).')),
  confirmation_state: v.pipe(v.nullable(v.picklist(CONFIRMATION_STATES)), v.description("The buyer's confirmation: null when never asked; call: the buyer did not answer, call them.")),
  created_at: v.string(),
});

export const OrderPage = pageOf(OrderSummary);

export const OrderDetail = v.looseObject({
  ...OrderSummary.entries,
  product_id: v.string(),
  landing_page_id: v.nullable(v.string()),
  telefono_e164: v.string(),
  direccion: v.string(),
  city_code: v.nullable(v.string()),
  city_match: v.string(),
  unit_price: v.number(),
  city_review: v.pipe(
    v.nullable(v.object({ reason: v.nullable(v.string()), candidates: v.array(v.object({ region: v.string(), city: v.string() })) })),
    v.description("While needs_review: the matcher's reason and the catalog cities it may be."),
  ),
  risk: v.pipe(
    v.object({
      score: v.number(),
      band: v.picklist(RISK_BANDS),
      reasons: v.array(v.object({ code: v.picklist(RISK_REASONS), points: v.number(), text: v.string() })),
    }),
    v.description('Return risk 0–100: a base of 10 plus the points of each reason (negative ones lower it).'),
  ),
  confirmation: v.object({
    state: v.nullable(v.picklist(CONFIRMATION_STATES)),
    asked_at: v.nullable(v.string()),
    next_step_at: v.pipe(v.nullable(v.string()), v.description('When the reminder, or the move to the call queue, is due without an answer.')),
    confirmed_at: v.nullable(v.string()),
    confirmed_by: v.nullable(v.picklist(['buyer', 'support', 'store_policy'])),
  }),
  events: v.array(v.looseObject({ id: v.string(), type: v.string(), actor: v.string(), data: v.unknown(), created_at: v.string() })),
  fulfillment: v.nullable(v.looseObject({ state: v.string(), attempts: v.number(), remote_id: v.nullable(v.string()) })),
});

export const CreatedAccountOrder = v.looseObject({
  ...OrderDetail.entries,
  replayed: v.pipe(v.boolean(), v.description('The idempotency_key (or a duplicate within 10 minutes) returned an existing order.')),
  city_candidates: v.pipe(v.array(v.unknown()), v.description('When needs_review: catalog cities to confirm with the buyer.')),
});
