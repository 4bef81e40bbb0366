// Price and pack tools through the real SDK client (MCP-TOOLS.md §6.5 rows 22-26): the ladder, the
// all-or-nothing batch repricing, the anti-fraud floor, the quote that order creation accepts as is,
// and what sells under the floor; tenancy and the 403 of a token without the scope.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { addProduct, addStore, orderBody, postOrder, seedShop, type Shop } from '../helpers/fixtures.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { OPEN_LIMITS, SHOP_ORIGIN, expectCreated, expectError, nextPhone, orderRow } from '../api/orders/order-kit.ts';
import { MAX_PRICE_UPDATES } from '../../src/limits.ts';
import { buyer, connect } from './mcp-kit.ts';
import { expectForeignLikeUnknown, expectInsufficientScope, expectSdkForbidden, expectToolError, ok, packsOf, productRow, scopedTokens, unchanged , openToolBench, closeToolBench } from './account-kit.ts';

const STORES_READ = ['mcp:invoke', 'stores:read'];
const PRODUCTS_READ = ['mcp:invoke', 'products:read'];

const LADDER = [
  { quantity: 1, price: 100000 },
  { quantity: 2, price: 180000 },
  { quantity: 3, price: 240000 },
];

describe('price and pack tools', () => {
  let server: TestServer, shop: Shop, other: Shop, client: Client;
  let tokens: { storesRead: string; productsRead: string };
  before(async () => ({ server, shop, other, client, tokens } = await openToolBench({ storesRead: ['stores:read'], productsRead: ['products:read'] })));
  after(() => closeToolBench({ server, client }));

  const fresh = (input: Record<string, unknown> = {}) => addProduct(server.deps, { store_id: shop.storeId, name: 'Fresh', packs: LADDER, ...input });
  const pricesOf = async (productId: string) => (await packsOf(server.deps, productId)).map((p) => [p.code, p.price_minor]);
  /** A mode-2 order of a product of the seeded shop, from its checkout domain with its live key. */
  const order = (productId: string, fields: Record<string, unknown>) =>
    postOrder(server.url, orderBody({ storeId: shop.storeId, productId }, { telefono: nextPhone(), ...fields }), { 'x-svc-api-key': shop.liveKey, origin: SHOP_ORIGIN });

  describe('set_product_packs', () => {
    test('set_product_packs replaces the whole ladder, in the order given, and stores it', async () => {
      const product = await fresh();
      const value = await ok(client, 'set_product_packs', {
        product_id: product.id,
        packs: [
          { quantity: 4, price: 300000, label: 'Familiar' },
          { quantity: 1, price: 90000, compare_at_price: 120000 },
          { quantity: 2, price: 160000, is_default: true },
        ],
      });
      assert.deepEqual(value.packs.map((p: { code: string }) => p.code), ['4x', '1x', '2x']);
      assert.equal(value.default_pack, '2x');
      const packs = await packsOf(server.deps, product.id);
      assert.deepEqual(
        packs.map((p) => [p.code, p.units, p.price_minor, p.compare_at_price_minor, p.label, p.is_default, p.position]),
        [
          ['4x', 4, 30_000_000, null, 'Familiar', 0, 0],
          ['1x', 1, 9_000_000, 12_000_000, null, 0, 1],
          ['2x', 2, 16_000_000, null, null, 1, 2],
        ],
      );
      // The 3x pack is gone: an order for it is refused.
      await expectError(await order(product.id, { pack: '3x', unit_price: 240000, total_price: 240000 }), 400, { fields: ['pack'] });
      await expectCreated(await order(product.id, { pack: '4x', unit_price: 300000, total_price: 300000 }));
    });

    test('set_product_packs refuses a pack under the price floor × its quantity and changes nothing', async () => {
      const product = await fresh({ price_floor: 60000, packs: [{ quantity: 1, price: 60000 }] });
      const error = await expectToolError(
        server.deps,
        client,
        'set_product_packs',
        { product_id: product.id, packs: [{ quantity: 1, price: 70000 }, { quantity: 2, price: 119999 }] },
        'price_below_floor',
        'packs.1.price',
      );
      assert.match(error.message, /2 units/);
      assert.deepEqual(await pricesOf(product.id), [['1x', 6_000_000]]);
    });

    test('set_product_packs refuses an empty ladder, two defaults and a bad pack, changing nothing', async () => {
      await expectToolError(server.deps, client, 'set_product_packs', { product_id: shop.productId, packs: [] }, 'invalid_input', 'packs');
      await expectToolError(server.deps, client, 'set_product_packs', { product_id: shop.productId }, 'invalid_input', 'packs');
      await expectToolError(
        server.deps,
        client,
        'set_product_packs',
        { product_id: shop.productId, packs: [{ quantity: 1, price: 1, is_default: true }, { quantity: 2, price: 2, is_default: true }] },
        'invalid_input',
        'packs',
      );
      await expectToolError(server.deps, client, 'set_product_packs', { product_id: shop.productId, packs: [{ quantity: 101, price: 1 }] }, 'invalid_input', 'packs.0.quantity');
    });

    test('set_product_packs in a CLP store refuses a price with decimals and changes nothing', async () => {
      const chile = await addStore(server.deps, shop.accountId, { name: 'CL', country: 'CL' });
      const product = await addProduct(server.deps, { store_id: chile.id, name: 'P', packs: [{ quantity: 1, price: 19990 }] });
      await expectToolError(server.deps, client, 'set_product_packs', { product_id: product.id, packs: [{ quantity: 1, price: 19990.9 }] }, 'invalid_input', 'packs.0.price');
      await ok(client, 'set_product_packs', { product_id: product.id, packs: [{ quantity: 1, price: 21990 }] });
      assert.deepEqual(await pricesOf(product.id), [['1x', 2_199_000]]);
    });

    test("set_product_packs of another account's product answers not_found exactly like an unknown id and changes nothing", async () => {
      await expectForeignLikeUnknown(server.deps, client, 'set_product_packs', (id) => ({ product_id: id, packs: [{ quantity: 1, price: 1 }] }), other.productId, 'product_id');
    });

    test('set_product_packs with a token holding products:read only is 403 and changes nothing', async () => {
      await expectInsufficientScope(server, tokens.productsRead, PRODUCTS_READ, 'set_product_packs', { product_id: shop.productId, packs: [{ quantity: 1, price: 1 }] }, 'products:write');
    });
  });

  describe('update_pack_prices', () => {
    test('update_pack_prices reprices packs of several products in one call and stores every price', async () => {
      const a = await fresh({ name: 'A' });
      const b = await fresh({ name: 'B', packs: [{ quantity: 1, price: 100000, compare_at_price: 150000 }] });
      const value = await ok(client, 'update_pack_prices', {
        updates: [
          { product_id: a.id, quantity: 1, price: 95000 },
          { product_id: a.id, quantity: 2, price: 170000, compare_at_price: 200000 },
          { product_id: b.id, quantity: 1, price: 80000, compare_at_price: 0 },
        ],
      });
      assert.deepEqual(value.products.map((p: { id: string }) => p.id), [a.id, b.id]);
      assert.deepEqual(await pricesOf(a.id), [['1x', 9_500_000], ['2x', 17_000_000], ['3x', 24_000_000]]);
      assert.deepEqual(await pricesOf(b.id), [['1x', 8_000_000]]);
      assert.equal((await packsOf(server.deps, a.id))[1]!.compare_at_price_minor, 20_000_000);
      assert.equal((await packsOf(server.deps, b.id))[0]!.compare_at_price_minor, null, '0 removes the compare-at price');
      assert.deepEqual(value.products[1].packs[0].compare_at_price, null);
    });

    test('update_pack_prices with one price under the floor refuses the whole batch and changes nothing', async () => {
      const a = await fresh({ name: 'A', price_floor: 60000 });
      const b = await fresh({ name: 'B' });
      const error = await expectToolError(
        server.deps,
        client,
        'update_pack_prices',
        {
          updates: [
            { product_id: a.id, quantity: 1, price: 90000 },
            { product_id: b.id, quantity: 1, price: 90000 },
            { product_id: a.id, quantity: 2, price: 110000 },
          ],
        },
        'price_below_floor',
        'updates.2.price',
      );
      assert.match(error.hint ?? '', /set_price_floor/);
      assert.deepEqual(await pricesOf(a.id), [['1x', 10_000_000], ['2x', 18_000_000], ['3x', 24_000_000]]);
      assert.deepEqual(await pricesOf(b.id), [['1x', 10_000_000], ['2x', 18_000_000], ['3x', 24_000_000]]);
    });

    test('update_pack_prices with a pack the product lacks, or under its min_price, refuses the whole batch', async () => {
      const a = await fresh({ name: 'A' });
      await expectToolError(
        server.deps,
        client,
        'update_pack_prices',
        { updates: [{ product_id: a.id, quantity: 1, price: 1000 }, { product_id: a.id, quantity: 5, price: 1000 }] },
        'invalid_input',
        'updates.1.quantity',
      );
      await expectToolError(
        server.deps,
        client,
        'update_pack_prices',
        { updates: [{ product_id: a.id, quantity: 1, price: 1000 }, { product_id: shop.productId, quantity: 3, price: 190000 }] },
        'invalid_input',
        'updates.1.price',
      );
      await expectToolError(
        server.deps,
        client,
        'update_pack_prices',
        { updates: [{ product_id: a.id, quantity: 1, price: 1000, compare_at_price: 500 }] },
        'invalid_input',
        'updates.0.compare_at_price',
      );
      assert.deepEqual(await pricesOf(a.id), [['1x', 10_000_000], ['2x', 18_000_000], ['3x', 24_000_000]]);
    });

    test("update_pack_prices naming another account's product refuses the whole batch exactly like an unknown product", async () => {
      const a = await fresh({ name: 'A' });
      const batch = (id: string) => ({ updates: [{ product_id: a.id, quantity: 1, price: 1000 }, { product_id: id, quantity: 1, price: 1 }] });
      const error = await expectForeignLikeUnknown(server.deps, client, 'update_pack_prices', batch, other.productId, 'updates.1.product_id');
      assert.match(error.hint ?? '', /list_products/);
      assert.deepEqual(await pricesOf(a.id), [['1x', 10_000_000], ['2x', 18_000_000], ['3x', 24_000_000]]);
      assert.deepEqual(await pricesOf(other.productId), [['1x', 10_000_000], ['2x', 18_000_000], ['3x', 24_000_000]]);
    });

    test('update_pack_prices refuses an empty or oversized batch and decimals a CLP store lacks', async () => {
      await expectToolError(server.deps, client, 'update_pack_prices', { updates: [] }, 'invalid_input', 'updates');
      const many = Array.from({ length: MAX_PRICE_UPDATES + 1 }, () => ({ product_id: shop.productId, quantity: 1, price: 100000 }));
      await expectToolError(server.deps, client, 'update_pack_prices', { updates: many }, 'invalid_input', 'updates');
      await expectToolError(server.deps, client, 'update_pack_prices', { updates: [{ product_id: shop.productId, quantity: 1, price: -5 }] }, 'invalid_input', 'updates.0.price');
      const chile = await addStore(server.deps, shop.accountId, { name: 'CL', country: 'CL' });
      const product = await addProduct(server.deps, { store_id: chile.id, name: 'P', packs: [{ quantity: 1, price: 19990 }] });
      await expectToolError(server.deps, client, 'update_pack_prices', { updates: [{ product_id: product.id, quantity: 1, price: 18990.5 }] }, 'invalid_input', 'updates.0.price');
    });

    test('update_pack_prices with a token holding products:read only is 403 and changes nothing', async () => {
      await expectInsufficientScope(server, tokens.productsRead, PRODUCTS_READ, 'update_pack_prices', { updates: [{ product_id: shop.productId, quantity: 1, price: 1 }] }, 'products:write');
    });
  });

  describe('set_price_floor', () => {
    test('set_price_floor stores the minimum unit price, raises each pack floor, and checkout enforces it', async () => {
      const product = await fresh();
      const value = await ok(client, 'set_price_floor', { product_id: product.id, min_unit_price: 80000 });
      assert.equal(value.price_floor, 80000);
      assert.deepEqual(value.packs.map((p: { code: string; floor: number }) => [p.code, p.floor]), [['1x', 80000], ['2x', 160000], ['3x', 240000]]);
      assert.equal((await productRow(server.deps, product.id)).min_unit_price_minor, 8_000_000);
      // 75000 is within the store's 30 % discount but under the unit floor.
      await expectError(await order(product.id, { unit_price: 75000, total_price: 75000 }), 400, { fields: ['total_price'] });
      await expectCreated(await order(product.id, { unit_price: 80000, total_price: 80000 }));
    });

    test('set_price_floor is refused with price_below_floor while a pack is under the new floor × its quantity, changing nothing', async () => {
      const product = await fresh();
      const error = await expectToolError(server.deps, client, 'set_price_floor', { product_id: product.id, min_unit_price: 90000 }, 'price_below_floor', 'min_unit_price');
      assert.match(error.message, /3x/);
      assert.match(error.hint ?? '', /update_pack_prices/);
      assert.equal((await productRow(server.deps, product.id)).min_unit_price_minor, 0);
    });

    test('set_price_floor 0 disables the floor', async () => {
      const product = await fresh({ price_floor: 50000 });
      const value = await ok(client, 'set_price_floor', { product_id: product.id, min_unit_price: 0 });
      assert.equal(value.price_floor, 0);
      assert.equal((await productRow(server.deps, product.id)).min_unit_price_minor, 0);
    });

    test('set_price_floor refuses a negative floor, a missing one, and decimals a CLP store lacks', async () => {
      await expectToolError(server.deps, client, 'set_price_floor', { product_id: shop.productId, min_unit_price: -1 }, 'invalid_input', 'min_unit_price');
      await expectToolError(server.deps, client, 'set_price_floor', { product_id: shop.productId }, 'invalid_input', 'min_unit_price');
      const chile = await addStore(server.deps, shop.accountId, { name: 'CL', country: 'CL' });
      const product = await addProduct(server.deps, { store_id: chile.id, name: 'P', packs: [{ quantity: 1, price: 19990 }] });
      await expectToolError(server.deps, client, 'set_price_floor', { product_id: product.id, min_unit_price: 10000.5 }, 'invalid_input', 'min_unit_price');
    });

    test("set_price_floor of another account's product answers not_found exactly like an unknown id and changes nothing", async () => {
      await expectForeignLikeUnknown(server.deps, client, 'set_price_floor', (id) => ({ product_id: id, min_unit_price: 1 }), other.productId, 'product_id');
    });

    test('set_price_floor with a token holding products:read only is 403 and changes nothing', async () => {
      await expectInsufficientScope(server, tokens.productsRead, PRODUCTS_READ, 'set_price_floor', { product_id: shop.productId, min_unit_price: 1 }, 'products:write');
      const reader = await connect(server.url, tokens.productsRead);
      try {
        await expectSdkForbidden(server.deps, reader, 'set_price_floor', { product_id: shop.productId, min_unit_price: 1 });
      } finally {
        await reader.close();
      }
    });
  });

  describe('quote_product_price', () => {
    test('quote_product_price picks the cheapest pack bought 1-10 times and writes nothing', async () => {
      const cases: [number, string, number, number][] = [
        [1, '1x', 1, 100000],
        [2, '2x', 1, 180000],
        [3, '3x', 1, 240000],
        [4, '2x', 2, 360000],
        [6, '3x', 2, 480000],
        [7, '1x', 7, 700000],
        [30, '3x', 10, 2400000],
      ];
      for (const [units, pack, multiplier, total] of cases) {
        const value = await unchanged(server.deps, () => ok(client, 'quote_product_price', { product_id: shop.productId, quantity: units }));
        assert.deepEqual([value.pack, value.multiplier, value.total_price], [pack, multiplier, total], `${units} units`);
        assert.equal(value.quantity, units);
        assert.equal(value.pack_quantity * value.multiplier, units);
        assert.equal(value.currency, 'COP');
        assert.equal(value.orderable, true);
        assert.equal(value.reason, null);
        assert.equal(value.floor_ok, true);
        assert.deepEqual(value.order, { pack, quantity: multiplier, unit_price: value.unit_price, total_price: total });
      }
    });

    test('the order of a quote is accepted as is by POST /api/orders/create, with the quoted total stored', async () => {
      for (const units of [1, 2, 3, 4, 5, 6, 9]) {
        const quote = await ok(client, 'quote_product_price', { product_id: shop.productId, quantity: units });
        const created = await expectCreated(await order(shop.productId, quote.order));
        assert.equal(created.data.total_price, quote.total_price);
        const row = await orderRow(server.deps, created.data.id);
        assert.equal(row.pack, quote.pack);
        assert.equal(row.pack_units * row.quantity, units, `${units} units are delivered`);
        assert.equal(row.quantity, quote.multiplier);
        assert.equal(row.unit_price_minor, quote.unit_price * 100);
        assert.equal(row.total_price_minor, quote.total_price * 100);
        assert.equal(row.currency, quote.currency);
      }
    });

    test('a quote for pack "2x" buys the pack twice for 4 units, and checkout accepts that order', async () => {
      const quote = await ok(client, 'quote_product_price', { product_id: shop.productId, quantity: 4, pack: '2X' });
      assert.deepEqual(quote.order, { pack: '2x', quantity: 2, unit_price: 180000, total_price: 360000 });
      const created = await expectCreated(await order(shop.productId, quote.order));
      const row = await orderRow(server.deps, created.data.id);
      assert.deepEqual([row.pack, row.pack_units, row.quantity, row.total_price_minor], ['2x', 2, 2, 36_000_000]);
      const one = await ok(client, 'quote_product_price', { product_id: shop.productId, quantity: 3, pack: '1x' });
      assert.deepEqual(one.order, { pack: '1x', quantity: 3, unit_price: 100000, total_price: 300000 });
    });

    test('the floor_total of a quote is the lowest total checkout accepts for that order', async () => {
      for (const [units, floor] of [
        [3, 200000],
        [4, 252000],
      ] as const) {
        const quote = await ok(client, 'quote_product_price', { product_id: shop.productId, quantity: units });
        assert.equal(quote.floor_total, floor);
        const unit = quote.floor_total / quote.multiplier;
        await expectError(await order(shop.productId, { ...quote.order, unit_price: unit, total_price: quote.floor_total - 1 }), 400, { fields: ['total_price'] });
        await expectCreated(await order(shop.productId, { ...quote.order, unit_price: unit, total_price: quote.floor_total }));
      }
      const floored = await fresh({ price_floor: 80000 });
      const quote = await ok(client, 'quote_product_price', { product_id: floored.id, quantity: 2 });
      assert.deepEqual([quote.pack, quote.total_price, quote.floor_total], ['2x', 180000, 160000]);
    });

    test('quote_product_price says when checkout would refuse the product: a draft, an archived store', async () => {
      const draft = await fresh({ status: 'draft' });
      const quote = await ok(client, 'quote_product_price', { product_id: draft.id, quantity: 1 });
      assert.equal(quote.orderable, false);
      assert.match(quote.reason, /draft/);
      await expectError(await order(draft.id, quote.order), 400, { fields: ['product_id'] });
      const closed = await seedShop(server.deps);
      const owner = await connect(server.url, closed.secretKey);
      try {
        await ok(owner, 'archive_store', { store_id: closed.storeId });
        const archived = await ok(owner, 'quote_product_price', { product_id: closed.productId, quantity: 1 });
        assert.equal(archived.orderable, false);
        assert.match(archived.reason, /archived/);
      } finally {
        await owner.close();
      }
    });

    test('quote_product_price refuses units no order sells, an unknown pack and a product without packs', async () => {
      const eleven = await expectToolError(server.deps, client, 'quote_product_price', { product_id: shop.productId, quantity: 11 }, 'invalid_input', 'quantity');
      assert.match(eleven.hint ?? '', /get_product/);
      await expectToolError(server.deps, client, 'quote_product_price', { product_id: shop.productId, quantity: 0 }, 'invalid_input', 'quantity');
      await expectToolError(server.deps, client, 'quote_product_price', { product_id: shop.productId, quantity: 1.5 }, 'invalid_input', 'quantity');
      await expectToolError(server.deps, client, 'quote_product_price', { product_id: shop.productId, quantity: 5, pack: '5x' }, 'invalid_input', 'pack');
      await expectToolError(server.deps, client, 'quote_product_price', { product_id: shop.productId, quantity: 3, pack: '2x' }, 'invalid_input', 'quantity');
      const bare = await fresh({ packs: [] });
      await expectToolError(server.deps, client, 'quote_product_price', { product_id: bare.id, quantity: 1 }, 'invalid_input', 'quantity');
    });

    test("quote_product_price of another account's product answers not_found exactly like an unknown id", async () => {
      await expectForeignLikeUnknown(server.deps, client, 'quote_product_price', (id) => ({ product_id: id, quantity: 1 }), other.productId, 'product_id');
    });

    test('quote_product_price with a token without products:read is 403; with products:read it quotes', async () => {
      await expectInsufficientScope(server, tokens.storesRead, STORES_READ, 'quote_product_price', { product_id: shop.productId, quantity: 1 }, 'products:read');
      const reader = await connect(server.url, tokens.productsRead);
      try {
        assert.equal((await ok(reader, 'quote_product_price', { product_id: shop.productId, quantity: 2 })).total_price, 180000);
      } finally {
        await reader.close();
      }
    });
  });

  describe('list_price_floor_violations', () => {
    test('list_price_floor_violations lists the orders sold under a floor raised later, and packs under it', async () => {
      const store = await addStore(server.deps, shop.accountId, { name: 'Floors', country: 'CO' });
      const product = await addProduct(server.deps, { store_id: store.id, name: 'Cheap then', packs: [{ quantity: 1, price: 100000 }, { quantity: 2, price: 200000 }] });
      const post = (total: number) =>
        postOrder(server.url, orderBody({ storeId: store.id, productId: product.id }, { telefono: nextPhone(), unit_price: total, total_price: total }), { authorization: `Bearer ${shop.secretKey}` });
      const cheap = await expectCreated(await post(95000));
      await expectCreated(await post(100000));
      assert.deepEqual((await ok(client, 'list_price_floor_violations', { store_id: store.id })).items, []);

      await ok(client, 'set_price_floor', { product_id: product.id, min_unit_price: 100000 });
      const value = await unchanged(server.deps, () => ok(client, 'list_price_floor_violations', { store_id: store.id, days: 1 }));
      assert.equal(value.currency, 'COP');
      assert.deepEqual(value.items, [
        {
          order_id: cheap.data.id,
          order_number: cheap.data.order_number,
          product_id: product.id,
          product_name: 'Cheap then',
          pack: '1x',
          quantity: 1,
          total_price: 95000,
          floor_total: 100000,
          status: 'pending',
          created_at: cheap.data.created_at,
        },
      ]);
      assert.deepEqual(value.packs, []);
      assert.equal(value.has_more, false);

      // A pack row written before the floor rule existed (as an older version could leave it).
      await sql`update product_packs set price_minor = 9000000 where product_id = ${product.id} and units = 1`.execute(server.deps.db);
      const withPack = await ok(client, 'list_price_floor_violations', { store_id: store.id });
      assert.deepEqual(withPack.packs, [{ product_id: product.id, product_name: 'Cheap then', pack: '1x', price: 90000, floor_total: 100000 }]);
    });

    test('list_price_floor_violations refuses days out of range, a missing store and a bad cursor', async () => {
      await expectToolError(server.deps, client, 'list_price_floor_violations', { store_id: shop.storeId, days: 0 }, 'invalid_input', 'days');
      await expectToolError(server.deps, client, 'list_price_floor_violations', { store_id: shop.storeId, days: 366 }, 'invalid_input', 'days');
      await expectToolError(server.deps, client, 'list_price_floor_violations', {}, 'invalid_input', 'store_id');
      await expectToolError(server.deps, client, 'list_price_floor_violations', { store_id: shop.storeId, cursor: 'nope' }, 'invalid_cursor', 'cursor');
    });

    test("list_price_floor_violations of another account's store answers not_found exactly like an unknown store", async () => {
      await expectForeignLikeUnknown(server.deps, client, 'list_price_floor_violations', (id) => ({ store_id: id }), other.storeId, 'store_id');
    });

    test('list_price_floor_violations with a token without products:read is 403', async () => {
      await expectInsufficientScope(server, tokens.storesRead, STORES_READ, 'list_price_floor_violations', { store_id: shop.storeId }, 'products:read');
    });
  });

  test('an order through create_order is priced exactly as quote_product_price quotes it', async () => {
    const quote = await ok(client, 'quote_product_price', { product_id: shop.productId, quantity: 4 });
    const made = await ok(client, 'create_order', { store_id: shop.storeId, product_id: shop.productId, pack: quote.order.pack, quantity: quote.order.quantity, buyer: buyer({ telefono: nextPhone() }), idempotency_key: 'quote-4' });
    const row = await orderRow(server.deps, made.id);
    assert.equal(row.total_price_minor, quote.total_price * 100);
    assert.equal(row.pack_units * row.quantity, 4);
  });
});
