// One operation table, three shells (STYLE: an account operation is declared once): the same
// sequence through MCP (the SDK client with a secret key), REST /api/v1 (the secret key) and the CLI
// (`--account ID` on the same database file) stores the same rows; another account's ids are
// not_found on each surface; and a refused request stores nothing on each. The REST and CLI tests run
// the MCP sequence themselves to compare with, so each test passes alone. The hero's image comes from
// a local image host (private addresses allowed), so every surface hosts the same image.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { openShop, seedShop, type Shop } from '../../helpers/fixtures.ts';
import type { TestServer } from '../../helpers/server.ts';
import { cliFails, cliJson } from '../../helpers/cli-expect.ts';
import { call, connect } from '../../mcp/mcp-kit.ts';
import { photo, startImageHost, type ImageHost } from '../../helpers/image-host.ts';
import { OPEN_LIMITS } from '../orders/order-kit.ts';
import { V1Client, failed, ok, rows, snapshot, storesNothing } from './v1-kit.ts';

const STORE = { name: 'Tienda Tres', country: 'CO', order_prefix: 'TT-', max_discount_pct: 25 };
const DOMAIN = 'tres.example.com';
const PRODUCT = { name: 'Faja tres', sku: 'TRES-1', description: 'Faja', status: 'active', price_floor: 40000 };
const CREATE_PACKS = [
  { quantity: 1, price: 89900 },
  { quantity: 2, price: 159900, min_price: 150000 },
];
const LADDER = [
  { quantity: 1, price: 89900 },
  { quantity: 2, price: 159900, label: 'Más vendido', is_default: true },
  { quantity: 3, price: 219900 },
];
const REPRICE = { quantity: 3, price: 209900, compare_at_price: 249900 };
const LANDING = { title: 'Faja en oferta', seo_title: 'Faja' };
/** The server, and the CLI on its database file, fetch section images from the loopback image host. */
const IMAGE_ENV = { CODRAIL_IMAGE_URLS_ALLOW_PRIVATE: '1' };
const sectionsWith = (heroUrl: string) => [
  { type: 'hero', heading: 'Faja tres', body: 'Moldea', image_url: heroUrl },
  { type: 'testimonials', items: [{ title: 'Ana', text: 'Me encantó' }] },
  { type: 'cta', heading: 'Pide ya' },
];
let SECTIONS: ReturnType<typeof sectionsWith> = [];

/** The same steps, spoken by one surface. */
interface Surface {
  createStore(): Promise<string>;
  addDomain(storeId: string): Promise<void>;
  createProduct(storeId: string): Promise<string>;
  setPacks(productId: string): Promise<void>;
  updatePrices(productId: string): Promise<void>;
  createLanding(productId: string, slug: string): Promise<string>;
  setSections(landingId: string): Promise<void>;
  publish(landingId: string): Promise<void>;
}

async function runSequence(surface: Surface, slug: string): Promise<{ storeId: string; productId: string; landingId: string }> {
  const storeId = await surface.createStore();
  await surface.addDomain(storeId);
  const productId = await surface.createProduct(storeId);
  await surface.setPacks(productId);
  await surface.updatePrices(productId);
  const landingId = await surface.createLanding(productId, slug);
  await surface.setSections(landingId);
  await surface.publish(landingId);
  return { storeId, productId, landingId };
}

