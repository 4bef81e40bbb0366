// The assistant's journey through /api/mcp with real OAuth tokens from the consent pages
// (MCP-TOOLS.md §5.13, §6; OAUTH.md 12): (a) a read-only token reads and quotes products and is
// refused every write of the catalog before anything runs; (b) a token with every scope builds a
// selling store from nothing through MCP alone, and the published landing page takes a buyer's
// order through POST /api/orders/create (mode 1).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { seedShop, postOrder, type Shop } from '../helpers/fixtures.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { addUser, obtainTokens } from '../helpers/oauth.ts';
import { OPEN_LIMITS, expectCreated, nextPhone, orderRow } from '../api/orders/order-kit.ts';
import { createAccount } from '../../src/use-cases/accounts/accounts.use-case.ts';
import { GRANTABLE_SCOPES } from '../../src/domain/oauth/scopes.ts';
import { TOOLS } from '../../src/mcp/tools/tool-catalog.ts';
import { buyer, connect } from './mcp-kit.ts';
import { expectInsufficientScope, expectSdkForbidden, landingRow, ok, productRow, scopedTokens, storeRow, unchanged } from './account-kit.ts';

const READ_PRODUCTS = ['mcp:invoke', 'products:read'];

describe('an assistant holding a token granted only products:read', () => {
  let server: TestServer;
  let shop: Shop;
  let token: string;
  let client: Client;
  before(async () => {
    server = await startServer(OPEN_LIMITS);
    shop = await seedShop(server.deps);
    ({ reader: token } = await scopedTokens(server, shop.accountId, { reader: ['products:read'] }));
    client = await connect(server.url, token);
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  /** Plausible arguments for every write tool of the catalog, aimed at the seeded shop. */
  const writeArgs = (): Record<string, Record<string, unknown>> => ({
    create_order: { store_id: shop.storeId, product_id: shop.productId, buyer: buyer({ telefono: nextPhone() }), idempotency_key: 'journey-1' },
    update_order_buyer: { order_id: '00000000-0000-4000-8000-000000000000', nombre: 'Otra Persona' },
    update_whatsapp_settings: { store_id: shop.storeId, enabled: true },
    update_order_status: { order_id: '00000000-0000-4000-8000-000000000000', status: 'confirmed' },
    add_order_note: { order_id: '00000000-0000-4000-8000-000000000000', text: 'Llamada' },
    cancel_order: { order_id: '00000000-0000-4000-8000-000000000000', reason: 'fraud' },
    set_fulfillment_credentials: { store_id: shop.storeId, api_token: 'dropi-token-1234' },
    link_product_to_fulfillment: { product_id: shop.productId, fulfillment_product_id: 'DP-1001', fulfillment_variant_id: 'DP-1001-V1' },
    unlink_product_from_fulfillment: { product_id: shop.productId },
    push_order_to_fulfillment: { order_id: '00000000-0000-4000-8000-000000000000' },
    push_confirmed_orders: { store_id: shop.storeId },
    sync_fulfillment_status: { store_id: shop.storeId },
    send_whatsapp_message: { order_id: '00000000-0000-4000-8000-000000000000', text: 'Hola', idempotency_key: 'journey-whatsapp-1' },
    cancel_whatsapp_message: { message_id: '00000000-0000-4000-8000-000000000000' },
    create_product: { store_id: shop.storeId, name: 'Nuevo', packs: [{ quantity: 1, price: 50000 }] },
    update_product: { product_id: shop.productId, name: 'Renombrado' },
    archive_product: { product_id: shop.productId, unpublish_landings: true },
    duplicate_product: { product_id: shop.productId },
    set_product_stock: { product_id: shop.productId, quantity: 10 },
    set_product_packs: { product_id: shop.productId, packs: [{ quantity: 1, price: 1 }] },
    update_pack_prices: { updates: [{ product_id: shop.productId, quantity: 1, price: 1 }] },
    set_price_floor: { product_id: shop.productId, min_unit_price: 1 },
    create_landing_page: { product_id: shop.productId, slug: 'robada' },
    update_landing_page: { landing_page_id: shop.landingId, title: 'Otra' },
    set_landing_sections: { landing_page_id: shop.landingId, sections: [{ type: 'text', body: 'x' }] },
    publish_landing_page: { landing_page_id: shop.landingId },
    unpublish_landing_page: { landing_page_id: shop.landingId },
    delete_landing_page: { landing_page_id: shop.landingId },
    create_store: { name: 'Otra tienda', country: 'CO' },
    update_store: { store_id: shop.storeId, name: 'Otra' },
    archive_store: { store_id: shop.storeId },
    add_store_domain: { store_id: shop.storeId, domain: 'evil.example.com' },
    remove_store_domain: { store_id: shop.storeId, domain: 'shop.example.com' },
    create_publishable_key: { store_id: shop.storeId },
    create_secret_key: { store_id: shop.storeId },
    update_api_key: { key_id: shop.liveKeyId, label: 'x' },
    revoke_api_key: { key_id: shop.liveKeyId },
  });

  test('get_account reports exactly mcp:invoke and products:read, never ai:generate', async () => {
    const value = await ok(client, 'get_account');
    assert.equal(value.credential, 'oauth');
    assert.deepEqual(value.granted_scopes, READ_PRODUCTS);
    assert.ok(!value.granted_scopes.includes('ai:generate'));
    assert.deepEqual(value.stores.map((s: { id: string }) => s.id), [shop.storeId]);
  });

  test('lists, reads and quotes the products of its account, writing nothing', async () => {
    await unchanged(server.deps, async () => {
      const list = await ok(client, 'list_products', { store_id: shop.storeId });
      assert.deepEqual(list.items.map((p: { id: string }) => p.id), [shop.productId]);
      const product = await ok(client, 'get_product', { product_id: shop.productId });
      assert.deepEqual(product.packs.map((p: { code: string }) => p.code), ['1x', '2x', '3x']);
      const quote = await ok(client, 'quote_product_price', { product_id: shop.productId, quantity: 3 });
      assert.deepEqual(quote.order, { pack: '3x', quantity: 1, unit_price: 240000, total_price: 240000 });
      const violations = await ok(client, 'list_price_floor_violations', { store_id: shop.storeId });
      assert.deepEqual(violations.items, []);
      assert.equal((await ok(client, 'list_countries')).has_more, false);
    });
  });

  test('every write tool of the catalog is 403 insufficient_scope naming its scope, and nothing is stored', async () => {
    const writes = TOOLS.filter((t) => !t.annotations.readOnlyHint);
    const args = writeArgs();
    assert.deepEqual(writes.map((t) => t.name).sort(), Object.keys(args).sort(), 'every write tool of the catalog has arguments here');
    await unchanged(server.deps, async () => {
      for (const tool of writes) {
        assert.ok(!READ_PRODUCTS.includes(tool.scope), `${tool.name} needs a write scope`);
        await expectInsufficientScope(server, token, READ_PRODUCTS, tool.name, args[tool.name]!, tool.scope);
        await expectSdkForbidden(server.deps, client, tool.name, args[tool.name]!);
      }
    });
    assert.equal((await storeRow(server.deps, shop.storeId)).archived_at, null);
    assert.equal((await productRow(server.deps, shop.productId)).name, 'Faja');
    assert.equal((await landingRow(server.deps, shop.landingId)).published, 1);
  });

  test('the reads of the other areas are 403 too: orders and their stats, stores, keys and landing pages', async () => {
    const reads: Record<string, Record<string, unknown>> = {
      list_orders: {},
      get_account_stats: { from: '2026-01-01', to: '2026-01-31' },
      list_order_events: { order_id: '00000000-0000-4000-8000-000000000000' },
      get_whatsapp_settings: { store_id: shop.storeId },
      list_whatsapp_messages: {},
      get_fulfillment_connection: { store_id: shop.storeId },
      test_fulfillment_connection: { store_id: shop.storeId },
      preview_whatsapp_message: { order_id: '00000000-0000-4000-8000-000000000000', template: 'order_created' },
      get_order: { order_id: '00000000-0000-4000-8000-000000000000' },
      list_stores: {},
      get_store: { store_id: shop.storeId },
      list_api_keys: {},
      list_landing_pages: {},
      get_landing_page: { landing_page_id: shop.landingId },
    };
    const outside = TOOLS.filter((t) => t.annotations.readOnlyHint && !READ_PRODUCTS.includes(t.scope));
    assert.deepEqual(outside.map((t) => t.name).sort(), Object.keys(reads).sort());
    for (const tool of outside) await expectInsufficientScope(server, token, READ_PRODUCTS, tool.name, reads[tool.name]!, tool.scope);
  });
});

describe('an assistant granted every scope builds a selling store from nothing through MCP alone', () => {
  let server: TestServer;
  let accountId: string;
  let client: Client;
  let other: Shop;
  before(async () => {
    server = await startServer(OPEN_LIMITS);
    other = await seedShop(server.deps);
    accountId = (await createAccount(server.deps, { name: 'Fajas Medellín SAS' })).id;
    const user = await addUser(server.deps, accountId);
    const { tokens } = await obtainTokens(server.url, user);
    assert.equal(tokens.scope, GRANTABLE_SCOPES.join(' '));
    client = await connect(server.url, tokens.access_token);
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  test('a client asking for ai:generate among other scopes gets the others only', async () => {
    const user = await addUser(server.deps, accountId);
    const { tokens } = await obtainTokens(server.url, user, { scope: 'products:read ai:generate' });
    assert.equal(tokens.scope, 'mcp:invoke products:read');
    const reader = await connect(server.url, tokens.access_token);
    try {
      assert.deepEqual((await ok(reader, 'get_account')).granted_scopes, READ_PRODUCTS);
    } finally {
      await reader.close();
    }
  });

  test('from create_store to a published landing page that takes a mode-1 order with the quoted price', async () => {
    // The account has nothing yet.
    const account = await ok(client, 'get_account');
    assert.equal(account.account.id, accountId);
    assert.equal(account.credential, 'oauth');
    assert.deepEqual(account.granted_scopes, [...GRANTABLE_SCOPES]);
    assert.ok(!account.granted_scopes.includes('ai:generate'));
    assert.deepEqual(account.stores, []);
    const colombia = (await ok(client, 'list_countries')).items.find((c: { country: string }) => c.country === 'CO');
    assert.equal(colombia.currency, 'COP');

    // Store, checkout domain, publishable key.
    const store = await ok(client, 'create_store', { name: 'Fajas Medellín', country: 'CO' });
    assert.equal(store.currency, 'COP');
    assert.deepEqual(store.domains, []);
    const withDomain = await ok(client, 'add_store_domain', { store_id: store.id, domain: 'fajas.example.co' });
    assert.deepEqual(withDomain.domains, ['fajas.example.co']);
    const key = await ok(client, 'create_publishable_key', { store_id: store.id, allowed_domains: ['fajas.example.co'], label: 'tienda' });
    assert.match(key.key, /^svc_live_pub_/);

    // Product with a 1x/2x/3x ladder and a floor, then activated.
    const product = await ok(client, 'create_product', {
      store_id: store.id,
      name: 'Faja colombiana',
      price_floor: 60000,
      packs: [
        { quantity: 1, price: 99900 },
        { quantity: 2, price: 179900, is_default: true, label: 'Más vendido' },
        { quantity: 3, price: 239900 },
      ],
    });
    assert.equal(product.status, 'draft');
    const active = await ok(client, 'update_product', { product_id: product.id, status: 'active' });
    assert.equal(active.status, 'active');

    // Landing page: created offline, given sections, published.
    const page = await ok(client, 'create_landing_page', { product_id: product.id, slug: 'faja-colombiana', title: 'Faja colombiana original' });
    assert.equal(page.status, 'unpublished');
    await ok(client, 'set_landing_sections', {
      landing_page_id: page.id,
      sections: [
        { type: 'hero', heading: 'Faja colombiana original', body: 'Pagas al recibir.' },
        { type: 'benefits', items: [{ title: 'Envío gratis' }, { title: 'Pago contra entrega' }] },
        { type: 'cta', heading: 'Pide la tuya' },
      ],
    });
    const published = await ok(client, 'publish_landing_page', { landing_page_id: page.id });
    assert.equal(published.status, 'published');
    assert.equal(published.url, `${server.deps.config.baseUrl}/l/faja-colombiana`);
    assert.equal(published.order_url, `${server.url}/api/orders/create`);

    // What is stored is what the assistant built.
    const storeStored = await storeRow(server.deps, store.id);
    assert.equal(storeStored.account_id, accountId);
    assert.equal(storeStored.allowed_domains, '["fajas.example.co"]');
    const productStored = await productRow(server.deps, product.id);
    assert.equal(productStored.status, 'active');
    assert.equal(productStored.min_unit_price_minor, 6_000_000);
    const pageStored = await landingRow(server.deps, page.id);
    assert.equal(pageStored.published, 1);
    assert.equal(JSON.parse(pageStored.sections).length, 3);

    // A buyer orders two units on the page: the quote gives the pricing fields, no credential is sent.
    const quote = await ok(client, 'quote_product_price', { product_id: product.id, quantity: 2 });
    assert.deepEqual(quote.order, { pack: '2x', quantity: 1, unit_price: 179900, total_price: 179900 });
    const telefono = nextPhone();
    const res = await postOrder(server.url, {
      landing_page_id: page.id,
      nombre: 'Luisa Fernanda Restrepo',
      telefono,
      departamento: 'Antioquia',
      ciudad: 'Medellin',
      direccion: 'Carrera 43A # 1-50, apto 802',
      ...quote.order,
    });
    const created = await expectCreated(res);
    assert.equal(created.data.total_price, 179900);
    assert.equal(created.data.currency, 'COP');
    assert.equal(created.data.sandbox, false);
    assert.equal(created.data.ciudad, 'Medellín');
    const order = await orderRow(server.deps, created.data.id);
    assert.equal(order.landing_page_id, page.id);
    assert.equal(order.store_id, store.id);
    assert.equal(order.product_id, product.id);
    assert.equal(order.api_key_id, null);
    assert.equal(order.pack, '2x');
    assert.equal(order.quantity, 1);
    assert.equal(order.unit_price_minor, 17_990_000);
    assert.equal(order.total_price_minor, 17_990_000);
    assert.equal(order.order_number, 1001);

    // The publishable key takes an embedded checkout's order from the store's domain too.
    const embedded = await expectCreated(
      await postOrder(
        server.url,
        { store_id: store.id, product_id: product.id, ...buyer({ telefono: nextPhone() }), pack: '1x', quantity: 1, unit_price: 99900, total_price: 99900 },
        { 'x-svc-api-key': key.key, origin: 'https://fajas.example.co' },
      ),
    );
    assert.equal((await orderRow(server.deps, embedded.data.id)).api_key_id, key.id);

    // The assistant sees both orders and the store's counts; the other account saw nothing of it.
    const orders = await ok(client, 'list_orders', { store_id: store.id });
    assert.deepEqual(orders.items.map((o: { id: string }) => o.id).sort(), [created.data.id, embedded.data.id].sort());
    const counts = (await ok(client, 'get_store', { store_id: store.id })).counts;
    assert.deepEqual(counts, { products: 1, landing_pages: 1, published_landing_pages: 1, active_keys: 1, orders: 2 });
    const theirs = await connect(server.url, other.secretKey);
    try {
      assert.deepEqual((await ok(theirs, 'list_stores')).items.map((s: { id: string }) => s.id), [other.storeId]);
    } finally {
      await theirs.close();
    }
  });
});
