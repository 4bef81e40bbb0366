// The `generic` platform (issue 22): codrail's own contract (docs/fulfillment-platform.md), which the
// simulator of `codrail fulfillment sim` speaks. The client below speaks the contract one to one, on the one guarded
// outbound path (src/http/outbound): a deadline over the whole call, a byte cap on the answer, one
// error type (OutboundError) whose `retryable` and `mayHaveActed` the outbox reads. An answer outside
// the contract is a `bad_answer` (the platform may have acted). The token travels in the
// Authorization header only and is never part of an error or a log line.
import * as v from 'valibot';
import type { OutboundClient } from '../../http/outbound/outbound-client.ts';
import { OutboundError } from '../../http/outbound/outbound-error.ts';
import { PLATFORM_ANSWER_MAX_BYTES } from '../../limits.ts';
import { statusTable, type OrderStatus } from '../../domain/order-status.ts';
import type { Platform, PlatformSession, PushOrder, RemoteOrder, SessionOptions } from '../platform.ts';
import {
  PlatformAccountSchema,
  PlatformCatalogPageSchema,
  PlatformCatalogProductSchema,
  PlatformOrderListSchema,
  PlatformOrderSchema,
  PLATFORM_STATUSES,
  WebhookEventSchema,
  type CreatePlatformOrder,
  type PlatformAccount,
  type PlatformCatalogProduct,
  type PlatformOrder,
} from './contract.ts';

export interface GenericClientOptions {
  url: string;
  token: string | undefined;
  timeoutMs: number;
  outbound: OutboundClient;
  /** Private addresses: allowed for the operator's URL, refused for a seller's (default `any`). */
  addresses?: 'any' | 'public';
}

export class GenericClient {
  readonly #base: string;
  readonly #headers: Record<string, string>;
  readonly #timeoutMs: number;
  readonly #outbound: OutboundClient;
  readonly #addresses: 'any' | 'public';

  constructor(options: GenericClientOptions) {
    this.#base = options.url.replace(/\/+$/, '');
    this.#headers = { 'content-type': 'application/json', ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) };
    this.#timeoutMs = options.timeoutMs;
    this.#outbound = options.outbound;
    this.#addresses = options.addresses ?? 'any';
  }

