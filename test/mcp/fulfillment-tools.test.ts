// The fulfillment tools through the SDK client (MCP-TOOLS.md §6.8 rows 43-51; issue 12) against the
// platform simulator: a store's connection (credentials checked live, sealed, shown masked), the
// platform catalog and product links, pushes through the outbox (inline, no worker running) and status
// pulls. Each tool: what is stored and answered, a bad argument, a token lacking its scope, and another
// account's id answering exactly like an unknown one.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { TestServer } from '../helpers/server.ts';
import { addProduct, addStore, type Shop } from '../helpers/fixtures.ts';
import { credentialOf, startSimulator, type Simulator } from '../../src/platforms/generic/simulator.ts';
import { eventsOf, jobsOf, nextPhone, orderRow } from '../api/orders/order-kit.ts';
import { buyer, call, connect } from './mcp-kit.ts';
import { closeToolBench, expectForeignLikeUnknown, expectInsufficientScope, expectToolError, ok, openToolBench, productRow, unchanged, UNKNOWN_ID } from './account-kit.ts';

/** The main store's platform token, and a second platform account's. */
const SHOP_TOKEN = 'sim-live-shop-0123456789-secret-AAAA';
const SECOND_TOKEN = 'sim-live-second-9876543210-secret-BBBB';
/** The server's default token (CODRAIL_FULFILLMENT_TOKEN), which the simulator does not accept. */
const REFUSED_DEFAULT = 'sim-live-refused-default-token-ZZZZ';
const accountIdOf = (token: string) => `acct_${credentialOf(token).hash.slice(0, 8)}`;

const ORDERS_READ = ['mcp:invoke', 'orders:read'];
const STORES_READ = ['mcp:invoke', 'stores:read'];
const PRODUCTS_READ = ['mcp:invoke', 'products:read'];

interface PushedProduct {
  sku: string | null;
  product_id?: string | null;
  variant_id?: string | null;
}