describe('the same account operations through MCP, REST and the CLI', () => {
  let server: TestServer;
  let shop: Shop;
  let foreign: Shop;
  let mcp: Client;
  let v1: V1Client;
  let host: ImageHost;
  let sectionsFile = '';

  before(async () => {
    host = await startImageHost();
    host.serve('/hero.jpg', await photo({ width: 1600, height: 1200 }));
    SECTIONS = sectionsWith(host.url('/hero.jpg'));
    ({ server, shop } = await openShop(OPEN_LIMITS, { env: IMAGE_ENV }));
    foreign = await seedShop(server.deps);
    mcp = await connect(server.url, shop.secretKey);
    v1 = await V1Client.open(server, shop.secretKey);
    sectionsFile = join(server.dir, 'sections.json');
    writeFileSync(sectionsFile, JSON.stringify(SECTIONS));
  });
  after(async () => {
    await mcp.close();
    await server.close();
    await host.close();
  });

  /** An MCP tool call that must succeed; its structured result. */
  async function tool(name: string, args: Record<string, unknown>) {
    const { isError, value } = await call(mcp, name, args);
    assert.equal(isError, false, `${name}: ${JSON.stringify(value)}`);
    return value;
  }

  const cli = async (args: string[]) => (await cliJson(server.dbFile, [...args, '--account', shop.accountId], { env: IMAGE_ENV })).json;

  const viaMcp: Surface = {
    createStore: async () => (await tool('create_store', STORE)).id,
    addDomain: async (store_id) => void (await tool('add_store_domain', { store_id, domain: DOMAIN })),
    createProduct: async (store_id) => (await tool('create_product', { store_id, ...PRODUCT, packs: CREATE_PACKS })).id,
    setPacks: async (product_id) => void (await tool('set_product_packs', { product_id, packs: LADDER })),
    updatePrices: async (product_id) => void (await tool('update_pack_prices', { updates: [{ product_id, ...REPRICE }] })),
    createLanding: async (product_id, slug) => (await tool('create_landing_page', { product_id, slug, ...LANDING })).id,
    setSections: async (landing_page_id) => void (await tool('set_landing_sections', { landing_page_id, sections: SECTIONS })),
    publish: async (landing_page_id) => void (await tool('publish_landing_page', { landing_page_id })),
  };

  const viaRest: Surface = {
    createStore: async () => ok(await v1.post('/api/v1/stores', { body: STORE }), 201).id,
    addDomain: async (store_id) => void ok(await v1.post('/api/v1/stores/{store_id}/domains', { params: { store_id }, body: { domain: DOMAIN } })),
    createProduct: async (store_id) => ok(await v1.post('/api/v1/products', { body: { store_id, ...PRODUCT, packs: CREATE_PACKS } }), 201).id,
    setPacks: async (product_id) => void ok(await v1.put('/api/v1/products/{product_id}/packs', { params: { product_id }, body: { packs: LADDER } })),
    updatePrices: async (product_id) => void ok(await v1.post('/api/v1/pack-prices', { body: { updates: [{ product_id, ...REPRICE }] } })),
    createLanding: async (product_id, slug) => ok(await v1.post('/api/v1/landing-pages', { body: { product_id, slug, ...LANDING } }), 201).id,
    setSections: async (landing_page_id) => void ok(await v1.put('/api/v1/landing-pages/{landing_page_id}/sections', { params: { landing_page_id }, body: { sections: SECTIONS } })),
    publish: async (landing_page_id) => void ok(await v1.post('/api/v1/landing-pages/{landing_page_id}/publish', { params: { landing_page_id } })),
  };

  const viaCli: Surface = {
    createStore: async () =>
      (await cli(['stores', 'create', '--name', STORE.name, '--country', STORE.country, '--order-prefix', STORE.order_prefix, '--max-discount', String(STORE.max_discount_pct)])).id,
    addDomain: async (storeId) => void (await cli(['stores', 'domains', 'add', storeId, DOMAIN])),
    createProduct: async (storeId) =>
      (
        await cli([
          'products', 'create', '--store', storeId, '--name', PRODUCT.name, '--sku', PRODUCT.sku, '--description', PRODUCT.description,
          '--status', PRODUCT.status, '--price-floor', String(PRODUCT.price_floor), '--pack', '1x:89900', '--pack', '2x:159900:150000',
        ])
      ).id,
    setPacks: async (productId) =>
      void (await cli(['products', 'packs', 'set', productId, '--pack', '1x:89900', '--pack', JSON.stringify(LADDER[1]), '--pack', '3:219900'])),
    updatePrices: async (productId) => void (await cli(['products', 'prices', 'update', '--price', `${productId}:3x:209900:249900`])),
    createLanding: async (productId, slug) => (await cli(['landings', 'create', '--product', productId, '--slug', slug, '--title', LANDING.title, '--seo-title', LANDING.seo_title])).id,
    setSections: async (landingId) => void (await cli(['landings', 'sections', 'set', landingId, '--sections', `@${sectionsFile}`])),
    publish: async (landingId) => void (await cli(['landings', 'publish', landingId])),
  };

  /** What a sequence stored, without ids, timestamps and slugs. */
  async function stored(r: { storeId: string; productId: string; landingId: string }) {
    const [store] = await rows(server.deps, 'select * from stores where id = ?', r.storeId);
    const [product] = await rows(server.deps, 'select * from products where id = ?', r.productId);
    const packs = await rows(server.deps, 'select * from product_packs where product_id = ? order by position', r.productId);
    const [landing] = await rows(server.deps, 'select * from landing_pages where id = ?', r.landingId);
    assert.ok(store && product && landing);
    const { id: _s, created_at: _sc, updated_at: _su, ...storeRest } = store;
    const { id: _p, store_id: ps, created_at: _pc, updated_at: _pu, ...productRest } = product;
    const { id: _l, store_id: ls, product_id: lp, slug: _slug, created_at: _lc, updated_at: _lu, published_at: lpub, ...landingRest } = landing;
    assert.equal(ps, r.storeId);
    assert.equal(ls, r.storeId);
    assert.equal(lp, r.productId);
    assert.ok(lpub, 'published_at is set');
    return {
      store: storeRest,
      product: productRest,
      packs: packs.map(({ id: _i, product_id: pid, ...rest }) => (assert.equal(pid, r.productId), rest)),
      landing: landingRest,
    };
  }

  test('the sequence through MCP with the secret key stores the store, product, ladder and published page', async () => {
    const s = await stored(await runSequence(viaMcp, 'tres-mcp'));
    assert.equal(s.store.account_id, shop.accountId);
    assert.deepEqual(JSON.parse(s.store.allowed_domains), [DOMAIN]);
    assert.deepEqual(s.packs.map((p) => [p.code, p.price_minor, p.compare_at_price_minor, p.label, p.is_default]), [
      ['1x', 8_990_000, null, null, 0],
      ['2x', 15_990_000, null, 'Más vendido', 1],
      ['3x', 20_990_000, 24_990_000, null, 0],
    ]);
    assert.equal(s.product.min_unit_price_minor, 4_000_000);
    assert.equal(s.landing.published, 1);
    // The hero as sent, beside the image hosted from its URL (1600×1200, stored at 1280×960).
    const sections = JSON.parse(s.landing.sections);
    const image = sections[0].image;
    assert.match(image?.id ?? '', /^[A-Za-z0-9_-]{22}$/);
    assert.deepEqual(sections, [{ ...SECTIONS[0], image: { id: image.id, width: 1280, height: 960, source: host.url('/hero.jpg') } }, ...SECTIONS.slice(1)]);
    assert.equal((await rows(server.deps, 'select id from images where id = ?', image.id)).length, 1, 'the image is stored');
  });

  test('the sequence through REST with the secret key stores exactly what MCP stored, apart from ids, times and slug', async () => {
    const mcpStored = await stored(await runSequence(viaMcp, 'tres-mcp-for-rest'));
    assert.deepEqual(await stored(await runSequence(viaRest, 'tres-rest')), mcpStored);
  });

  test('the sequence through the CLI with --account stores exactly what MCP stored, apart from ids, times and slug', async () => {
    const mcpStored = await stored(await runSequence(viaMcp, 'tres-mcp-for-cli'));
    assert.deepEqual(await stored(await runSequence(viaCli, 'tres-cli')), mcpStored);
  });

  describe("another account's ids", () => {
    test('MCP: get_store and update_product of another account answer isError not_found and store nothing', async () => {
      const store = await call(mcp, 'get_store', { store_id: foreign.storeId });
      assert.equal(store.isError, true);
      assert.equal(store.value.error.code, 'not_found');
      assert.equal(store.value.error.field, 'store_id');
      const product = await storesNothing(server.deps, () => call(mcp, 'update_product', { product_id: foreign.productId, name: 'Mía' }));
      assert.equal(product.isError, true);
      assert.equal(product.value.error.code, 'not_found');
    });

    test('REST: GET /stores/{store_id} and PATCH /products/{product_id} of another account answer 404 and store nothing', async () => {
      failed(await v1.get('/api/v1/stores/{store_id}', { params: { store_id: foreign.storeId } }), 404, ['store_id']);
      failed(await storesNothing(server.deps, () => v1.patch('/api/v1/products/{product_id}', { params: { product_id: foreign.productId }, body: { name: 'Mía' } })), 404, ['product_id']);
    });

    test('CLI: stores get and products update of another account with --account exit 1 with "not found" and store nothing', async () => {
      const store = await cliFails(server.dbFile, ['stores', 'get', foreign.storeId, '--account', shop.accountId], 1);
      assert.match(store.stderr, /not found/);
      const before_ = await snapshot(server.deps);
      const product = await cliFails(server.dbFile, ['products', 'update', foreign.productId, '--name', 'Mía', '--account', shop.accountId], 1);
      assert.match(product.stderr, /not found/);
      assert.deepEqual(await snapshot(server.deps), before_);
    });

    test('CLI: the same id with --account of its own account is found', async () => {
      const { json } = await cliJson(server.dbFile, ['stores', 'get', foreign.storeId, '--account', foreign.accountId]);
      assert.equal(json.id, foreign.storeId);
    });
  });

  // The shop's store and its published page: no test of this file changes them.
  describe('a refused request', () => {
    const underFloor = (storeId: string) => ({ store_id: storeId, name: 'Barata', price_floor: 50000, packs: [{ quantity: 1, price: 40000 }] });

    test('MCP: create_product with a pack under its floor answers isError price_below_floor and stores nothing', async () => {
      const { isError, value } = await storesNothing(server.deps, () => call(mcp, 'create_product', underFloor(shop.storeId)));
      assert.equal(isError, true);
      assert.equal(value.error.code, 'price_below_floor');
      assert.equal(value.error.field, 'packs.0.price');
    });

    test('REST: POST /products with a pack under its floor answers 400 naming the pack price and stores nothing', async () => {
      failed(await storesNothing(server.deps, () => v1.post('/api/v1/products', { body: underFloor(shop.storeId) })), 400, ['packs.0.price']);
    });

    test('CLI: products create with a pack under its floor exits 1 naming the pack price and stores nothing', async () => {
      const before_ = await snapshot(server.deps);
      const r = await cliFails(server.dbFile, ['products', 'create', '--store', shop.storeId, '--name', 'Barata', '--price-floor', '50000', '--pack', '1x:40000', '--account', shop.accountId], 1);
      assert.match(r.stderr, /packs\.0\.price/);
      assert.deepEqual(await snapshot(server.deps), before_);
    });

    test('MCP, REST and CLI refuse deleting a published page with invalid_state and keep it', async () => {
      const m = await storesNothing(server.deps, () => call(mcp, 'delete_landing_page', { landing_page_id: shop.landingId }));
      assert.equal(m.value.error.code, 'invalid_state');
      failed(await storesNothing(server.deps, () => v1.delete('/api/v1/landing-pages/{landing_page_id}', { params: { landing_page_id: shop.landingId } })), 409);
      const before_ = await snapshot(server.deps);
      const r = await cliFails(server.dbFile, ['landings', 'delete', shop.landingId, '--account', shop.accountId], 1);
      assert.match(r.stderr, /published/);
      assert.deepEqual(await snapshot(server.deps), before_);
    });
  });
});
