// Orders named the way people say them (issue 24 §7): wherever an order id is taken, its order
// number is taken too — 1001, or TD-1001 with the store's prefix — resolved inside the caller's
// account. A number two of the account's stores have is refused, saying how to name the one meant;
// another account's orders with the same number are never seen. REST and the CLI here, the MCP tool
// derives from the same declaration.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { addProduct, addStore, openShop, orderBody, postOrder, seedShop, type Shop } from '../../helpers/fixtures.ts';
import type { TestServer } from '../../helpers/server.ts';
import { cliJson } from '../../helpers/cli-expect.ts';
import { OPEN_LIMITS, nextPhone } from '../orders/order-kit.ts';
import { V1Client, failed, ok, storesNothing } from './v1-kit.ts';

const ORDER = '/api/v1/orders/{order_id}';
const STATUS = '/api/v1/orders/{order_id}/status';

describe('order numbers where order ids are taken', () => {
  let server: TestServer;
  let shop: Shop;
  let v1: V1Client;
  /** This account's first store: orders 1001, 1002; prefix TD-. */
  const first: string[] = [];
  /** Its second store (no prefix at first): order 1001. */
  let secondStore = '';
  let secondOrder = '';
  /** Another account's order 1003. */
  let foreignOrder = '';

  const create = async (s: { storeId: string; productId: string }, key: string) => {
    const res = await postOrder(server.url, orderBody(s, { telefono: nextPhone() }), { authorization: `Bearer ${key}` });
    assert.equal(res.status, 200, await res.clone().text());
    return ((await res.json()) as { data: { id: string; order_number: number } }).data;
  };

  before(async () => {
    ({ server, shop } = await openShop(OPEN_LIMITS));
    v1 = await V1Client.open(server, shop.secretKey);
    first.push((await create(shop, shop.secretKey)).id, (await create(shop, shop.secretKey)).id);
    const store = await addStore(server.deps, shop.accountId, { name: 'Segunda tienda', country: 'CO', domains: ['dos.example.com'] });
    const product = await addProduct(server.deps, { store_id: store.id, name: 'Crema', packs: [{ quantity: 1, price: 50000 }] });
    secondStore = store.id;
    const second = await create({ storeId: store.id, productId: product.id }, shop.secretKey);
    assert.equal(second.order_number, 1001);
    secondOrder = second.id;
    const foreign = await seedShop(server.deps);
    for (let i = 0; i < 3; i++) foreignOrder = (await create(foreign, foreign.secretKey)).id;
    ok(await v1.patch('/api/v1/stores/{store_id}', { params: { store_id: shop.storeId }, body: { order_prefix: 'TD-' } }));
  });
  after(() => server.close());

  test('get_order takes the number of an order only one store of the account has, with or without its prefix', async () => {
    assert.equal(ok(await v1.get(ORDER, { params: { order_id: '1002' } })).id, first[1]);
    assert.equal(ok(await v1.get(ORDER, { params: { order_id: 'TD-1002' } })).id, first[1]);
    assert.equal(ok(await v1.get(ORDER, { params: { order_id: 'td-1002' } })).id, first[1], 'the prefix in any case');
  });

  test('a number two stores of the account have is refused, naming the way out; the prefix chooses', async () => {
    const refused = failed(await v1.get(ORDER, { params: { order_id: '1001' } }), 400, ['order_id']);
    assert.match(refused.details![0]!.message, /1001 is an order number of 2 stores: give the order id/);
    assert.equal(ok(await v1.get(ORDER, { params: { order_id: 'TD-1001' } })).id, first[0]);
    // Once both stores have prefixes, the refusal lists the numbers that would work.
    ok(await v1.patch('/api/v1/stores/{store_id}', { params: { store_id: secondStore }, body: { order_prefix: 'CR-' } }));
    try {
      const named = failed(await v1.get(ORDER, { params: { order_id: '1001' } }), 400, ['order_id']);
      assert.match(named.details![0]!.message, /or the number with its store's prefix \((TD-1001, CR-1001|CR-1001, TD-1001)\)/);
      assert.equal(ok(await v1.get(ORDER, { params: { order_id: 'CR-1001' } })).id, secondOrder);
    } finally {
      ok(await v1.patch('/api/v1/stores/{store_id}', { params: { store_id: secondStore }, body: { order_prefix: '' } }));
    }
  });

  test('another account’s order number is not found, exactly like a number nobody has', async () => {
    const foreign = failed(await v1.get(ORDER, { params: { order_id: '1003' } }), 404, ['order_id']);
    const none = failed(await v1.get(ORDER, { params: { order_id: '9999' } }), 404, ['order_id']);
    assert.deepEqual(foreign, none);
    assert.ok(foreignOrder);
  });

  test('text that is neither an id nor a number is a 400 on order_id, and a wrong prefix is not found', async () => {
    const bad = failed(await v1.get(ORDER, { params: { order_id: 'pedido uno' } }), 400, ['order_id']);
    assert.match(bad.details![0]!.message, /order id \(UUID\) or an order number such as 1001 or TD-1001/);
    failed(await v1.get(ORDER, { params: { order_id: 'XX-1002' } }), 404, ['order_id']);
  });

  test('update_order_status by number moves that order and no other', async () => {
    const moved = ok(await v1.post(STATUS, { params: { order_id: 'TD-1002' }, body: { status: 'confirmed' } }));
    assert.equal(moved.id, first[1]);
    assert.equal(ok(await v1.get(ORDER, { params: { order_id: first[1]! } })).status, 'confirmed');
    assert.equal(ok(await v1.get(ORDER, { params: { order_id: first[0]! } })).status, 'pending');
    await storesNothing(server.deps, async () => failed(await v1.post(STATUS, { params: { order_id: '1001' }, body: { status: 'confirmed' } }), 400, ['order_id']));
  });

  test('codrail orders set-status takes the order number a call centre says (with --account)', async () => {
    const { json } = await cliJson(server.dbFile, ['orders', 'set-status', 'TD-1001', '--status', 'confirmed', '--account', shop.accountId]);
    assert.equal(json.status, 'confirmed');
    assert.equal(ok(await v1.get(ORDER, { params: { order_id: first[0]! } })).status, 'confirmed');
  });
});
