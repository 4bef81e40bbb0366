// POST /api/orders/create, SPEC 4.1 steps 8 (anti-fraud price floor) and 9 (anti-bot).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { addProduct, openShop, orderBody, postOrder, seedShop, type Shop } from '../../helpers/fixtures.ts';
import { insertBlock } from '../../../src/db/queries/stores.queries.ts';
import { OPEN_LIMITS, expectCreated, expectError, liveHeaders, nextPhone, orderRow, rejectionsOf, storesNothing } from './order-kit.ts';

let server: TestServer;
let shop: Shop;

// Packs: 1x 100000 (floor 70000 at 30 %), 2x 180000 (floor 126000), 3x 240000 with min_price 200000.
before(async () => ({ server, shop } = await openShop(OPEN_LIMITS)));
after(() => server.close());

const post = (s: Shop, over: Record<string, unknown>) => postOrder(server.url, orderBody(s, { telefono: nextPhone(), ...over }), liveHeaders(s));

const priceRefused = async (s: Shop, over: Record<string, unknown>) =>
  storesNothing(server.deps, async () => {
    const body = await expectError(await post(s, over), 400, { fields: ['total_price'] });
    assert.doesNotMatch(JSON.stringify(body), /below_floor|below_unit_total|\d{5}/, 'the floor itself is not revealed');
  });

describe('step 8: pricing', () => {
  test('an unknown pack is a 400 naming pack and stores nothing', async () => {
    await storesNothing(server.deps, async () => {
      await expectError(await post(shop, { pack: '5x' }), 400, { fields: ['pack'] });
    });
  });

  test('an empty pack is a 400 naming pack', async () => {
    await expectError(await post(shop, { pack: '' }), 400, { fields: ['pack'] });
  });

  test('a 1x total one unit below the default floor (70000) is a 400 on total_price', async () => {
    await priceRefused(shop, { unit_price: 69999, total_price: 69999 });
  });

  test('a 1x total exactly at the default floor (70000) is created', async () => {
    const created = await expectCreated(await post(shop, { unit_price: 70000, total_price: 70000 }));
    assert.equal(created.data.total_price, 70000);
    assert.equal((await orderRow(server.deps, created.data.id)).total_price_minor, 7_000_000);
  });

  test('a 1x total one cent below the floor is a 400', async () => {
    await priceRefused(shop, { unit_price: 69999.99, total_price: 69999.99 });
  });

  test('a 2x total below its floor (126000) is a 400 and at the floor is created', async () => {
    await priceRefused(shop, { pack: '2x', unit_price: 125999, total_price: 125999 });
    await expectCreated(await post(shop, { pack: '2x', unit_price: 126000, total_price: 126000 }));
  });

  test('the floor is multiplied by quantity: 2 × 1x below 140000 is a 400 and 140000 is created', async () => {
    await priceRefused(shop, { quantity: 2, unit_price: 69999.5, total_price: 139999 });
    await expectCreated(await post(shop, { quantity: 2, unit_price: 70000, total_price: 140000 }));
  });

  test("a pack's min_price is its floor: 3x below 200000 is a 400 although above 70 % of its price", async () => {
    await priceRefused(shop, { pack: '3x', unit_price: 199999, total_price: 199999 });
    const created = await expectCreated(await post(shop, { pack: '3x', unit_price: 200000, total_price: 200000 }));
    const row = await orderRow(server.deps, created.data.id);
    assert.equal(row.pack, '3x');
    assert.equal(row.pack_units, 3);
  });

  test('the default floor is rounded up to a whole unit: a 99.99 pack has floor ceil(69.993) = 70', async () => {
    const product = await addProduct(server.deps, { store_id: shop.storeId, name: 'Jabón', packs: [{ quantity: 1, price: 99.99 }] });
    await priceRefused(shop, { product_id: product.id, unit_price: 69.99, total_price: 69.99 });
    await expectCreated(await post(shop, { product_id: product.id, unit_price: 70, total_price: 70 }));
  });

  test('a total more than 0.01 below unit_price × quantity is a 400 even above the floor', async () => {
    await priceRefused(shop, { quantity: 2, unit_price: 100000, total_price: 199999.98 });
  });

  test('a total exactly 0.01 below unit_price × quantity is created', async () => {
    const created = await expectCreated(await post(shop, { quantity: 2, unit_price: 100000, total_price: 199999.99 }));
    assert.equal(created.data.total_price, 199999.99);
  });

  test("the store's max_discount changes the floor: at 10 % a 1x total of 89999 is a 400 and 90000 is created", async () => {
    const strict = await seedShop(server.deps, { maxDiscount: 10 });
    await priceRefused(strict, { unit_price: 89999, total_price: 89999 });
    await expectCreated(await post(strict, { unit_price: 90000, total_price: 90000 }));
  });

  test('with max_discount 0 the floor is the full price', async () => {
    const full = await seedShop(server.deps, { maxDiscount: 0 });
    await priceRefused(full, { unit_price: 99999, total_price: 99999 });
    await expectCreated(await post(full, { unit_price: 100000, total_price: 100000 }));
  });

  test('with max_discount 50 a 1x total of 50000 is created', async () => {
    const generous = await seedShop(server.deps, { maxDiscount: 50 });
    await priceRefused(generous, { unit_price: 49999, total_price: 49999 });
    await expectCreated(await post(generous, { unit_price: 50000, total_price: 50000 }));
  });
});

