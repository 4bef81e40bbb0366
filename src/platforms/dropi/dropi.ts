// The `dropi` platform (issue 22): Dropi's integration API as its public clients agree on it
// (../shared/DROPI.md, src/platforms/dropi/contract.ts). What is Dropi's and nobody else's lives
// here: the country's host, the `dropi-integration-key` header, the create body (name and surname
// split, national phone digits, Dropi's exact department and city strings, `CON RECAUDO`,
// `total_order`, our id as `shop_order_id`, our order number on the label), the `isSuccess`
// envelope, a look-up by `shop_order_id` through the order list (Dropi has no idempotency and no
// search by reference), cancel by status, its status strings, its unsigned webhook, its pace.
import { createHash } from 'node:crypto';
import * as v from 'valibot';
import { statusTable, type OrderStatus } from '../../domain/order-status.ts';
import { nationalDigits } from '../../domain/phone.ts';
import { OutboundError } from '../../http/outbound/outbound-error.ts';
import { DROPI_LOOKUP_MAX_PAGES, PLATFORM_ANSWER_MAX_BYTES } from '../../limits.ts';
import type { CatalogProduct, Platform, PlatformSession, PushOrder, RemoteOrder, SessionOptions } from '../platform.ts';
import {
  DROPI_CANCELLED,
  DROPI_COD,
  DROPI_DATE_FILTER,
  DROPI_HOSTS,
  DROPI_KEY_HEADER,
  DROPI_NEW_STATUS,
  DROPI_PAGE_SIZE,
  DROPI_PATHS,
  DROPI_TEST_HOST,
  DropiCitySchema,
  DropiCreateOrderSchema,
  DropiDepartmentSchema,
  DropiEnvelopeSchema,
  DropiOrderSchema,
  DropiProductSchema,
  DropiWebhookSchema,
  type DropiCreateOrder,
  type DropiOrder,
} from './contract.ts';

/**
 * Every status string of ../shared/DROPI.md, as codrail's state machine reads it (null: known, moves
 * nothing). Compared without case, accents or `_`/space differences, so feminine and underscored
 * forms (ENTREGADA, EN_TRANSITO) are the same entry. Documented in the README's Dropi section.
 */
export const DROPI_STATUSES: Readonly<Record<string, OrderStatus | null>> = {
  // Created by the integration, waiting for the seller's confirmation in Dropi.
  'PENDIENTE CONFIRMACION': null,
  PENDIENTE: 'confirmed',
  'GUIA GENERADA': 'processing',
  // The label was voided: the order waits for a new one; nothing moves.
  'GUIA ANULADA': null,
  'EN RUTA': 'shipped',
  'EN TRANSITO': 'shipped',
  'EN REPARTO': 'shipped',
  'EN CAMINO': 'shipped',
  'ZONA DE ENTREGA': 'shipped',
  'INTENTO DE ENTREGA': 'shipped',
  'RECLAME EN OFICINA': 'shipped',
  // Incidents: the parcel is held while someone acts; the order keeps its status.
  NOVEDAD: null,
  'CON NOVEDAD': null,
  'NO EFECTIVO': null,
  ENTREGADO: 'delivered',
  ENTREGADA: 'delivered',
  'REPORTADO ENTREGADO': 'delivered',
  DEVOLUCION: 'returned',
  DEVUELTO: 'returned',
  DEVUELTA: 'returned',
  // The buyer refused the parcel at the door: it comes back.
  RECHAZADO: 'returned',
  RECHAZADA: 'returned',
  CANCELADO: 'cancelled',
  CANCELADA: 'cancelled',
  ANULADA: 'cancelled',
  ANULADO: 'cancelled',
  'CANCELADO POR TRANSPORTADORA': 'cancelled',
};

type Envelope = v.InferOutput<typeof DropiEnvelopeSchema>;

/** The key's pace lane: a hash, never the key. */
const paceKey = (token: string) => `dropi:${createHash('sha256').update(token).digest('hex').slice(0, 16)}`;

/** Dropi's product ids are numbers; a linked id is kept as text. */
const idValue = (id: string): number | string => (/^\d{1,15}$/.test(id) ? Number(id) : id);

const text = (x: unknown): string | null => (x === null || x === undefined || x === '' ? null : String(x));

const remote = (o: DropiOrder): RemoteOrder => ({ id: String(o.id), reference: text(o.shop_order_id), status: o.status, tracking_number: text(o.shipping_guide) });

