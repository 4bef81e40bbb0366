// The store, domain, product, pack and price routes of the account API (SPEC 4.3; MCP-TOOLS.md
// §6.2-6.5) with a secret key: what each answers, what it stores, and the refusals (400 with the
// bad field, 404 alike for unknown and foreign ids, 409, 415, 405) that store nothing.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openShop, seedShop, type Shop } from '../../helpers/fixtures.ts';
import type { TestServer } from '../../helpers/server.ts';
import { buyer } from '../../mcp/mcp-kit.ts';
import { OPEN_LIMITS, nextPhone } from '../orders/order-kit.ts';
import { UNKNOWN_ID, V1Client, failed, ok, rows, storesNothing, sameNotFound } from './v1-kit.ts';
import { photo, startImageHost, type ImageHost } from '../../helpers/image-host.ts';

const STORE = '/api/v1/stores/{store_id}';
const PRODUCT = '/api/v1/products/{product_id}';

describe('account API: stores and products', () => {
  let server: TestServer;
  let shop: Shop;
  let foreign: Shop;
  let v1: V1Client;
  let orderSeq = 0;
  /** The seller's image host (on loopback: the server allows private image URLs here). */
  let imageHost: ImageHost;

  before(async () => {
    imageHost = await startImageHost();
    imageHost.serve('/faja.jpg', await photo({ width: 400, height: 300 }));
    ({ server, shop } = await openShop(OPEN_LIMITS, { env: { CODRAIL_IMAGE_URLS_ALLOW_PRIVATE: '1' } }));
    foreign = await seedShop(server.deps);
    v1 = await V1Client.open(server, shop.secretKey);
  });
  after(async () => {
    await server.close();
    await imageHost.close();
  });

  const storeRow = async (id: string) => (await rows(server.deps, 'select * from stores where id = ?', id))[0]!;
  const productRow = async (id: string) => (await rows(server.deps, 'select * from products where id = ?', id))[0]!;
  const packRows = (id: string) =>
    rows(server.deps, 'select code, units, price_minor, compare_at_price_minor, min_price_minor, label, is_default, position from product_packs where product_id = ? order by position', id);

  /** An order through POST /api/v1/orders, priced from the pack. */
  async function order(storeId: string, productId: string, client = v1) {
    return ok(await client.post('/api/v1/orders', { body: { store_id: storeId, product_id: productId, pack: '1x', buyer: buyer({ telefono: nextPhone() }), idempotency_key: `sp-${++orderSeq}` } }), 201);
  }

  /** An account of its own (seedShop's store, product, published page and keys), for a test that reads back counts or whole lists. */
  async function ownAccount(): Promise<{ shop: Shop; v1: V1Client }> {
    const own = await seedShop(server.deps);
    return { shop: own, v1: v1.as(own.secretKey) };
  }

  /** The unknown id and the other account's id answer the same bytes. */
  describe('stores', () => {
    const STORE_BODY = { name: ' Tienda Bogotá ', country: 'co', domains: ['Shop.Example.COM', '*.brand.example', 'shop.example.com'], support_phone: '300 123 4567', order_prefix: 'td-', max_discount_pct: 20 };
    /** A fresh store as the create test makes it, for a test that changes one. */
    const newStore = async (client = v1): Promise<string> => ok(await client.post('/api/v1/stores', { body: STORE_BODY }), 201).id;

    test('POST /stores creates a store with the country defaults and normalized values and answers 201 with it', async () => {
      const data = ok(await v1.post('/api/v1/stores', { body: STORE_BODY }), 201);
      const storeId = data.id;
      assert.equal(data.account_id, shop.accountId);
      assert.equal(data.status, 'active');
      assert.deepEqual(data.counts, { products: 0, landing_pages: 0, published_landing_pages: 0, active_keys: 0, orders: 0 });
      const row = await storeRow(storeId);
      assert.deepEqual(
        {
          account_id: row.account_id,
          name: row.name,
          country: row.country,
          currency: row.currency,
          timezone: row.timezone,
          allowed_domains: JSON.parse(row.allowed_domains),
          support_phone: row.support_phone,
          order_prefix: row.order_prefix,
          max_discount_pct: row.max_discount_pct,
          archived_at: row.archived_at,
        },
        {
          account_id: shop.accountId,
          name: 'Tienda Bogotá',
          country: 'CO',
          currency: 'COP',
          timezone: 'America/Bogota',
          allowed_domains: ['shop.example.com', '*.brand.example'],
          support_phone: '+573001234567',
          order_prefix: 'TD-',
          max_discount_pct: 20,
          archived_at: null,
        },
      );
      assert.deepEqual(data.domains, JSON.parse(row.allowed_domains));
    });

    test('POST /stores with an empty name and an unknown country answers 400 naming both fields and stores nothing', async () => {
      const answer = await storesNothing(server.deps, () => v1.post('/api/v1/stores', { body: { name: '  ', country: 'XX' } }));
      failed(answer, 400, ['country', 'name']);
    });

    test('POST /stores with a field the operation does not define answers 400 naming it and stores nothing', async () => {
      const answer = await storesNothing(server.deps, () => v1.post('/api/v1/stores', { body: { name: 'Tienda', country: 'CO', colour: 'red' } }));
      failed(answer, 400, ['colour']);
    });

    test('POST /stores with a body that is not JSON, or a JSON array, answers 400 and stores nothing', async () => {
      failed(await storesNothing(server.deps, () => v1.post('/api/v1/stores', { raw: '{"name":', headers: { 'content-type': 'application/json' } })), 400);
      failed(await storesNothing(server.deps, () => v1.post('/api/v1/stores', { body: [{ name: 'Tienda', country: 'CO' }] })), 400);
    });

    test('POST /stores with a non-JSON content type answers 415 and stores nothing', async () => {
      const form = await storesNothing(server.deps, () => v1.post('/api/v1/stores', { raw: 'name=Tienda&country=CO', headers: { 'content-type': 'application/x-www-form-urlencoded' } }));
      failed(form, 415);
      const plain = await storesNothing(server.deps, () => v1.post('/api/v1/stores', { raw: JSON.stringify({ name: 'Tienda', country: 'CO' }), headers: { 'content-type': 'text/plain' } }));
      failed(plain, 415);
    });

    test('GET /stores/{store_id} answers the stored store with its counts', async () => {
      const own = await ownAccount();
      const data = ok(await own.v1.get(STORE, { params: { store_id: own.shop.storeId } }));
      assert.equal(data.id, own.shop.storeId);
      assert.equal(data.name, (await storeRow(own.shop.storeId)).name);
      assert.deepEqual(data.counts, { products: 1, landing_pages: 1, published_landing_pages: 1, active_keys: 3, orders: 0 });
    });

    test('GET /stores/{store_id} of an unknown store and of another account’s store answer the same 404', async () => {
      await sameNotFound(server.deps, (id) => v1.get(STORE, { params: { store_id: id } }), foreign.storeId, 'store_id');
    });

    test('GET /stores/{store_id} with an id that is not a UUID answers 400 naming store_id', async () => {
      failed(await v1.get(STORE, { params: { store_id: 'tienda-1' } }), 400, ['store_id']);
    });

    test('GET /stores/{store_id} with a percent sign in the id (sent as %25) answers 400 naming store_id, not 500', async () => {
      failed(await v1.get(STORE, { params: { store_id: '%' } }), 400, ['store_id']);
      failed(await v1.get(STORE, { params: { store_id: `${shop.storeId}%zz` } }), 400, ['store_id']);
    });

    test('PATCH /stores/{store_id} changes only the fields sent and "" clears the order prefix', async () => {
      const storeId = await newStore();
      const before_ = await storeRow(storeId);
      const data = ok(await v1.patch(STORE, { params: { store_id: storeId }, body: { name: 'Tienda Medellín', order_prefix: '', timezone: 'America/Bogota' } }));
      assert.equal(data.name, 'Tienda Medellín');
      const row = await storeRow(storeId);
      assert.equal(row.name, 'Tienda Medellín');
      assert.equal(row.order_prefix, null);
      assert.equal(row.support_phone, before_.support_phone);
      assert.equal(row.max_discount_pct, 20);
      assert.ok(row.updated_at >= before_.updated_at);
    });

    test('PATCH /stores/{store_id} with a discount out of range answers 400 naming max_discount_pct and changes nothing', async () => {
      const storeId = await newStore();
      failed(await storesNothing(server.deps, () => v1.patch(STORE, { params: { store_id: storeId }, body: { max_discount_pct: 101 } })), 400, ['max_discount_pct']);
    });

    test('PATCH /stores/{store_id} of another account’s store answers the same 404 as an unknown one and changes nothing', async () => {
      await sameNotFound(server.deps, (id) => v1.patch(STORE, { params: { store_id: id }, body: { name: 'Mine now' } }), foreign.storeId, 'store_id');
    });

    test('PATCH /stores/{store_id} moving a store with orders to another country answers 409 naming country and changes nothing', async () => {
      const own = await ownAccount();
      await order(own.shop.storeId, own.shop.productId, own.v1);
      const answer = await storesNothing(server.deps, () => own.v1.patch(STORE, { params: { store_id: own.shop.storeId }, body: { country: 'MX' } }));
      failed(answer, 409, ['country']);
      assert.equal((await storeRow(own.shop.storeId)).country, 'CO');
    });

    test('POST /stores/{store_id}/domains adds a normalized host once and answers the store', async () => {
      const storeId = await newStore();
      const data = ok(await v1.post(`${STORE}/domains`, { params: { store_id: storeId }, body: { domain: 'Checkout.Example.COM.' } }));
      const expected = ['shop.example.com', '*.brand.example', 'checkout.example.com'];
      assert.deepEqual(data.domains, expected);
      assert.deepEqual(JSON.parse((await storeRow(storeId)).allowed_domains), expected);
      const again = ok(await v1.post(`${STORE}/domains`, { params: { store_id: storeId }, body: { domain: 'checkout.example.com' } }));
      assert.deepEqual(again.domains, expected, 'adding it again is a no-op');
    });

    test('POST /stores/{store_id}/domains with a URL instead of a host answers 400 naming domain and stores nothing', async () => {
      const storeId = await newStore();
      failed(await storesNothing(server.deps, () => v1.post(`${STORE}/domains`, { params: { store_id: storeId }, body: { domain: 'https://shop.example.com/checkout' } })), 400, ['domain']);
    });

    test('DELETE /stores/{store_id}/domains/{domain} removes an encoded wildcard host and answers the store', async () => {
      const storeId = await newStore();
      const data = ok(await v1.delete(`${STORE}/domains/{domain}`, { params: { store_id: storeId, domain: '*.brand.example' } }));
      assert.deepEqual(data.domains, ['shop.example.com']);
      assert.deepEqual(JSON.parse((await storeRow(storeId)).allowed_domains), data.domains);
    });

    test('DELETE /stores/{store_id}/domains/{domain} of a host the store does not allow answers 404 naming domain', async () => {
      const storeId = await newStore();
      failed(await storesNothing(server.deps, () => v1.delete(`${STORE}/domains/{domain}`, { params: { store_id: storeId, domain: 'nope.example.com' } })), 404, ['domain']);
    });

    test('DELETE /stores/{store_id}/domains/{domain} with a percent sign in the host (sent as %25) answers 400 naming domain and changes nothing', async () => {
      const storeId = await newStore();
      failed(await storesNothing(server.deps, () => v1.delete(`${STORE}/domains/{domain}`, { params: { store_id: storeId, domain: '100%.example.com' } })), 400, ['domain']);
    });

    test('DELETE /stores/{store_id}/domains/{domain} on another account’s store answers the same 404 as an unknown store', async () => {
      await sameNotFound(server.deps, (id) => v1.delete(`${STORE}/domains/{domain}`, { params: { store_id: id, domain: 'shop.example.com' } }), foreign.storeId, 'store_id');
    });

    test('POST /stores/{store_id}/archive without a body archives the store, unpublishes its pages and revokes its publishable keys', async () => {
      const storeId = await newStore();
      const product = ok(await v1.post('/api/v1/products', { body: { store_id: storeId, name: 'Faja', status: 'active', packs: [{ quantity: 1, price: 90000 }] } }), 201);
      const landing = ok(await v1.post('/api/v1/landing-pages', { body: { product_id: product.id, slug: `cierre-${storeId.slice(-6)}`, publish: true } }), 201);
      const key = ok(await v1.post('/api/v1/keys/publishable', { body: { store_id: storeId } }), 201);
      const data = ok(await v1.post(`${STORE}/archive`, { params: { store_id: storeId } }));
      assert.equal(data.status, 'archived');
      const row = await storeRow(storeId);
      assert.ok(row.archived_at);
      assert.equal(row.archive_reason, null);
      const [page] = await rows(server.deps, 'select published from landing_pages where id = ?', landing.id);
      assert.equal(page?.published, 0);
      const [stored] = await rows(server.deps, 'select revoked_at from api_keys where id = ?', key.id);
      assert.ok(stored?.revoked_at, 'the publishable key is revoked');
      const [product_] = await rows(server.deps, 'select status from products where id = ?', product.id);
      assert.equal(product_?.status, 'active', 'products are kept as they are');
    });

    test('POST /stores/{store_id}/archive of an archived store answers it unchanged', async () => {
      const storeId = await newStore();
      ok(await v1.post(`${STORE}/archive`, { params: { store_id: storeId } }));
      const before_ = await storeRow(storeId);
      const data = ok(await storesNothing(server.deps, () => v1.post(`${STORE}/archive`, { params: { store_id: storeId }, body: { reason: 'again' } })));
      assert.equal(data.archived_at, before_.archived_at);
    });

    test('POST /stores/{store_id}/archive of another account’s store answers the same 404 as an unknown one', async () => {
      await sameNotFound(server.deps, (id) => v1.post(`${STORE}/archive`, { params: { store_id: id }, body: { reason: 'hostile' } }), foreign.storeId, 'store_id');
      assert.equal((await storeRow(foreign.storeId)).archived_at, null);
    });

    test('GET /stores filters by status and country from the query string and never lists another account’s store', async () => {
      // An account of its own: its seeded Colombian store, an archived Colombian store and an active Mexican one.
      const own = await ownAccount();
      const storeId = await newStore(own.v1);
      ok(await own.v1.post(`${STORE}/archive`, { params: { store_id: storeId } }));
      ok(await own.v1.post('/api/v1/stores', { body: { name: 'Tienda MX', country: 'MX' } }), 201);
      const all = ok(await own.v1.get('/api/v1/stores'));
      assert.ok(!all.items.some((s: { id: string }) => s.id === foreign.storeId));
      const stored = await rows(server.deps, 'select id from stores where account_id = ? order by created_at desc, id desc', own.shop.accountId);
      assert.deepEqual(all.items.map((s: { id: string }) => s.id), stored.map((s) => s.id), 'newest first');
      assert.equal(stored.length, 3);
      const archived = ok(await own.v1.get('/api/v1/stores', { query: { status: 'archived' } }));
      assert.deepEqual(archived.items.map((s: { id: string }) => s.id), [storeId]);
      const colombian = ok(await own.v1.get('/api/v1/stores', { query: { country: 'co', status: 'active' } }));
      assert.deepEqual(colombian.items.map((s: { id: string }) => s.id), [own.shop.storeId]);
    });

    test('GET /stores pages with limit and next_cursor through every store exactly once', async () => {
      // An account of its own with five stores: pages of 2, 2 and 1.
      const own = await ownAccount();
      for (const country of ['CO', 'MX', 'PE', 'CL']) ok(await own.v1.post('/api/v1/stores', { body: { name: `Tienda ${country}`, country } }), 201);
      const all = ok(await own.v1.get('/api/v1/stores'));
      assert.equal(all.has_more, false);
      assert.equal(all.next_cursor, undefined);
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = ok(await own.v1.get('/api/v1/stores', { query: { limit: 2, ...(cursor && { cursor }) } }));
        assert.ok(page.items.length <= 2);
        assert.equal(page.has_more, page.next_cursor !== undefined);
        seen.push(...page.items.map((s: { id: string }) => s.id));
        cursor = page.next_cursor;
      } while (cursor);
      assert.deepEqual(seen, all.items.map((s: { id: string }) => s.id));
      assert.equal(seen.length, 5);
    });

    test('GET /stores with a cursor it never issued, a limit that is not a number or an unknown parameter answers 400 naming it', async () => {
      failed(await v1.get('/api/v1/stores', { query: { cursor: 'bm9wZQ' } }), 400, ['cursor']);
      failed(await v1.get('/api/v1/stores', { query: { limit: 'ten' } }), 400, ['limit']);
      failed(await v1.get('/api/v1/stores', { query: { colour: 'red' } }), 400, ['colour']);
      // Names of Object.prototype's members are unknown parameters too, `__proto__` included (issue 19 §5).
      for (const name of ['__proto__', 'constructor', 'toString']) failed(await v1.get('/api/v1/stores', { query: { [name]: 'x' } }), 400, [name]);
      failed(await v1.get('/api/v1/stores', { query: { ['__proto__']: ['a', 'b'] } }), 400, ['__proto__']);
    });

    test('a method the store routes do not have answers 405 with Allow and stores nothing', async () => {
      const del = await storesNothing(server.deps, () => v1.delete('/api/v1/stores'));
      failed(del, 405);
      assert.deepEqual(del.headers.get('allow')?.split(', ').sort(), ['GET', 'HEAD', 'POST']);
      const put = await storesNothing(server.deps, () => v1.put(STORE, { params: { store_id: shop.storeId }, body: { name: 'x' } }));
      failed(put, 405);
      assert.deepEqual(put.headers.get('allow')?.split(', ').sort(), ['GET', 'HEAD', 'PATCH']);
    });
  });

  describe('products', () => {
    const FAJA = {
      name: 'Faja reductora',
      sku: 'FAJA-1',
      description: 'Faja de compresión',
      // Read when the body is spread, once the image host runs.
      get images() {
        return [{ url: imageHost.url('/faja.jpg'), alt: 'Faja' }];
      },
      stock: 10,
      price_floor: 40000,
      status: 'active',
      packs: [
        { quantity: 1, price: 89900 },
        { quantity: 2, price: 159900, compare_at_price: 179800, min_price: 150000, label: 'Más vendido', is_default: true },
      ],
    };
    /** The ladder the replace test sets: 3x first, 1x the default. */
    const LADDER = [{ quantity: 3, price: 219900, label: 'Ahorro' }, { quantity: 1, price: 89900, is_default: true }];

    /** A fresh product as the create test makes it, in a store of its own unless one is given (its SKU is unique per store). */
    async function faja(on: { client?: V1Client; storeId?: string } = {}): Promise<{ id: string; storeId: string }> {
      const client = on.client ?? v1;
      const storeId = on.storeId ?? ok(await client.post('/api/v1/stores', { body: { name: 'Tienda', country: 'CO' } }), 201).id;
      return { id: ok(await client.post('/api/v1/products', { body: { store_id: storeId, ...FAJA } }), 201).id, storeId };
    }
    /** A fresh product whose ladder is LADDER. */
    async function fajaOnLadder(): Promise<{ id: string; storeId: string }> {
      const made = await faja();
      ok(await v1.put(`${PRODUCT}/packs`, { params: { product_id: made.id }, body: { packs: LADDER } }));
      return made;
    }

    test('POST /products creates an active product with its packs in minor units and answers 201 with them in major units', async () => {
      const data = ok(await v1.post('/api/v1/products', { body: { store_id: shop.storeId, ...FAJA } }), 201);
      const productId = data.id;
      assert.equal(data.default_pack, '2x');
      assert.deepEqual(data.packs.map((p: { code: string; price: number }) => [p.code, p.price]), [
        ['1x', 89900],
        ['2x', 159900],
      ]);
      const row = await productRow(productId);
      assert.deepEqual(
        { store_id: row.store_id, name: row.name, sku: row.sku, status: row.status, description: row.description, images: JSON.parse(row.images), stock: row.stock, floor: row.min_unit_price_minor },
        {
          store_id: shop.storeId,
          name: 'Faja reductora',
          sku: 'FAJA-1',
          status: 'active',
          description: 'Faja de compresión',
          images: [{ id: data.images[0].id, width: 320, height: 240, source: imageHost.url('/faja.jpg'), alt: 'Faja' }],
          stock: 10,
          floor: 4_000_000,
        },
      );
      assert.deepEqual(await packRows(productId), [
        { code: '1x', units: 1, price_minor: 8_990_000, compare_at_price_minor: null, min_price_minor: null, label: null, is_default: 0, position: 0 },
        { code: '2x', units: 2, price_minor: 15_990_000, compare_at_price_minor: 17_980_000, min_price_minor: 15_000_000, label: 'Más vendido', is_default: 1, position: 1 },
      ]);
    });

    test('POST /products with a pack priced under the floor answers 400 naming the pack price and stores nothing', async () => {
      const answer = await storesNothing(server.deps, () =>
        v1.post('/api/v1/products', { body: { store_id: shop.storeId, name: 'Barata', price_floor: 50000, packs: [{ quantity: 1, price: 60000 }, { quantity: 2, price: 90000 }] } }),
      );
      failed(answer, 400, ['packs.1.price']);
    });

    test('POST /products with a negative price in a pack answers 400 naming that nested field and stores nothing', async () => {
      const answer = await storesNothing(server.deps, () => v1.post('/api/v1/products', { body: { store_id: shop.storeId, name: 'Faja', packs: [{ quantity: 1, price: -1 }] } }));
      failed(answer, 400, ['packs.0.price']);
    });

    test('POST /products with a SKU the store already has answers 409 naming sku and stores nothing', async () => {
      const { storeId } = await faja();
      failed(await storesNothing(server.deps, () => v1.post('/api/v1/products', { body: { store_id: storeId, name: 'Otra', sku: 'FAJA-1' } })), 409, ['sku']);
    });

    // On SQLite one process answers them nearly one after another; the PostgreSQL run (npm run
    // test:postgres) is where the eight look-ups all find nothing and the inserts race.
    test('POST /products with one new SKU sent eight times at once stores one product and answers the others 409 naming sku: the unique index decides, not the look-up before it', async () => {
      const { storeId } = await faja();
      const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => v1.post('/api/v1/products', { body: { store_id: storeId, name: `Carrera ${i}`, sku: 'CARRERA-1' } })));
      assert.deepEqual(answers.map((a) => a.status).sort(), [201, 409, 409, 409, 409, 409, 409, 409], answers.map((a) => a.text).join('\n'));
      for (const answer of answers.filter((a) => a.status === 409)) failed(answer, 409, ['sku']);
      const stored = await server.deps.db.selectFrom('products').select('id').where('store_id', '=', storeId).where('sku', '=', 'CARRERA-1').execute();
      assert.equal(stored.length, 1);
    });

    test('POST /products into another account’s store answers the same 404 as an unknown store and stores nothing', async () => {
      await sameNotFound(server.deps, (id) => v1.post('/api/v1/products', { body: { store_id: id, name: 'Intrusa' } }), foreign.storeId, 'store_id');
    });

    test('GET /products/{product_id} answers the stored product with its packs and landing counts', async () => {
      const own = await ownAccount();
      const data = ok(await own.v1.get(PRODUCT, { params: { product_id: own.shop.productId } }));
      assert.equal(data.id, own.shop.productId);
      assert.equal(data.store_id, own.shop.storeId);
      assert.deepEqual(data.landing_pages, { total: 1, published: 1 });
      assert.deepEqual(data.packs.map((p: { code: string }) => p.code), (await packRows(own.shop.productId)).map((p) => p.code));
    });

    test('GET /products/{product_id} of an unknown and of another account’s product answer the same 404', async () => {
      await sameNotFound(server.deps, (id) => v1.get(PRODUCT, { params: { product_id: id } }), foreign.productId, 'product_id');
    });

    test('PATCH /products/{product_id} changes the fields sent, replaces the images and "" clears the SKU', async () => {
      const productId = (await faja()).id;
      const data = ok(await v1.patch(PRODUCT, { params: { product_id: productId }, body: { name: 'Faja premium', images: [], sku: '' } }));
      assert.equal(data.name, 'Faja premium');
      const row = await productRow(productId);
      assert.equal(row.name, 'Faja premium');
      assert.equal(row.sku, null);
      assert.equal(row.images, '[]');
      assert.equal(row.description, 'Faja de compresión');
      ok(await v1.patch(PRODUCT, { params: { product_id: productId }, body: { sku: 'FAJA-1' } }));
      assert.equal((await productRow(productId)).sku, 'FAJA-1', 'a cleared SKU can be set again');
    });

    test('PATCH /products/{product_id} to a SKU another product of the store has answers 409 and changes nothing', async () => {
      const { id: productId, storeId } = await faja();
      ok(await v1.post('/api/v1/products', { body: { store_id: storeId, name: 'Faja', sku: 'SEED-1' } }), 201);
      failed(await storesNothing(server.deps, () => v1.patch(PRODUCT, { params: { product_id: productId }, body: { sku: 'SEED-1' } })), 409, ['sku']);
    });

    test('PATCH /products/{product_id} to status archived answers 400 naming status and changes nothing', async () => {
      const productId = (await faja()).id;
      failed(await storesNothing(server.deps, () => v1.patch(PRODUCT, { params: { product_id: productId }, body: { status: 'archived' } })), 400, ['status']);
    });

    test('PATCH /products/{product_id} of another account’s product answers the same 404 as an unknown one', async () => {
      await sameNotFound(server.deps, (id) => v1.patch(PRODUCT, { params: { product_id: id }, body: { name: 'Mía' } }), foreign.productId, 'product_id');
    });

    test('PUT /products/{product_id}/stock sets the units on hand with the reason', async () => {
      const productId = (await faja()).id;
      const data = ok(await v1.put(`${PRODUCT}/stock`, { params: { product_id: productId }, body: { quantity: 7, reason: 'restock' } }));
      assert.equal(data.stock, 7);
      const row = await productRow(productId);
      assert.deepEqual([row.stock, row.stock_note], [7, 'restock']);
      assert.ok(row.stock_updated_at);
    });

    test('PUT /products/{product_id}/stock with a fractional quantity answers 400 naming quantity and changes nothing', async () => {
      const productId = (await faja()).id;
      failed(await storesNothing(server.deps, () => v1.put(`${PRODUCT}/stock`, { params: { product_id: productId }, body: { quantity: 1.5 } })), 400, ['quantity']);
    });

    test('PUT /products/{product_id}/packs replaces the whole ladder in the order given', async () => {
      const productId = (await faja()).id;
      const data = ok(
        await v1.put(`${PRODUCT}/packs`, {
          params: { product_id: productId },
          body: { packs: LADDER },
        }),
      );
      assert.deepEqual(data.packs.map((p: { code: string }) => p.code), ['3x', '1x']);
      assert.deepEqual(await packRows(productId), [
        { code: '3x', units: 3, price_minor: 21_990_000, compare_at_price_minor: null, min_price_minor: null, label: 'Ahorro', is_default: 0, position: 0 },
        { code: '1x', units: 1, price_minor: 8_990_000, compare_at_price_minor: null, min_price_minor: null, label: null, is_default: 1, position: 1 },
      ]);
    });

    test('PUT /products/{product_id}/packs with two packs of one quantity answers 400 naming the second and changes nothing', async () => {
      const productId = (await faja()).id;
      const answer = await storesNothing(server.deps, () =>
        v1.put(`${PRODUCT}/packs`, { params: { product_id: productId }, body: { packs: [{ quantity: 1, price: 90000 }, { quantity: 1, price: 95000 }] } }),
      );
      failed(answer, 400, ['packs.1.quantity']);
    });

    test('PUT /products/{product_id}/packs with an empty ladder answers 400 naming packs and changes nothing', async () => {
      const productId = (await faja()).id;
      failed(await storesNothing(server.deps, () => v1.put(`${PRODUCT}/packs`, { params: { product_id: productId }, body: { packs: [] } })), 400, ['packs']);
    });

    test('PUT /products/{product_id}/packs with a form body answers 415 and changes nothing', async () => {
      const answer = await storesNothing(server.deps, () =>
        v1.put(`${PRODUCT}/packs`, { params: { product_id: shop.productId }, raw: 'packs=1x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      );
      failed(answer, 415);
    });

    test('PUT /products/{product_id}/packs of another account’s product answers the same 404 as an unknown one', async () => {
      await sameNotFound(server.deps, (id) => v1.put(`${PRODUCT}/packs`, { params: { product_id: id }, body: { packs: [{ quantity: 1, price: 1 }] } }), foreign.productId, 'product_id');
    });

    test('POST /pack-prices reprices packs of two products in one call', async () => {
      const { id: productId, storeId } = await fajaOnLadder();
      const otherId = ok(await v1.post('/api/v1/products', { body: { store_id: storeId, name: 'Faja', status: 'active', packs: [{ quantity: 1, price: 100000 }, { quantity: 2, price: 180000 }] } }), 201).id;
      const data = ok(
        await v1.post('/api/v1/pack-prices', {
          body: {
            updates: [
              { product_id: productId, quantity: 1, price: 95000, compare_at_price: 120000 },
              { product_id: otherId, quantity: 2, price: 185000 },
            ],
          },
        }),
      );
      assert.deepEqual(data.products.map((p: { id: string }) => p.id).sort(), [productId, otherId].sort());
      assert.deepEqual((await packRows(productId)).find((p) => p.code === '1x'), {
        code: '1x', units: 1, price_minor: 9_500_000, compare_at_price_minor: 12_000_000, min_price_minor: null, label: null, is_default: 1, position: 1,
      });
      assert.equal((await packRows(otherId)).find((p) => p.code === '2x')?.price_minor, 18_500_000);
    });

    test('POST /pack-prices with one price under the floor refuses the whole batch with 400 naming it and changes nothing', async () => {
      const productId = (await fajaOnLadder()).id;
      const answer = await storesNothing(server.deps, () =>
        v1.post('/api/v1/pack-prices', {
          body: {
            updates: [
              { product_id: shop.productId, quantity: 1, price: 110000 },
              { product_id: productId, quantity: 3, price: 100000 },
            ],
          },
        }),
      );
      failed(answer, 400, ['updates.1.price']);
    });

    test('POST /pack-prices naming another account’s product answers the same 404 as an unknown one and changes nothing', async () => {
      await sameNotFound(server.deps, 
        (id) => v1.post('/api/v1/pack-prices', { body: { updates: [{ product_id: shop.productId, quantity: 1, price: 1 }, { product_id: id, quantity: 1, price: 1 }] } }),
        foreign.productId,
        'updates.1.product_id',
      );
    });

    test('PUT /products/{product_id}/price-floor sets the minimum unit price', async () => {
      const productId = (await faja()).id;
      const data = ok(await v1.put(`${PRODUCT}/price-floor`, { params: { product_id: productId }, body: { min_unit_price: 60000 } }));
      assert.equal(data.price_floor, 60000);
      assert.equal((await productRow(productId)).min_unit_price_minor, 6_000_000);
    });

    test('PUT /products/{product_id}/price-floor above a pack answers 400 naming min_unit_price and changes nothing', async () => {
      const productId = (await faja()).id;
      failed(await storesNothing(server.deps, () => v1.put(`${PRODUCT}/price-floor`, { params: { product_id: productId }, body: { min_unit_price: 80000 } })), 400, ['min_unit_price']);
    });

    test('GET /products/{product_id}/quote prices units as checkout would from the query string', async () => {
      const productId = (await fajaOnLadder()).id;
      const data = ok(await v1.get(`${PRODUCT}/quote`, { params: { product_id: productId }, query: { quantity: 3 } }));
      assert.deepEqual(
        { pack: data.pack, multiplier: data.multiplier, unit_price: data.unit_price, total_price: data.total_price, floor_ok: data.floor_ok, orderable: data.orderable },
        { pack: '3x', multiplier: 1, unit_price: 219900, total_price: 219900, floor_ok: true, orderable: true },
      );
      const byPack = ok(await v1.get(`${PRODUCT}/quote`, { params: { product_id: productId }, query: { quantity: '2', pack: '1x' } }));
      assert.deepEqual([byPack.pack, byPack.multiplier, byPack.total_price], ['1x', 2, 179800]);
    });

    test('GET /products/{product_id}/quote without a quantity or with a pack the product lacks answers 400 naming the field', async () => {
      const productId = (await fajaOnLadder()).id;
      failed(await v1.get(`${PRODUCT}/quote`, { params: { product_id: productId } }), 400, ['quantity']);
      failed(await v1.get(`${PRODUCT}/quote`, { params: { product_id: productId }, query: { quantity: 2, pack: '2x' } }), 400, ['pack']);
    });

    test('GET /price-floor-violations lists an order sold under a floor raised after it', async () => {
      const own = await ownAccount();
      await order(own.shop.storeId, own.shop.productId, own.v1); // sold at its price: not listed
      const cheap = ok(await own.v1.post('/api/v1/products', { body: { store_id: own.shop.storeId, name: 'Gorra', status: 'active', packs: [{ quantity: 1, price: 20000 }] } }), 201);
      const sold = await order(own.shop.storeId, cheap.id, own.v1);
      ok(await own.v1.post('/api/v1/pack-prices', { body: { updates: [{ product_id: cheap.id, quantity: 1, price: 30000 }] } }));
      ok(await own.v1.put(`${PRODUCT}/price-floor`, { params: { product_id: cheap.id }, body: { min_unit_price: 25000 } }));
      const data = ok(await own.v1.get('/api/v1/price-floor-violations', { query: { store_id: own.shop.storeId, days: 7 } }));
      assert.equal(data.currency, 'COP');
      assert.deepEqual(
        data.items.map((v: { order_id: string; product_id: string; total_price: number; floor_total: number }) => [v.order_id, v.product_id, v.total_price, v.floor_total]),
        [[sold.id, cheap.id, 20000, 25000]],
      );
      assert.deepEqual(data.packs, []);
    });

    test('GET /price-floor-violations of another account’s store answers the same 404 as an unknown store', async () => {
      await sameNotFound(server.deps, (id) => v1.get('/api/v1/price-floor-violations', { query: { store_id: id } }), foreign.storeId, 'store_id');
    });

    test('POST /products/{product_id}/duplicate copies a product as a draft without its SKU into the same store', async () => {
      const { id: productId, storeId } = await faja();
      const data = ok(await v1.post(`${PRODUCT}/duplicate`, { params: { product_id: productId }, body: {} }), 201);
      const twinId = data.id;
      const row = await productRow(twinId);
      assert.deepEqual([row.store_id, row.name, row.sku, row.status, row.min_unit_price_minor], [storeId, 'Faja reductora (copia)', null, 'draft', 4_000_000]);
      assert.deepEqual(
        (await packRows(twinId)).map((p) => [p.code, p.price_minor]),
        (await packRows(productId)).map((p) => [p.code, p.price_minor]),
      );
    });

    test('POST /products/{product_id}/duplicate into another account’s store answers the same 404 as an unknown store and stores nothing', async () => {
      const productId = (await faja()).id;
      await sameNotFound(server.deps, (id) => v1.post(`${PRODUCT}/duplicate`, { params: { product_id: productId }, body: { target_store_id: id } }), foreign.storeId, 'target_store_id');
    });

    test('POST /products/{product_id}/archive of a product a published page sells answers 409 naming unpublish_landings and changes nothing', async () => {
      const own = await ownAccount();
      const answer = await storesNothing(server.deps, () => own.v1.post(`${PRODUCT}/archive`, { params: { product_id: own.shop.productId }, body: {} }));
      failed(answer, 409, ['unpublish_landings']);
    });

    test('POST /products/{product_id}/archive with unpublish_landings archives it and takes its pages offline', async () => {
      const own = await ownAccount();
      const data = ok(await own.v1.post(`${PRODUCT}/archive`, { params: { product_id: own.shop.productId }, body: { unpublish_landings: true } }));
      assert.equal(data.status, 'archived');
      assert.equal((await productRow(own.shop.productId)).status, 'archived');
      const [page] = await rows(server.deps, 'select published from landing_pages where id = ?', own.shop.landingId);
      assert.equal(page?.published, 0);
    });

    test('POST /products/{product_id}/archive of another account’s product answers the same 404 as an unknown one', async () => {
      await sameNotFound(server.deps, (id) => v1.post(`${PRODUCT}/archive`, { params: { product_id: id }, body: { unpublish_landings: true } }), foreign.productId, 'product_id');
      assert.equal((await productRow(foreign.productId)).status, 'active');
    });

    test('GET /products filters by store, status, name or SKU query, linked and stock_below from the query string', async () => {
      // An account of its own: its seeded product archived, FAJA-1 with 7 on hand, and FAJA-1's draft copy.
      const own = await ownAccount();
      const { id: productId } = await faja({ client: own.v1, storeId: own.shop.storeId });
      ok(await own.v1.put(`${PRODUCT}/stock`, { params: { product_id: productId }, body: { quantity: 7 } }));
      ok(await own.v1.post(`${PRODUCT}/archive`, { params: { product_id: own.shop.productId }, body: { unpublish_landings: true } }));
      const twinId = ok(await own.v1.post(`${PRODUCT}/duplicate`, { params: { product_id: productId }, body: {} }), 201).id;
      const ids = (data: { items: { id: string }[] }) => data.items.map((p) => p.id);
      const all = ok(await own.v1.get('/api/v1/products', { query: { store_id: own.shop.storeId } }));
      const stored = await rows(server.deps, 'select id from products where store_id = ? order by created_at desc, id desc', own.shop.storeId);
      assert.deepEqual(ids(all), stored.map((r) => r.id));
      assert.equal(stored.length, 3);
      assert.ok(!ids(ok(await own.v1.get('/api/v1/products'))).includes(foreign.productId));
      assert.deepEqual(ids(ok(await own.v1.get('/api/v1/products', { query: { status: 'archived' } }))), [own.shop.productId]);
      assert.deepEqual(ids(ok(await own.v1.get('/api/v1/products', { query: { status: 'draft', store_id: own.shop.storeId } }))), [twinId]);
      assert.deepEqual(ids(ok(await own.v1.get('/api/v1/products', { query: { query: 'faja-1' } }))), [productId]);
      assert.deepEqual(ids(ok(await own.v1.get('/api/v1/products', { query: { stock_below: 8 } }))), [productId]);
      assert.deepEqual(ids(ok(await own.v1.get('/api/v1/products', { query: { linked: true } }))), []);
      assert.equal(ok(await own.v1.get('/api/v1/products', { query: { linked: 'false', store_id: own.shop.storeId } })).items.length, stored.length);
    });

    test('GET /products pages with limit and next_cursor through every product exactly once', async () => {
      // An account of its own with four products.
      const own = await ownAccount();
      for (const name of ['Gorra', 'Bolso', 'Reloj']) ok(await own.v1.post('/api/v1/products', { body: { store_id: own.shop.storeId, name } }), 201);
      const all = ok(await own.v1.get('/api/v1/products', { query: { limit: 100 } }));
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = ok(await own.v1.get('/api/v1/products', { query: { limit: 1, ...(cursor && { cursor }) } }));
        assert.equal(page.items.length, 1);
        seen.push(page.items[0].id);
        cursor = page.next_cursor;
      } while (cursor);
      assert.deepEqual(seen, all.items.map((p: { id: string }) => p.id));
      assert.equal(seen.length, 4);
    });

    test('GET /products of another account’s store answers the same 404 as an unknown store', async () => {
      await sameNotFound(server.deps, (id) => v1.get('/api/v1/products', { query: { store_id: id } }), foreign.storeId, 'store_id');
    });

    test('GET /products with a status it does not know or a boolean that is not one answers 400 naming the field', async () => {
      failed(await v1.get('/api/v1/products', { query: { status: 'sold' } }), 400, ['status']);
      failed(await v1.get('/api/v1/products', { query: { linked: 'maybe' } }), 400, ['linked']);
    });

    test('a method the product routes do not have answers 405 with Allow and stores nothing', async () => {
      const answer = await storesNothing(server.deps, () => v1.delete(PRODUCT, { params: { product_id: shop.productId } }));
      failed(answer, 405);
      assert.deepEqual(answer.headers.get('allow')?.split(', ').sort(), ['GET', 'HEAD', 'PATCH']);
    });
  });
});
