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
  /** The platform product (and variant) the codrail product is linked to, when linked. */
  product_id: v.optional(v.nullable(v.string())),
  variant_id: v.optional(v.nullable(v.string())),
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
  /** The carrier's tracking number (guía), once a label exists. */
  tracking_number: v.optional(v.nullable(v.string())),
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
  tracking_number: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(100)))),
  occurred_at: v.optional(v.string()),
});
export type WebhookEvent = v.InferOutput<typeof WebhookEventSchema>;

/** `GET /account`: whose token this is; the live validation call before credentials are saved. */
export const PlatformAccountSchema = v.object({ id: v.pipe(v.string(), v.minLength(1)), name: v.string() });
export type PlatformAccount = v.InferOutput<typeof PlatformAccountSchema>;

export const PlatformVariantSchema = v.object({ id: v.pipe(v.string(), v.minLength(1)), name: v.string() });

/** A product of the platform's catalog, which codrail products are linked to. */
export const PlatformCatalogProductSchema = v.object({
  id: v.pipe(v.string(), v.minLength(1)),
  name: v.string(),
  sku: v.optional(v.nullable(v.string())),
  price: v.optional(v.nullable(v.number())),
  stock: v.optional(v.nullable(v.number())),
  variants: v.optional(v.array(PlatformVariantSchema), []),
});
export type PlatformCatalogProduct = v.InferOutput<typeof PlatformCatalogProductSchema>;

export const PlatformCatalogPageSchema = v.object({
  products: v.array(PlatformCatalogProductSchema),
  page: v.number(),
  has_more: v.boolean(),
});