/** The create body for an order: what Dropi's own plugin sends. */
export function dropiOrder(o: PushOrder): DropiCreateOrder {
  const [name = o.nombre, ...rest] = o.nombre.trim().split(/\s+/);
  if (o.product.platform_ref === null)
    // Dropi ships its own products only: the order names one by id.
    throw new OutboundError('status', `product "${o.product.name}" is not linked to a Dropi product: link it (link_product_to_fulfillment), then push the order again`, { status: 422, sent: false });
  const units = o.product.quantity * Math.max(1, o.product.pack_units);
  return {
    name,
    surname: rest.join(' '),
    phone: nationalDigits(o.telefono_e164),
    dir: [o.direccion, o.barrio ?? o.colonia ?? o.distrito].filter(Boolean).join(', '),
    state: o.departamento,
    city: o.ciudad,
    ...(o.country === 'MX' && o.codigo_postal ? { zip_code: o.codigo_postal } : {}),
    notes: o.referencia,
    rate_type: DROPI_COD,
    payment_method_id: 1,
    type: 'FINAL_ORDER',
    status: DROPI_NEW_STATUS,
    total_order: o.total_price_minor / 100,
    products: [{ id: idValue(o.product.platform_ref), price: Math.round(o.total_price_minor / units) / 100, quantity: units, ...(o.product.variant_ref ? { variation_id: idValue(o.product.variant_ref) } : {}) }],
    calculate_costs_and_shiping: true,
    shop_order_id: o.id,
    text_to_show_order_rotulo: `Pedido #${o.order_number}`,
  };
}

/** Dropi's human message, shown to the seller verbatim (trimmed to one line). */
function message(body: string): string {
  try {
    const m = (JSON.parse(body) as { message?: unknown }).message;
    return typeof m === 'string' && m.trim() ? `: ${m.replace(/\s+/g, ' ').trim().slice(0, 200)}` : '';
  } catch {
    return '';
  }
}

class DropiSession implements PlatformSession {
  readonly #o: SessionOptions;
  readonly #base: string;
  readonly #headers: Record<string, string>;
  readonly #pace;

  constructor(o: SessionOptions) {
    this.#o = o;
    this.#base = o.url.replace(/\/+$/, '');
    this.#headers = { 'content-type': 'application/json', ...(o.token ? { [DROPI_KEY_HEADER]: o.token } : {}) };
    this.#pace = { key: paceKey(o.token ?? ''), concurrency: 1, minIntervalMs: o.intervalMs ?? 0 };
  }

