// The fulfillment platform contract (docs/fulfillment-platform.md) as valibot schemas: what codrail
// sends, and what it accepts back. Answers that do not fit are treated as platform errors.
import * as v from 'valibot';

export const PLATFORM_STATUSES = ['PENDIENTE', 'GUIA_GENERADA', 'EN_TRANSITO', 'EN_REPARTO', 'NOVEDAD', 'ENTREGADO', 'DEVOLUCION', 'CANCELADO'] as const;

export const PlatformProductSchema = v.object({
  sku: v.nullable(v.string()),
  name: v.string(),
  pack: v.string(),
  quantity: v.pipe(v.number(), v.integer(), v.minValue(1)),
  unit_price: v.pipe(v.number(), v.minValue(0)),
});

export const CreatePlatformOrderSchema = v.object({
  external_ref: v.pipe(v.string(), v.minLength(1)),
  name: v.string(),
  surname: v.string(),
  phone: v.string(),
  state: v.string(),
  city: v.string(),
  city_code: v.nullable(v.string()),
  address: v.string(),
  neighborhood: v.nullable(v.string()),
  notes: v.nullable(v.string()),
  rate_type: v.literal('CON RECAUDO'),
  total_to_collect: v.pipe(v.number(), v.minValue(0)),
  currency: v.string(),
  products: v.pipe(v.array(PlatformProductSchema), v.minLength(1)),
});
export type CreatePlatformOrder = v.InferOutput<typeof CreatePlatformOrderSchema>;

/** A platform order as the platform reports it; unknown statuses are kept as raw text. */
export const PlatformOrderSchema = v.object({
  id: v.pipe(v.string(), v.minLength(1)),
  external_ref: v.string(),
  status: v.string(),
  created_at: v.optional(v.string()),
  updated_at: v.optional(v.string()),
});
export type PlatformOrder = v.InferOutput<typeof PlatformOrderSchema>;

export const PlatformOrderListSchema = v.object({ orders: v.array(PlatformOrderSchema) });

export const WebhookEventSchema = v.object({
  event_id: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  order_id: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  external_ref: v.pipe(v.string(), v.maxLength(200)),
  status: v.pipe(v.string(), v.minLength(1), v.maxLength(100)),
  occurred_at: v.optional(v.string()),
});
export type WebhookEvent = v.InferOutput<typeof WebhookEventSchema>;
