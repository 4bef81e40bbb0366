// Real seams for the account API tests (/api/v1, SPEC 4.3): fetch against the server on port 0 with
// a secret key, every answer checked against the served /openapi.json, and what the database holds
// before and after (a refused request stores nothing).
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import type { Deps } from '../../../src/app.ts';
import type { TestServer } from '../../helpers/server.ts';
import { OpenApiChecker, type OpenApiDoc } from '../../helpers/openapi.ts';

/** A well-formed UUID no row has. */
export const UNKNOWN_ID = '01900000-0000-7000-8000-000000000000';

/** A well-formed secret key no account holds. */
export const UNKNOWN_SECRET = `svc_live_secret_${'A'.repeat(40)}`;

export type Query = Record<string, string | number | boolean | readonly (string | number)[]>;

export interface CallOptions {
  /** Values of the `{name}` segments of the path template. */
  params?: Record<string, string>;
  /** Query string; an array is sent as repeated parameters. */
  query?: Query;
  /** A JSON body (sent with Content-Type application/json unless `headers` says otherwise). */
  body?: unknown;
  /** A body sent as it is (an image upload's bytes). */
  raw?: string | Uint8Array;
  /** The secret key to send as Bearer; `null` sends no Authorization header. Default: the client's key. */
  key?: string | null;
  headers?: Record<string, string>;
}

export interface V1Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body; typed `any`, tests check it field by field against the contract. */
  body: any;
}

/** `/api/v1/products/{product_id}` + params → the URL path. */
export function fillPath(template: string, params: Record<string, string> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const value = params[name];
    assert.ok(value !== undefined, `no value for {${name}} in ${template}`);
    return encodeURIComponent(value);
  });
}

