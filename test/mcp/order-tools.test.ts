// create_order, list_orders and get_order through the real SDK client (MCP-TOOLS.md §6.7 rows 35-37):
// what the assistant sees and what is stored.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { seedShop, type Shop } from '../helpers/fixtures.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { OPEN_LIMITS, counts, eventsOf, jobsOf, nextPhone, orderRow, storesNothing } from '../api/orders/order-kit.ts';
import { buyer, call, connect } from './mcp-kit.ts';

describe('order tools', () => {
  let server: TestServer;
  let shop: Shop;
  let other: Shop;
  let client: Client;
  let keySeq = 0;
  before(async () => {
    server = await startServer(OPEN_LIMITS);
    shop = await seedShop(server.deps);
    other = await seedShop(server.deps);
    client = await connect(server.url, shop.secretKey);
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  const create = (over: Record<string, unknown> = {}, buyerOver: Record<string, unknown> = {}) =>
    call(client, 'create_order', {
      store_id: shop.storeId,
      product_id: shop.productId,
      buyer: buyer({ telefono: nextPhone(), ...buyerOver }),
      idempotency_key: `key-${++keySeq}`,
      ...over,
    });

  describe('create_order', () => {
    test('stores a live order priced from the pack, with its event and its queued outbox job', async () => {
      const { isError, value } = await create({ pack: '2x', quantity: 3 });
      assert.equal(isError, false);
      assert.equal(value.unit_price, 180000);
      assert.equal(value.total_price, 540000);
      assert.equal(value.currency, 'COP');
      assert.equal(value.status, 'pending');
      assert.equal(value.needs_review, false);
      assert.equal(value.replayed, false);
      assert.deepEqual(value.city_candidates, []);
      const row = await orderRow(server.deps, value.id);
      assert.equal(row.total_price_minor, 54_000_000);
      assert.equal(row.unit_price_minor, 18_000_000);
      assert.equal(row.sandbox, 0);
      assert.equal(row.city_match, 'exact');
      const [event] = await eventsOf(server.deps, row.id);
      assert.equal(event!.type, 'order.created');
      assert.match(event!.actor, /^key:/);
      assert.deepEqual((await jobsOf(server.deps, row.id)).map((j) => j.state), ['queued']);
      assert.equal(value.fulfillment.state, 'queued');
    });

    test('defaults to one 1x pack', async () => {
      const { value } = await create();
      assert.equal(value.pack, '1x');
      assert.equal(value.quantity, 1);
      assert.equal(value.total_price, 100000);
    });

    test('a retry with the same idempotency_key and input returns the same order and stores nothing more', async () => {
      const args = { store_id: shop.storeId, product_id: shop.productId, buyer: buyer({ telefono: nextPhone() }), idempotency_key: 'retry-1' };
      const first = await call(client, 'create_order', args);
      const again = await storesNothing(server.deps, () => call(client, 'create_order', args));
      assert.equal(again.isError, false);
      assert.equal(again.value.id, first.value.id);
      assert.equal(again.value.replayed, true);
    });

    test('the same idempotency_key with a different order is a conflict on idempotency_key', async () => {
      const args = { store_id: shop.storeId, product_id: shop.productId, buyer: buyer({ telefono: nextPhone() }), idempotency_key: 'retry-2' };
      await call(client, 'create_order', args);
      const { isError, value } = await storesNothing(server.deps, () => call(client, 'create_order', { ...args, quantity: 2 }));
      assert.equal(isError, true);
      assert.equal(value.error.code, 'conflict');
      assert.equal(value.error.field, 'idempotency_key');
      assert.equal(value.error.retryable, false);
    });

    test('an unconfident city still creates the order, flagged for review with the candidates and a held job', async () => {
      const { isError, value } = await create({}, { departamento: 'Colombia', ciudad: 'Armenia' });
      assert.equal(isError, false);
      assert.equal(value.needs_review, true);
      assert.deepEqual(value.city_candidates.map((c: { city: string; region: string }) => `${c.city} / ${c.region}`).sort(), ['Armenia / Antioquia', 'Armenia / Quindío']);
      assert.deepEqual((await jobsOf(server.deps, value.id)).map((j) => j.state), ['held']);
    });

    test('a bad buyer field is invalid_input naming the field inside buyer', async () => {
      const { isError, value } = await storesNothing(server.deps, () => create({}, { nombre: 'A' }));
      assert.equal(isError, true);
      assert.equal(value.error.code, 'invalid_input');
      assert.equal(value.error.field, 'buyer.nombre');
      assert.equal(value.error.retryable, false);
    });

    test('a phone that is not valid for the store country is invalid_input on buyer.telefono', async () => {
      const { value } = await storesNothing(server.deps, () => create({}, { telefono: '123456' }));
      assert.equal(value.error.code, 'invalid_input');
      assert.equal(value.error.field, 'buyer.telefono');
    });

    test('a price field, a missing idempotency_key and an unknown pack are each invalid_input', async () => {
      const priced = await create({ total_price: 1 });
      assert.equal(priced.value.error.code, 'invalid_input');
      const { idempotency_key: _k, ...noKey } = { store_id: shop.storeId, product_id: shop.productId, buyer: buyer(), idempotency_key: 'x' };
      const missing = await call(client, 'create_order', noKey);
      assert.equal(missing.value.error.field, 'idempotency_key');
      const pack = await create({ pack: '9x' });
      assert.equal(pack.value.error.code, 'invalid_input');
      assert.equal(pack.value.error.field, 'pack');
      const qty = await create({ quantity: 11 });
      assert.equal(qty.value.error.field, 'quantity');
    });

    test("another account's store or product is not_found with a hint, and nothing is stored", async () => {
      const before = await counts(server.deps);
      const store = await create({ store_id: other.storeId, product_id: other.productId });
      assert.equal(store.value.error.code, 'not_found');
      assert.equal(store.value.error.field, 'store_id');
      assert.match(store.value.error.hint, /get_account/);
      const product = await create({ product_id: other.productId });
      assert.equal(product.value.error.code, 'not_found');
      assert.equal(product.value.error.field, 'product_id');
      assert.deepEqual(await counts(server.deps), before);
    });
  });

  describe('list_orders and get_order', () => {
    test('list_orders pages newest first through every order of the account with a keyset cursor', async () => {
      for (let i = 0; i < 3; i++) await create();
      const all = await call(client, 'list_orders', { limit: 100 });
      const ids: string[] = all.value.items.map((o: { id: string }) => o.id);
      assert.ok(ids.length >= 3);
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await call(client, 'list_orders', { limit: 2, ...(cursor ? { cursor } : {}) });
        assert.ok(page.value.items.length <= 2);
        seen.push(...page.value.items.map((o: { id: string }) => o.id));
        assert.equal(page.value.has_more, page.value.next_cursor !== undefined);
        cursor = page.value.next_cursor;
      } while (cursor);
      assert.deepEqual(seen, ids);
      const dates = all.value.items.map((o: { created_at: string }) => o.created_at);
      assert.deepEqual(dates, [...dates].sort().reverse());
    });

    test("list_orders never shows another account's orders", async () => {
      const otherClient = await connect(server.url, other.secretKey);
      try {
        await create();
        const { value } = await call(otherClient, 'list_orders', {});
        assert.deepEqual(value.items, []);
        assert.equal(value.has_more, false);
        const filtered = await call(client, 'list_orders', { store_id: other.storeId });
        assert.deepEqual(filtered.value.items, []);
      } finally {
        await otherClient.close();
      }
    });

    test('list_orders filters by telefono, status and the review flag', async () => {
      const phone = nextPhone();
      const made = await create({}, { telefono: phone });
      const byPhone = await call(client, 'list_orders', { query: phone });
      assert.deepEqual(byPhone.value.items.map((o: { id: string }) => o.id), [made.value.id]);
      const byNumber = await call(client, 'list_orders', { query: String(made.value.order_number) });
      assert.ok(byNumber.value.items.some((o: { id: string }) => o.id === made.value.id));
      const review = await call(client, 'list_orders', { needs_review: true, limit: 100 });
      assert.ok(review.value.items.length > 0 && review.value.items.every((o: { needs_review: boolean }) => o.needs_review));
      const shipped = await call(client, 'list_orders', { status: ['shipped', 'delivered'] });
      assert.deepEqual(shipped.value.items, []);
    });

    test('list_orders clamps the limit silently and refuses a bad cursor or status', async () => {
      const big = await call(client, 'list_orders', { limit: 10_000 });
      assert.equal(big.isError, false);
      const zero = await call(client, 'list_orders', { limit: 0 });
      assert.equal(zero.value.items.length, 1);
      const cursor = await call(client, 'list_orders', { cursor: 'not-a-cursor' });
      assert.equal(cursor.isError, true);
      assert.equal(cursor.value.error.code, 'invalid_cursor');
      assert.equal(cursor.value.error.field, 'cursor');
      const status = await call(client, 'list_orders', { status: ['lost'] });
      assert.equal(status.value.error.code, 'invalid_input');
      assert.equal(status.value.error.field, 'status.0');
      const extra = await call(client, 'list_orders', { colour: 'red' });
      assert.equal(extra.value.error.code, 'invalid_input');
    });

    test('get_order returns the full order with its events and fulfillment state', async () => {
      const made = await create();
      const { isError, value } = await call(client, 'get_order', { order_id: made.value.id });
      assert.equal(isError, false);
      assert.equal(value.id, made.value.id);
      assert.equal(value.nombre, 'Ana Gómez');
      assert.equal(value.total_price, 100000);
      assert.equal(value.events[0].type, 'order.created');
      assert.equal(value.fulfillment.state, 'queued');
    });

    test("get_order of another account's order or an unknown id is not_found with a hint naming list_orders", async () => {
      const otherClient = await connect(server.url, other.secretKey);
      try {
        const made = await create();
        for (const id of [made.value.id, '00000000-0000-4000-8000-000000000000']) {
          const { isError, value } = await call(otherClient, 'get_order', { order_id: id });
          assert.equal(isError, true);
          assert.equal(value.error.code, 'not_found');
          assert.match(value.error.hint, /list_orders/);
        }
        const bad = await call(client, 'get_order', { order_id: 'nope' });
        assert.equal(bad.value.error.field, 'order_id');
      } finally {
        await otherClient.close();
      }
    });
  });
});

describe('create_order rate limit', () => {
  test('an account caller over its per-subject rate is rate_limited and retryable, whatever its IP', async () => {
    const server = await startServer({ ...OPEN_LIMITS, rateKeyPerMin: 2, rateIpPerMin: 1 });
    try {
      const shop = await seedShop(server.deps);
      const client = await connect(server.url, shop.secretKey);
      const make = (i: number) =>
        call(client, 'create_order', { store_id: shop.storeId, product_id: shop.productId, buyer: buyer({ telefono: nextPhone() }), idempotency_key: `rl-${i}` });
      assert.equal((await make(1)).isError, false);
      assert.equal((await make(2)).isError, false);
      const third = await make(3);
      assert.equal(third.isError, true);
      assert.equal(third.value.error.code, 'rate_limited');
      assert.equal(third.value.error.retryable, true);
      await client.close();
    } finally {
      await server.close();
    }
  });
});