  /** One call, its envelope read: `isSuccess:false` is Dropi refusing the request, its message kept. */
  async #call(method: string, path: string, what: string, body?: unknown): Promise<Envelope> {
    const answer = await this.#o.outbound.sendJson({
      url: `${this.#base}${path}`,
      method,
      headers: this.#headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      addresses: this.#o.addresses,
      deadlineMs: this.#o.timeoutMs,
      maxBytes: PLATFORM_ANSWER_MAX_BYTES,
      what: `Dropi ${what}`,
      describeError: message,
      pace: this.#pace,
    });
    const envelope = v.safeParse(DropiEnvelopeSchema, answer.json);
    if (!envelope.success) throw new OutboundError('bad_answer', `Dropi ${what}: answer is not Dropi's envelope`, { status: answer.status });
    if (!envelope.output.isSuccess) {
      const status = envelope.output.status && envelope.output.status >= 400 ? envelope.output.status : 422;
      throw new OutboundError('status', `Dropi ${what}: HTTP ${status}${message(JSON.stringify(envelope.output))}`, { status });
    }
    return envelope.output;
  }

  #objects<S extends v.GenericSchema>(schema: S, envelope: Envelope, what: string): v.InferOutput<S> {
    const parsed = v.safeParse(schema, envelope.objects);
    if (!parsed.success) throw new OutboundError('bad_answer', `Dropi ${what}: unexpected answer (${parsed.issues[0]?.message ?? 'invalid'})`, { status: 200 });
    return parsed.output;
  }

  async create(order: PushOrder): Promise<RemoteOrder> {
    const body = v.safeParse(DropiCreateOrderSchema, dropiOrder(order));
    if (!body.success) throw new OutboundError('status', `Dropi cannot take this order: ${v.getDotPath(body.issues[0]) ?? 'body'} ${body.issues[0].message}`, { status: 422, sent: false });
    return remote(this.#objects(DropiOrderSchema, await this.#call('POST', DROPI_PATHS.orders, 'POST orders', body.output), 'POST orders'));
  }

  /**
   * Dropi cannot be asked for an order by our reference: its order list is read by creation date,
   * from the day before the order was created to tomorrow, a page of 100 at a time (at most
   * DROPI_LOOKUP_MAX_PAGES), and every order carrying our id as `shop_order_id` is kept.
   */
  async findByRef(order: Pick<PushOrder, 'id' | 'created_at'>): Promise<RemoteOrder[]> {
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const from = day(Date.parse(order.created_at) - 86_400_000);
    const until = day(Date.now() + 86_400_000);
    const found: RemoteOrder[] = [];
    for (let page = 0; page < DROPI_LOOKUP_MAX_PAGES; page++) {
      const q = new URLSearchParams({ result_number: String(DROPI_PAGE_SIZE), start: String(page * DROPI_PAGE_SIZE), from, untill: until, filter_date_by: DROPI_DATE_FILTER });
      const orders = this.#objects(v.array(DropiOrderSchema), await this.#call('GET', `${DROPI_PATHS.orders}?${q}`, 'GET orders'), 'GET orders');
      for (const o of orders) if (text(o.shop_order_id) === order.id) found.push(remote(o));
      if (orders.length < DROPI_PAGE_SIZE) return found;
    }
    // Not every page was read: "nothing found" would not be the truth, so the look-up fails (and is retried).
    throw new OutboundError('status', `Dropi GET orders: more than ${DROPI_LOOKUP_MAX_PAGES * DROPI_PAGE_SIZE} orders around ${from}; the look-up is incomplete`, { status: 503, sent: false });
  }

  async get(id: string): Promise<RemoteOrder> {
    return remote(this.#objects(DropiOrderSchema, await this.#call('GET', DROPI_PATHS.order(id), 'GET order'), 'GET order'));
  }

  async cancel(id: string): Promise<RemoteOrder> {
    const envelope = await this.#call('PUT', DROPI_PATHS.order(id), 'PUT order', { status: DROPI_CANCELLED });
    const order = v.safeParse(DropiOrderSchema, envelope.objects);
    return order.success ? remote(order.output) : { id, reference: null, status: DROPI_CANCELLED, tracking_number: null };
  }

  /** Dropi says nothing about whose key it is: the live check is a call only a valid key may make. */
  async account() {
    await this.#call('GET', DROPI_PATHS.departments, 'GET department');
    return { id: null, name: null };
  }

  async products(query: string | undefined, page: number, perPage: number) {
    const envelope = await this.#call('POST', DROPI_PATHS.products, 'POST products', { pageSize: perPage, startData: (page - 1) * perPage, keywords: query ?? '' });
    const products = this.#objects(v.array(DropiProductSchema), envelope, 'POST products').map(catalogProduct);
    return { products, has_more: typeof envelope.count === 'number' ? envelope.count > page * perPage : products.length === perPage };
  }

  async product(id: string): Promise<CatalogProduct> {
    return catalogProduct(this.#objects(DropiProductSchema, await this.#call('GET', DROPI_PATHS.product(id), 'GET product'), 'GET product'));
  }

  async departments() {
    return this.#objects(v.array(DropiDepartmentSchema), await this.#call('GET', DROPI_PATHS.departments, 'GET department'), 'GET department').map((d) => ({ id: String(d.id), name: d.name }));
  }

  async cities(department: { id: string; name: string }) {
    const envelope = await this.#call('POST', DROPI_PATHS.cities, 'POST bycity', { department_id: idValue(department.id), rate_type: DROPI_COD });
    // Clients see the list either as `objects` or as `objects.cities`.
    const list = Array.isArray(envelope.objects) ? envelope.objects : (envelope.objects as { cities?: unknown } | null)?.cities;
    const cities = v.safeParse(v.array(DropiCitySchema), list);
    if (!cities.success) throw new OutboundError('bad_answer', 'Dropi POST bycity: unexpected answer', { status: 200 });
    return cities.output.map((c) => ({ name: c.name, code: officialCode(text(c.cod_dane)) }));
  }
}

/**
 * Dropi's DANE-derived code as the official one: the municipality code and `000`, its leading zero
 * dropped (`5001000` = Medellín 05001). Anything else is not trusted as a code.
 */
export function officialCode(cod: string | null): string | null {
  const m = cod === null ? null : /^(\d{4,5})000$/.exec(cod.trim());
  return m ? m[1]!.padStart(5, '0') : null;
}

function catalogProduct(p: v.InferOutput<typeof DropiProductSchema>): CatalogProduct {
  const price = typeof p.sale_price === 'string' ? Number(p.sale_price) : p.sale_price;
  return {
    id: String(p.id),
    name: p.name,
    sku: p.sku ?? null,
    price: price !== null && price !== undefined && Number.isFinite(price) ? price : null,
    stock: p.stock ?? null,
    variants: (p.variations ?? []).map((x) => ({ id: String(x.id), name: x.name ?? String(x.id) })),
  };
}

export const dropi: Platform = {
  name: 'dropi',
  label: 'Dropi',
  defaultUrl: ({ country, test, config }) => config.dropiUrl ?? (test ? DROPI_TEST_HOST : DROPI_HOSTS[country]),
  open: (o) => new DropiSession(o),
  status: statusTable(DROPI_STATUSES),
  cancelled: DROPI_CANCELLED,
  pacing: { concurrency: 1 },
  // Any 401 means the key no longer works (expired, revoked, from another country): only the seller can fix it.
  expired: (failure) => failure.status === 401,
  webhook: {
    auth: 'path',
    parse(body) {
      const hook = v.parse(DropiWebhookSchema, body);
      // Dropi's hooks carry no event id: the order and its status are the report (an unchanged status is a duplicate).
      return { eventId: `dropi:${hook.id}:${hook.status}`, remoteId: String(hook.id), reference: text(hook.shop_order_id), status: hook.status, tracking_number: text(hook.shipping_guide) };
    },
  },
};
