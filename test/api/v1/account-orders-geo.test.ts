// The account, order and geo routes of the account API (SPEC 4.3; MCP-TOOLS.md §6.1, §6.7, §6.9)
// with a secret key: get_account, orders priced from the pack and listed with query filters (arrays
// as repeated parameters), and the local geo catalog.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openShop, seedShop, type Shop } from '../../helpers/fixtures.ts';
import type { TestServer } from '../../helpers/server.ts';
import { buyer } from '../../mcp/mcp-kit.ts';
import { OPEN_LIMITS, eventsOf, nextPhone, orderRow } from '../orders/order-kit.ts';
import { UNKNOWN_ID, V1Client, failed, ok, storesNothing, type V1Answer, sameNotFound } from './v1-kit.ts';

describe('account API: account, orders and geo', () => {
  let server: TestServer;
  let shop: Shop;
  let foreign: Shop;
  let v1: V1Client;
  let foreignOrder = '';
  let seq = 0;

  before(async () => {
    ({ server, shop } = await openShop(OPEN_LIMITS));
    foreign = await seedShop(server.deps);
    v1 = await V1Client.open(server, shop.secretKey);
    foreignOrder = ok(
      await v1.as(foreign.secretKey).post('/api/v1/orders', {
        body: { store_id: foreign.storeId, product_id: foreign.productId, buyer: buyer({ telefono: nextPhone() }), idempotency_key: 'foreign-1' },
      }),
      201,
    ).id;
  });
  after(() => server.close());

  const orderBody = (over: Record<string, unknown> = {}, buyerOver: Record<string, unknown> = {}) => ({
    store_id: shop.storeId,
    product_id: shop.productId,
    buyer: buyer({ telefono: nextPhone(), ...buyerOver }),
    idempotency_key: `aog-${++seq}`,
    ...over,
  });

  describe('account', () => {
    test('GET /account answers the account of the key, its scopes, limits and only its own stores', async () => {
      const data = ok(await v1.get('/api/v1/account'));
      assert.deepEqual(data.account, { id: shop.accountId, name: 'Test account' });
      assert.equal(data.credential, 'secret_key');
      assert.deepEqual(data.stores, [{ id: shop.storeId, name: 'Tienda', country: 'CO', currency: 'COP', archived: false }]);
      assert.equal(data.limits.orders_per_ip_per_minute, OPEN_LIMITS.rateIpPerMin);
    });

    test('GET /account with a query parameter it does not define answers 400 naming it', async () => {
      failed(await v1.get('/api/v1/account', { query: { account_id: foreign.accountId } }), 400, ['account_id']);
    });

    test('PUT /account answers 405 with Allow GET, HEAD', async () => {
      const answer = await storesNothing(server.deps, () => v1.put('/api/v1/account', { body: { name: 'x' } }));
      failed(answer, 405);
      assert.equal(answer.headers.get('allow'), 'GET, HEAD');
    });
  });

  describe('orders', () => {
    let orderId = '';
    let reviewId = '';

    test('POST /orders creates a live order priced from the pack and answers 201 with it', async () => {
      const data = ok(await v1.post('/api/v1/orders', { body: orderBody({ pack: '2x', quantity: 2 }) }), 201);
      orderId = data.id;
      assert.deepEqual([data.unit_price, data.total_price, data.status, data.replayed], [180000, 360000, 'pending', false]);
      const row = await orderRow(server.deps, orderId);
      assert.deepEqual([row.store_id, row.product_id, row.pack, row.quantity, row.unit_price_minor, row.total_price_minor, row.sandbox], [shop.storeId, shop.productId, '2x', 2, 18_000_000, 36_000_000, 0]);
      const [event] = await eventsOf(server.deps, orderId);
      assert.match(event!.actor, /^key:/);
    });

    test('POST /orders with a city it is unsure of still creates the order, flagged for review with candidates', async () => {
      const data = ok(await v1.post('/api/v1/orders', { body: orderBody({}, { departamento: 'Colombia', ciudad: 'Armenia' }) }), 201);
      reviewId = data.id;
      assert.equal(data.needs_review, true);
      assert.ok(data.city_candidates.length > 0);
      assert.equal((await orderRow(server.deps, reviewId)).needs_review, 1);
    });

    test('POST /orders with a price field answers 400 naming it and stores nothing (the price comes from the pack)', async () => {
      failed(await storesNothing(server.deps, () => v1.post('/api/v1/orders', { body: orderBody({ total_price: 1 }) })), 400, ['total_price']);
    });

    test('POST /orders without a buyer phone answers 400 naming buyer.telefono and stores nothing', async () => {
      const body = orderBody();
      delete (body.buyer as Record<string, unknown>).telefono;
      failed(await storesNothing(server.deps, () => v1.post('/api/v1/orders', { body })), 400, ['buyer.telefono']);
    });

    test('POST /orders without an idempotency key in the body or the header answers 400 naming idempotency_key and stores nothing', async () => {
      const { idempotency_key: _k, ...body } = orderBody();
      failed(await storesNothing(server.deps, () => v1.post('/api/v1/orders', { body })), 400, ['idempotency_key']);
    });

    test('POST /orders for another account’s store answers the same 404 as an unknown store and stores nothing', async () => {
      await sameNotFound(server.deps, (id) => v1.post('/api/v1/orders', { body: orderBody({ store_id: id, idempotency_key: 'nf-store' }) }), foreign.storeId, 'store_id');
    });

    test('POST /orders for another account’s product answers the same 404 as an unknown product and stores nothing', async () => {
      await sameNotFound(server.deps, (id) => v1.post('/api/v1/orders', { body: orderBody({ product_id: id, idempotency_key: 'nf-product' }) }), foreign.productId, 'product_id');
    });

    test('POST /orders with a text/plain body answers 415 and stores nothing', async () => {
      failed(await storesNothing(server.deps, () => v1.post('/api/v1/orders', { raw: JSON.stringify(orderBody()), headers: { 'content-type': 'text/plain' } })), 415);
    });

    test('GET /orders with a status it does not know answers 400 naming the status item', async () => {
      const answer = await v1.get('/api/v1/orders', { query: { status: ['pending', 'lost'] } });
      failed(answer, 400, ['status.1']);
    });
  });

  // The reads stand on their own: an account of their own with exactly these two orders, made here.
  describe('orders: reading', () => {
    let rshop: Shop;
    let rv1: V1Client;
    let orderId = '';
    let reviewId = '';
    before(async () => {
      rshop = await seedShop(server.deps);
      rv1 = await V1Client.open(server, rshop.secretKey);
      const body = (over: Record<string, unknown>, buyerOver: Record<string, unknown> = {}) => ({ ...orderBody(over, buyerOver), store_id: rshop.storeId, product_id: rshop.productId });
      orderId = ok(await rv1.post('/api/v1/orders', { body: body({ pack: '2x', quantity: 2 }) }), 201).id;
      reviewId = ok(await rv1.post('/api/v1/orders', { body: body({}, { departamento: 'Colombia', ciudad: 'Armenia' }) }), 201).id;
    });

    test('GET /orders/{order_id} answers the stored order with its events', async () => {
      const data = ok(await rv1.get('/api/v1/orders/{order_id}', { params: { order_id: orderId } }));
      assert.equal(data.id, orderId);
      assert.equal(data.total_price, 360000);
      assert.deepEqual(data.events.map((e: { type: string }) => e.type), (await eventsOf(server.deps, orderId)).map((e) => e.type));
    });

    test('GET /orders/{order_id} of an unknown and of another account’s order answer the same 404', async () => {
      await sameNotFound(server.deps, (id) => rv1.get('/api/v1/orders/{order_id}', { params: { order_id: id } }), foreignOrder, 'order_id');
    });

    test('GET /orders takes statuses as repeated or comma-separated query parameters', async () => {
      // No account operation moves an order yet: the platform does (webhook); set one here.
      await server.deps.db.updateTable('orders').set({ status: 'cancelled' }).where('id', '=', reviewId).execute();
      const ids = (data: { items: { id: string }[] }) => data.items.map((o) => o.id).sort();
      assert.deepEqual(ids(ok(await rv1.get('/api/v1/orders', { query: { status: ['pending', 'cancelled'] } }))), [orderId, reviewId].sort());
      assert.deepEqual(ids(ok(await rv1.get('/api/v1/orders', { query: { status: 'pending,cancelled' } }))), [orderId, reviewId].sort());
      assert.deepEqual(ids(ok(await rv1.get('/api/v1/orders', { query: { status: ['cancelled'] } }))), [reviewId]);
      assert.deepEqual(ids(ok(await rv1.get('/api/v1/orders', { query: { status: ['shipped', 'delivered'] } }))), []);
    });

    test('GET /orders filters by store, review flag and a telefono query, and never lists another account’s order', async () => {
      const all = ok(await rv1.get('/api/v1/orders'));
      assert.ok(!all.items.some((o: { id: string }) => o.id === foreignOrder));
      assert.deepEqual(ok(await rv1.get('/api/v1/orders', { query: { needs_review: true } })).items.map((o: { id: string }) => o.id), [reviewId]);
      assert.deepEqual(ok(await rv1.get('/api/v1/orders', { query: { needs_review: false, store_id: rshop.storeId } })).items.map((o: { id: string }) => o.id), [orderId]);
      const phone = (await orderRow(server.deps, orderId)).telefono;
      assert.deepEqual(ok(await rv1.get('/api/v1/orders', { query: { query: phone } })).items.map((o: { id: string }) => o.id), [orderId]);
    });

    test('GET /orders pages with limit and next_cursor', async () => {
      const first = ok(await rv1.get('/api/v1/orders', { query: { limit: 1 } }));
      assert.equal(first.items.length, 1);
      assert.equal(first.has_more, true);
      const second = ok(await rv1.get('/api/v1/orders', { query: { limit: 1, cursor: first.next_cursor } }));
      assert.equal(second.has_more, false);
      assert.equal(second.next_cursor, undefined);
      assert.deepEqual([first.items[0].id, second.items[0].id], ok(await rv1.get('/api/v1/orders')).items.map((o: { id: string }) => o.id));
    });

  });

  describe('geo', () => {
    test('GET /countries lists the supported countries with their currency', async () => {
      const data = ok(await v1.get('/api/v1/countries'));
      const co = data.items.find((c: { country: string }) => c.country === 'CO');
      assert.equal(co.currency, 'COP');
    });

    test('GET /countries/{country}/regions lists the regions of a catalog, any case', async () => {
      const data = ok(await v1.get('/api/v1/countries/{country}/regions', { params: { country: 'co' } }));
      assert.equal(data.country, 'CO');
      assert.ok(data.items.some((r: { name: string; cities: number }) => r.name === 'Antioquia' && r.cities > 100));
    });

    test('GET /countries/{country}/regions of a country it does not support answers 400 naming country', async () => {
      failed(await v1.get('/api/v1/countries/{country}/regions', { params: { country: 'ZZ' } }), 400, ['country']);
    });

    test('GET /cities filters by region and query and pages with a cursor', async () => {
      const found = ok(await v1.get('/api/v1/cities', { query: { country: 'CO', query: 'medellin' } }));
      assert.deepEqual(found.items, [{ region: 'Antioquia', city: 'Medellín' }]);
      const first = ok(await v1.get('/api/v1/cities', { query: { country: 'CO', region: 'antioquia', limit: 5 } }));
      assert.equal(first.items.length, 5);
      assert.equal(first.has_more, true);
      const second = ok(await v1.get('/api/v1/cities', { query: { country: 'CO', region: 'antioquia', limit: 5, cursor: first.next_cursor } }));
      assert.equal(new Set([...first.items, ...second.items].map((c: { city: string }) => c.city)).size, 10);
    });

    test('GET /cities without a country answers 400 naming country', async () => {
      failed(await v1.get('/api/v1/cities'), 400, ['country']);
    });

    test('GET /cities/canonicalize folds accents and aliases to the catalog entry', async () => {
      const data = ok(await v1.get('/api/v1/cities/canonicalize', { query: { country: 'CO', city: 'Bogota', region: 'Bogota' } }));
      assert.equal(data.confident, true);
      assert.equal(data.city, 'Bogotá, D.C.');
    });

    test('GET /phones/normalize answers E.164 for a valid mobile and valid false for a short number', async () => {
      const data = ok(await v1.get('/api/v1/phones/normalize', { query: { country: 'CO', phone: '300 123 4567' } }));
      assert.equal(data.e164, '+573001234567');
      assert.equal(data.valid, true);
      const bad = ok(await v1.get('/api/v1/phones/normalize', { query: { country: 'CO', phone: '1234567' } }));
      assert.equal(bad.valid, false);
    });
  });
});
