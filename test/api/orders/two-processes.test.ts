// Two `codrail serve` processes on one SQLite file (SPEC 16: rate limits, idempotency records and the
// orders the duplicate window reads live in the database, not in a process): POST /api/orders/create
// alternated between them keeps the per-key and per-phone limits (SPEC 4.1 step 5), duplicate
// suppression and Idempotency-Key (step 10) as one server would.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { tempDbFile } from '../../helpers/server.ts';
import { spawnServe, type ServeProcess } from '../../helpers/cli.ts';
import { readDb, withApp } from '../../helpers/cli-expect.ts';
import { addKey, orderBody, postOrder, seedShop, type Shop } from '../../helpers/fixtures.ts';
import { expectCreated, expectError, liveHeaders, nextPhone } from './order-kit.ts';

const KEY_PER_MIN = 5;
// Above the key limit, so the key bucket is the tightest in the key tests' RateLimit headers.
const PHONE_PER_HOUR = 6;
const MINUTE = 60_000;
const HOUR = 3_600_000;

const tmp = tempDbFile();
let a: ServeProcess;
let b: ServeProcess;
/** One shop per test (each test runs alone too); the key-limit tests get spare keys for a rerun. */
const shops: Record<'key' | 'flood' | 'phone' | 'duplicate' | 'duplicateRace' | 'idempotency' | 'idempotencyRace', Shop & { spareKeys: string[] }> = {} as never;

before(async () => {
  await withApp(tmp.file, async (app) => {
    for (const name of ['key', 'flood', 'phone', 'duplicate', 'duplicateRace', 'idempotency', 'idempotencyRace'] as const) {
      const shop = await seedShop(app);
      const spareKeys: string[] = [];
      for (let i = 0; i < 2; i++) spareKeys.push((await addKey(app, { store_id: shop.storeId, type: 'publishable', env: 'live' })).key);
      shops[name] = { ...shop, spareKeys };
    }
  });
  // Only the limits under test bind: the IP limit (every request comes from 127.0.0.1) is out of the way.
  const flags = ['--log-level', 'warn', '--rate-ip-per-min', '1000000', '--rate-key-per-min', String(KEY_PER_MIN), '--rate-phone-per-hour', String(PHONE_PER_HOUR)];
  a = await spawnServe(tmp.file, flags);
  b = await spawnServe(tmp.file, flags);
});

after(async () => {
  for (const serve of [a, b]) {
    if (!serve || serve.child.exitCode !== null) continue;
    serve.child.kill('SIGTERM');
    await serve.exited;
  }
  tmp.cleanup();
});

/** What the database holds for a store, read from the file both processes write. */
function stored(storeId: string): { orders: number; created: number; jobs: number; idempotency: number } {
  return readDb(tmp.file, (db) => {
    const n = (sql: string) => (db.prepare(sql).get(storeId) as { n: number }).n;
    return {
      orders: n('SELECT count(*) AS n FROM orders WHERE store_id = ?'),
      created: n("SELECT count(*) AS n FROM order_events WHERE store_id = ? AND type = 'order.created'"),
      jobs: n('SELECT count(*) AS n FROM fulfillment_jobs j JOIN orders o ON o.id = j.order_id WHERE o.store_id = ?'),
      idempotency: n('SELECT count(*) AS n FROM idempotency_records WHERE scope = ?'),
    };
  });
}

interface Answer {
  via: 'A' | 'B';
  status: number;
  headers: Headers;
  text: string;
}

async function answer(via: 'A' | 'B', res: Response): Promise<Answer> {
  return { via, status: res.status, headers: res.headers, text: await res.text() };
}

/** Back into a Response for the order-kit assertions. */
const asResponse = (x: Answer) => new Response(x.text, { status: x.status, headers: x.headers });

/** The i-th request goes to A when i is even, to B when odd. */
const serveOf = (i: number) => (i % 2 === 0 ? { via: 'A' as const, base: a.base } : { via: 'B' as const, base: b.base });

/**
 * The limits count in fixed windows (a minute, an hour) of the servers' clock, which is this
 * machine's: a run that crossed a window boundary started counting again halfway, so it is run again
 * with a fresh subject (a spare key, another phone). Returns the first run made inside one window.
 */
async function inOneWindow<T>(windowMs: number, runs: number, run: (attempt: number) => Promise<T>): Promise<T> {
  for (let attempt = 0; attempt < runs; attempt++) {
    const start = Math.floor(Date.now() / windowMs);
    const result = await run(attempt);
    if (Math.floor(Date.now() / windowMs) === start) return result;
  }
  assert.fail(`no run of ${runs} stayed inside one rate window`);
}

