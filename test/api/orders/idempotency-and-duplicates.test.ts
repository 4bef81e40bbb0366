// POST /api/orders/create, SPEC 4.1 step 10: duplicate suppression (10 minutes) and Idempotency-Key.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestServer } from '../../helpers/server.ts';
import { addProduct, openShop, orderBody, postOrder, seedShop, type Shop } from '../../helpers/fixtures.ts';
import { PHONE_HISTORY_LIMIT } from '../../../src/limits.ts';
import { manualClock } from '../../../src/clock.ts';
import { OPEN_LIMITS, SHOP_ORIGIN, counts, eventsOf, expectCreated, expectError, jobsOf, liveHeaders, nextPhone, ordersOf, storesNothing } from './order-kit.ts';

const clock = manualClock(Date.UTC(2030, 5, 1, 12, 0, 0));
let server: TestServer;
let shop: Shop;

before(async () => ({ server, shop } = await openShop(OPEN_LIMITS, { clock })));
after(() => server.close());

const post = (body: unknown, headers: Record<string, string> = {}) => postOrder(server.url, body, liveHeaders(shop, headers));
/** The seeded product's packs: code, units, price. */
const PACKS = [
  ['1x', 1, 100000],
  ['2x', 2, 180000],
  ['3x', 3, 240000],
] as const;

describe('duplicate suppression', () => {
  test('the same store, product, phone, pack and quantity within 10 minutes returns the first order and stores nothing new', async () => {
    const body = orderBody(shop, { telefono: nextPhone() });
    const first = await expectCreated(await post(body));
    clock.advance(9 * 60_000 + 59_000);
    const again = await storesNothing(server.deps, async () => expectCreated(await post(body)));
    assert.deepEqual(again, first);
    const orders = (await ordersOf(server.deps, shop.storeId)).filter((o) => o.id === first.data.id);
    assert.equal(orders.length, 1);
    assert.equal((await eventsOf(server.deps, first.data.id)).length, 1);
    assert.equal((await jobsOf(server.deps, first.data.id)).length, 1);
  });

  test('the duplicate is matched on the normalized phone, not its formatting, and other fields may differ', async () => {
    const phone = nextPhone();
    const first = await expectCreated(await post(orderBody(shop, { telefono: phone })));
    const reformatted = `+57 ${phone.slice(0, 3)} ${phone.slice(3, 6)} ${phone.slice(6)}`;
    const again = await storesNothing(server.deps, async () =>
      expectCreated(await post(orderBody(shop, { telefono: reformatted, direccion: 'Carrera 50 # 10-20', nombre: 'Ana G.' }))),
    );
    assert.equal(again.data.id, first.data.id);
  });

  test('after 10 minutes the same order is created again with the next number', async () => {
    const body = orderBody(shop, { telefono: nextPhone() });
    const first = await expectCreated(await post(body));
    clock.advance(10 * 60_000 + 1);
    const second = await expectCreated(await post(body));
    assert.notEqual(second.data.id, first.data.id);
    assert.equal(second.data.order_number, first.data.order_number + 1);
  });

  for (const [label, change] of [
    ['another pack', { pack: '2x', unit_price: 180000, total_price: 180000 }],
    ['another quantity', { quantity: 2, total_price: 200000 }],
  ] as const) {
    test(`the same phone with ${label} within 10 minutes is a new order`, async () => {
      const phone = nextPhone();
      const first = await expectCreated(await post(orderBody(shop, { telefono: phone })));
      const second = await expectCreated(await post(orderBody(shop, { telefono: phone, ...change })));
      assert.notEqual(second.data.id, first.data.id);
    });
  }

  test('the same phone and basket in another store is a new order', async () => {
    const phone = nextPhone();
    const other = await seedShop(server.deps);
    const first = await expectCreated(await post(orderBody(shop, { telefono: phone })));
    const second = await expectCreated(await postOrder(server.url, orderBody(other, { telefono: phone }), liveHeaders(other)));
    assert.notEqual(second.data.id, first.data.id);
    assert.equal(second.data.order_number, 1001);
  });

  test('a sandbox order does not swallow the live order of the same buyer', async () => {
    const body = orderBody(shop, { telefono: nextPhone() });
    const sandbox = await expectCreated(await postOrder(server.url, body, { 'x-svc-api-key': shop.testKey, origin: 'http://localhost:5173' }));
    assert.equal(sandbox.data.sandbox, true);
    const live = await expectCreated(await post(body));
    assert.equal(live.data.sandbox, false);
    assert.notEqual(live.data.id, sandbox.data.id);
    assert.deepEqual((await jobsOf(server.deps, live.data.id)).map((j) => j.state), ['queued']);
  });

  test('a phone with more orders inside the window than the history holds still gets its first order back', async () => {
    // The duplicate check reads the phone's latest PHONE_HISTORY_LIMIT orders (the return risk's read); past that it asks the database.
    const phone = nextPhone();
    const first = await expectCreated(await post(orderBody(shop, { telefono: phone })));
    const products = [shop.productId];
    for (let i = 0; i < 3; i++) products.push((await addProduct(server.deps, { store_id: shop.storeId, name: `Faja ${i}`, packs: PACKS.map(([, quantity, price]) => ({ quantity, price })) })).id);
    const baskets = products.flatMap((productId) => PACKS.flatMap(([pack, , price]) => Array.from({ length: 10 }, (_, i) => ({ productId, pack, quantity: i + 1, price }))));
    const others = baskets.filter((b) => !(b.productId === shop.productId && b.pack === '1x' && b.quantity === 1)).slice(0, PHONE_HISTORY_LIMIT);
    assert.equal(others.length, PHONE_HISTORY_LIMIT);
    for (const b of others) {
      clock.advance(1_000);
      await expectCreated(await post(orderBody({ ...shop, productId: b.productId }, { telefono: phone, pack: b.pack, quantity: b.quantity, unit_price: b.price, total_price: b.price * b.quantity })));
    }
    clock.advance(1_000);
    const again = await storesNothing(server.deps, async () => expectCreated(await post(orderBody(shop, { telefono: phone }))));
    assert.equal(again.data.id, first.data.id);
  });

  test('concurrent identical orders without an Idempotency-Key create one order', async () => {
    const body = orderBody(shop, { telefono: nextPhone() });
    const before = await counts(server.deps);
    const answers = await Promise.all(Array.from({ length: 6 }, () => post(body)));
    const bodies = await Promise.all(answers.map(expectCreated));
    assert.equal(new Set(bodies.map((b) => b.data.id)).size, 1);
    const after = await counts(server.deps);
    assert.equal(after.orders, before.orders + 1);
    assert.equal(after.fulfillment_jobs, before.fulfillment_jobs + 1);
  });
});

