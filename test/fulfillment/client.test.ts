// The platform client against a real HTTP server on port 0 (docs/fulfillment-platform.md
// "Transport" and "Errors"): what it sends, and how the outbox reads every failure (one
// OutboundError, src/outbox/attempt-failure.ts) — `retry` (the platform did not act), `permanent`
// (the request is wrong), `unknown` (it may have).
// Also the worker's backoff, the delay between those retries.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { fcRun } from '../helpers/seed.ts';
import { GenericClient } from '../../src/platforms/generic/generic.ts';
import { OutboundClient } from '../../src/http/outbound/outbound-client.ts';
import { OutboundError } from '../../src/http/outbound/outbound-error.ts';
import { classifyFailure, type AttemptFailure, type FailureClass } from '../../src/outbox/attempt-failure.ts';
import { backoffMs as outboxBackoff } from '../../src/outbox/outbox-loop.ts';
import { platformOrderBody } from '../helpers/platform.ts';
import { FULFILLMENT_BACKOFF_MAX_MS } from '../../src/limits.ts';

const TOKEN = 'platform-secret-token';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

type Handler = (req: IncomingMessage, res: ServerResponse, seen: Seen) => void;

/** A tiny platform: each test sets what it answers; every request it got is kept. */
class TinyPlatform {
  readonly seen: Seen[] = [];
  handler: Handler = (_req, res) => void res.writeHead(500).end();
  #server: Server | undefined;
  url = '';

  async start(): Promise<void> {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
        this.seen.push(seen);
        this.handler(req, res, seen);
      });
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.#server?.close(() => resolve()));
    this.#server?.closeAllConnections();
    await closed;
  }
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

const ORDER = platformOrderBody('0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b');

const outbound = new OutboundClient();
after(() => outbound.close());

/** Runs the call, expects an OutboundError the outbox reads as that kind, and returns the reading. */
async function failure(call: Promise<unknown>, kind: FailureClass): Promise<AttemptFailure> {
  let caught: unknown;
  try {
    await call;
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof OutboundError, `expected an OutboundError, got ${String(caught)}`);
  const reading = classifyFailure(caught);
  assert.equal(reading.kind, kind, caught.message);
  assert.ok(!caught.message.includes(TOKEN), 'the token is never part of an error');
  return reading;
}