describe('fulfillment tools', () => {
  let sim: Simulator;
  /** While true every platform request fails with an injected 500 (failRate 1: random() 0 < 1; else 1, never < 1). */
  let platformDown = false;
  let server: TestServer, shop: Shop, other: Shop, client: Client;
  let tokens: { ordersRead: string; storesRead: string; productsRead: string };
  /** A confirmed order of the other account. */
  let foreignOrder: string;

  before(async () => {
    sim = await startSimulator({ tokens: [SHOP_TOKEN, SECOND_TOKEN], failRate: 1, random: () => (platformDown ? 0 : 1) });
    ({ server, shop, other, client, tokens } = await openToolBench(
      { ordersRead: ['orders:read'], storesRead: ['stores:read'], productsRead: ['products:read'] },
      { fulfillmentUrl: sim.url, fulfillmentBackoffMs: 10 },
      { CODRAIL_FULFILLMENT_TOKEN: REFUSED_DEFAULT },
    ));
    // The main store pushes with its own credentials; stores without them get the refused default.
    await ok(client, 'set_fulfillment_credentials', { store_id: shop.storeId, api_token: SHOP_TOKEN });
    const otherClient = await connect(server.url, other.secretKey);
    try {
      foreignOrder = (await ok(otherClient, 'create_order', { store_id: other.storeId, product_id: other.productId, buyer: buyer({ telefono: nextPhone() }), idempotency_key: 'ff-foreign' })).id;
      await ok(otherClient, 'update_order_status', { order_id: foreignOrder, status: 'confirmed' });
    } finally {
      await otherClient.close();
    }
  });
  after(async () => {
    await closeToolBench({ server, client });
    await sim.close();
  });

  let seq = 0;
  const createOrder = async (o: { store?: string; product?: string; buyer?: Record<string, unknown> } = {}) =>
    (await ok(client, 'create_order', { store_id: o.store ?? shop.storeId, product_id: o.product ?? shop.productId, buyer: buyer({ telefono: nextPhone(), ...o.buyer }), idempotency_key: `ff-${++seq}` })).id as string;
  const confirmedOrder = async (o: Parameters<typeof createOrder>[0] = {}) => {
    const id = await createOrder(o);
    await ok(client, 'update_order_status', { order_id: id, status: 'confirmed' });
    return id;
  };
  const atPlatform = (orderId: string) => sim.orders().filter((o) => o.external_ref === orderId);
  const connectionRow = (storeId: string) => server.deps.db.selectFrom('fulfillment_connections').selectAll().where('store_id', '=', storeId).executeTakeFirst();
  const newStore = async (name: string) => (await addStore(server.deps, shop.accountId, { name, country: 'CO' })).id;
  const newProduct = async (storeId = shop.storeId) => (await addProduct(server.deps, { store_id: storeId, name: 'Faja', packs: [{ quantity: 1, price: 100000 }] })).id;

  describe('get_fulfillment_connection', () => {
    test('a store without its own credentials uses the server default: the platform origin, no credential; nothing stored', async () => {
      const storeId = await newStore('Sin credenciales');
      const value = await unchanged(server.deps, () => ok(client, 'get_fulfillment_connection', { store_id: storeId }));
      assert.deepEqual(value, {
        store_id: storeId,
        source: 'default',
        platform: new URL(sim.url).origin,
        platform_name: 'generic',
        base_url: null,
        test: false,
        credential: null,
        verified_at: null,
        last_ok_at: null,
        last_error: null,
        last_error_at: null,
        paused: null,
        webhook_url: null,
      });
    });

    test('a bad store_id is invalid_input, a token without stores:read gets 403, another account’s store is not_found like an unknown one', async () => {
      await expectToolError(server.deps, client, 'get_fulfillment_connection', { store_id: 'tienda-1' }, 'invalid_input', 'store_id');
      await expectInsufficientScope(server, tokens.ordersRead, ORDERS_READ, 'get_fulfillment_connection', { store_id: shop.storeId }, 'stores:read');
      await expectForeignLikeUnknown(server.deps, client, 'get_fulfillment_connection', (id) => ({ store_id: id }), other.storeId, 'store_id');
    });
  });

  describe('set_fulfillment_credentials', () => {
    test('a token the platform accepts is stored sealed with its last 4, shown masked by get_fulfillment_connection, never returned', async () => {
      const storeId = await newStore('Con credenciales');
      assert.deepEqual((await ok(client, 'get_store', { store_id: storeId })).fulfillment, { connected: true, source: 'default', credential: null });
      const value = await ok(client, 'set_fulfillment_credentials', { store_id: storeId, api_token: SECOND_TOKEN, account_id: accountIdOf(SECOND_TOKEN) });
      assert.deepEqual((await ok(client, 'get_store', { store_id: storeId })).fulfillment, { connected: true, source: 'store', credential: '••••BBBB' });
      assert.equal(value.source, 'store');
      assert.deepEqual(value.credential, { masked: '••••BBBB', account_id: accountIdOf(SECOND_TOKEN), account_name: 'Simulated account …BBBB' });
      assert.equal(typeof value.verified_at, 'string');
      assert.equal(value.last_ok_at, value.verified_at);
      assert.equal(value.last_error, null);
      const row = (await connectionRow(storeId))!;
      assert.equal(row.token_last4, 'BBBB');
      assert.equal(row.platform_account_id, accountIdOf(SECOND_TOKEN));
      assert.ok(!row.token_sealed.includes(SECOND_TOKEN.slice(0, -4)), 'the token is not stored in clear');
      assert.ok(!Buffer.from(row.token_sealed, 'base64').toString('latin1').includes(SECOND_TOKEN.slice(0, -4)), 'nor merely encoded');
      const shown = await unchanged(server.deps, () => ok(client, 'get_fulfillment_connection', { store_id: storeId }));
      assert.deepEqual(shown, value);
      for (const answer of [value, shown]) assert.ok(!JSON.stringify(answer).includes(SECOND_TOKEN.slice(0, -4)), 'no answer contains the token');
    });

    test('a refused token, another platform account or a too short token is invalid_input on its field and saves nothing', async () => {
      const storeId = await newStore('Token rechazado');
      const refused = await expectToolError(server.deps, client, 'set_fulfillment_credentials', { store_id: storeId, api_token: 'not-a-valid-token-1234' }, 'invalid_input', 'api_token');
      assert.match(refused.message, /401/);
      const mismatch = await expectToolError(server.deps, client, 'set_fulfillment_credentials', { store_id: storeId, api_token: SECOND_TOKEN, account_id: 'acct_someone' }, 'invalid_input', 'account_id');
      assert.ok(!JSON.stringify(mismatch).includes(SECOND_TOKEN.slice(0, -4)), 'the error does not echo the token');
      await expectToolError(server.deps, client, 'set_fulfillment_credentials', { store_id: storeId, api_token: 'short' }, 'invalid_input', 'api_token');
      assert.equal(await connectionRow(storeId), undefined);
    });

    test('a token without stores:write gets 403, another account’s store is not_found like an unknown one', async () => {
      await expectInsufficientScope(server, tokens.storesRead, STORES_READ, 'set_fulfillment_credentials', { store_id: shop.storeId, api_token: SECOND_TOKEN }, 'stores:write');
      await expectForeignLikeUnknown(server.deps, client, 'set_fulfillment_credentials', (id) => ({ store_id: id, api_token: SECOND_TOKEN }), other.storeId, 'store_id');
    });
  });

  describe('test_fulfillment_connection', () => {
    test('with the store’s credentials it answers ok with the platform account; with a refused default token ok false; neither saves anything', async () => {
      const good = await unchanged(server.deps, () => ok(client, 'test_fulfillment_connection', { store_id: shop.storeId }));
      assert.deepEqual({ ...good, latency_ms: 0 }, { store_id: shop.storeId, ok: true, source: 'store', account: { id: accountIdOf(SHOP_TOKEN), name: 'Simulated account …AAAA' }, error: null, latency_ms: 0 });
      assert.equal(typeof good.latency_ms, 'number');
      const storeId = await newStore('Token por defecto');
      const bad = await unchanged(server.deps, () => ok(client, 'test_fulfillment_connection', { store_id: storeId }));
      assert.equal(bad.ok, false);
      assert.equal(bad.source, 'default');
      assert.equal(bad.account, null);
      assert.match(bad.error, /HTTP 401/);
      assert.ok(!JSON.stringify(bad).includes(REFUSED_DEFAULT.slice(0, -4)));
    });

    test('a bad store_id is invalid_input, a token without stores:read gets 403, another account’s store is not_found like an unknown one', async () => {
      await expectToolError(server.deps, client, 'test_fulfillment_connection', { store_id: 42 }, 'invalid_input', 'store_id');
      await expectInsufficientScope(server, tokens.ordersRead, ORDERS_READ, 'test_fulfillment_connection', { store_id: shop.storeId }, 'stores:read');
      await expectForeignLikeUnknown(server.deps, client, 'test_fulfillment_connection', (id) => ({ store_id: id }), other.storeId, 'store_id');
    });
  });

  describe('list_fulfillment_products', () => {
    test('a query filters the platform catalog by name or SKU, with its variants; nothing stored', async () => {
      const faja = await unchanged(server.deps, () => ok(client, 'list_fulfillment_products', { store_id: shop.storeId, query: 'faja' }));
      assert.deepEqual(faja, {
        items: [{ id: 'DP-1001', name: 'Faja colombiana reductora', sku: 'FAJA-01', price: 89900, stock: 50, variants: ['S', 'M', 'L', 'XL'].map((name, i) => ({ id: `DP-1001-V${i + 1}`, name })) }],
        has_more: false,
      });
      const bySku = await ok(client, 'list_fulfillment_products', { store_id: shop.storeId, query: 'cam-wifi' });
      assert.deepEqual(bySku.items.map((p: { id: string }) => p.id), ['DP-1012']);
    });

    test('pages with limit and next_cursor; a cursor of another query or a malformed one is invalid_cursor', async () => {
      const first = await ok(client, 'list_fulfillment_products', { store_id: shop.storeId, limit: 2 });
      assert.deepEqual(first.items.map((p: { id: string }) => p.id), ['DP-1001', 'DP-1002']);
      assert.equal(first.has_more, true);
      const second = await ok(client, 'list_fulfillment_products', { store_id: shop.storeId, limit: 2, cursor: first.next_cursor });
      assert.deepEqual(second.items.map((p: { id: string }) => p.id), ['DP-1003', 'DP-1004']);
      // The cursor keeps its page size: another limit with it neither skips nor repeats products.
      const resized = await ok(client, 'list_fulfillment_products', { store_id: shop.storeId, limit: 3, cursor: first.next_cursor });
      assert.deepEqual(resized.items.map((p: { id: string }) => p.id), ['DP-1003', 'DP-1004']);
      await expectToolError(server.deps, client, 'list_fulfillment_products', { store_id: shop.storeId, query: 'reloj', cursor: first.next_cursor }, 'invalid_cursor', 'cursor');
      await expectToolError(server.deps, client, 'list_fulfillment_products', { store_id: shop.storeId, cursor: 'no es un cursor' }, 'invalid_cursor', 'cursor');
    });

    test('an empty query is invalid_input, a token without products:read gets 403, another account’s store is not_found like an unknown one', async () => {
      await expectToolError(server.deps, client, 'list_fulfillment_products', { store_id: shop.storeId, query: '' }, 'invalid_input', 'query');
      await expectInsufficientScope(server, tokens.ordersRead, ORDERS_READ, 'list_fulfillment_products', { store_id: shop.storeId }, 'products:read');
      await expectForeignLikeUnknown(server.deps, client, 'list_fulfillment_products', (id) => ({ store_id: id }), other.storeId, 'store_id');
    });
  });

  describe('link_product_to_fulfillment', () => {
    test('a link to a platform product and variant is stored, shown by get_product, and named in the push body', async () => {
      const productId = await newProduct();
      const linked = await ok(client, 'link_product_to_fulfillment', { product_id: productId, fulfillment_product_id: 'DP-1001', fulfillment_variant_id: 'DP-1001-V2' });
      const fulfillment = { product_id: 'DP-1001', variant_id: 'DP-1001-V2', name: 'Faja colombiana reductora', unlinked_at: null };
      assert.deepEqual(linked.fulfillment, fulfillment);
      assert.equal(linked.linked, true);
      const row = await productRow(server.deps, productId);
      assert.deepEqual([row.fulfillment_product_ref, row.fulfillment_variant_ref, row.fulfillment_product_name, row.fulfillment_unlinked_at], ['DP-1001', 'DP-1001-V2', 'Faja colombiana reductora', null]);
      assert.deepEqual((await ok(client, 'get_product', { product_id: productId })).fulfillment, fulfillment);
      const orderId = await confirmedOrder({ product: productId });
      assert.equal((await ok(client, 'push_order_to_fulfillment', { order_id: orderId })).pushed, true);
      const [placed] = atPlatform(orderId);
      const [line] = (placed!.request as { products: PushedProduct[] }).products;
      assert.deepEqual([line!.sku, line!.product_id, line!.variant_id], ['DP-1001', 'DP-1001', 'DP-1001-V2']);
    });

    test('a missing or foreign variant, an unknown platform product or an empty id is invalid_input on its field; nothing stored', async () => {
      const productId = await newProduct();
      const missing = await expectToolError(server.deps, client, 'link_product_to_fulfillment', { product_id: productId, fulfillment_product_id: 'DP-1001' }, 'invalid_input', 'fulfillment_variant_id');
      assert.match(missing.message, /DP-1001-V1/);
      await expectToolError(server.deps, client, 'link_product_to_fulfillment', { product_id: productId, fulfillment_product_id: 'DP-1001', fulfillment_variant_id: 'DP-1003-V1' }, 'invalid_input', 'fulfillment_variant_id');
      await expectToolError(server.deps, client, 'link_product_to_fulfillment', { product_id: productId, fulfillment_product_id: 'DP-1002', fulfillment_variant_id: 'DP-1002-V1' }, 'invalid_input', 'fulfillment_variant_id');
      await expectToolError(server.deps, client, 'link_product_to_fulfillment', { product_id: productId, fulfillment_product_id: 'DP-9999' }, 'invalid_input', 'fulfillment_product_id');
      await expectToolError(server.deps, client, 'link_product_to_fulfillment', { product_id: productId, fulfillment_product_id: '' }, 'invalid_input', 'fulfillment_product_id');
    });

    test('a token without products:write gets 403, another account’s product is not_found like an unknown one', async () => {
      await expectInsufficientScope(server, tokens.productsRead, PRODUCTS_READ, 'link_product_to_fulfillment', { product_id: shop.productId, fulfillment_product_id: 'DP-1002' }, 'products:write');
      await expectForeignLikeUnknown(server.deps, client, 'link_product_to_fulfillment', (id) => ({ product_id: id, fulfillment_product_id: 'DP-1002' }), other.productId, 'product_id');
    });
  });

  describe('unlink_product_from_fulfillment', () => {
    test('clears the link and marks it unlinked: its orders’ pushes fail permanently, nothing reaches the platform, until linked again', async () => {
      const productId = await newProduct();
      await ok(client, 'link_product_to_fulfillment', { product_id: productId, fulfillment_product_id: 'DP-1002' });
      const unlinked = await ok(client, 'unlink_product_from_fulfillment', { product_id: productId });
      assert.equal(unlinked.linked, false);
      assert.equal(unlinked.fulfillment.product_id, null);
      const row = await productRow(server.deps, productId);
      assert.deepEqual([row.fulfillment_product_ref, row.fulfillment_variant_ref, row.fulfillment_product_name], [null, null, null]);
      assert.equal(typeof row.fulfillment_unlinked_at, 'string');
      assert.equal(unlinked.fulfillment.unlinked_at, row.fulfillment_unlinked_at);

      const orderId = await confirmedOrder({ product: productId });
      const refused = await call(client, 'push_order_to_fulfillment', { order_id: orderId });
      assert.equal(refused.isError, true);
      assert.deepEqual([refused.value.error.code, refused.value.error.field, refused.value.error.retryable], ['fulfillment_error', 'order_id', false]);
      assert.match(refused.value.error.message, /unlinked/);
      assert.equal((await jobsOf(server.deps, orderId))[0]!.state, 'dead');
      assert.deepEqual(atPlatform(orderId), []);

      await ok(client, 'link_product_to_fulfillment', { product_id: productId, fulfillment_product_id: 'DP-1002' });
      const pushed = await ok(client, 'push_order_to_fulfillment', { order_id: orderId });
      assert.equal(pushed.pushed, true);
      assert.equal(atPlatform(orderId).length, 1);
      assert.equal((atPlatform(orderId)[0]!.request as { products: PushedProduct[] }).products[0]!.product_id, 'DP-1002');
    });

    test('a bad product_id is invalid_input, a token without products:write gets 403, another account’s product is not_found like an unknown one', async () => {
      await expectToolError(server.deps, client, 'unlink_product_from_fulfillment', { product_id: 'faja' }, 'invalid_input', 'product_id');
      await expectInsufficientScope(server, tokens.productsRead, PRODUCTS_READ, 'unlink_product_from_fulfillment', { product_id: shop.productId }, 'products:write');
      await expectForeignLikeUnknown(server.deps, client, 'unlink_product_from_fulfillment', (id) => ({ product_id: id }), other.productId, 'product_id');
    });
  });

  describe('push_order_to_fulfillment', () => {
    test('a confirmed order is created at the platform once, with the store’s credentials; pushing again answers already_pushed', async () => {
      const orderId = await confirmedOrder();
      const value = await ok(client, 'push_order_to_fulfillment', { order_id: orderId });
      const [placed, ...more] = atPlatform(orderId);
      assert.deepEqual(more, []);
      const { order_number } = await orderRow(server.deps, orderId);
      assert.deepEqual(value, { order_id: orderId, order_number, pushed: true, already_pushed: false, remote_id: placed!.id, state: 'done', attempts: 1, last_error: null });
      assert.deepEqual(placed!.credential, credentialOf(SHOP_TOKEN));
      const [job] = await jobsOf(server.deps, orderId);
      assert.deepEqual([job!.state, job!.remote_id], ['done', placed!.id]);
      const order = await orderRow(server.deps, orderId);
      assert.deepEqual([order.status, order.fulfillment_status], ['confirmed', 'PENDIENTE']);
      const types = (await eventsOf(server.deps, orderId)).map((e) => e.type);
      assert.ok(types.includes('fulfillment.push_requested') && types.includes('fulfillment.pushed'), types.join());

      const again = await unchanged(server.deps, () => ok(client, 'push_order_to_fulfillment', { order_id: orderId }));
      assert.deepEqual([again.pushed, again.already_pushed, again.remote_id], [true, true, placed!.id]);
      assert.equal(atPlatform(orderId).length, 1);
      assert.equal(atPlatform(orderId)[0]!.create_calls, 1);
    });

    test('a platform failure answers pushed false, state failed with the error; the job stays in the outbox and a later push succeeds once', async () => {
      const orderId = await confirmedOrder();
      platformDown = true;
      let failed;
      try {
        failed = await ok(client, 'push_order_to_fulfillment', { order_id: orderId });
      } finally {
        platformDown = false;
      }
      assert.deepEqual([failed.pushed, failed.already_pushed, failed.state, failed.remote_id, failed.attempts], [false, false, 'failed', null, 1]);
      assert.match(failed.last_error, /HTTP 500/);
      const [job] = await jobsOf(server.deps, orderId);
      assert.deepEqual([job!.state, job!.last_error], ['failed', failed.last_error]);
      assert.deepEqual(atPlatform(orderId), []);
      const retried = await ok(client, 'push_order_to_fulfillment', { order_id: orderId });
      assert.equal(retried.pushed, true);
      assert.equal(atPlatform(orderId).length, 1);
    });

    test('a pending order is invalid_state, a bad order_id invalid_input, no orders:write is 403, another account’s order not_found like an unknown one', async () => {
      const pending = await createOrder();
      await expectToolError(server.deps, client, 'push_order_to_fulfillment', { order_id: pending }, 'invalid_state', 'order_id');
      assert.deepEqual(atPlatform(pending), []);
      await expectToolError(server.deps, client, 'push_order_to_fulfillment', { order_id: 'pedido-1' }, 'invalid_input', 'order_id');
      await expectInsufficientScope(server, tokens.ordersRead, ORDERS_READ, 'push_order_to_fulfillment', { order_id: pending }, 'orders:write');
      await expectForeignLikeUnknown(server.deps, client, 'push_order_to_fulfillment', (id) => ({ order_id: id }), foreignOrder, 'order_id');
      assert.deepEqual(atPlatform(foreignOrder), []);
    });
  });

  describe('push_confirmed_orders', () => {
    test('dry_run lists the confirmed orders and sends nothing; max_orders bounds a batch; a city under review is skipped; a second call pushes nothing new', async () => {
      const storeId = await newStore('Lote');
      await ok(client, 'set_fulfillment_credentials', { store_id: storeId, api_token: SHOP_TOKEN });
      const product = await newProduct(storeId);
      const first = await confirmedOrder({ store: storeId, product });
      const review = await confirmedOrder({ store: storeId, product, buyer: { departamento: 'Atlantida', ciudad: 'Zzyzx' } });
      const third = await confirmedOrder({ store: storeId, product });
      const pending = await createOrder({ store: storeId, product });
      assert.equal((await orderRow(server.deps, review)).needs_review, 1);
      const mine = () => sim.orders().filter((o) => [first, review, third, pending].includes(o.external_ref));
      const summary = (results: { order_id: string; pushed: boolean; skipped: string | null }[]) => results.map((r) => [r.order_id, r.pushed, r.skipped]);

      const dry = await unchanged(server.deps, () => ok(client, 'push_confirmed_orders', { store_id: storeId, dry_run: true }));
      assert.equal(dry.dry_run, true);
      assert.deepEqual(summary(dry.results), [[first, false, null], [review, false, 'city needs review'], [third, false, null]]);
      assert.equal(dry.has_more, false);
      assert.deepEqual(mine(), []);

      const one = await ok(client, 'push_confirmed_orders', { store_id: storeId, max_orders: 1 });
      assert.deepEqual(summary(one.results), [[first, true, null]]);
      assert.equal(one.has_more, true);
      const rest = await ok(client, 'push_confirmed_orders', { store_id: storeId });
      assert.deepEqual(summary(rest.results), [[review, false, 'city needs review'], [third, true, null]]);
      assert.equal(rest.has_more, false);
      assert.deepEqual(mine().map((o) => o.external_ref).sort(), [first, third].sort());
      for (const id of [first, third]) assert.equal((await jobsOf(server.deps, id))[0]!.state, 'done');

      const again = await unchanged(server.deps, () => ok(client, 'push_confirmed_orders', { store_id: storeId }));
      assert.deepEqual(summary(again.results), [[review, false, 'city needs review']]);
      assert.equal(mine().length, 2);
    });

    // Orders under review are reported but never count against max_orders: they must not hold the batch forever.
    test('orders under review never hold back the batch: calling again while has_more pushes every pushable order', async () => {
      const storeId = await newStore('Revisión primero');
      await ok(client, 'set_fulfillment_credentials', { store_id: storeId, api_token: SHOP_TOKEN });
      const product = await newProduct(storeId);
      await confirmedOrder({ store: storeId, product, buyer: { departamento: 'Atlantida', ciudad: 'Zzyzx' } });
      const pushable = await confirmedOrder({ store: storeId, product });
      for (let calls = 0; calls < 3 && atPlatform(pushable).length === 0; calls++) {
        const batch = await ok(client, 'push_confirmed_orders', { store_id: storeId, max_orders: 1 });
        if (!batch.has_more) break;
      }
      assert.equal(atPlatform(pushable).length, 1, 'the confirmed order behind the one under review was pushed');
    });

    test('max_orders out of range is invalid_input, no orders:write is 403, another account’s store is not_found like an unknown one', async () => {
      await expectToolError(server.deps, client, 'push_confirmed_orders', { store_id: shop.storeId, max_orders: 51 }, 'invalid_input', 'max_orders');
      await expectInsufficientScope(server, tokens.ordersRead, ORDERS_READ, 'push_confirmed_orders', { store_id: shop.storeId, dry_run: true }, 'orders:write');
      await expectForeignLikeUnknown(server.deps, client, 'push_confirmed_orders', (id) => ({ store_id: id }), other.storeId, 'store_id');
    });
  });

  describe('sync_fulfillment_status', () => {
    test('a store with more open pushed orders than one call reads is read through page by page with next_cursor', async () => {
      const storeId = await newStore('Muchos pedidos');
      await ok(client, 'set_fulfillment_credentials', { store_id: storeId, api_token: SHOP_TOKEN });
      const product = await newProduct(storeId);
      // The default store policy pushes on creation; the batch sends them without a worker.
      const ids: string[] = [];
      for (let i = 0; i < 101; i++) ids.push(await confirmedOrder({ store: storeId, product }));
      while ((await ok(client, 'push_confirmed_orders', { store_id: storeId, max_orders: 50 })).has_more);
      const first = await ok(client, 'sync_fulfillment_status', { store_id: storeId });
      assert.equal(first.checked, 100);
      assert.equal(first.has_more, true);
      const second = await ok(client, 'sync_fulfillment_status', { store_id: storeId, cursor: first.next_cursor });
      assert.equal(second.checked, 1);
      assert.equal(second.has_more, false);
      assert.deepEqual([...first.orders, ...second.orders].map((o: { order_id: string }) => o.order_id).sort(), [...ids].sort(), 'every open order was read once');
      await expectToolError(server.deps, client, 'sync_fulfillment_status', { store_id: storeId, cursor: 'no es un cursor' }, 'invalid_cursor', 'cursor');
    });

    test('the platform’s EN_TRANSITO after GUIA_GENERADA moves the order to shipped with the tracking number; a second sync changes nothing', async () => {
      const orderId = await confirmedOrder();
      const { remote_id: remoteId } = await ok(client, 'push_order_to_fulfillment', { order_id: orderId });
      for (const status of ['GUIA_GENERADA', 'EN_TRANSITO']) {
        const res = await fetch(`${sim.url}/_sim/orders/${remoteId}/status`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ status }) });
        assert.equal(res.status, 200);
      }
      const tracking = atPlatform(orderId)[0]!.tracking_number!;
      assert.match(tracking, /^GUIA\d+$/);
      const { order_number } = await orderRow(server.deps, orderId);
      const synced = await ok(client, 'sync_fulfillment_status', { store_id: shop.storeId, order_ids: [orderId] });
      assert.deepEqual(synced, {
        store_id: shop.storeId,
        checked: 1,
        changed: 1,
        orders: [{ order_id: orderId, order_number, status: 'shipped', platform_status: 'EN_TRANSITO', tracking_number: tracking, error: null }],
        has_more: false,
      });
      const order = await orderRow(server.deps, orderId);
      assert.deepEqual([order.status, order.fulfillment_status, order.tracking_number], ['shipped', 'EN_TRANSITO', tracking]);
      const moved = (await eventsOf(server.deps, orderId)).find((e) => e.type === 'order.status_changed' && JSON.parse(e.data).to === 'shipped')!;
      assert.deepEqual([JSON.parse(moved.data).via, JSON.parse(moved.data).tracking_number], ['sync', tracking]);

      const again = await unchanged(server.deps, () => ok(client, 'sync_fulfillment_status', { store_id: shop.storeId, order_ids: [orderId] }));
      assert.equal(again.changed, 0);
      const future = await ok(client, 'sync_fulfillment_status', { store_id: shop.storeId, updated_since: '2999-01-01T00:00:00.000Z' });
      assert.equal(future.checked, 0);
    });

    test('order_ids of another store of the same account are not_found like an unknown id, and nothing is read', async () => {
      const storeId = await newStore('Otra tienda');
      await ok(client, 'set_fulfillment_credentials', { store_id: storeId, api_token: SHOP_TOKEN });
      const orderId = await confirmedOrder();
      await ok(client, 'push_order_to_fulfillment', { order_id: orderId });
      const foreign = await expectToolError(server.deps, client, 'sync_fulfillment_status', { store_id: storeId, order_ids: [orderId] }, 'not_found', 'order_ids');
      const unknown = await expectToolError(server.deps, client, 'sync_fulfillment_status', { store_id: storeId, order_ids: [UNKNOWN_ID] }, 'not_found', 'order_ids');
      assert.deepEqual(foreign, unknown);
    });

    // updated_since is an instant: an offset other than Z, or a time without milliseconds, means the same moment.
    test('updated_since is an instant: the same time written with a -05:00 offset selects what it selects in UTC', async () => {
      const orderId = await confirmedOrder();
      await ok(client, 'push_order_to_fulfillment', { order_id: orderId });
      const later = Date.parse((await orderRow(server.deps, orderId)).updated_at) + 3_600_000;
      const utc = new Date(later).toISOString();
      const bogota = new Date(later - 5 * 3_600_000).toISOString().replace('Z', '-05:00');
      assert.equal((await ok(client, 'sync_fulfillment_status', { store_id: shop.storeId, order_ids: [orderId], updated_since: utc })).checked, 0);
      assert.equal((await ok(client, 'sync_fulfillment_status', { store_id: shop.storeId, order_ids: [orderId], updated_since: bogota })).checked, 0, `${bogota} is ${utc}, after the order's last change`);
    });

    test('updated_since not a timestamp is invalid_input, no orders:write is 403, another account’s store or order is not_found like an unknown one', async () => {
      await expectToolError(server.deps, client, 'sync_fulfillment_status', { store_id: shop.storeId, updated_since: 'ayer' }, 'invalid_input', 'updated_since');
      await expectInsufficientScope(server, tokens.ordersRead, ORDERS_READ, 'sync_fulfillment_status', { store_id: shop.storeId }, 'orders:write');
      await expectForeignLikeUnknown(server.deps, client, 'sync_fulfillment_status', (id) => ({ store_id: id }), other.storeId, 'store_id');
      await expectForeignLikeUnknown(server.deps, client, 'sync_fulfillment_status', (id) => ({ store_id: shop.storeId, order_ids: [id] }), foreignOrder, 'order_ids');
    });
  });
});

