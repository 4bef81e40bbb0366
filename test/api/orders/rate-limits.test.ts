// POST /api/orders/create, SPEC 4.1 step 5: per IP / key / phone limits, 429 + Retry-After and
// RateLimit-* headers on every answer; SPEC 2: X-Forwarded-For only with --trust-proxy.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { orderBody, postOrder, seedShop, type Shop } from '../../helpers/fixtures.ts';
import { manualClock } from '../../../src/clock.ts';
import type { ConfigFlags } from '../../../src/config.ts';
import { OPEN_LIMITS, SHOP_ORIGIN, counts, expectCreated, expectError, liveHeaders, nextPhone, orderRow, storesNothing } from './order-kit.ts';

/** 10 s into a minute and into an hour: the IP/key window resets in 50 s, the phone window in 3590 s. */
const START = Date.UTC(2030, 0, 1, 0, 0, 10);

function rateOf(res: Response): { limit: number; remaining: number; reset: number } {
  const limit = res.headers.get('ratelimit-limit');
  const remaining = res.headers.get('ratelimit-remaining');
  const reset = res.headers.get('ratelimit-reset');
  assert.ok(limit !== null && remaining !== null && reset !== null, `RateLimit-* headers on a ${res.status}`);
  for (const v of [limit, remaining, reset]) assert.match(v, /^\d+$/);
  return { limit: Number(limit), remaining: Number(remaining), reset: Number(reset) };
}

/** One server per describe, with its own limits and a clock pinned at START. */
function serverWith(flags: ConfigFlags) {
  const clock = manualClock(START);
  const ctx = {} as { server: TestServer; shop: Shop; clock: typeof clock };
  before(async () => {
    ctx.server = await startServer({ ...OPEN_LIMITS, ...flags }, { clock });
    ctx.shop = await seedShop(ctx.server.deps);
    ctx.clock = clock;
  });
  after(() => ctx.server.close());
  return ctx;
}

/** Moves the clock to 10 s into the next minute, so a test starts on a fresh IP/key window. */
function nextMinute(clock: ReturnType<typeof manualClock>): void {
  const now = clock.now().getTime();
  clock.set(new Date(Math.floor(now / 60_000) * 60_000 + 60_000 + 10_000));
}