  /** Creates a platform order. Not idempotent on the platform's side: the outbox decides when to call it. */
  async create(order: CreatePlatformOrder): Promise<PlatformOrder> {
    return answer(PlatformOrderSchema, await this.#call('POST', '/orders', order), 'POST /orders');
  }

  async findByRef(externalRef: string): Promise<PlatformOrder[]> {
    return answer(PlatformOrderListSchema, await this.#call('GET', `/orders?external_ref=${encodeURIComponent(externalRef)}`), 'GET /orders').orders;
  }

  async get(id: string): Promise<PlatformOrder> {
    return answer(PlatformOrderSchema, await this.#call('GET', `/orders/${encodeURIComponent(id)}`), 'GET /orders/{id}');
  }

  /** Cancels a platform order; cancelling a cancelled order is a no-op there too. */
  async cancel(id: string): Promise<PlatformOrder> {
    return answer(PlatformOrderSchema, await this.#call('POST', `/orders/${encodeURIComponent(id)}/cancel`, {}), 'POST /orders/{id}/cancel');
  }

  /** Whose token this is: the live check behind set_fulfillment_credentials and test_fulfillment_connection. */
  async account(): Promise<PlatformAccount> {
    return answer(PlatformAccountSchema, await this.#call('GET', '/account'), 'GET /account');
  }

  async products(query: string | undefined, page: number, perPage: number) {
    const q = new URLSearchParams({ page: String(page), per_page: String(perPage), ...(query ? { query } : {}) });
    return answer(PlatformCatalogPageSchema, await this.#call('GET', `/products?${q}`), 'GET /products');
  }

  async product(id: string): Promise<PlatformCatalogProduct> {
    return answer(PlatformCatalogProductSchema, await this.#call('GET', `/products/${encodeURIComponent(id)}`), 'GET /products/{id}');
  }

  async #call(method: string, path: string, body?: unknown): Promise<unknown> {
    const answer = await this.#outbound.sendJson({
      url: `${this.#base}${path}`,
      method,
      headers: this.#headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      // The operator's URL may be on this machine (a simulator); a seller's may not.
      addresses: this.#addresses,
      deadlineMs: this.#timeoutMs,
      maxBytes: PLATFORM_ANSWER_MAX_BYTES,
      what: `${method} ${path.split('?')[0]}`,
      describeError: errorText,
    });
    return answer.json;
  }
}

/** A 2xx answer outside the contract: the platform may have acted, so the outcome is unknown. */
function answer<S extends v.GenericSchema>(schema: S, body: unknown, what: string): v.InferOutput<S> {
  const result = v.safeParse(schema, body);
  if (!result.success) throw new OutboundError('bad_answer', `${what}: answer does not follow the contract (${result.issues[0]?.message ?? 'invalid'})`, { status: 200 });
  return result.output;
}

function errorText(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown };
    const m = typeof body.error === 'string' ? body.error : typeof body.message === 'string' ? body.message : undefined;
    return m ? ` ${m.slice(0, 200)}` : '';
  } catch {
    return '';
  }
}

/** The contract's create body for an order (docs/fulfillment-platform.md). */
export function contractOrder(o: PushOrder): CreatePlatformOrder {
  const [name = o.nombre, ...rest] = o.nombre.trim().split(/\s+/);
  return {
    external_ref: o.id,
    name,
    surname: rest.join(' '),
    phone: o.telefono_e164,
    state: o.departamento,
    city: o.ciudad,
    city_code: o.city_code,
    address: o.direccion,
    neighborhood: o.barrio ?? o.colonia ?? null,
    notes: o.referencia,
    rate_type: 'CON RECAUDO',
    total_to_collect: o.total_price_minor / 100,
    currency: o.currency,
    products: [
      {
        sku: o.product.platform_ref ?? o.product.sku,
        name: o.product.name,
        pack: o.product.pack,
        quantity: o.product.quantity,
        unit_price: o.product.unit_price_minor / 100,
        product_id: o.product.platform_ref,
        variant_id: o.product.variant_ref,
      },
    ],
  };
}

const remote = (o: PlatformOrder): RemoteOrder => ({ id: o.id, reference: o.external_ref, status: o.status, tracking_number: o.tracking_number ?? null });

/** The contract's statuses (docs/fulfillment-platform.md) as codrail's; NOVEDAD (an incident) moves nothing. */
const GENERIC_STATUSES: Readonly<Record<(typeof PLATFORM_STATUSES)[number], OrderStatus | null>> = {
  PENDIENTE: 'confirmed',
  GUIA_GENERADA: 'processing',
  EN_TRANSITO: 'shipped',
  EN_REPARTO: 'shipped',
  NOVEDAD: null,
  ENTREGADO: 'delivered',
  DEVOLUCION: 'returned',
  CANCELADO: 'cancelled',
};

export const generic: Platform = {
  name: 'generic',
  label: 'the generic contract',
  // The server's --fulfillment-url; a test connection is the same platform.
  defaultUrl: ({ config }) => config.fulfillmentUrl,
  open(o: SessionOptions): PlatformSession {
    const client = new GenericClient(o);
    return {
      create: async (order) => remote(await client.create(contractOrder(order))),
      findByRef: async (order) => (await client.findByRef(order.id)).map(remote),
      get: async (id) => remote(await client.get(id)),
      cancel: async (id) => remote(await client.cancel(id)),
      account: () => client.account(),
      products: (query, page, perPage) => client.products(query, page, perPage).then((p) => ({ has_more: p.has_more, products: p.products.map(catalogProduct) })),
      product: async (id) => catalogProduct(await client.product(id)),
      departments: () => Promise.reject(new OutboundError('status', 'the generic contract has no city catalog: import one with codrail cities import --file', { status: 404, sent: false })),
      cities: () => Promise.reject(new OutboundError('status', 'the generic contract has no city catalog', { status: 404, sent: false })),
    };
  },
  status: statusTable(GENERIC_STATUSES),
  cancelled: 'CANCELADO',
  // The contract answers 429 with Retry-After when pushed too fast: the outbox's concurrency is the pace.
  pacing: { concurrency: Number.POSITIVE_INFINITY },
  // The contract's tokens do not expire: a refused one marks the connection and the pushes retry.
  expired: () => false,
  webhook: {
    auth: 'signed',
    parse(body) {
      const event = v.parse(WebhookEventSchema, body);
      return { eventId: event.event_id, remoteId: event.order_id, reference: event.external_ref || null, status: event.status, tracking_number: event.tracking_number ?? null };
    },
  },
};

function catalogProduct(p: PlatformCatalogProduct) {
  return { id: p.id, name: p.name, sku: p.sku ?? null, price: p.price ?? null, stock: p.stock ?? null, variants: p.variants };
}

