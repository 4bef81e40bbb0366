// Shared assertions for the POST /api/orders/create tests: the ErrorResponse shape (seed 2.4), the
// CreateOrderSuccess shape (seed 2.2) and what the database holds afterwards.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { sql } from 'kysely';
import type { Deps } from '../../../src/app.ts';
import type { ConfigFlags } from '../../../src/config.ts';
import type { OrderRow } from '../../../src/db/queries/orders.queries.ts';

/** Limits so high that no test trips them by accident (the rate-limit tests set their own). */
export const OPEN_LIMITS = { rateIpPerMin: 1_000_000, rateKeyPerMin: 1_000_000, ratePhonePerHour: 1_000_000 } satisfies ConfigFlags;

/** An origin the seeded shops allow (exact host in seedShop's default domains). */
export const SHOP_ORIGIN = 'https://shop.example.com';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let phoneSeq = 0;
/** A distinct valid Colombian mobile number per call, so duplicate suppression never merges two tests' orders. */
export function nextPhone(): string {
  phoneSeq++;
  return `30${String(10_000_000 + phoneSeq).padStart(8, '0')}`;
}

/** The headers of a live publishable key called from an allowed checkout origin. */
export const liveHeaders = (shop: { liveKey: string }, extra: Record<string, string> = {}) => ({
  'x-svc-api-key': shop.liveKey,
  origin: SHOP_ORIGIN,
  ...extra,
});

export interface ErrorBody {
  success: false;
  error: string;
  details?: { field: string; message: string }[];
}

export interface CreatedBody {
  success: true;
  data: {
    id: string;
    order_number: number;
    status: string;
    created_at: string;
    sandbox: boolean;
    needs_review: boolean;
    departamento: string;
    ciudad: string;
    total_price: number;
    currency: string;
  };
}

/**
 * Asserts an ErrorResponse: status, JSON, `{ success: false, error, details? }` and nothing else.
 * `fields` is the exact list of `details[].field` (`[]` means no details at all).
 */
export async function expectError(res: Response, status: number, expected: { fields?: string[]; error?: string | RegExp } = {}): Promise<ErrorBody> {
  const text = await res.text();
  assert.equal(res.status, status, `expected ${status}, got ${res.status}: ${text}`);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  assert.ok(res.headers.get('x-request-id'), 'every answer carries X-Request-Id');
  const body = JSON.parse(text) as Record<string, unknown>;
  for (const key of Object.keys(body)) assert.ok(['success', 'error', 'details'].includes(key), `unexpected key ${key} in ${text}`);
  assert.equal(body.success, false);
  assert.equal(typeof body.error, 'string');
  assert.ok((body.error as string).length > 0);
  if (body.details !== undefined) {
    assert.ok(Array.isArray(body.details) && body.details.length > 0, 'details, when present, is a non-empty array');
    for (const item of body.details as unknown[]) {
      assert.equal(typeof item, 'object');
      assert.deepEqual(Object.keys(item as object).sort(), ['field', 'message']);
      const { field, message } = item as { field: unknown; message: unknown };
      assert.equal(typeof field, 'string');
      assert.equal(typeof message, 'string');
      assert.ok((message as string).length > 0);
    }
  }
  if (expected.fields) {
    const fields = ((body.details ?? []) as { field: string }[]).map((d) => d.field);
    assert.deepEqual([...fields].sort(), [...expected.fields].sort(), `details fields of ${text}`);
  }
  if (typeof expected.error === 'string') assert.equal(body.error, expected.error);
  else if (expected.error) assert.match(body.error as string, expected.error);
  return body as unknown as ErrorBody;
}

/** Asserts a 200 CreateOrderSuccess for a new or replayed pending order. */
export async function expectCreated(res: Response): Promise<CreatedBody> {
  const text = await res.text();
  assert.equal(res.status, 200, `expected 200, got ${res.status}: ${text}`);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  assert.ok(res.headers.get('x-request-id'), 'every answer carries X-Request-Id');
  const body = JSON.parse(text) as CreatedBody;
  assert.equal(body.success, true);
  assert.match(body.data.id, UUID);
  assert.ok(Number.isInteger(body.data.order_number));
  assert.equal(body.data.status, 'pending');
  assert.equal(new Date(body.data.created_at).toISOString(), body.data.created_at, 'created_at is ISO-8601 UTC');
  return body;
}

export type Counted = 'orders' | 'order_events' | 'fulfillment_jobs' | 'idempotency_records';

/** Row counts of the tables an order attempt may write. */
export async function counts(deps: Pick<Deps, 'db'>): Promise<Record<Counted, number>> {
  const n = async (table: Counted) =>
    (await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(deps.db)).rows[0]!.n;
  return {
    orders: await n('orders'),
    order_events: await n('order_events'),
    fulfillment_jobs: await n('fulfillment_jobs'),
    idempotency_records: await n('idempotency_records'),
  };
}

/** Runs `act` and asserts it stored nothing in the order tables. */
export async function storesNothing<T>(deps: Pick<Deps, 'db'>, act: () => Promise<T>): Promise<T> {
  const before = await counts(deps);
  const result = await act();
  assert.deepEqual(await counts(deps), before, 'nothing was stored');
  return result;
}

export async function orderRow(deps: Pick<Deps, 'db'>, id: string): Promise<OrderRow> {
  const row = await deps.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst();
  assert.ok(row, `order ${id} is stored`);
  return row;
}

export const ordersOf = (deps: Pick<Deps, 'db'>, storeId: string) =>
  deps.db.selectFrom('orders').selectAll().where('store_id', '=', storeId).orderBy('order_number').execute();

export const jobsOf = (deps: Pick<Deps, 'db'>, orderId: string) =>
  deps.db.selectFrom('fulfillment_jobs').selectAll().where('order_id', '=', orderId).execute();

export const eventsOf = (deps: Pick<Deps, 'db'>, orderId: string) =>
  deps.db.selectFrom('order_events').selectAll().where('order_id', '=', orderId).execute();

/** Anti-bot rejections of a store: order events without an order. */
export const rejectionsOf = (deps: Pick<Deps, 'db'>, storeId: string) =>
  deps.db
    .selectFrom('order_events')
    .selectAll()
    .where('store_id', '=', storeId)
    .where('type', '=', 'order.rejected')
    .orderBy('created_at')
    .orderBy('id')
    .execute();

/** A string of exactly `n` characters that reads as words (letters, not one character repeated). */
export function wordsOfLength(n: number): string {
  return 'Ab'.padEnd(n, 'cdefghij').slice(0, n);
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * One request through node:http, for what fetch will not send as-is: no Content-Type at all, or a
 * chunked body without Content-Length.
 */
export function rawPost(url: string, options: { headers?: Record<string, string>; chunks?: Buffer[] }): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/api/orders/create`, { method: 'POST', headers: options.headers ?? {} }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    const chunks = options.chunks ?? [];
    const writeNext = (i: number): void => {
      if (i >= chunks.length) {
        req.end();
        return;
      }
      // A server that refused the body early may close the socket: stop writing then.
      if (req.destroyed) return;
      req.write(chunks[i], () => writeNext(i + 1));
    };
    writeNext(0);
  });
}