describe('step 9: anti-bot', () => {
  /** Sends a rejected order and returns the reason recorded for it. */
  async function rejected(s: Shop, over: Record<string, unknown>): Promise<string> {
    const before = await rejectionsOf(server.deps, s.storeId);
    const res = await post(s, over);
    const text = await res.clone().text();
    const body = await expectError(res, 400, { error: 'Order rejected', fields: [] });
    assert.deepEqual(body, { success: false, error: 'Order rejected' });
    const after = await rejectionsOf(server.deps, s.storeId);
    assert.equal(after.length, before.length + 1, 'one order.rejected event per rejection');
    const event = after[after.length - 1]!;
    assert.equal(event.order_id, null);
    assert.equal(event.type, 'order.rejected');
    const reason = (JSON.parse(event.data) as { reason: string }).reason;
    assert.ok(reason, 'the event records a reason');
    assert.ok(!text.includes(reason), 'the reason never reaches the client');
    const requestId = res.headers.get('x-request-id');
    assert.ok(
      server.logs.some((l) => l.reason === reason && l.reqId === requestId),
      'the log has the reason under the request id',
    );
    return reason;
  }

  const ordersCount = async () => (await server.deps.db.selectFrom('orders').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n;

  test('a non-empty honeypot website is a 400 "Order rejected" with no order and a honeypot event', async () => {
    const orders = await ordersCount();
    assert.equal(await rejected(shop, { website: 'http://spam.example' }), 'honeypot');
    assert.equal(await ordersCount(), orders);
  });

  test('a honeypot holding a non-string value is rejected', async () => {
    assert.equal(await rejected(shop, { website: 1 }), 'honeypot');
  });

  test('an empty or blank honeypot is accepted', async () => {
    await expectCreated(await post(shop, { website: '' }));
    await expectCreated(await post(shop, { website: '   ' }));
    await expectCreated(await post(shop, { website: null }));
  });

  test("a phone on the store's block list is rejected, whatever its formatting", async () => {
    const s = await seedShop(server.deps);
    await insertBlock(server.deps.db, { store_id: s.storeId, kind: 'phone', value: '+573009998877', reason: 'fraud', created_at: new Date().toISOString() });
    assert.equal(await rejected(s, { telefono: '300 999 8877' }), 'blocked_phone');
    assert.equal(await rejected(s, { telefono: '+57 300-999-8877' }), 'blocked_phone');
    assert.equal((await server.deps.db.selectFrom('orders').selectAll().where('store_id', '=', s.storeId).execute()).length, 0);
    // The block is per store: the same buyer can still order from another shop.
    await expectCreated(await post(shop, { telefono: '300 999 8877' }));
  });

  test("an IP on the store's block list is rejected", async () => {
    const s = await seedShop(server.deps);
    await insertBlock(server.deps.db, { store_id: s.storeId, kind: 'ip', value: '127.0.0.1', reason: null, created_at: new Date().toISOString() });
    const orders = await ordersCount();
    assert.equal(await rejected(s, {}), 'blocked_ip');
    assert.equal(await ordersCount(), orders);
  });

  for (const [field, value, reason] of [
    ['nombre', 'aaaa', 'name_not_words'],
    ['nombre', 'A a A a', 'name_not_words'],
    ['nombre', '1234', 'name_not_words'],
    ['nombre', '-- ..', 'name_not_words'],
    ['direccion', '.....', 'address_not_words'],
    ['direccion', '12345 678', 'address_not_words'],
    ['direccion', 'xxxxxxx', 'address_not_words'],
  ] as const) {
    test(`${field} "${value}" is rejected as not words`, async () => {
      const orders = await ordersCount();
      assert.equal(await rejected(shop, { [field]: value }), reason);
      assert.equal(await ordersCount(), orders);
    });
  }

  test('a short real name and a numbered address are accepted', async () => {
    await expectCreated(await post(shop, { nombre: 'Li', direccion: 'Cra 7 # 45-10' }));
  });

  test('anti-bot runs after pricing: a honeypot order below the floor gets the price error', async () => {
    await expectError(await post(shop, { website: 'x', unit_price: 1000, total_price: 1000 }), 400, { fields: ['total_price'] });
  });
});

describe('step 8: the product floor and the currency', () => {
  test("a product's minimum unit price refuses a total under it × units × quantity although the pack floor allows it", async () => {
    const product = await addProduct(server.deps, { store_id: shop.storeId, name: 'Crema', price_floor: 60000, packs: [{ quantity: 2, price: 150000 }] });
    // The pack floor at 30 % is 105000; the product floor makes 2 × 60000 = 120000.
    await priceRefused(shop, { product_id: product.id, pack: '2x', unit_price: 119999, total_price: 119999 });
    const created = await expectCreated(await post(shop, { product_id: product.id, pack: '2x', unit_price: 120000, total_price: 120000 }));
    assert.equal((await orderRow(server.deps, created.data.id)).total_price_minor, 12_000_000);
  });

  test('a CLP store refuses prices with decimals (ISO 4217 gives CLP none) and stores nothing', async () => {
    const cl = await seedShop(server.deps, { country: 'CL', currency: 'CLP' });
    await storesNothing(server.deps, async () => {
      await expectError(await post(cl, { telefono: '+56 9 6123 4567', unit_price: 100000.5, total_price: 100000.5 }), 400, { fields: ['unit_price'] });
    });
  });
});

describe('whole currencies configured', () => {
  let whole: TestServer;
  let co: Shop;
  before(async () => {
    whole = await startServer({ ...OPEN_LIMITS, wholeCurrencies: 'COP' });
    co = await seedShop(whole.deps);
  });
  after(() => whole.close());

  test('with COP made whole, an order with centavos is a 400 on unit_price and a whole one is created', async () => {
    const send = (over: Record<string, unknown>) => postOrder(whole.url, orderBody(co, { telefono: nextPhone(), ...over }), liveHeaders(co));
    await storesNothing(whole.deps, async () => {
      await expectError(await send({ unit_price: 100000.5, total_price: 100000.5 }), 400, { fields: ['unit_price'] });
    });
    await expectCreated(await send({}));
  });
});
