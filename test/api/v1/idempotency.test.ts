// `Idempotency-Key` on the account API's creates (SPEC 4.3): a retry with the same key and input
// answers the first result (200, Idempotent-Replayed: true) and creates nothing; the same key with
// other input is refused; a new API key is never replayed (it is shown once); create_order takes the
// header as its idempotency_key.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openShop, seedShop, type Shop } from '../../helpers/fixtures.ts';
import type { TestServer } from '../../helpers/server.ts';
import { buyer } from '../../mcp/mcp-kit.ts';
import { OPEN_LIMITS, nextPhone } from '../orders/order-kit.ts';
import { V1Client, failed, ok, rows, storesNothing } from './v1-kit.ts';

const idem = (key: string) => ({ 'idempotency-key': key });

describe('account API Idempotency-Key', () => {
  let server: TestServer;
  let shop: Shop;
  let foreign: Shop;
  let v1: V1Client;

  before(async () => {
    ({ server, shop } = await openShop(OPEN_LIMITS));
    foreign = await seedShop(server.deps);
    v1 = await V1Client.open(server, shop.secretKey);
  });
  after(() => server.close());

  const countOf = async (table: string, where = '1 = 1', ...params: unknown[]) => (await rows<{ n: number }>(server.deps, `select count(*) as n from ${table} where ${where}`, ...params))[0]!.n;

  describe('creates', () => {
    const store = { name: 'Tienda idempotente', country: 'MX' };
    // The first request with the key, made here so that every test below stands on its own.
    let first: Awaited<ReturnType<V1Client['post']>>;
    before(async () => {
      first = await v1.post('/api/v1/stores', { body: store, headers: idem('store-1') });
    });

    test('POST /stores with a new Idempotency-Key answers 201 without Idempotent-Replayed', () => {
      ok(first, 201);
      assert.equal(first.headers.get('idempotent-replayed'), null);
    });

    test('POST /stores retried with the same key and body answers the first store with 200 and Idempotent-Replayed, and stores one row', async () => {
      const before_ = await countOf('stores', 'name = ?', store.name);
      const again = await v1.post('/api/v1/stores', { body: store, headers: idem('store-1') });
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      const data = ok(again, 200);
      const [row] = await rows(server.deps, 'select id from stores where name = ?', store.name);
      assert.equal(data.id, row?.id);
      assert.equal(await countOf('stores', 'name = ?', store.name), before_);
      assert.equal(before_, 1);
    });

    test('POST /stores retried with the same key and the same input spelled otherwise is still a replay', async () => {
      const again = await v1.post('/api/v1/stores', { body: { country: 'mx', name: ' Tienda idempotente ' }, headers: idem('store-1') });
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.equal(await countOf('stores', 'name = ?', store.name), 1);
    });

    test('POST /stores with the same key and another body answers 400 naming Idempotency-Key and stores nothing', async () => {
      const answer = await storesNothing(server.deps, () => v1.post('/api/v1/stores', { body: { ...store, country: 'PE' }, headers: idem('store-1') }));
      failed(answer, 400, ['Idempotency-Key']);
      assert.equal(answer.headers.get('idempotent-replayed'), null);
    });

    test('the same key on another create operation answers 400 and stores nothing', async () => {
      const answer = await storesNothing(server.deps, () => v1.post('/api/v1/products', { body: { store_id: shop.storeId, name: 'Faja' }, headers: idem('store-1') }));
      failed(answer, 400, ['Idempotency-Key']);
    });

    test('the same key from another account is that account’s own key: it creates its own store', async () => {
      const theirs = ok(await v1.as(foreign.secretKey).post('/api/v1/stores', { body: store, headers: idem('store-1') }), 201);
      const [row] = await rows(server.deps, 'select account_id from stores where id = ?', theirs.id);
      assert.equal(row?.account_id, foreign.accountId);
    });

    test('POST /stores without an Idempotency-Key creates a new store each time', async () => {
      const body = { name: 'Tienda doble', country: 'CL' };
      const a = ok(await v1.post('/api/v1/stores', { body }), 201);
      const b = ok(await v1.post('/api/v1/stores', { body }), 201);
      assert.notEqual(a.id, b.id);
      assert.equal(await countOf('stores', 'name = ?', body.name), 2);
    });

    test('an Idempotency-Key with a space or over 255 characters answers 400 naming it and stores nothing', async () => {
      failed(await storesNothing(server.deps, () => v1.post('/api/v1/stores', { body: store, headers: idem('two words') })), 400, ['Idempotency-Key']);
      failed(await storesNothing(server.deps, () => v1.post('/api/v1/stores', { body: store, headers: idem('k'.repeat(256)) })), 400, ['Idempotency-Key']);
    });

    test('two concurrent POST /stores with one Idempotency-Key create one store, and neither answers 201 twice', async () => {
      const body = { name: 'Tienda concurrente', country: 'PE' };
      const answers = await Promise.all([1, 2, 3].map(() => v1.post('/api/v1/stores', { body, headers: idem('race-1') })));
      assert.equal(await countOf('stores', 'name = ?', body.name), 1);
      assert.equal(answers.filter((a) => a.status === 201).length, 1, answers.map((a) => `${a.status} ${a.text}`).join('\n'));
      for (const a of answers) if (a.status !== 201) assert.ok(a.status === 409 || a.headers.get('idempotent-replayed') === 'true', a.text);
    });

    test('POST /products replays its first answer: same id, one product, one set of packs', async () => {
      const body = { store_id: shop.storeId, name: 'Faja idempotente', status: 'active', packs: [{ quantity: 1, price: 90000 }, { quantity: 2, price: 160000 }] };
      const first = ok(await v1.post('/api/v1/products', { body, headers: idem('product-1') }), 201);
      const again = await v1.post('/api/v1/products', { body, headers: idem('product-1') });
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.equal(ok(again, 200).id, first.id);
      assert.equal(await countOf('products', 'name = ?', body.name), 1);
      assert.equal(await countOf('product_packs', 'product_id = ?', first.id), 2);
    });

    test('a create refused with 409 records no key: its retry with corrected input is judged again and creates', async () => {
      ok(await v1.post('/api/v1/products', { body: { store_id: shop.storeId, name: 'Con SKU', sku: 'IDEM-1' } }), 201);
      const records = await countOf('idempotency_records');
      failed(await v1.post('/api/v1/products', { body: { store_id: shop.storeId, name: 'Otra', sku: 'IDEM-1' }, headers: idem('product-2') }), 409, ['sku']);
      assert.equal(await countOf('idempotency_records'), records, 'the refused request recorded nothing');
      const created = await v1.post('/api/v1/products', { body: { store_id: shop.storeId, name: 'Otra', sku: 'IDEM-2' }, headers: idem('product-2') });
      ok(created, 201);
      assert.equal(created.headers.get('idempotent-replayed'), null);
    });

    test('POST /landing-pages retried with the same key replays its first answer and creates one page', async () => {
      const page = { product_id: shop.productId, slug: 'idem-page' };
      const first = ok(await v1.post('/api/v1/landing-pages', { body: page, headers: idem('landing-1') }), 201);
      const again = await v1.post('/api/v1/landing-pages', { body: page, headers: idem('landing-1') });
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.equal(ok(again, 200).id, first.id);
      assert.equal(await countOf('landing_pages', 'slug = ?', 'idem-page'), 1);
    });

    test('POST /products/{product_id}/duplicate retried with the same key replays its first answer and makes one copy', async () => {
      const copy = ok(await v1.post('/api/v1/products/{product_id}/duplicate', { params: { product_id: shop.productId }, body: {}, headers: idem('dup-1') }), 201);
      const again = await v1.post('/api/v1/products/{product_id}/duplicate', { params: { product_id: shop.productId }, body: {}, headers: idem('dup-1') });
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.equal(ok(again, 200).id, copy.id);
      assert.equal(await countOf('products', 'name = ?', 'Faja (copia)'), 1);
    });
  });

  describe('keys', () => {
    test('POST /keys/publishable retried with the same key answers 409 and creates no second key', async () => {
      const body = { store_id: shop.storeId, label: 'idem-pub' };
      const first = ok(await v1.post('/api/v1/keys/publishable', { body, headers: idem('pub-1') }), 201);
      assert.match(first.key, /^svc_live_pub_/);
      const again = await storesNothing(server.deps, () => v1.post('/api/v1/keys/publishable', { body, headers: idem('pub-1') }));
      failed(again, 409, ['Idempotency-Key']);
      assert.equal(again.headers.get('idempotent-replayed'), null);
      assert.ok(!again.text.includes(first.key), 'the key is never shown again');
      assert.equal(await countOf('api_keys', 'label = ?', 'idem-pub'), 1);
    });

    test('the answer of a key creation is not kept for a replay: its idempotency record holds no key', async () => {
      const created = ok(await v1.post('/api/v1/keys/publishable', { body: { store_id: shop.storeId, label: 'idem-record' }, headers: idem('pub-record') }), 201);
      const [record] = await rows(server.deps, 'select body from idempotency_records where key = ?', 'pub-record');
      assert.equal(record?.body, '{}');
      assert.ok(!JSON.stringify(record).includes(created.key));
    });

    test('POST /keys/secret retried with the same key answers 409 and creates no second key', async () => {
      const body = { store_id: shop.storeId, label: 'idem-secret' };
      ok(await v1.post('/api/v1/keys/secret', { body, headers: idem('secret-1') }), 201);
      failed(await storesNothing(server.deps, () => v1.post('/api/v1/keys/secret', { body, headers: idem('secret-1') })), 409, ['Idempotency-Key']);
      assert.equal(await countOf('api_keys', 'label = ?', 'idem-secret'), 1);
    });
  });

  describe('orders', () => {
    const order = (over: Record<string, unknown> = {}) => ({ store_id: shop.storeId, product_id: shop.productId, buyer: buyer({ telefono: nextPhone() }), ...over });

    test('POST /orders takes the Idempotency-Key header as its idempotency_key and replays the order with 200', async () => {
      const body = order();
      const first = ok(await v1.post('/api/v1/orders', { body, headers: idem('order-1') }), 201);
      assert.equal(first.replayed, false);
      const [record] = await rows(server.deps, 'select scope from idempotency_records where key = ?', 'order-1');
      assert.equal(record?.scope, shop.storeId, 'the header became the order’s idempotency key');
      const again = await v1.post('/api/v1/orders', { body, headers: idem('order-1') });
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      const data = ok(again, 200);
      assert.equal(data.id, first.id);
      assert.equal(data.replayed, true);
      assert.equal(await countOf('orders', 'telefono = ?', (body.buyer as { telefono: string }).telefono), 1);
    });

    test('POST /orders with the header of an order made with that idempotency_key in the body replays it', async () => {
      const body = order();
      const first = ok(await v1.post('/api/v1/orders', { body: { ...body, idempotency_key: 'order-2' } }), 201);
      const again = ok(await v1.post('/api/v1/orders', { body, headers: idem('order-2') }), 200);
      assert.equal(again.id, first.id);
    });

    test('POST /orders with the header of another order and another buyer answers 400 naming idempotency_key, like every create, and stores nothing', async () => {
      ok(await v1.post('/api/v1/orders', { body: order(), headers: idem('order-other') }), 201);
      const answer = await storesNothing(server.deps, () => v1.post('/api/v1/orders', { body: order(), headers: idem('order-other') }));
      failed(answer, 400, ['idempotency_key']);
    });

    test('POST /orders with an idempotency_key in the body uses it rather than the header', async () => {
      const body = order({ idempotency_key: 'order-body' });
      ok(await v1.post('/api/v1/orders', { body, headers: idem('order-header') }), 201);
      assert.equal(await countOf('idempotency_records', 'key = ?', 'order-body'), 1);
      assert.equal(await countOf('idempotency_records', 'key = ?', 'order-header'), 0);
    });
  });
});