describe('per client IP (3 per minute)', () => {
  const t = serverWith({ rateIpPerMin: 3 });
  const send = (over: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
    postOrder(t.server.url, orderBody(t.shop, { telefono: nextPhone(), ...over }), liveHeaders(t.shop, headers));

  test('the first 3 orders are created with RateLimit headers counting down, the 4th is a 429 with Retry-After', async () => {
    for (const remaining of [2, 1, 0]) {
      const res = await send();
      assert.deepEqual(rateOf(res), { limit: 3, remaining, reset: 50 });
      await expectCreated(res);
    }
    const refused = await storesNothing(t.server.deps, async () => {
      const res = await send();
      await expectError(res.clone(), 429, { fields: [] });
      return res;
    });
    assert.equal(refused.headers.get('retry-after'), '50');
    assert.deepEqual(rateOf(refused), { limit: 3, remaining: 0, reset: 50 });
  });

  test('the next window accepts orders again', async () => {
    nextMinute(t.clock);
    const res = await send();
    assert.deepEqual(rateOf(res), { limit: 3, remaining: 2, reset: 50 });
    await expectCreated(res);
  });

  test('Retry-After and RateLimit-Reset count down within the window', async () => {
    nextMinute(t.clock);
    for (let i = 0; i < 3; i++) await expectCreated(await send());
    t.clock.advance(30_000);
    const res = await send();
    assert.equal(res.status, 429);
    assert.equal(res.headers.get('retry-after'), '20');
    assert.equal(rateOf(res).reset, 20);
  });

  test('answers refused before step 5 carry RateLimit headers and do not use up the limit', async () => {
    nextMinute(t.clock);
    const early: Response[] = [
      await postOrder(t.server.url, '{not json', liveHeaders(t.shop)),
      await postOrder(t.server.url, orderBody(t.shop), liveHeaders(t.shop, { 'content-type': 'text/plain' })),
      await postOrder(t.server.url, orderBody(t.shop), { origin: SHOP_ORIGIN }),
      await postOrder(t.server.url, orderBody(t.shop), liveHeaders(t.shop, { origin: 'https://evil.example' })),
      await postOrder(t.server.url, { nombre: 'Ana' }, liveHeaders(t.shop)),
      await postOrder(t.server.url, JSON.stringify({ pad: 'x'.repeat(70_000) }), liveHeaders(t.shop)),
    ];
    assert.deepEqual(
      early.map((r) => r.status),
      [400, 415, 401, 403, 400, 413],
    );
    for (const res of early) assert.deepEqual(rateOf(res), { limit: 3, remaining: 3, reset: 50 });
    for (let i = 0; i < 3; i++) await expectCreated(await send());
    assert.equal((await send()).status, 429);
  });

  test('a field-validation 400 comes after step 5: it counts, carries the headers, and is a 429 once over the limit', async () => {
    nextMinute(t.clock);
    for (const remaining of [2, 1, 0]) {
      const res = await send({ nombre: 'A' });
      assert.equal(rateOf(res).remaining, remaining);
      await expectError(res, 400, { fields: ['nombre'] });
    }
    await expectError(await send({ nombre: 'A' }), 429);
    await expectError(await send(), 429);
  });

  test('a concurrent flood from one IP gets exactly 3 orders stored and 429 for the rest', async () => {
    nextMinute(t.clock);
    const before = await counts(t.server.deps);
    const answers = await Promise.all(Array.from({ length: 12 }, () => send()));
    const statuses = answers.map((r) => r.status).sort();
    assert.deepEqual(statuses, [200, 200, 200, 429, 429, 429, 429, 429, 429, 429, 429, 429]);
    for (const res of answers) {
      if (res.status === 429) {
        assert.equal(res.headers.get('retry-after'), '50');
        await expectError(res, 429);
      } else await expectCreated(res);
    }
    const after = await counts(t.server.deps);
    assert.equal(after.orders, before.orders + 3);
    assert.equal(after.fulfillment_jobs, before.fulfillment_jobs + 3);
    assert.equal(after.order_events, before.order_events + 3);
  });

  test('mode 1 (landing) shares the IP limit', async () => {
    nextMinute(t.clock);
    const landing = () => {
      const { store_id: _s, product_id: _p, ...rest } = orderBody(t.shop, { telefono: nextPhone() });
      return postOrder(t.server.url, { landing_page_id: t.shop.landingId, ...rest });
    };
    for (let i = 0; i < 2; i++) await expectCreated(await landing());
    await expectCreated(await send());
    await expectError(await landing(), 429);
  });
});

describe('per phone (2 per hour)', () => {
  const t = serverWith({ ratePhonePerHour: 2 });

  test('a third order from the same phone within the hour is a 429, whatever the phone formatting', async () => {
    const headers = liveHeaders(t.shop);
    const first = await postOrder(t.server.url, orderBody(t.shop, { telefono: '3005550001' }), headers);
    assert.deepEqual(rateOf(first), { limit: 2, remaining: 1, reset: 3590 });
    await expectCreated(first);
    await expectCreated(await postOrder(t.server.url, orderBody(t.shop, { telefono: '300 555 0001', pack: '2x', unit_price: 180000, total_price: 180000 }), headers));
    const third = await storesNothing(t.server.deps, async () => {
      const res = await postOrder(t.server.url, orderBody(t.shop, { telefono: '+57 300-555-0001', quantity: 2, total_price: 200000 }), headers);
      await expectError(res.clone(), 429);
      return res;
    });
    assert.equal(third.headers.get('retry-after'), '3590');
    assert.deepEqual(rateOf(third), { limit: 2, remaining: 0, reset: 3590 });
  });

  test('another phone is not limited by the first one', async () => {
    await expectCreated(await postOrder(t.server.url, orderBody(t.shop, { telefono: '3005550002' }), liveHeaders(t.shop)));
  });

  test('the same phone in another store has its own limit', async () => {
    const other = await seedShop(t.server.deps);
    await expectCreated(await postOrder(t.server.url, orderBody(other, { telefono: '3005550001' }), liveHeaders(other)));
  });

  test('the same phone is accepted again in the next hour', async () => {
    t.clock.advance(3_600_000);
    await expectCreated(await postOrder(t.server.url, orderBody(t.shop, { telefono: '3005550001', quantity: 3, total_price: 300000 }), liveHeaders(t.shop)));
  });
});

describe('per key (2 per minute)', () => {
  const t = serverWith({ rateKeyPerMin: 2 });

  test('a third order with the same key within the minute is a 429 while other keys and landings still work', async () => {
    const send = (headers: Record<string, string>) => postOrder(t.server.url, orderBody(t.shop, { telefono: nextPhone() }), headers);
    const first = await send(liveHeaders(t.shop));
    assert.deepEqual(rateOf(first), { limit: 2, remaining: 1, reset: 50 });
    await expectCreated(first);
    await expectCreated(await send(liveHeaders(t.shop)));
    const refused = await storesNothing(t.server.deps, async () => {
      const res = await send({ authorization: `Bearer ${t.shop.liveKey}`, origin: SHOP_ORIGIN });
      await expectError(res.clone(), 429);
      return res;
    });
    assert.equal(refused.headers.get('retry-after'), '50');
    await expectCreated(await send({ 'x-svc-api-key': t.shop.testKey, origin: 'http://localhost:5173' }));
    const { store_id: _s, product_id: _p, ...rest } = orderBody(t.shop, { telefono: nextPhone() });
    await expectCreated(await postOrder(t.server.url, { landing_page_id: t.shop.landingId, ...rest }));
  });
});

describe('X-Forwarded-For without --trust-proxy', () => {
  const t = serverWith({ rateIpPerMin: 2 });

  test('forwarded addresses are ignored: every request counts against the socket address', async () => {
    const send = (xff: string) => postOrder(t.server.url, orderBody(t.shop, { telefono: nextPhone() }), liveHeaders(t.shop, { 'x-forwarded-for': xff }));
    const created = await expectCreated(await send('203.0.113.1'));
    assert.equal((await orderRow(t.server.deps, created.data.id)).client_ip, '127.0.0.1');
    await expectCreated(await send('203.0.113.2'));
    await expectError(await send('203.0.113.3'), 429);
  });
});

describe('X-Forwarded-For with --trust-proxy 1', () => {
  const t = serverWith({ rateIpPerMin: 2, trustProxy: 1 });
  const send = (xff: string) => postOrder(t.server.url, orderBody(t.shop, { telefono: nextPhone() }), liveHeaders(t.shop, { 'x-forwarded-for': xff }));

  test('distinct forwarded addresses get distinct buckets and are stored as the client IP', async () => {
    await expectCreated(await send('203.0.113.1'));
    await expectCreated(await send('203.0.113.1'));
    await expectError(await send('203.0.113.1'), 429);
    const other = await expectCreated(await send('203.0.113.2'));
    assert.equal((await orderRow(t.server.deps, other.data.id)).client_ip, '203.0.113.2');
  });

  test('addresses a client prepends to X-Forwarded-For do not escape its bucket', async () => {
    await expectCreated(await send('198.51.100.7'));
    await expectCreated(await send('10.0.0.1, 198.51.100.7'));
    await expectError(await send('10.0.0.2, 198.51.100.7'), 429);
  });
});
