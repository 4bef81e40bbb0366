// Dropi's integration API as its public clients agree on it (../shared/DROPI.md; issue 22): the
// shapes the Dropi adapter sends and accepts, and the Dropi-dialect simulator serves. Dropi
// publishes no reference, so what is single-source is marked "likely" and kept loose: unknown
// fields pass through, ids may be numbers or strings, and an answer outside these shapes is a
// `bad_answer` (Dropi may have acted).
import * as v from 'valibot';

/** One host per country; the test host has no real carriers. */
export const DROPI_HOSTS: Readonly<Record<string, string>> = {
  CO: 'https://api.dropi.co',
  MX: 'https://api.dropi.mx',
  GT: 'https://api.dropi.gt',
  CL: 'https://api.dropi.cl',
  PE: 'https://api.dropi.pe',
  EC: 'https://api.dropi.ec',
  PA: 'https://api.dropi.pa',
};
export const DROPI_TEST_HOST = 'https://test-api.dropi.co';

/** Every integration call carries the seller's token in this header (never the seller's password). */
export const DROPI_KEY_HEADER = 'dropi-integration-key';

/** The paths, under the host. Orders are `myorders`; cancel is a PUT of the status. */
export const DROPI_PATHS = {
  orders: '/integrations/orders/myorders',
  order: (id: string) => `/integrations/orders/myorders/${encodeURIComponent(id)}`,
  departments: '/integrations/department',
  cities: '/integrations/trajectory/bycity',
  products: '/integrations/products/index',
  product: (id: string) => `/integrations/products/v2/${encodeURIComponent(id)}`,
} as const;

/** Cash on delivery: the amount in `total_order` is collected by the carrier. */
export const DROPI_COD = 'CON RECAUDO';
/** What a new integration order is, and what cancelling sets. */
export const DROPI_NEW_STATUS = 'PENDIENTE CONFIRMACION';
export const DROPI_CANCELLED = 'CANCELADO';
/** Dropi's answer to an expired integration token (401). */
export const DROPI_TOKEN_EXPIRED = 'Token is Expired';
/** Dropi's lockout message (429) after bursts. */
export const DROPI_TOO_MANY = 'Too Many Attempts.';

/** The order list filters on creation dates; `untill` is Dropi's spelling. Pages of up to 100. */
export const DROPI_PAGE_SIZE = 100;
export const DROPI_DATE_FILTER = 'FECHA DE CREADO';

const Id = v.union([v.pipe(v.number(), v.integer()), v.pipe(v.string(), v.minLength(1), v.maxLength(64))]);
const Text = (max: number) => v.pipe(v.string(), v.maxLength(max));

/** The create body (`POST /integrations/orders/myorders`). */
export const DropiCreateOrderSchema = v.object({
  name: Text(200),
  surname: Text(200),
  /** National digits, no country code. */
  phone: v.pipe(v.string(), v.regex(/^\d{6,15}$/)),
  client_email: v.optional(v.nullable(Text(200))),
  /** The whole address, neighbourhood and reference included. */
  dir: Text(1000),
  /** Dropi's department name, exactly as Dropi lists it. */
  state: v.pipe(Text(200), v.minLength(1)),
  /** Dropi's city name, exactly as Dropi lists it (`Bogota`, `ARGELIA (A)`). */
  city: v.pipe(Text(200), v.minLength(1)),
  country: v.optional(Text(60)),
  zip_code: v.optional(v.nullable(Text(20))),
  notes: v.optional(v.nullable(Text(1000))),
  rate_type: v.picklist([DROPI_COD, 'SIN RECAUDO']),
  payment_method_id: v.literal(1),
  type: v.literal('FINAL_ORDER'),
  status: v.literal(DROPI_NEW_STATUS),
  /** The amount to collect, computed by the caller. */
  total_order: v.pipe(v.number(), v.minValue(0)),
  products: v.pipe(
    v.array(v.object({ id: Id, price: v.pipe(v.number(), v.minValue(0)), quantity: v.pipe(v.number(), v.integer(), v.minValue(1)), variation_id: v.optional(v.nullable(Id)) })),
    v.minLength(1),
  ),
  /** (sic) Dropi's spelling. */
  calculate_costs_and_shiping: v.literal(true),
  /** The caller's own order id: how a lost answer is found again (Dropi has no idempotency). */
  shop_order_id: v.pipe(Text(200), v.minLength(1)),
  /** Printed on the label. */
  text_to_show_order_rotulo: Text(200),
  distributionCompany: v.optional(v.object({ id: Id })),
});
export type DropiCreateOrder = v.InferOutput<typeof DropiCreateOrderSchema>;

/** Every answer: `{isSuccess, message, status?, objects?, count?}`; a failure's message is shown verbatim. */
export const DropiEnvelopeSchema = v.looseObject({
  isSuccess: v.boolean(),
  message: v.optional(v.nullable(v.string())),
  status: v.optional(v.nullable(v.number())),
  objects: v.optional(v.unknown()),
  count: v.optional(v.nullable(v.number())),
});

/** An order as Dropi shows it (loose: Dropi sends many more fields). */
export const DropiOrderSchema = v.looseObject({
  id: Id,
  status: v.pipe(v.string(), v.minLength(1), v.maxLength(100)),
  shop_order_id: v.optional(v.nullable(v.union([v.string(), v.number()]))),
  shipping_guide: v.optional(v.nullable(v.union([v.string(), v.number()]))),
  shipping_company: v.optional(v.nullable(v.unknown())),
  created_at: v.optional(v.nullable(v.string())),
});
export type DropiOrder = v.InferOutput<typeof DropiOrderSchema>;

export const DropiDepartmentSchema = v.looseObject({ id: Id, name: v.pipe(v.string(), v.minLength(1), v.maxLength(200)) });
/** A city of `trajectory/bycity`: its name as orders must carry it, and a DANE-derived code when given. */
export const DropiCitySchema = v.looseObject({
  id: v.optional(Id),
  name: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  cod_dane: v.optional(v.nullable(v.union([v.string(), v.number()]))),
});

export const DropiProductSchema = v.looseObject({
  id: Id,
  name: v.pipe(v.string(), v.maxLength(500)),
  sku: v.optional(v.nullable(v.string())),
  sale_price: v.optional(v.nullable(v.union([v.number(), v.string()]))),
  stock: v.optional(v.nullable(v.number())),
  variations: v.optional(v.nullable(v.array(v.looseObject({ id: Id, name: v.optional(v.nullable(v.string())) })))),
});

/** Dropi's webhook: unsigned, only after registration with Dropi's IT, only for the integration's own orders. */
export const DropiWebhookSchema = v.looseObject({
  id: Id,
  status: v.pipe(v.string(), v.minLength(1), v.maxLength(100)),
  shop_order_id: v.optional(v.nullable(v.union([v.pipe(v.string(), v.maxLength(200)), v.number()]))),
  shipping_guide: v.optional(v.nullable(v.union([v.pipe(v.string(), v.maxLength(100)), v.number()]))),
  shipping_company: v.optional(v.nullable(v.unknown())),
  sticker: v.optional(v.nullable(v.unknown())),
  notes: v.optional(v.nullable(v.unknown())),
});