describe('GenericClient', () => {
  const platform = new TinyPlatform();
  let client: GenericClient;
  before(() => platform.start());
  after(() => platform.stop());
  beforeEach(() => {
    platform.seen.length = 0;
    client = new GenericClient({ url: platform.url, token: TOKEN, timeoutMs: 2_000, outbound });
  });

  test('create posts the order as JSON with the Bearer token and returns the parsed 201', async () => {
    platform.handler = (_req, res) => json(res, 201, { id: 'P-000123', external_ref: ORDER.external_ref, status: 'PENDIENTE', created_at: '2025-10-09T08:53:20.000Z' });
    const placed = await client.create(ORDER);
    assert.deepEqual(placed, { id: 'P-000123', external_ref: ORDER.external_ref, status: 'PENDIENTE', created_at: '2025-10-09T08:53:20.000Z' });
    assert.equal(platform.seen.length, 1);
    const [seen] = platform.seen;
    assert.equal(seen!.method, 'POST');
    assert.equal(seen!.url, '/orders');
    assert.equal(seen!.headers.authorization, `Bearer ${TOKEN}`);
    assert.match(seen!.headers['content-type'] ?? '', /^application\/json/);
    assert.deepEqual(JSON.parse(seen!.body), ORDER);
  });

  test('a client without a token sends no Authorization header', async () => {
    platform.handler = (_req, res) => json(res, 200, { orders: [] });
    await new GenericClient({ url: platform.url, token: undefined, timeoutMs: 2_000, outbound }).findByRef('ref');
    assert.equal(platform.seen[0]!.headers.authorization, undefined);
  });

  test('a base URL with a path and trailing slashes keeps the path and adds no double slash', async () => {
    platform.handler = (_req, res) => json(res, 200, { id: 'P-1', external_ref: 'r', status: 'PENDIENTE' });
    await new GenericClient({ url: `${platform.url}/api/v2//`, token: TOKEN, timeoutMs: 2_000, outbound }).get('P-1');
    assert.equal(platform.seen[0]!.url, '/api/v2/orders/P-1');
  });

  test('findByRef sends the reference percent-encoded and returns the listed orders', async () => {
    const ref = 'a b&external_ref=evil#frag/ñ?x=1+2%';
    platform.handler = (req, res) => {
      const asked = new URL(req.url ?? '/', 'http://platform').searchParams.getAll('external_ref');
      json(res, 200, { orders: asked.map((r, i) => ({ id: `P-${i}`, external_ref: r, status: 'PENDIENTE' })) });
    };
    const found = await client.findByRef(ref);
    assert.equal(platform.seen[0]!.method, 'GET');
    assert.equal(platform.seen[0]!.url, `/orders?external_ref=${encodeURIComponent(ref)}`);
    assert.deepEqual(found, [{ id: 'P-0', external_ref: ref, status: 'PENDIENTE' }], 'the platform read exactly one reference, intact');
  });

  test('findByRef of a reference the platform does not know returns an empty list', async () => {
    platform.handler = (_req, res) => json(res, 200, { orders: [] });
    assert.deepEqual(await client.findByRef('unknown-ref'), []);
  });

  test('get asks for the order by its percent-encoded id and returns it', async () => {
    platform.handler = (_req, res) => json(res, 200, { id: 'P/1 ?', external_ref: 'r', status: 'EN_TRANSITO', created_at: 'c', updated_at: 'u' });
    const order = await client.get('P/1 ?');
    assert.equal(platform.seen[0]!.url, '/orders/P%2F1%20%3F');
    assert.deepEqual(order, { id: 'P/1 ?', external_ref: 'r', status: 'EN_TRANSITO', created_at: 'c', updated_at: 'u' });
  });

  test('a 429 with Retry-After in seconds is a retry that carries the wait in milliseconds', async () => {
    platform.handler = (_req, res) => json(res, 429, { error: 'too many requests' }, { 'retry-after': '3' });
    const error = await failure(client.create(ORDER), 'retry');
    assert.equal(error.retryAfterMs, 3_000);
    assert.match(error.message, /HTTP 429/);
  });

  test('a 429 with Retry-After as an HTTP date is a retry that waits until that date', async () => {
    const at = new Date(Date.now() + 120_000);
    platform.handler = (_req, res) => json(res, 429, { error: 'slow down' }, { 'retry-after': at.toUTCString() });
    const error = await failure(client.create(ORDER), 'retry');
    assert.ok(error.retryAfterMs !== undefined && error.retryAfterMs > 100_000 && error.retryAfterMs <= 120_000, String(error.retryAfterMs));
  });

  test('a 429 without Retry-After is a retry with no wait of its own', async () => {
    platform.handler = (_req, res) => json(res, 429, { error: 'too many requests' });
    assert.equal((await failure(client.create(ORDER), 'retry')).retryAfterMs, undefined);
  });

  test('a 500, 502 or 503 is a retry that carries the platform error text', async () => {
    for (const status of [500, 502, 503]) {
      platform.handler = (_req, res) => json(res, status, { error: 'platform down' });
      const error = await failure(client.create(ORDER), 'retry');
      assert.match(error.message, new RegExp(`HTTP ${status} platform down`));
    }
  });

  test('a 401 or 403 is a retry, so a bad token loses no order', async () => {
    for (const status of [401, 403]) {
      platform.handler = (_req, res) => json(res, status, { error: 'invalid or missing token' });
      const error = await failure(client.create(ORDER), 'retry');
      assert.match(error.message, new RegExp(`HTTP ${status}`));
    }
  });

  test('a 400, 404, 409 or 422 is permanent and carries the platform error text', async () => {
    for (const [status, text] of [
      [400, 'products.0.quantity: Invalid value'],
      [404, 'not found'],
      [409, 'duplicated guide'],
      [422, 'city_code 99999 is not served'],
    ] as const) {
      platform.handler = (_req, res) => json(res, status, { error: text });
      const error = await failure(client.create(ORDER), 'permanent');
      assert.equal(error.message, `POST /orders: HTTP ${status} ${text}`);
      assert.equal(error.retryAfterMs, undefined);
    }
  });

  test('a permanent error also takes the text from a message field, and goes without text when the body is not JSON', async () => {
    platform.handler = (_req, res) => json(res, 422, { message: 'phone is not valid' });
    assert.equal((await failure(client.create(ORDER), 'permanent')).message, 'POST /orders: HTTP 422 phone is not valid');
    platform.handler = (_req, res) => void res.writeHead(400, { 'content-type': 'text/html' }).end('<h1>Bad Request</h1>');
    assert.equal((await failure(client.create(ORDER), 'permanent')).message, 'POST /orders: HTTP 400');
  });

  test('the error of a lookup names the path without the reference', async () => {
    platform.handler = (_req, res) => json(res, 400, { error: 'bad ref' });
    const error = await failure(client.findByRef('secret-looking-ref'), 'permanent');
    assert.equal(error.message, 'GET /orders: HTTP 400 bad ref');
  });

  test('a 201 whose body is not JSON is unknown, since the platform may have created the order', async () => {
    platform.handler = (_req, res) => void res.writeHead(201, { 'content-type': 'text/plain' }).end('Created');
    const error = await failure(client.create(ORDER), 'unknown');
    assert.match(error.message, /not JSON \(HTTP 201\)/);
  });

  test('a 201 whose JSON lacks the platform id is refused rather than returned', async () => {
    platform.handler = (_req, res) => json(res, 201, { external_ref: ORDER.external_ref, status: 'PENDIENTE' });
    await assert.rejects(client.create(ORDER));
  });

  test('a platform that never answers is unknown once the timeout has passed', async () => {
    platform.handler = () => {};
    const quick = new GenericClient({ url: platform.url, token: TOKEN, timeoutMs: 200, outbound });
    const started = Date.now();
    const error = await failure(quick.create(ORDER), 'unknown');
    const waited = Date.now() - started;
    assert.equal(error.message, 'POST /orders: no answer within 200 ms');
    assert.ok(waited >= 150, `gave up after ${waited} ms, not before the timeout`);
    assert.equal(platform.seen.length, 1, 'the request did reach the platform');
  });
});