export function queryString(query: Query = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (Array.isArray(value)) for (const item of value) search.append(name, String(item));
    else search.append(name, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** The account API as a client sees it: every answer is JSON and matches the served OpenAPI document. */
export class V1Client {
  constructor(
    readonly server: TestServer,
    readonly api: OpenApiChecker,
    readonly key: string,
  ) {}

  static async open(server: TestServer, key: string): Promise<V1Client> {
    const res = await fetch(`${server.url}/openapi.json`);
    assert.equal(res.status, 200);
    return new V1Client(server, new OpenApiChecker((await res.json()) as OpenApiDoc), key);
  }

  /** The same document and server with another key. */
  as(key: string): V1Client {
    return new V1Client(this.server, this.api, key);
  }

  async call(method: string, template: string, options: CallOptions = {}): Promise<V1Answer> {
    const key = options.key === undefined ? this.key : options.key;
    const headers: Record<string, string> = {
      ...(key !== null && { authorization: `Bearer ${key}` }),
      ...(options.body !== undefined && { 'content-type': 'application/json' }),
      ...options.headers,
    };
    const res = await fetch(`${this.server.url}${fillPath(template, options.params)}${queryString(options.query)}`, {
      method,
      headers,
      ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
      ...(options.raw !== undefined && { body: options.raw }),
    });
    const text = await res.text();
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/, `${method} ${template} ${res.status}: ${text}`);
    assert.ok(res.headers.get('x-request-id'), 'every answer carries X-Request-Id');
    let body: unknown;
    assert.doesNotThrow(() => (body = JSON.parse(text)), `${method} ${template} answered JSON: ${text}`);
    this.check(method, template, res, body);
    return { status: res.status, headers: res.headers, text, body };
  }

  /** The answer against the document: the operation's documented status, or the 405 answer outside any operation. */
  check(method: string, template: string, res: Response, body: unknown): void {
    const label = `${method} ${template} ${res.status}`;
    if (res.status === 405) {
      const notAllowed = this.api.doc.components.responses?.MethodNotAllowed;
      assert.ok(notAllowed, 'the document has a MethodNotAllowed answer');
      this.api.assertAgainst(notAllowed, label, body);
      assert.ok(res.headers.get('allow'), '405 names the allowed methods');
      return;
    }
    this.api.assertResponse(template, method.toLowerCase(), res.status, body);
    // Account data is never cached (SPEC 4.3), errors included.
    assert.equal(res.headers.get('cache-control'), 'no-store', `${label} Cache-Control`);
  }

  get = (template: string, options?: CallOptions) => this.call('GET', template, options);
  post = (template: string, options?: CallOptions) => this.call('POST', template, options);
  patch = (template: string, options?: CallOptions) => this.call('PATCH', template, options);
  put = (template: string, options?: CallOptions) => this.call('PUT', template, options);
  delete = (template: string, options?: CallOptions) => this.call('DELETE', template, options);
}

/** Asserts a success answer `{success: true, data}` with this status; returns data. */
export function ok(answer: V1Answer, status = 200): any {
  assert.equal(answer.status, status, `expected ${status}, got ${answer.status}: ${answer.text}`);
  assert.deepEqual(Object.keys(answer.body).sort(), ['data', 'success']);
  assert.equal(answer.body.success, true);
  return answer.body.data;
}

/**
 * Asserts an ErrorResponse `{success: false, error, details?}` with this status; `fields` is the
 * exact list of `details[].field` (`[]`: no details at all).
 */
export function failed(answer: V1Answer, status: number, fields?: string[]): { success: false; error: string; details?: { field: string; message: string }[] } {
  assert.equal(answer.status, status, `expected ${status}, got ${answer.status}: ${answer.text}`);
  const body = answer.body as Record<string, unknown>;
  for (const key of Object.keys(body)) assert.ok(['success', 'error', 'details'].includes(key), `unexpected key ${key} in ${answer.text}`);
  assert.equal(body.success, false);
  assert.equal(typeof body.error, 'string');
  assert.ok((body.error as string).length > 0);
  if (fields) assert.deepEqual(((body.details ?? []) as { field: string }[]).map((d) => d.field).sort(), [...fields].sort(), `details of ${answer.text}`);
  return body as never;
}

/** The tables an account operation may write. */
export const ACCOUNT_TABLES = ['accounts', 'stores', 'products', 'product_packs', 'images', 'image_variants', 'landing_pages', 'api_keys', 'orders', 'order_events', 'fulfillment_jobs', 'idempotency_records'] as const;

/**
 * Every row of the account tables, as stored. `api_keys.last_used_at` is left out: authenticating
 * a key may touch it (at most once a minute), which is not a write of the operation.
 */
export async function snapshot(deps: Pick<Deps, 'db'>): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of ACCOUNT_TABLES) {
    const found = (await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(deps.db)).rows;
    // Some tables have no rowid: compare them as sorted sets of rows.
    // An image file is compared by its digest, not its bytes.
    const comparable = table === 'api_keys' ? found.map(({ last_used_at: _t, ...rest }) => rest) : table === 'image_variants' ? found.map(({ bytes: _b, ...rest }) => rest) : found;
    out[table] = comparable.map((r) => JSON.stringify(r)).sort();
  }
  return out;
}

/** Runs `act` and asserts that no account table changed. */
export async function storesNothing<T>(deps: Pick<Deps, 'db'>, act: () => Promise<T>): Promise<T> {
  const before = await snapshot(deps);
  const result = await act();
  assert.deepEqual(await snapshot(deps), before, 'nothing was stored');
  return result;
}

/** A raw SELECT with positional parameters, for reading what is stored. */
export async function rows<T = Record<string, any>>(deps: Pick<Deps, 'db'>, query: string, ...params: unknown[]): Promise<T[]> {
  const parts = query.split('?');
  assert.equal(parts.length - 1, params.length, 'one parameter per ?');
  const strings = Object.assign([...parts], { raw: [...parts] }) as unknown as TemplateStringsArray;
  return (await sql<T>(strings, ...params).execute(deps.db)).rows;
}

/** Another account's id answers exactly what an unknown id answers (404 on the field), and neither stores anything. */
export async function sameNotFound(deps: Pick<Deps, 'db'>, call: (id: string) => Promise<V1Answer>, foreignId: string, field: string): Promise<void> {
  const unknown = await storesNothing(deps, () => call(UNKNOWN_ID));
  const theirs = await storesNothing(deps, () => call(foreignId));
  failed(unknown, 404, [field]);
  failed(theirs, 404, [field]);
  assert.equal(theirs.text, unknown.text, 'another account’s id is indistinguishable from an unknown one');
  assert.ok(!theirs.text.includes(foreignId), 'the answer does not echo the id');
}
