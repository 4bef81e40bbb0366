// How an order looks to callers: the CreateOrderSuccess body (seed 2.2) and the full record.
import { riskBand, type RiskReason } from '../../domain/return-risk.ts';
import type { OrderRow } from '../../db/queries/orders.queries.ts';
import * as v from 'valibot';
import { toMajor } from '../../domain/money.ts';
import { ORDER_STATUSES } from '../../db/tables/index.ts';

export const CreateOrderSuccessSchema = v.object({
  success: v.literal(true),
  data: v.object({
    id: v.pipe(v.string(), v.uuid(), v.description('Order id.')),
    order_number: v.pipe(v.number(), v.integer(), v.description('Per-store order number, gapless from 1001.')),
    status: v.pipe(v.picklist(ORDER_STATUSES), v.description('A new order reports `pending`.')),
    created_at: v.pipe(v.string(), v.isoTimestamp(), v.description('Creation time, ISO-8601 UTC.')),
    sandbox: v.pipe(v.boolean(), v.description('Created with a test key: never pushed to fulfillment.')),
    needs_review: v.pipe(v.boolean(), v.description('The city could not be matched confidently; held until support resolves it.')),
    departamento: v.pipe(v.string(), v.description('Region as stored (catalog spelling when matched).')),
    ciudad: v.pipe(v.string(), v.description('City as stored (catalog spelling when matched).')),
    total_price: v.pipe(v.number(), v.description('Total to collect, major units.')),
    currency: v.pipe(v.string(), v.description('ISO 4217.')),
  }),
});

export type CreateOrderSuccess = v.InferOutput<typeof CreateOrderSuccessSchema>;

export function createdBody(o: Pick<OrderRow, 'id' | 'order_number' | 'status' | 'created_at' | 'sandbox' | 'needs_review' | 'departamento' | 'ciudad' | 'total_price_minor' | 'currency'>): CreateOrderSuccess {
  return {
    success: true,
    data: {
      id: o.id,
      order_number: o.order_number,
      status: o.status,
      created_at: o.created_at,
      sandbox: o.sandbox === 1,
      needs_review: o.needs_review === 1,
      departamento: o.departamento,
      ciudad: o.ciudad,
      total_price: toMajor(o.total_price_minor),
      currency: o.currency,
    },
  };
}

/** The full order for the CLI and account tools: money in major units, flags as booleans. */
export function orderView(o: OrderRow) {
  const {
    unit_price_minor,
    total_price_minor,
    sandbox,
    needs_review,
    risk_reasons: _reasons,
    confirmation: confirmation_state,
    confirmation_asked_at: _asked,
    confirmation_due_at: _due,
    confirmed_at: _at,
    confirmed_by: _by,
    // A one-time link's hash is a secret: never shown.
    correction_token_hash: _hash,
    correction_expires_at: _expires,
    ...rest
  } = o;
  return {
    ...rest,
    sandbox: sandbox === 1,
    needs_review: needs_review === 1,
    unit_price: toMajor(unit_price_minor),
    total_price: toMajor(total_price_minor),
    confirmation_state,
    risk: riskView(o),
    confirmation: confirmationView(o),
  };
}

/** The return risk (issue 25): the score, its band and the reasons that make it. */
export const riskView = (o: Pick<OrderRow, 'risk_score' | 'risk_reasons'>) => ({
  score: o.risk_score,
  band: riskBand(o.risk_score),
  reasons: JSON.parse(o.risk_reasons) as RiskReason[],
});

/** Where the buyer's confirmation stands, and who confirmed. */
export const confirmationView = (o: Pick<OrderRow, 'confirmation' | 'confirmation_asked_at' | 'confirmation_due_at' | 'confirmed_at' | 'confirmed_by'>) => ({
  state: o.confirmation,
  asked_at: o.confirmation_asked_at,
  next_step_at: o.confirmation_due_at,
  confirmed_at: o.confirmed_at,
  confirmed_by: o.confirmed_by,
});

/** One line of an order list (MCP list_orders): enough to pick an order, not the whole record. */
export function orderSummary(o: OrderRow) {
  return {
    id: o.id,
    store_id: o.store_id,
    order_number: o.order_number,
    status: o.status,
    needs_review: o.needs_review === 1,
    sandbox: o.sandbox === 1,
    nombre: o.nombre,
    telefono: o.telefono,
    departamento: o.departamento,
    ciudad: o.ciudad,
    pack: o.pack,
    quantity: o.quantity,
    total_price: toMajor(o.total_price_minor),
    currency: o.currency,
    fulfillment_status: o.fulfillment_status,
    risk_score: o.risk_score,
    confirmation_state: o.confirmation,
    created_at: o.created_at,
  };
}