describe('GenericClient without a platform', () => {
  test('a refused connection is a plain retry: the request never left, so the platform did nothing', async () => {
    const gone = new TinyPlatform();
    await gone.start();
    await gone.stop();
    const error = await failure(new GenericClient({ url: gone.url, token: TOKEN, timeoutMs: 2_000, outbound }).create(ORDER), 'retry');
    assert.match(error.message, /^POST \/orders: connection refused \(ECONNREFUSED\)$/);
  });

  test('a connection the platform resets without answering is unknown', async () => {
    const rude = new TinyPlatform();
    rude.handler = (req) => req.socket.destroy();
    await rude.start();
    try {
      const error = await failure(new GenericClient({ url: rude.url, token: TOKEN, timeoutMs: 2_000, outbound }).create(ORDER), 'unknown');
      assert.match(error.message, /^POST \/orders: connection failed/);
    } finally {
      await rude.stop();
    }
  });
});

/** The outbox's backoff with the fulfillment cap (--fulfillment-backoff-max-ms's default). */
const backoffMs = (attempt: number, baseMs: number, random?: () => number) => outboxBackoff(attempt, baseMs, FULFILLMENT_BACKOFF_MAX_MS, random);

describe('backoffMs', () => {
  const BASE = 1_000;

  test('backoffMs with random 0 is half the base, whatever the attempt', () => {
    for (const attempt of [0, 1, 2, 5, 10, 30, 1_000]) assert.equal(backoffMs(attempt, BASE, () => 0), BASE / 2, `attempt ${attempt}`);
  });

  test('backoffMs with random 1 is base × 2^(attempt-1) until the cap, and the cap after', () => {
    assert.deepEqual(
      [1, 2, 3, 4, 5, 6].map((n) => backoffMs(n, BASE, () => 1)),
      [1_000, 2_000, 4_000, 8_000, 16_000, 32_000],
    );
    assert.equal(backoffMs(10, BASE, () => 1), 512_000);
    assert.equal(backoffMs(11, BASE, () => 1), FULFILLMENT_BACKOFF_MAX_MS);
    assert.equal(backoffMs(50, BASE, () => 1), FULFILLMENT_BACKOFF_MAX_MS);
    assert.equal(backoffMs(5_000, BASE, () => 1), FULFILLMENT_BACKOFF_MAX_MS, 'an overflowing power is still capped');
  });

  test('backoffMs grows with the attempt for the same random draw', () => {
    for (const r of [0.25, 0.5, 0.75, 1]) {
      const delays = Array.from({ length: 14 }, (_, i) => backoffMs(i + 1, BASE, () => r));
      for (let i = 1; i < delays.length; i++) assert.ok(delays[i]! >= delays[i - 1]!, `random ${r}: ${delays.join(', ')}`);
      assert.ok(delays[5]! > delays[0]!, `random ${r}: the delay grows`);
    }
  });

  test('backoffMs stays within [base/2, min(cap, base × 2^(attempt-1))] for any attempt, base and draw', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 1, max: 600_000 }), fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), (attempt, base, r) => {
        const delay = backoffMs(attempt, base, () => r);
        const ceiling = Math.min(FULFILLMENT_BACKOFF_MAX_MS, base * 2 ** (attempt - 1));
        assert.ok(Number.isInteger(delay), `${delay} is whole milliseconds`);
        assert.ok(delay >= Math.floor(base / 2) && delay <= Math.ceil(ceiling), `attempt ${attempt}, base ${base}, random ${r}: ${delay} outside [${base / 2}, ${ceiling}]`);
      }),
      fcRun(401),
    );
  });

  test('backoffMs with the default Math.random stays within the bounds of the first attempt', () => {
    for (let i = 0; i < 200; i++) {
      const delay = backoffMs(1, BASE);
      assert.ok(delay >= BASE / 2 && delay <= BASE, String(delay));
    }
  });
});