describe('Idempotency-Key', () => {
  test('a retry with the same key and body returns the first answer and stores nothing new', async () => {
    const body = orderBody(shop, { telefono: nextPhone() });
    const before = await counts(server.deps);
    const firstRes = await post(body, { 'idempotency-key': 'retry-1' });
    const first = await expectCreated(firstRes);
    const afterFirst = await counts(server.deps);
    assert.equal(afterFirst.orders, before.orders + 1);
    assert.equal(afterFirst.idempotency_records, before.idempotency_records + 1);
    const again = await storesNothing(server.deps, async () => expectCreated(await post(body, { 'idempotency-key': 'retry-1' })));
    assert.deepEqual(again, first);
  });

  test('a retry after the 10-minute duplicate window still returns the first answer', async () => {
    const body = orderBody(shop, { telefono: nextPhone() });
    const first = await expectCreated(await post(body, { 'idempotency-key': 'late-retry' }));
    clock.advance(60 * 60_000);
    const again = await storesNothing(server.deps, async () => expectCreated(await post(body, { 'idempotency-key': 'late-retry' })));
    assert.deepEqual(again, first);
  });

  test('a retry with the same fields in another order is the same body', async () => {
    const body = orderBody(shop, { telefono: nextPhone() });
    const first = await expectCreated(await post(body, { 'idempotency-key': 'reordered' }));
    const reversed = Object.fromEntries(Object.entries(body).reverse());
    assert.deepEqual(await expectCreated(await post(reversed, { 'idempotency-key': 'reordered' })), first);
  });

  test('the same key with a different body is a 400 naming Idempotency-Key, and stores nothing', async () => {
    const phone = nextPhone();
    await expectCreated(await post(orderBody(shop, { telefono: phone }), { 'idempotency-key': 'changed-body' }));
    await storesNothing(server.deps, async () => {
      const res = await post(orderBody(shop, { telefono: phone, quantity: 2, total_price: 200000 }), { 'idempotency-key': 'changed-body' });
      const body = await expectError(res, 400, { fields: ['Idempotency-Key'], error: /Idempotency-Key/ });
      assert.match(body.details![0]!.message, /different request body/);
    });
    assert.equal((await ordersOf(server.deps, shop.storeId)).filter((o) => o.telefono === phone).length, 1);
  });

  test('another key with the same body within 10 minutes gets the first order through duplicate suppression', async () => {
    const body = orderBody(shop, { telefono: nextPhone() });
    const first = await expectCreated(await post(body, { 'idempotency-key': 'k-a' }));
    const before = await counts(server.deps);
    const second = await expectCreated(await post(body, { 'idempotency-key': 'k-b' }));
    assert.deepEqual(second, first);
    const after = await counts(server.deps);
    assert.equal(after.orders, before.orders);
    assert.equal(after.order_events, before.order_events);
    assert.equal(after.fulfillment_jobs, before.fulfillment_jobs);
    // The second key now remembers that answer too.
    assert.equal(after.idempotency_records, before.idempotency_records + 1);
  });

  test('a key is scoped to its store: the same key in another store creates that store’s order', async () => {
    const other = await seedShop(server.deps);
    const phone = nextPhone();
    const a = await expectCreated(await post(orderBody(shop, { telefono: phone }), { 'idempotency-key': 'shared-key' }));
    const b = await expectCreated(await postOrder(server.url, orderBody(other, { telefono: phone }), liveHeaders(other, { 'idempotency-key': 'shared-key' })));
    assert.notEqual(a.data.id, b.data.id);
  });

  test('concurrent identical requests with the same key create exactly one order', async () => {
    const body = orderBody(shop, { telefono: nextPhone() });
    const before = await counts(server.deps);
    const answers = await Promise.all(Array.from({ length: 8 }, () => post(body, { 'idempotency-key': 'concurrent-1' })));
    const bodies = await Promise.all(answers.map(expectCreated));
    for (const b of bodies) assert.deepEqual(b, bodies[0]);
    const after = await counts(server.deps);
    assert.equal(after.orders, before.orders + 1);
    assert.equal(after.order_events, before.order_events + 1);
    assert.equal(after.fulfillment_jobs, before.fulfillment_jobs + 1);
    assert.equal(after.idempotency_records, before.idempotency_records + 1);
  });

  test('a refused first attempt does not pin the key: the corrected retry creates the order', async () => {
    const phone = nextPhone();
    await storesNothing(server.deps, async () => {
      await expectError(await post(orderBody(shop, { telefono: phone, nombre: 'A' }), { 'idempotency-key': 'fix-and-retry' }), 400, { fields: ['nombre'] });
    });
    const created = await expectCreated(await post(orderBody(shop, { telefono: phone }), { 'idempotency-key': 'fix-and-retry' }));
    assert.equal(created.data.status, 'pending');
  });

  test('an Idempotency-Key longer than 255 characters is a 400 and stores nothing', async () => {
    await storesNothing(server.deps, async () => {
      await expectError(await post(orderBody(shop, { telefono: nextPhone() }), { 'idempotency-key': 'k'.repeat(256) }), 400);
    });
  });

  test('a key sent with a Bearer credential and one sent with x-svc-api-key share the record', async () => {
    const body = orderBody(shop, { telefono: nextPhone() });
    const first = await expectCreated(await post(body, { 'idempotency-key': 'transport' }));
    const again = await expectCreated(
      await postOrder(server.url, body, { authorization: `Bearer ${shop.liveKey}`, origin: SHOP_ORIGIN, 'idempotency-key': 'transport' }),
    );
    assert.deepEqual(again, first);
  });
});
