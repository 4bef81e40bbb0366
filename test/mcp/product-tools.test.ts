// Product tools through the real SDK client (MCP-TOOLS.md §6.4 rows 15-21): drafts, activation,
// archiving against live landing pages, copies across stores, stock; money in major units of the
// store's currency (§5.5); tenancy and the 403 of a token without the scope.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { addLanding, addProduct, addStore, orderBody, postOrder, seedShop, type Shop } from '../helpers/fixtures.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { OPEN_LIMITS, SHOP_ORIGIN, expectCreated, expectError, nextPhone } from '../api/orders/order-kit.ts';
import { connect } from './mcp-kit.ts';
import { photo, startImageHost, type ImageHost } from '../helpers/image-host.ts';
import {
  expectForeignLikeUnknown,
  expectInsufficientScope,
  expectSdkForbidden,
  expectToolError,
  landingRow,
  ok,
  packsOf,
  productRow,
  scopedTokens,
  unchanged,
  openToolBench,
  closeToolBench,
} from './account-kit.ts';

const STORES_READ = ['mcp:invoke', 'stores:read'];
const PRODUCTS_READ = ['mcp:invoke', 'products:read'];

let slugSeq = 0;

describe('product tools', () => {
  let server: TestServer, shop: Shop, other: Shop, client: Client;
  let tokens: { storesRead: string; productsRead: string };
  /** The seller's image host, on loopback (the server allows private image URLs here). */
  let imageHost: ImageHost;
  before(async () => {
    imageHost = await startImageHost();
    for (const [i, name] of ['faja', 'a', 'b', 'c', 'o'].entries()) imageHost.serve(`/${name}.jpg`, await photo({ width: 400, height: 300, seed: i + 1 }));
    ({ server, shop, other, client, tokens } = await openToolBench({ storesRead: ['stores:read'], productsRead: ['products:read'] }, {}, { CODRAIL_IMAGE_URLS_ALLOW_PRIVATE: '1' }));
  });
  after(async () => {
    await closeToolBench({ server, client });
    await imageHost.close();
  });
  /** A stored image entry as hosting makes it from a URL of the image host (400×300: one width, 320). */
  const hostedFrom = (path: string, id: string, alt?: string) => ({ id, width: 320, height: 240, source: imageHost.url(path), ...(alt && { alt }) });

  const LADDER = [
    { quantity: 1, price: 100000 },
    { quantity: 2, price: 180000 },
  ];
  const fresh = (input: Record<string, unknown> = {}) => addProduct(server.deps, { store_id: shop.storeId, name: 'Fresh', packs: LADDER, ...input });
  const productIdsOf = async (accountId: string) =>
    (
      await server.deps.db
        .selectFrom('products')
        .innerJoin('stores', 'stores.id', 'products.store_id')
        .select('products.id')
        .where('stores.account_id', '=', accountId)
        .orderBy('products.created_at', 'desc')
        .orderBy('products.id', 'desc')
        .execute()
    ).map((r) => r.id);

  describe('list_products', () => {
    test('list_products pages newest first through exactly the products of the account, with the default pack price', async () => {
      await fresh({ name: 'Second', packs: [{ quantity: 1, price: 90000 }, { quantity: 2, price: 150000, is_default: true }] });
      await fresh({ name: 'Third' });
      const seen: { id: string; price: number | null; store_id: string }[] = [];
      let cursor: string | undefined;
      do {
        const page = await ok(client, 'list_products', { limit: 2, ...(cursor ? { cursor } : {}) });
        seen.push(...page.items);
        cursor = page.next_cursor;
      } while (cursor);
      assert.deepEqual(seen.map((p) => p.id), await productIdsOf(shop.accountId));
      assert.ok(seen.every((p) => p.store_id === shop.storeId));
      const seeded = seen.find((p) => p.id === shop.productId)!;
      const row = await productRow(server.deps, shop.productId);
      assert.deepEqual(seeded, { id: row.id, store_id: shop.storeId, name: 'Faja', sku: null, status: 'active', currency: 'COP', price: 100000, stock: null, linked: false, created_at: row.created_at });
      const second = (await ok(client, 'list_products', { query: 'second' })).items;
      assert.equal(second.length, 1);
      assert.equal(second[0].price, 150000, 'the default pack sets the price');
    });

    test('list_products filters by store, status, name or SKU, stock and link', async () => {
      await fresh({ name: 'Draft thing', status: 'draft', sku: 'SKU-DRAFT-1', stock: 3 });
      const drafts = await ok(client, 'list_products', { store_id: shop.storeId, status: 'draft' });
      assert.ok(drafts.items.length > 0 && drafts.items.every((p: { status: string }) => p.status === 'draft'));
      assert.deepEqual((await ok(client, 'list_products', { query: 'sku-draft' })).items.map((p: { name: string }) => p.name), ['Draft thing']);
      assert.deepEqual((await ok(client, 'list_products', { stock_below: 4 })).items.map((p: { name: string }) => p.name), ['Draft thing']);
      assert.deepEqual((await ok(client, 'list_products', { linked: true })).items, []);
      assert.ok((await ok(client, 'list_products', { linked: false, limit: 100 })).items.some((p: { id: string }) => p.id === shop.productId));
    });

    test('list_products refuses an unknown status, a negative stock_below and a bad cursor', async () => {
      await expectToolError(server.deps, client, 'list_products', { status: 'sold' }, 'invalid_input', 'status');
      await expectToolError(server.deps, client, 'list_products', { stock_below: -1 }, 'invalid_input', 'stock_below');
      await expectToolError(server.deps, client, 'list_products', { cursor: 'bad cursor' }, 'invalid_cursor', 'cursor');
    });

    test("list_products of another account's store answers not_found exactly like an unknown store", async () => {
      await expectForeignLikeUnknown(server.deps, client, 'list_products', (id) => ({ store_id: id }), other.storeId, 'store_id');
    });

    test('list_products with a token without products:read is 403; with products:read it lists', async () => {
      await expectInsufficientScope(server, tokens.storesRead, STORES_READ, 'list_products', {}, 'products:read');
      const reader = await connect(server.url, tokens.productsRead);
      try {
        assert.deepEqual((await ok(reader, 'list_products', { limit: 100 })).items.map((p: { id: string }) => p.id), await productIdsOf(shop.accountId));
      } finally {
        await reader.close();
      }
    });
  });

  describe('get_product', () => {
    test('get_product returns the pack ladder with the floor checkout applies to each pack', async () => {
      const value = await ok(client, 'get_product', { product_id: shop.productId });
      assert.equal(value.id, shop.productId);
      assert.equal(value.currency, 'COP');
      assert.equal(value.price_floor, 0);
      assert.equal(value.default_pack, '1x');
      assert.deepEqual(value.landing_pages, { total: 1, published: 1 });
      assert.deepEqual(
        value.packs.map((p: Record<string, unknown>) => [p.code, p.quantity, p.price, p.min_price, p.floor]),
        [
          ['1x', 1, 100000, null, 70000],
          ['2x', 2, 180000, null, 126000],
          ['3x', 3, 240000, 200000, 200000],
        ],
      );
      assert.match(value.packs[0].price_formatted, /100\.000/);
      const stored = await packsOf(server.deps, shop.productId);
      assert.deepEqual(stored.map((p) => p.price_minor), value.packs.map((p: { price: number }) => p.price * 100));
    });

    test('get_product refuses a product_id that is not a UUID', async () => {
      await expectToolError(server.deps, client, 'get_product', { product_id: 'faja' }, 'invalid_input', 'product_id');
    });

    test("get_product of another account's product answers not_found exactly like an unknown id, with a hint", async () => {
      const error = await expectForeignLikeUnknown(server.deps, client, 'get_product', (id) => ({ product_id: id }), other.productId, 'product_id');
      assert.match(error.hint ?? '', /list_products/);
    });

    test('get_product with a token without products:read is 403, through the SDK client too', async () => {
      await expectInsufficientScope(server, tokens.storesRead, STORES_READ, 'get_product', { product_id: shop.productId }, 'products:read');
      const reader = await connect(server.url, tokens.storesRead);
      try {
        await expectSdkForbidden(server.deps, reader, 'get_product', { product_id: shop.productId });
      } finally {
        await reader.close();
      }
    });
  });

  describe('create_product', () => {
    test('create_product stores a draft with its ladder in minor units, floor, images and stock', async () => {
      const value = await ok(client, 'create_product', {
        store_id: shop.storeId,
        name: ' Faja Reductora ',
        sku: 'FAJA-01',
        description: 'Moldea la figura.',
        images: [{ url: imageHost.url('/faja.jpg'), alt: 'Faja' }],
        stock: 12,
        price_floor: 50000,
        packs: [
          { quantity: 1, price: 99900, compare_at_price: 129900, label: 'Prueba' },
          { quantity: 2, price: 179900, is_default: true, label: 'Más vendido' },
          { quantity: 3, price: 239900, min_price: 210000 },
        ],
      });
      assert.equal(value.status, 'draft', 'a draft unless told otherwise');
      assert.equal(value.name, 'Faja Reductora');
      assert.equal(value.price_floor, 50000);
      assert.equal(value.default_pack, '2x');
      assert.equal(value.price, 179900);
      assert.deepEqual(value.packs.map((p: { floor: number }) => p.floor), [69930, 125930, 210000]);
      const row = await productRow(server.deps, value.id);
      assert.equal(row.store_id, shop.storeId);
      assert.equal(row.name, 'Faja Reductora');
      assert.equal(row.sku, 'FAJA-01');
      assert.equal(row.status, 'draft');
      assert.equal(row.description, 'Moldea la figura.');
      assert.deepEqual(JSON.parse(row.images), [hostedFrom('/faja.jpg', value.images[0].id, 'Faja')]);
      assert.deepEqual(value.images, [{ url: `${server.deps.config.baseUrl}/img/${value.images[0].id}-320.jpg`, ...hostedFrom('/faja.jpg', value.images[0].id, 'Faja') }]);
      assert.equal(row.stock, 12);
      assert.ok(row.stock_updated_at);
      assert.equal(row.min_unit_price_minor, 5_000_000);
      assert.equal(row.fulfillment_product_ref, null);
      const packs = await packsOf(server.deps, value.id);
      assert.deepEqual(
        packs.map((p) => [p.code, p.units, p.price_minor, p.compare_at_price_minor, p.min_price_minor, p.label, p.is_default, p.position]),
        [
          ['1x', 1, 9_990_000, 12_990_000, null, 'Prueba', 0, 0],
          ['2x', 2, 17_990_000, null, null, 'Más vendido', 1, 1],
          ['3x', 3, 23_990_000, null, 21_000_000, null, 0, 2],
        ],
      );
    });

    test('create_product without packs stores a product with no price yet', async () => {
      const value = await ok(client, 'create_product', { store_id: shop.storeId, name: 'Sin packs', status: 'active' });
      assert.deepEqual(value.packs, []);
      assert.equal(value.price, null);
      assert.equal(value.default_pack, null);
      assert.equal((await productRow(server.deps, value.id)).status, 'active');
      assert.deepEqual(await packsOf(server.deps, value.id), []);
    });

    test('create_product refuses a pack under the price floor × its quantity with price_below_floor and stores nothing', async () => {
      const error = await expectToolError(
        server.deps,
        client,
        'create_product',
        { store_id: shop.storeId, name: 'Barata', price_floor: 60000, packs: [{ quantity: 1, price: 60000 }, { quantity: 2, price: 119999 }] },
        'price_below_floor',
        'packs.1.price',
      );
      assert.match(error.hint ?? '', /set_price_floor/);
    });

    test('create_product refuses bad arguments, naming the field, and stores nothing', async () => {
      const make = (over: Record<string, unknown>) => ({ store_id: shop.storeId, name: 'X', ...over });
      await expectToolError(server.deps, client, 'create_product', make({ name: '' }), 'invalid_input', 'name');
      await expectToolError(server.deps, client, 'create_product', make({ status: 'archived' }), 'invalid_input', 'status');
      await expectToolError(server.deps, client, 'create_product', make({ packs: [{ quantity: 1, price: -1 }] }), 'invalid_input', 'packs.0.price');
      await expectToolError(server.deps, client, 'create_product', make({ packs: [{ quantity: 1, price: 10.123 }] }), 'invalid_input', 'packs.0.price');
      await expectToolError(server.deps, client, 'create_product', make({ packs: [{ quantity: 0, price: 10 }] }), 'invalid_input', 'packs.0.quantity');
      await expectToolError(server.deps, client, 'create_product', make({ packs: [{ quantity: 1, price: 10 }, { quantity: 1, price: 20 }] }), 'invalid_input', 'packs.1.quantity');
      await expectToolError(server.deps, client, 'create_product', make({ packs: [{ quantity: 1, price: 10, compare_at_price: 10 }] }), 'invalid_input', 'packs.0.compare_at_price');
      await expectToolError(server.deps, client, 'create_product', make({ packs: [{ quantity: 1, price: 10, min_price: 11 }] }), 'invalid_input', 'packs.0.min_price');
      await expectToolError(server.deps, client, 'create_product', make({ packs: [{ quantity: 1, price: 10, is_default: true }, { quantity: 2, price: 20, is_default: true }] }), 'invalid_input', 'packs');
      await expectToolError(server.deps, client, 'create_product', make({ packs: Array.from({ length: 7 }, (_, i) => ({ quantity: i + 1, price: 10 * (i + 1) })) }), 'invalid_input', 'packs');
      await expectToolError(server.deps, client, 'create_product', make({ images: [{ url: 'http://cdn.example.com/x.jpg' }] }), 'invalid_input', 'images.0.url');
      await expectToolError(server.deps, client, 'create_product', make({ price: 100 }), 'invalid_input');
    });

    test('create_product refuses a SKU another product of the store has, as a conflict on sku', async () => {
      await ok(client, 'create_product', { store_id: shop.storeId, name: 'Uno', sku: 'DUP-1' });
      await expectToolError(server.deps, client, 'create_product', { store_id: shop.storeId, name: 'Dos', sku: 'DUP-1' }, 'conflict', 'sku');
    });

    test('create_product in a CLP store refuses prices with decimals and stores whole ones', async () => {
      const chile = await addStore(server.deps, shop.accountId, { name: 'Tienda CL', country: 'CL' });
      assert.equal(chile.currency, 'CLP');
      await expectToolError(server.deps, client, 'create_product', { store_id: chile.id, name: 'P', packs: [{ quantity: 1, price: 19990.5 }] }, 'invalid_input', 'packs.0.price');
      await expectToolError(server.deps, client, 'create_product', { store_id: chile.id, name: 'P', price_floor: 10.5 }, 'invalid_input', 'price_floor');
      await expectToolError(server.deps, client, 'create_product', { store_id: chile.id, name: 'P', packs: [{ quantity: 1, price: 19990, compare_at_price: 25000.25 }] }, 'invalid_input', 'packs.0.compare_at_price');
      const value = await ok(client, 'create_product', { store_id: chile.id, name: 'P', packs: [{ quantity: 1, price: 19990 }] });
      assert.equal(value.currency, 'CLP');
      assert.equal(value.packs[0].price, 19990);
      assert.deepEqual((await packsOf(server.deps, value.id)).map((p) => p.price_minor), [1_999_000]);
    });

    test('create_product in an MXN store keeps centavos', async () => {
      const mexico = await addStore(server.deps, shop.accountId, { name: 'Tienda MX', country: 'MX' });
      const value = await ok(client, 'create_product', { store_id: mexico.id, name: 'P', packs: [{ quantity: 1, price: 499.5 }] });
      assert.equal(value.packs[0].price, 499.5);
      assert.deepEqual((await packsOf(server.deps, value.id)).map((p) => p.price_minor), [49_950]);
    });

    test("create_product in another account's store answers not_found exactly like an unknown store", async () => {
      await expectForeignLikeUnknown(server.deps, client, 'create_product', (id) => ({ store_id: id, name: 'Intruso' }), other.storeId, 'store_id');
    });

    test('create_product with a token holding products:read only is 403 and stores nothing', async () => {
      await expectInsufficientScope(server, tokens.productsRead, PRODUCTS_READ, 'create_product', { store_id: shop.storeId, name: 'X' }, 'products:write');
      const reader = await connect(server.url, tokens.productsRead);
      try {
        await expectSdkForbidden(server.deps, reader, 'create_product', { store_id: shop.storeId, name: 'X' });
      } finally {
        await reader.close();
      }
    });
  });

  describe('update_product', () => {
    test('update_product patches the given fields, replaces images, activates, and keeps the rest', async () => {
      const product = await fresh({ status: 'draft', sku: 'UPD-1', description: 'Old', images: [{ url: imageHost.url('/a.jpg') }, { url: imageHost.url('/b.jpg') }] });
      const value = await ok(client, 'update_product', { product_id: product.id, name: 'Renamed', images: [{ url: imageHost.url('/c.jpg'), alt: 'C' }], status: 'active' });
      assert.equal(value.name, 'Renamed');
      assert.equal(value.status, 'active');
      assert.equal(value.description, 'Old');
      const row = await productRow(server.deps, product.id);
      assert.equal(row.name, 'Renamed');
      assert.equal(row.status, 'active');
      assert.equal(row.sku, 'UPD-1');
      assert.equal(row.description, 'Old');
      assert.deepEqual(JSON.parse(row.images), [hostedFrom('/c.jpg', value.images[0].id, 'C')]);
      const cleared = await ok(client, 'update_product', { product_id: product.id, sku: '', description: '', status: 'draft' });
      assert.equal(cleared.sku, null);
      const after_ = await productRow(server.deps, product.id);
      assert.equal(after_.sku, null);
      assert.equal(after_.description, null);
      assert.equal(after_.status, 'draft');
    });

    test('update_product refuses to archive through status, a taken SKU and bad images, changing nothing', async () => {
      await fresh({ sku: 'TAKEN-1' });
      const product = await fresh({ sku: 'MINE-1' });
      await expectToolError(server.deps, client, 'update_product', { product_id: product.id, status: 'archived' }, 'invalid_input', 'status');
      await expectToolError(server.deps, client, 'update_product', { product_id: product.id, sku: 'TAKEN-1' }, 'conflict', 'sku');
      await expectToolError(server.deps, client, 'update_product', { product_id: product.id, images: [{ url: 'ftp://x' }] }, 'invalid_input', 'images.0.url');
      await expectToolError(server.deps, client, 'update_product', { product_id: product.id, packs: LADDER }, 'invalid_input');
    });

    test('update_product of an archived product refuses a status change as invalid_state', async () => {
      const product = await fresh();
      await ok(client, 'archive_product', { product_id: product.id });
      await expectToolError(server.deps, client, 'update_product', { product_id: product.id, status: 'active' }, 'invalid_state', 'status');
      assert.equal((await productRow(server.deps, product.id)).status, 'archived');
    });

    test("update_product of another account's product answers not_found exactly like an unknown id and changes nothing", async () => {
      await expectForeignLikeUnknown(server.deps, client, 'update_product', (id) => ({ product_id: id, name: 'Hijacked' }), other.productId, 'product_id');
      assert.equal((await productRow(server.deps, other.productId)).name, 'Faja');
    });

    test('update_product with a token holding products:read only is 403 and changes nothing', async () => {
      await expectInsufficientScope(server, tokens.productsRead, PRODUCTS_READ, 'update_product', { product_id: shop.productId, name: 'X' }, 'products:write');
    });
  });

  describe('archive_product', () => {
    test('archive_product is refused while a published landing page sells the product, changing nothing', async () => {
      const error = await expectToolError(server.deps, client, 'archive_product', { product_id: shop.productId }, 'invalid_state', 'unpublish_landings');
      assert.match(error.hint ?? '', /unpublish_landings/);
      assert.equal((await productRow(server.deps, shop.productId)).status, 'active');
      assert.equal((await landingRow(server.deps, shop.landingId)).published, 1);
      await expectToolError(server.deps, client, 'archive_product', { product_id: shop.productId, unpublish_landings: false }, 'invalid_state', 'unpublish_landings');
    });

    test('archive_product with unpublish_landings archives it and takes its pages offline; checkout then refuses it', async () => {
      const product = await fresh({ packs: [{ quantity: 1, price: 100000 }] });
      const landing = await addLanding(server.deps, { product_id: product.id, slug: `arch-${++slugSeq}`, publish: true });
      const draft = await addLanding(server.deps, { product_id: product.id, slug: `arch-${++slugSeq}` });
      const body = () => orderBody({ storeId: shop.storeId, productId: product.id }, { telefono: nextPhone() });
      await expectCreated(await postOrder(server.url, body(), { 'x-svc-api-key': shop.liveKey, origin: SHOP_ORIGIN }));

      const value = await ok(client, 'archive_product', { product_id: product.id, unpublish_landings: true });
      assert.equal(value.status, 'archived');
      assert.deepEqual(value.landing_pages, { total: 2, published: 0 });
      assert.equal((await productRow(server.deps, product.id)).status, 'archived');
      assert.equal((await landingRow(server.deps, landing.id)).published, 0);
      assert.equal((await landingRow(server.deps, draft.id)).published, 0);
      await expectError(await postOrder(server.url, body(), { 'x-svc-api-key': shop.liveKey, origin: SHOP_ORIGIN }), 400, { fields: ['product_id'] });
      const again = await unchanged(server.deps, () => ok(client, 'archive_product', { product_id: product.id }));
      assert.equal(again.status, 'archived');
      assert.ok((await ok(client, 'list_products', { status: 'archived', limit: 100 })).items.some((p: { id: string }) => p.id === product.id));
    });

    test('archive_product of a product no page sells archives it at once', async () => {
      const product = await fresh();
      const value = await ok(client, 'archive_product', { product_id: product.id });
      assert.equal(value.status, 'archived');
      assert.equal((await productRow(server.deps, product.id)).status, 'archived');
    });

    test('archive_product refuses a non-boolean unpublish_landings and archives nothing', async () => {
      await expectToolError(server.deps, client, 'archive_product', { product_id: shop.productId, unpublish_landings: 'yes' }, 'invalid_input', 'unpublish_landings');
    });

    test("archive_product of another account's product answers not_found exactly like an unknown id and archives nothing", async () => {
      await expectForeignLikeUnknown(server.deps, client, 'archive_product', (id) => ({ product_id: id, unpublish_landings: true }), other.productId, 'product_id');
      assert.equal((await productRow(server.deps, other.productId)).status, 'active');
      assert.equal((await landingRow(server.deps, other.landingId)).published, 1);
    });

    test('archive_product with a token holding products:read only is 403 and archives nothing', async () => {
      await expectInsufficientScope(server, tokens.productsRead, PRODUCTS_READ, 'archive_product', { product_id: shop.productId, unpublish_landings: true }, 'products:write');
    });
  });

  describe('duplicate_product', () => {
    test('duplicate_product in the same store makes a draft "(copia)" with the packs and floor, without SKU, stock or link', async () => {
      const source = await fresh({ name: 'Original', sku: 'ORIG-1', stock: 9, price_floor: 40000, description: 'Desc', images: [{ url: imageHost.url('/o.jpg') }] });
      const value = await ok(client, 'duplicate_product', { product_id: source.id });
      assert.notEqual(value.id, source.id);
      assert.equal(value.name, 'Original (copia)');
      assert.equal(value.status, 'draft');
      assert.equal(value.sku, null);
      assert.equal(value.stock, null);
      assert.equal(value.price_floor, 40000);
      const row = await productRow(server.deps, value.id);
      assert.equal(row.store_id, shop.storeId);
      assert.equal(row.status, 'draft');
      assert.equal(row.description, 'Desc');
      assert.equal(row.images, JSON.stringify([hostedFrom('/o.jpg', source.images[0]!.id!)]), 'the same hosted image, not fetched again');
      assert.equal(row.min_unit_price_minor, 4_000_000);
      assert.equal(row.fulfillment_product_ref, null);
      const strip = (packs: Awaited<ReturnType<typeof packsOf>>) => packs.map(({ id: _i, product_id: _p, ...rest }) => rest);
      assert.deepEqual(strip(await packsOf(server.deps, value.id)), strip(await packsOf(server.deps, source.id)));
    });

    test('duplicate_product into another store of the same currency keeps the SKU and packs; another currency copies neither packs nor floor', async () => {
      const source = await fresh({ name: 'Viajera', sku: 'VIA-1', price_floor: 40000 });
      const bogota = await addStore(server.deps, shop.accountId, { name: 'Bogotá', country: 'CO' });
      const mexico = await addStore(server.deps, shop.accountId, { name: 'CDMX', country: 'MX' });
      const same = await ok(client, 'duplicate_product', { product_id: source.id, target_store_id: bogota.id });
      assert.equal(same.store_id, bogota.id);
      assert.equal(same.name, 'Viajera');
      assert.equal(same.sku, 'VIA-1');
      assert.deepEqual(same.packs.map((p: { code: string; price: number }) => [p.code, p.price]), [['1x', 100000], ['2x', 180000]]);
      assert.equal((await productRow(server.deps, same.id)).store_id, bogota.id);
      const foreign = await ok(client, 'duplicate_product', { product_id: source.id, target_store_id: mexico.id, name: 'Viajera MX' });
      assert.equal(foreign.currency, 'MXN');
      assert.deepEqual(foreign.packs, []);
      assert.equal(foreign.price_floor, 0);
      assert.deepEqual(await packsOf(server.deps, foreign.id), []);
      const bare = await ok(client, 'duplicate_product', { product_id: source.id, copy_packs: false });
      assert.deepEqual(await packsOf(server.deps, bare.id), []);
    });

    test('duplicate_product refuses an explicit SKU the target store has, as a conflict, storing nothing', async () => {
      const source = await fresh({ sku: 'SRC-1' });
      await expectToolError(server.deps, client, 'duplicate_product', { product_id: source.id, sku: 'SRC-1' }, 'conflict', 'sku');
      await expectToolError(server.deps, client, 'duplicate_product', { product_id: source.id, copy_packs: 'no' }, 'invalid_input', 'copy_packs');
    });

    test("duplicate_product of another account's product, or into another account's store, answers not_found exactly like an unknown id", async () => {
      await expectForeignLikeUnknown(server.deps, client, 'duplicate_product', (id) => ({ product_id: id }), other.productId, 'product_id');
      await expectForeignLikeUnknown(server.deps, client, 'duplicate_product', (id) => ({ product_id: shop.productId, target_store_id: id }), other.storeId, 'target_store_id');
    });

    test('duplicate_product with a token holding products:read only is 403 and stores nothing', async () => {
      await expectInsufficientScope(server, tokens.productsRead, PRODUCTS_READ, 'duplicate_product', { product_id: shop.productId }, 'products:write');
    });
  });

  describe('set_product_stock', () => {
    test('set_product_stock stores the absolute units, the reason and when', async () => {
      const product = await fresh({ name: 'Stocked' });
      const value = await ok(client, 'set_product_stock', { product_id: product.id, quantity: 25, reason: 'restock' });
      assert.equal(value.stock, 25);
      assert.ok(value.stock_updated_at);
      const row = await productRow(server.deps, product.id);
      assert.equal(row.stock, 25);
      assert.equal(row.stock_note, 'restock');
      assert.equal(row.stock_updated_at, value.stock_updated_at);
      assert.ok((await ok(client, 'list_products', { stock_below: 26, limit: 100 })).items.some((p: { id: string }) => p.id === product.id));
      assert.ok(!(await ok(client, 'list_products', { stock_below: 25, limit: 100 })).items.some((p: { id: string }) => p.id === product.id));
      await ok(client, 'set_product_stock', { product_id: product.id, quantity: 0 });
      assert.equal((await productRow(server.deps, product.id)).stock, 0);
    });

    test('set_product_stock refuses a negative or fractional quantity and changes nothing', async () => {
      await expectToolError(server.deps, client, 'set_product_stock', { product_id: shop.productId, quantity: -1 }, 'invalid_input', 'quantity');
      await expectToolError(server.deps, client, 'set_product_stock', { product_id: shop.productId, quantity: 1.5 }, 'invalid_input', 'quantity');
      await expectToolError(server.deps, client, 'set_product_stock', { product_id: shop.productId }, 'invalid_input', 'quantity');
    });

    test("set_product_stock of another account's product answers not_found exactly like an unknown id and changes nothing", async () => {
      await expectForeignLikeUnknown(server.deps, client, 'set_product_stock', (id) => ({ product_id: id, quantity: 1 }), other.productId, 'product_id');
      assert.equal((await productRow(server.deps, other.productId)).stock, null);
    });

    test('set_product_stock with a token holding products:read only is 403 and changes nothing', async () => {
      await expectInsufficientScope(server, tokens.productsRead, PRODUCTS_READ, 'set_product_stock', { product_id: shop.productId, quantity: 1 }, 'products:write');
    });
  });
});