describe('fulfillment tools on a server without a platform', () => {
  let server: TestServer, shop: Shop, client: Client;
  before(async () => ({ server, shop, client } = await openToolBench({})));
  after(() => closeToolBench({ server, client }));

  test('the connection shows source none; every tool that needs the platform is fulfillment_not_connected and stores nothing', async () => {
    const view = await ok(client, 'get_fulfillment_connection', { store_id: shop.storeId });
    assert.deepEqual([view.source, view.platform, view.credential], ['none', null, null]);
    const orderId = (await ok(client, 'create_order', { store_id: shop.storeId, product_id: shop.productId, buyer: buyer({ telefono: nextPhone() }), idempotency_key: 'none-1' })).id;
    await ok(client, 'update_order_status', { order_id: orderId, status: 'confirmed' });
    const calls: [string, Record<string, unknown>][] = [
      ['set_fulfillment_credentials', { store_id: shop.storeId, api_token: SHOP_TOKEN }],
      ['test_fulfillment_connection', { store_id: shop.storeId }],
      ['list_fulfillment_products', { store_id: shop.storeId }],
      ['link_product_to_fulfillment', { product_id: shop.productId, fulfillment_product_id: 'DP-1002' }],
      ['push_order_to_fulfillment', { order_id: orderId }],
      ['push_confirmed_orders', { store_id: shop.storeId }],
      ['sync_fulfillment_status', { store_id: shop.storeId }],
    ];
    for (const [name, args] of calls) await expectToolError(server.deps, client, name, args, 'fulfillment_not_connected');
  });
});
