// HTTP client of the fulfillment platform contract (docs/fulfillment-platform.md). Every call has
// a timeout; every failure is classified for the outbox: `unknown` (the platform may have acted:
// timeouts, resets), `retry` (it did not: 5xx, 429, auth) and `permanent` (the request is wrong).
// The token travels in the Authorization header only and is never part of an error or a log line.
import * as v from 'valibot';
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

export type FailureKind = 'unknown' | 'retry' | 'permanent';

export class PlatformError extends Error {
  override readonly name = 'PlatformError';
  constructor(
    readonly kind: FailureKind,
    message: string,
    /** From Retry-After, when the platform said how long to wait. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }

  /** The HTTP status in the message, when the platform answered (for `fulfillment_error`). */
  get status(): number | undefined {
    const m = /: HTTP (\d{3})/.exec(this.message);
    return m ? Number(m[1]) : undefined;
  }
}

export interface PlatformClientOptions {
  url: string;
  token: string | undefined;
  timeoutMs: number;
}

function retryAfterMs(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

export class PlatformClient {
  readonly #base: string;
  readonly #headers: Record<string, string>;
  readonly #timeoutMs: number;

  constructor(options: PlatformClientOptions) {
    this.#base = options.url.replace(/\/+$/, '');
    this.#headers = { accept: 'application/json', 'content-type': 'application/json', ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) };
    this.#timeoutMs = options.timeoutMs;
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
    let res: Response;
    try {
      res = await fetch(`${this.#base}${path}`, {
        method,
        headers: this.#headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
    } catch (error) {
      const e = error as Error;
      const code = (e.cause as { code?: string } | undefined)?.code;
      const what = e.name === 'TimeoutError' ? `no answer within ${this.#timeoutMs} ms` : `connection failed (${code ?? e.message})`;
      // Refused or unresolvable: the request never left, so the platform did nothing (a plain retry).
      // Anything else may have reached it: only a create needs to care (look up first next time).
      const neverSent = code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN';
      throw new PlatformError(neverSent ? 'retry' : 'unknown', `${method} ${path.split('?')[0]}: ${what}`);
    }
    let text = '';
    try {
      text = await res.text();
    } catch {
      throw new PlatformError('unknown', `${method} ${path.split('?')[0]}: answer cut off (HTTP ${res.status})`);
    }
    if (res.ok) {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw new PlatformError('unknown', `${method} ${path.split('?')[0]}: answer is not JSON (HTTP ${res.status})`);
      }
    }
    const message = `${method} ${path.split('?')[0]}: HTTP ${res.status}${errorText(text)}`;
    if (res.status === 429) throw new PlatformError('retry', message, retryAfterMs(res.headers.get('retry-after')));
    if (res.status >= 500 || res.status === 401 || res.status === 403 || res.status === 408) throw new PlatformError('retry', message, retryAfterMs(res.headers.get('retry-after')));
    throw new PlatformError('permanent', message);
  }
}

/** A 2xx answer outside the contract: the platform may have acted, so the outcome is unknown. */
function answer<S extends v.GenericSchema>(schema: S, body: unknown, what: string): v.InferOutput<S> {
  const result = v.safeParse(schema, body);
  if (!result.success) throw new PlatformError('unknown', `${what}: answer does not follow the contract (${result.issues[0]?.message ?? 'invalid'})`);
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