function assertRetryAfter(res: Answer, windowMs: number): void {
  const retry = res.headers.get('retry-after');
  assert.match(retry ?? '', /^\d+$/, `a 429 from ${res.via} carries Retry-After`);
  assert.ok(Number(retry) >= 1 && Number(retry) <= windowMs / 1000, `Retry-After ${retry} is within the window`);
  assert.equal(res.headers.get('ratelimit-reset'), retry);
  assert.equal(res.headers.get('ratelimit-remaining'), '0');
}

describe('two serve processes on one database', () => {
  test(`the per-key limit (${KEY_PER_MIN}/min) is counted across both: ${KEY_PER_MIN} orders alternated over them are created, the next is a 429 with Retry-After on either, and ${KEY_PER_MIN} orders are stored`, async () => {
    const shop = shops.key;
    const keys = [shop.liveKey, ...shop.spareKeys];
    const before = stored(shop.storeId);
    const answers = await inOneWindow(MINUTE, keys.length, async (attempt) => {
      const out: Answer[] = [];
      for (let i = 0; i < KEY_PER_MIN + 2; i++) {
        const { via, base } = serveOf(i);
        out.push(await answer(via, await postOrder(base, orderBody(shop, { telefono: nextPhone() }), liveHeaders({ liveKey: keys[attempt]! }))));
      }
      return out;
    });
    const accepted = answers.slice(0, KEY_PER_MIN);
    for (const [i, res] of accepted.entries()) {
      await expectCreated(asResponse(res));
      assert.equal(res.headers.get('ratelimit-limit'), String(KEY_PER_MIN));
      // Each process sees the other's requests in the count.
      assert.equal(res.headers.get('ratelimit-remaining'), String(KEY_PER_MIN - 1 - i), `remaining after request ${i + 1} (on ${res.via})`);
    }
    assert.deepEqual(
      answers.slice(KEY_PER_MIN).map((r) => r.via),
      ['B', 'A'],
      'the refused requests reached both processes',
    );
    for (const res of answers.slice(KEY_PER_MIN)) {
      await expectError(asResponse(res), 429);
      assertRetryAfter(res, MINUTE);
    }
    const after = stored(shop.storeId);
    assert.equal(after.orders - before.orders, KEY_PER_MIN);
    assert.equal(after.created - before.created, KEY_PER_MIN);
    assert.equal(after.jobs - before.jobs, KEY_PER_MIN);
  });

  test(`a concurrent flood on one key split over both processes gets exactly ${KEY_PER_MIN} orders stored and 429 for the rest`, async () => {
    const shop = shops.flood;
    const keys = [shop.liveKey, ...shop.spareKeys];
    const before = stored(shop.storeId);
    const answers = await inOneWindow(MINUTE, keys.length, (attempt) =>
      Promise.all(
        Array.from({ length: 12 }, async (_, i) => {
          const { via, base } = serveOf(i);
          return answer(via, await postOrder(base, orderBody(shop, { telefono: nextPhone() }), liveHeaders({ liveKey: keys[attempt]! })));
        }),
      ),
    );
    assert.deepEqual(
      answers.map((r) => r.status).sort(),
      [...Array<number>(KEY_PER_MIN).fill(200), ...Array<number>(12 - KEY_PER_MIN).fill(429)],
    );
    for (const res of answers) {
      if (res.status === 200) await expectCreated(asResponse(res));
      else assertRetryAfter(res, MINUTE);
    }
    assert.equal(stored(shop.storeId).orders - before.orders, KEY_PER_MIN);
  });

  test(`the per-phone limit (${PHONE_PER_HOUR}/hour) is counted across both: ${PHONE_PER_HOUR} different orders from one phone alternated over them (landing page, no key) are created, the next is a 429 on either`, async () => {
    const shop = shops.phone;
    // Another basket each time (a repeat would be a duplicate, not a new order), through the landing
    // page (mode 1: no key, so only the phone bucket can bind).
    const baskets = Array.from({ length: PHONE_PER_HOUR + 2 }, (_, i) => ({ pack: '1x', quantity: i + 1, unit_price: 100000, total_price: 100000 * (i + 1) }));
    const landing = (over: Record<string, unknown>) => {
      const { store_id: _s, product_id: _p, ...rest } = orderBody(shop, over);
      return { landing_page_id: shop.landingId, ...rest };
    };
    const before = stored(shop.storeId);
    const answers = await inOneWindow(HOUR, 3, async () => {
      const phone = nextPhone();
      const out: Answer[] = [];
      for (const [i, basket] of baskets.entries()) {
        const { via, base } = serveOf(i);
        out.push(await answer(via, await postOrder(base, landing({ telefono: phone, ...basket }))));
      }
      return out;
    });
    const created = [];
    for (const [i, res] of answers.slice(0, PHONE_PER_HOUR).entries()) {
      created.push((await expectCreated(asResponse(res))).data.id);
      assert.equal(res.headers.get('ratelimit-limit'), String(PHONE_PER_HOUR), `the phone bucket is the tightest on request ${i + 1}`);
      assert.equal(res.headers.get('ratelimit-remaining'), String(PHONE_PER_HOUR - 1 - i), `remaining after request ${i + 1} (on ${res.via})`);
    }
    assert.equal(new Set(created).size, PHONE_PER_HOUR, 'each basket is its own order');
    assert.deepEqual(answers.slice(PHONE_PER_HOUR).map((r) => r.via), ['A', 'B']);
    for (const res of answers.slice(PHONE_PER_HOUR)) {
      await expectError(asResponse(res), 429);
      assertRetryAfter(res, HOUR);
    }
    assert.equal(stored(shop.storeId).orders - before.orders, PHONE_PER_HOUR);
  });

  test('the duplicate window holds across them: the same order sent to B after A answers A’s order with Idempotent-Replayed and stores one', async () => {
    const shop = shops.duplicate;
    const body = orderBody(shop, { telefono: nextPhone() });
    const before = stored(shop.storeId);
    const firstRes = await postOrder(a.base, body, liveHeaders(shop));
    assert.equal(firstRes.headers.get('idempotent-replayed'), null);
    const first = await expectCreated(firstRes);
    const againRes = await postOrder(b.base, { ...body, direccion: 'Carrera 50 # 10-20' }, liveHeaders(shop));
    assert.equal(againRes.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(await expectCreated(againRes), first);
    const after = stored(shop.storeId);
    assert.deepEqual(
      { orders: after.orders - before.orders, created: after.created - before.created, jobs: after.jobs - before.jobs },
      { orders: 1, created: 1, jobs: 1 },
    );
  });

  test('concurrent identical orders split over both processes create one order, answered to every request', async () => {
    const shop = shops.duplicateRace;
    const body = orderBody(shop, { telefono: nextPhone() });
    const before = stored(shop.storeId);
    const bodies = await Promise.all(Array.from({ length: 4 }, async (_, i) => expectCreated(await postOrder(serveOf(i).base, body, liveHeaders(shop)))));
    assert.equal(new Set(bodies.map((x) => x.data.id)).size, 1);
    const after = stored(shop.storeId);
    assert.deepEqual({ orders: after.orders - before.orders, jobs: after.jobs - before.jobs }, { orders: 1, jobs: 1 });
  });

  test('an Idempotency-Key used on A replays the first answer on B, and the same key with a different body is a 400 on B that stores nothing', async () => {
    const shop = shops.idempotency;
    const phone = nextPhone();
    const headers = liveHeaders(shop, { 'idempotency-key': 'two-processes-1' });
    const before = stored(shop.storeId);
    const first = await expectCreated(await postOrder(a.base, orderBody(shop, { telefono: phone }), headers));
    const replayRes = await postOrder(b.base, orderBody(shop, { telefono: phone }), headers);
    assert.equal(replayRes.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(await expectCreated(replayRes), first);
    const afterReplay = stored(shop.storeId);
    await expectError(await postOrder(b.base, orderBody(shop, { telefono: phone, quantity: 2, total_price: 200000 }), headers), 400, { fields: ['Idempotency-Key'] });
    assert.deepEqual(stored(shop.storeId), afterReplay, 'the refused body stored nothing');
    assert.deepEqual(
      { orders: afterReplay.orders - before.orders, jobs: afterReplay.jobs - before.jobs, idempotency: afterReplay.idempotency - before.idempotency },
      { orders: 1, jobs: 1, idempotency: 1 },
    );
  });

  test('concurrent requests under one Idempotency-Key split over both processes create exactly one order and all get its answer', async () => {
    const shop = shops.idempotencyRace;
    const body = orderBody(shop, { telefono: nextPhone() });
    const headers = liveHeaders(shop, { 'idempotency-key': 'two-processes-race' });
    const before = stored(shop.storeId);
    const bodies = await Promise.all(Array.from({ length: 4 }, async (_, i) => expectCreated(await postOrder(serveOf(i).base, body, headers))));
    for (const x of bodies) assert.deepEqual(x, bodies[0]);
    const after = stored(shop.storeId);
    assert.deepEqual(
      { orders: after.orders - before.orders, jobs: after.jobs - before.jobs, idempotency: after.idempotency - before.idempotency },
      { orders: 1, jobs: 1, idempotency: 1 },
    );
  });
});
