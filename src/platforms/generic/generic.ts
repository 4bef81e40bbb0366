// HTTP client of the fulfillment platform contract (docs/fulfillment-platform.md), on the one guarded
// outbound path (src/http/outbound): a deadline over the whole call, a byte cap on the answer, one
// error type (OutboundError) whose `retryable` and `mayHaveActed` the outbox reads. An answer outside
// the contract is a `bad_answer` (the platform may have acted). The token travels in the
// Authorization header only and is never part of an error or a log line.
import * as v from 'valibot';
import type { OutboundClient } from '../http/outbound/outbound-client.ts';
import { OutboundError } from '../http/outbound/outbound-error.ts';
import { PLATFORM_ANSWER_MAX_BYTES } from '../limits.ts';
import {
  PlatformAccountSchema,
  PlatformCatalogPageSchema,
  PlatformCatalogProductSchema,
  PlatformOrderListSchema,
  PlatformOrderSchema,
  type CreatePlatformOrder,
  type PlatformAccount,
  type PlatformCatalogProduct,
  type PlatformOrder,
} from './contract.ts';

export interface PlatformClientOptions {
  url: string;
  token: string | undefined;
  timeoutMs: number;
  outbound: OutboundClient;
}

export class PlatformClient {
  readonly #base: string;
  readonly #headers: Record<string, string>;
  readonly #timeoutMs: number;
  readonly #outbound: OutboundClient;

  constructor(options: PlatformClientOptions) {
    this.#base = options.url.replace(/\/+$/, '');
    this.#headers = { 'content-type': 'application/json', ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) };
    this.#timeoutMs = options.timeoutMs;
    this.#outbound = options.outbound;
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
      // The platform is the operator's configuration (a simulator on this machine included).
      addresses: 'any',
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
