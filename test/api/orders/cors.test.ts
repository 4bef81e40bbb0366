// POST /api/orders/create: CORS (SPEC 4.1, last paragraph) and X-Request-Id on every answer (SPEC 4).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { openShop, orderBody, postOrder, seedShop, type Shop } from '../../helpers/fixtures.ts';
import { MAX_BODY_BYTES } from '../../../src/limits.ts';
import { OPEN_LIMITS, SHOP_ORIGIN, expectCreated, expectError, liveHeaders, nextPhone, storesNothing } from './order-kit.ts';

let server: TestServer;
let shop: Shop;

before(async () => ({ server, shop } = await openShop(OPEN_LIMITS)));
after(() => server.close());

const body = (over: Record<string, unknown> = {}) => orderBody(shop, { telefono: nextPhone(), ...over });
const csv = (value: string | null) => (value ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean).sort();

function preflight(origin: string | undefined, requestHeaders = 'content-type, x-svc-api-key') {
  return fetch(`${server.url}/api/orders/create`, {
    method: 'OPTIONS',
    headers: {
      ...(origin ? { origin } : {}),
      'access-control-request-method': 'POST',
      'access-control-request-headers': requestHeaders,
    },
  });
}

function assertReflected(res: Response, origin: string): void {
  assert.equal(res.headers.get('access-control-allow-origin'), origin);
  assert.ok(csv(res.headers.get('vary')).includes('origin'), 'Vary: Origin');
  const exposed = csv(res.headers.get('access-control-expose-headers'));
  for (const h of ['x-request-id', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after']) assert.ok(exposed.includes(h), `exposes ${h}`);
}

const assertNotReflected = (res: Response) => assert.equal(res.headers.get('access-control-allow-origin'), null);

describe('CORS preflight', () => {
  for (const origin of ['https://shop.example.com', 'https://unknown-site.example', 'http://localhost:3000']) {
    test(`OPTIONS from ${origin} is a 204 allowing POST and the order headers`, async () => {
      const res = await storesNothing(server.deps, () => preflight(origin, 'content-type, x-svc-api-key, authorization, idempotency-key'));
      assert.equal(res.status, 204);
      assert.equal(await res.text(), '');
      assert.equal(res.headers.get('access-control-allow-origin'), origin);
      assert.ok(csv(res.headers.get('access-control-allow-methods')).includes('post'));
      assert.deepEqual(csv(res.headers.get('access-control-allow-headers')), ['authorization', 'content-type', 'idempotency-key', 'x-svc-api-key']);
      assert.ok(res.headers.get('x-request-id'));
    });
  }

  test('OPTIONS without an Origin still answers 204 with the allowed headers', async () => {
    const res = await preflight(undefined);
    assert.equal(res.status, 204);
    assert.ok(res.headers.get('access-control-allow-origin'));
    assert.deepEqual(csv(res.headers.get('access-control-allow-headers')), ['authorization', 'content-type', 'idempotency-key', 'x-svc-api-key']);
  });
});

describe('CORS on the real POST', () => {
  test('a created order from an allowed origin reflects that origin', async () => {
    const res = await postOrder(server.url, body(), liveHeaders(shop));
    assertReflected(res, SHOP_ORIGIN);
    await expectCreated(res);
  });

  test('a wildcard-subdomain origin is reflected exactly as sent', async () => {
    const origin = 'https://tienda.brand.example';
    const res = await postOrder(server.url, body(), { 'x-svc-api-key': shop.liveKey, origin });
    assertReflected(res, origin);
    await expectCreated(res);
  });

  test('a test key from localhost is reflected', async () => {
    const origin = 'http://localhost:5173';
    const res = await postOrder(server.url, body(), { 'x-svc-api-key': shop.testKey, origin });
    assertReflected(res, origin);
    await expectCreated(res);
  });

  test('a field-validation 400 from an allowed origin carries the reflection so the checkout can read it', async () => {
    const res = await postOrder(server.url, body({ nombre: 'A' }), liveHeaders(shop));
    assertReflected(res, SHOP_ORIGIN);
    await expectError(res, 400, { fields: ['nombre'] });
  });

  test('a country-rule 400 from an allowed origin carries the reflection', async () => {
    const res = await postOrder(server.url, body({ telefono: '123456789' }), liveHeaders(shop));
    assertReflected(res, SHOP_ORIGIN);
    await expectError(res, 400, { fields: ['telefono'] });
  });

  test('a price-floor 400 from an allowed origin carries the reflection', async () => {
    const res = await postOrder(server.url, body({ unit_price: 10, total_price: 10 }), liveHeaders(shop));
    assertReflected(res, SHOP_ORIGIN);
    await expectError(res, 400, { fields: ['total_price'] });
  });

  test('an anti-bot rejection from an allowed origin carries the reflection', async () => {
    const res = await postOrder(server.url, body({ website: 'spam' }), liveHeaders(shop));
    assertReflected(res, SHOP_ORIGIN);
    await expectError(res, 400, { error: 'Order rejected' });
  });

  // Issue 23 §5: a refusal is readable by the page that asked, so the checkout says "not available on
  // this site" instead of "no connection"; it carries nothing but the refusal, and stores nothing.
  test('a forbidden origin gets its 403 with the reflection, so the checkout can read the refusal', async () => {
    const res = await storesNothing(server.deps, () => postOrder(server.url, body(), { 'x-svc-api-key': shop.liveKey, origin: 'https://evil.example' }));
    assertReflected(res, 'https://evil.example');
    await expectError(res, 403);
  });

  test("another store's key from that store's allowed origin gets a readable 403", async () => {
    const other = await seedShop(server.deps);
    const res = await storesNothing(server.deps, () => postOrder(server.url, body(), { 'x-svc-api-key': other.liveKey, origin: SHOP_ORIGIN }));
    assertReflected(res, SHOP_ORIGIN);
    await expectError(res, 403);
  });

  test('an unknown key from an allowed origin gets a readable 401', async () => {
    const res = await storesNothing(server.deps, () => postOrder(server.url, body(), { 'x-svc-api-key': `svc_live_pub_${'a'.repeat(32)}`, origin: SHOP_ORIGIN }));
    assertReflected(res, SHOP_ORIGIN);
    await expectError(res, 401);
  });

  test('a secret key is server to server: its answer never reflects an Origin', async () => {
    const res = await postOrder(server.url, body(), { authorization: `Bearer ${shop.secretKey}`, origin: SHOP_ORIGIN });
    assertNotReflected(res);
    await expectCreated(res);
  });

  test('a mode-1 order posted from a foreign origin is created but not reflected', async () => {
    const { store_id: _s, product_id: _p, ...rest } = body();
    const res = await postOrder(server.url, { landing_page_id: shop.landingId, ...rest }, { origin: 'https://evil.example' });
    assertNotReflected(res);
    await expectCreated(res);
  });
});

describe('CORS on a 429', () => {
  let limited: TestServer;
  let s: Shop;
  before(async () => {
    limited = await startServer({ ...OPEN_LIMITS, rateKeyPerMin: 1 });
    s = await seedShop(limited.deps);
  });
  after(() => limited.close());

  test('a rate-limited answer to an allowed origin carries the reflection and exposes Retry-After', async () => {
    await expectCreated(await postOrder(limited.url, orderBody(s, { telefono: nextPhone() }), liveHeaders(s)));
    const res = await postOrder(limited.url, orderBody(s, { telefono: nextPhone() }), liveHeaders(s));
    assertReflected(res, SHOP_ORIGIN);
    assert.ok(res.headers.get('retry-after'));
    await expectError(res, 429);
  });
});

describe('X-Request-Id', () => {
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

  test('every answer of the route carries a generated X-Request-Id, distinct per request', async () => {
    const answers = [
      await postOrder(server.url, body(), liveHeaders(shop)),
      await postOrder(server.url, '{', liveHeaders(shop)),
      await postOrder(server.url, body(), { origin: SHOP_ORIGIN }),
      await postOrder(server.url, body(), { 'x-svc-api-key': shop.liveKey }),
      await postOrder(server.url, body(), liveHeaders(shop, { 'content-type': 'text/plain' })),
      await postOrder(server.url, JSON.stringify({ pad: 'x'.repeat(MAX_BODY_BYTES) }), liveHeaders(shop)),
      await preflight(SHOP_ORIGIN),
      await fetch(`${server.url}/api/orders/create`),
    ];
    assert.deepEqual(
      answers.map((r) => r.status),
      [200, 400, 401, 403, 415, 413, 204, 405],
    );
    const ids = answers.map((r) => r.headers.get('x-request-id') ?? '');
    for (const id of ids) assert.match(id, UUID);
    assert.equal(new Set(ids).size, ids.length);
  });

  test('a GET on the route is a 405 ErrorResponse naming POST in Allow', async () => {
    const res = await fetch(`${server.url}/api/orders/create`);
    assert.ok(csv(res.headers.get('allow')).includes('post'));
    await expectError(res, 405);
  });

  test('a client X-Request-Id is echoed on a created order', async () => {
    const res = await postOrder(server.url, body(), liveHeaders(shop, { 'x-request-id': 'checkout-42.a:b' }));
    assert.equal(res.headers.get('x-request-id'), 'checkout-42.a:b');
    await expectCreated(res);
  });

  test('a client X-Request-Id is echoed on errors, preflights and rejections', async () => {
    const id = 'trace-0001';
    const answers = [
      await postOrder(server.url, body({ nombre: 'A' }), liveHeaders(shop, { 'x-request-id': id })),
      await postOrder(server.url, body(), { origin: SHOP_ORIGIN, 'x-request-id': id }),
      await postOrder(server.url, body({ website: 'bot' }), liveHeaders(shop, { 'x-request-id': id })),
      await fetch(`${server.url}/api/orders/create`, { method: 'OPTIONS', headers: { origin: SHOP_ORIGIN, 'x-request-id': id } }),
    ];
    assert.deepEqual(
      answers.map((r) => r.status),
      [400, 401, 400, 204],
    );
    for (const res of answers) assert.equal(res.headers.get('x-request-id'), id);
  });

  test('an X-Request-Id that is not a safe token is replaced by a generated one', async () => {
    for (const bad of ['has space', 'x'.repeat(129), 'quote"s']) {
      const res = await postOrder(server.url, body(), liveHeaders(shop, { 'x-request-id': bad }));
      assert.match(res.headers.get('x-request-id') ?? '', UUID);
      await expectCreated(res);
    }
  });
});
