// Landing page tools through the real SDK client (MCP-TOOLS.md §6.6 rows 27-34): created
// unpublished, published only when ready, taking mode-1 orders while live, deleted only while
// offline; tenancy and the 403 of a token without the scope. A section's image comes from a local
// image host (private addresses allowed): it is hosted, and views show codrail's URL of it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { addLanding, addProduct, addStore, orderBody, postOrder, seedShop, type Shop } from '../helpers/fixtures.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { OPEN_LIMITS, expectCreated, expectError, nextPhone, orderRow } from '../api/orders/order-kit.ts';
import { photo, startImageHost, type ImageHost } from '../helpers/image-host.ts';
import { connect } from './mcp-kit.ts';
import { expectForeignLikeUnknown, expectInsufficientScope, expectSdkForbidden, expectToolError, landingRow, ok, scopedTokens, unchanged , openToolBench, closeToolBench } from './account-kit.ts';

const LANDINGS_READ = ['mcp:invoke', 'landings:read'];
const PRODUCTS_READ = ['mcp:invoke', 'products:read'];

let slugSeq = 0;
const slug = (base = 'page') => `${base}-${++slugSeq}`;

const ID = /^[A-Za-z0-9_-]{22}$/;
const HOSTED_JPEG = /\/img\/[A-Za-z0-9_-]{22}-\d+\.jpg$/;

const sectionsWith = (heroUrl: string) => [
  { type: 'hero', heading: ' La faja que sí funciona ', body: 'Moldea desde el primer día.', image_url: heroUrl },
  { type: 'benefits', items: [{ title: 'Cómoda' }, { title: 'Invisible', text: 'Bajo cualquier ropa.' }] },
  { type: 'faq', heading: 'Preguntas', items: [{ title: '¿Pago contra entrega?', text: 'Sí, pagas al recibir.' }] },
];
let SECTIONS: ReturnType<typeof sectionsWith> = [];

describe('landing page tools', () => {
  let server: TestServer, shop: Shop, other: Shop, client: Client;
  let tokens: { landingsRead: string; productsRead: string };
  let host: ImageHost;
  before(async () => {
    host = await startImageHost();
    host.serve('/hero.jpg', await photo({ width: 1600, height: 1200 }));
    SECTIONS = sectionsWith(host.url('/hero.jpg'));
    ({ server, shop, other, client, tokens } = await openToolBench({ landingsRead: ['landings:read'], productsRead: ['products:read'] }, {}, { CODRAIL_IMAGE_URLS_ALLOW_PRIVATE: '1' }));
  });
  after(async () => {
    await closeToolBench({ server, client });
    await host.close();
  });

  /**
   * A view's sections against the stored ones: alike, except the hero's image, which the row keeps
   * as the URL it was fetched from beside the hosted image (1600×1200, stored at 1280×960), and the
   * view shows as codrail's URL of its largest JPEG.
   */
  function assertHostedSections(view: any[], stored: any[]): void {
    assert.equal(view.length, stored.length);
    view.forEach((shown, i) => {
      if (!stored[i].image) return assert.deepEqual(shown, stored[i], `section ${i}`);
      const { image, ...rest } = stored[i];
      assert.match(image.id, ID);
      assert.deepEqual(image, { id: image.id, width: 1280, height: 960, source: host.url('/hero.jpg') });
      assert.equal(rest.image_url, host.url('/hero.jpg'), 'the row keeps the URL sent');
      assert.ok(shown.image_url.startsWith(`${server.deps.config.baseUrl}/img/`), `${shown.image_url} is served by codrail`);
      assert.match(shown.image_url, HOSTED_JPEG);
      assert.deepEqual(shown, { ...rest, image_url: `${server.deps.config.baseUrl}/img/${image.id}-1280.jpg` }, `section ${i}`);
    });
  }

  /** An unpublished page of the seeded product (ready to publish). */
  const draftPage = (input: Record<string, unknown> = {}) => addLanding(server.deps, { product_id: shop.productId, slug: slug(), ...input });
  /** A mode-1 order: the landing page id, the buyer, the pricing; no credential. */
  const landingOrder = (landingId: string, over: Record<string, unknown> = {}) => {
    const { store_id: _s, product_id: _p, ...rest } = orderBody(shop, { telefono: nextPhone(), ...over });
    return postOrder(server.url, { landing_page_id: landingId, ...rest });
  };
  const landingIdsOf = async (accountId: string) =>
    (
      await server.deps.db
        .selectFrom('landing_pages')
        .innerJoin('stores', 'stores.id', 'landing_pages.store_id')
        .select('landing_pages.id')
        .where('stores.account_id', '=', accountId)
        .orderBy('landing_pages.created_at', 'desc')
        .orderBy('landing_pages.id', 'desc')
        .execute()
    ).map((r) => r.id);

  describe('list_landing_pages', () => {
    test('list_landing_pages pages newest first through exactly the pages of the account, with their public URL', async () => {
      await draftPage({ title: 'Oferta de invierno' });
      await draftPage();
      const seen: Record<string, unknown>[] = [];
      let cursor: string | undefined;
      do {
        const page = await ok(client, 'list_landing_pages', { limit: 2, ...(cursor ? { cursor } : {}) });
        seen.push(...page.items);
        cursor = page.next_cursor;
      } while (cursor);
      assert.deepEqual(seen.map((l) => l.id), await landingIdsOf(shop.accountId));
      const row = await landingRow(server.deps, shop.landingId);
      assert.deepEqual(
        seen.find((l) => l.id === shop.landingId),
        {
          id: row.id,
          store_id: shop.storeId,
          product_id: shop.productId,
          slug: row.slug,
          title: 'Faja',
          published: true,
          url: `${server.deps.config.baseUrl}/l/${row.slug}`,
          created_at: row.created_at,
          updated_at: row.updated_at,
        },
      );
    });

    test('list_landing_pages filters by status, store, product and a title or slug query', async () => {
      // Its own unpublished page, so the test stands alone (the shop's landing is the published one).
      await ok(client, 'create_landing_page', { store_id: shop.storeId, product_id: shop.productId, slug: 'liquidacion-verano', title: 'Liquidación de verano' });
      const published = await ok(client, 'list_landing_pages', { status: 'published', limit: 100 });
      assert.ok(published.items.length > 0 && published.items.every((l: { published: boolean }) => l.published));
      const unpublished = await ok(client, 'list_landing_pages', { status: 'unpublished', limit: 100 });
      assert.ok(unpublished.items.length > 0 && unpublished.items.every((l: { published: boolean }) => !l.published));
      assert.deepEqual((await ok(client, 'list_landing_pages', { query: 'VERANO' })).items.map((l: { title: string }) => l.title), ['Liquidación de verano']);
      const byProduct = await ok(client, 'list_landing_pages', { product_id: shop.productId, store_id: shop.storeId, limit: 100 });
      assert.ok(byProduct.items.every((l: { product_id: string }) => l.product_id === shop.productId));
    });

    test('list_landing_pages refuses an unknown status, an empty query and a bad cursor', async () => {
      await expectToolError(server.deps, client, 'list_landing_pages', { status: 'live' }, 'invalid_input', 'status');
      await expectToolError(server.deps, client, 'list_landing_pages', { query: '  ' }, 'invalid_input', 'query');
      await expectToolError(server.deps, client, 'list_landing_pages', { cursor: 'WyJhIiwiYiIsImMiXQ' }, 'invalid_cursor', 'cursor');
    });

    test("list_landing_pages of another account's store or product answers not_found exactly like an unknown id", async () => {
      await expectForeignLikeUnknown(server.deps, client, 'list_landing_pages', (id) => ({ store_id: id }), other.storeId, 'store_id');
      await expectForeignLikeUnknown(server.deps, client, 'list_landing_pages', (id) => ({ product_id: id }), other.productId, 'product_id');
    });

    test('list_landing_pages with a token without landings:read is 403; with landings:read it lists', async () => {
      await expectInsufficientScope(server, tokens.productsRead, PRODUCTS_READ, 'list_landing_pages', {}, 'landings:read');
      const reader = await connect(server.url, tokens.landingsRead);
      try {
        assert.deepEqual((await ok(reader, 'list_landing_pages', { limit: 100 })).items.map((l: { id: string }) => l.id), await landingIdsOf(shop.accountId));
      } finally {
        await reader.close();
      }
    });
  });

  describe('get_landing_page', () => {
    test('get_landing_page returns the full page with where it posts its orders', async () => {
      const value = await ok(client, 'get_landing_page', { landing_page_id: shop.landingId });
      const row = await landingRow(server.deps, shop.landingId);
      assert.equal(value.status, 'published');
      assert.equal(value.published, true);
      assert.equal(value.published_at, row.published_at);
      assert.deepEqual(value.sections, []);
      assert.deepEqual(value.theme, {});
      assert.equal(value.seo_title, null);
      assert.equal(value.order_url, `${server.deps.config.baseUrl}/api/orders/create`);
      assert.equal(value.url, `${server.deps.config.baseUrl}/l/${row.slug}`);
    });

    test('get_landing_page refuses a landing_page_id that is not a UUID', async () => {
      await expectToolError(server.deps, client, 'get_landing_page', { landing_page_id: 'oferta' }, 'invalid_input', 'landing_page_id');
    });

    test("get_landing_page of another account's page answers not_found exactly like an unknown id, with a hint", async () => {
      const error = await expectForeignLikeUnknown(server.deps, client, 'get_landing_page', (id) => ({ landing_page_id: id }), other.landingId, 'landing_page_id');
      assert.match(error.hint ?? '', /list_landing_pages/);
    });

    test('get_landing_page with a token without landings:read is 403, through the SDK client too', async () => {
      await expectInsufficientScope(server, tokens.productsRead, PRODUCTS_READ, 'get_landing_page', { landing_page_id: shop.landingId }, 'landings:read');
      const reader = await connect(server.url, tokens.productsRead);
      try {
        await expectSdkForbidden(server.deps, reader, 'get_landing_page', { landing_page_id: shop.landingId });
      } finally {
        await reader.close();
      }
    });
  });

  describe('create_landing_page', () => {
    test('create_landing_page stores an unpublished page with its sections, SEO and theme, which takes no order yet', async () => {
      const wanted = slug('Oferta-Faja').toUpperCase();
      const value = await ok(client, 'create_landing_page', {
        product_id: shop.productId,
        slug: ` ${wanted} `,
        sections: SECTIONS,
        seo_title: 'Faja reductora',
        seo_description: 'Pago contra entrega en toda Colombia.',
        theme: { primary_color: '#0a7d4f', font: 'serif' },
      });
      assert.equal(value.slug, wanted.toLowerCase());
      assert.equal(value.title, 'Faja', 'the title defaults to the product name');
      assert.equal(value.status, 'unpublished');
      assert.equal(value.published_at, null);
      assert.equal(value.store_id, shop.storeId);
      assert.equal(value.sections[0].heading, 'La faja que sí funciona');
      const row = await landingRow(server.deps, value.id);
      assert.equal(row.store_id, shop.storeId);
      assert.equal(row.product_id, shop.productId);
      assert.equal(row.slug, wanted.toLowerCase());
      assert.equal(row.published, 0);
      assert.equal(row.published_at, null);
      assertHostedSections(value.sections, JSON.parse(row.sections));
      assert.equal(JSON.parse(row.sections).length, 3);
      assert.ok(JSON.parse(row.sections)[0].image, 'the hero image is hosted');
      assert.equal(row.seo_title, 'Faja reductora');
      assert.equal(row.seo_description, 'Pago contra entrega en toda Colombia.');
      assert.deepEqual(JSON.parse(row.theme), { primary_color: '#0a7d4f', font: 'serif' });
      await expectError(await landingOrder(value.id), 400, { fields: ['landing_page_id'] });
    });

    test('create_landing_page with publish: true on a ready product publishes at once and takes mode-1 orders', async () => {
      const value = await ok(client, 'create_landing_page', { store_id: shop.storeId, product_id: shop.productId, slug: slug(), title: 'Ya', publish: true });
      assert.equal(value.status, 'published');
      const row = await landingRow(server.deps, value.id);
      assert.equal(row.published, 1);
      assert.equal(row.published_at, value.published_at);
      const created = await expectCreated(await landingOrder(value.id));
      assert.equal((await orderRow(server.deps, created.data.id)).landing_page_id, value.id);
    });

    test('create_landing_page with publish: true on a draft product is invalid_state and stores nothing', async () => {
      const draft = await addProduct(server.deps, { store_id: shop.storeId, name: 'Borrador', status: 'draft', packs: [{ quantity: 1, price: 1000 }] });
      const error = await expectToolError(server.deps, client, 'create_landing_page', { product_id: draft.id, slug: slug(), publish: true }, 'invalid_state', 'product_id');
      assert.match(error.message, /draft/);
    });

    test('create_landing_page refuses a taken slug as a conflict on slug and stores nothing', async () => {
      const taken = (await landingRow(server.deps, shop.landingId)).slug;
      const error = await expectToolError(server.deps, client, 'create_landing_page', { product_id: shop.productId, slug: taken }, 'conflict', 'slug');
      assert.match(error.hint ?? '', /another/);
      // Slugs are unique across the server, not only the account.
      await expectToolError(server.deps, client, 'create_landing_page', { product_id: shop.productId, slug: (await landingRow(server.deps, other.landingId)).slug }, 'conflict', 'slug');
    });

    test('create_landing_page refuses bad arguments, naming the field, and stores nothing', async () => {
      const make = (over: Record<string, unknown>) => ({ product_id: shop.productId, slug: slug(), ...over });
      await expectToolError(server.deps, client, 'create_landing_page', make({ slug: 'Mi página!' }), 'invalid_input', 'slug');
      await expectToolError(server.deps, client, 'create_landing_page', make({ sections: [{ type: 'video' }] }), 'invalid_input', 'sections.0.type');
      // Plain http is refused even with private addresses allowed: only loopback may be http.
      await expectToolError(server.deps, client, 'create_landing_page', make({ sections: [{ type: 'hero', image_url: 'http://cdn.example.com/x.jpg' }] }), 'invalid_input', 'sections.0.image_url');
      await expectToolError(server.deps, client, 'create_landing_page', make({ theme: { primary_color: 'green' } }), 'invalid_input', 'theme.primary_color');
      await expectToolError(server.deps, client, 'create_landing_page', make({ seo_title: 'x'.repeat(71) }), 'invalid_input', 'seo_title');
      await expectToolError(server.deps, client, 'create_landing_page', make({ publish: 'yes' }), 'invalid_input', 'publish');
      await expectToolError(server.deps, client, 'create_landing_page', { slug: slug() }, 'invalid_input', 'product_id');
    });

    test('create_landing_page refuses a store_id other than the product store, naming product_id', async () => {
      const second = await addStore(server.deps, shop.accountId, { name: 'Otra', country: 'CO', domains: ['otra.example.com'] });
      await expectToolError(server.deps, client, 'create_landing_page', { store_id: second.id, product_id: shop.productId, slug: slug() }, 'invalid_input', 'product_id');
    });

    test("create_landing_page for another account's product or store answers not_found exactly like an unknown id", async () => {
      await expectForeignLikeUnknown(server.deps, client, 'create_landing_page', (id) => ({ product_id: id, slug: slug() }), other.productId, 'product_id');
      await expectForeignLikeUnknown(server.deps, client, 'create_landing_page', (id) => ({ store_id: id, product_id: shop.productId, slug: 'same-slug-both-times' }), other.storeId, 'store_id');
    });

    test('create_landing_page with a token holding landings:read only is 403 and stores nothing', async () => {
      await expectInsufficientScope(server, tokens.landingsRead, LANDINGS_READ, 'create_landing_page', { product_id: shop.productId, slug: slug() }, 'landings:write');
      const reader = await connect(server.url, tokens.landingsRead);
      try {
        await expectSdkForbidden(server.deps, reader, 'create_landing_page', { product_id: shop.productId, slug: slug() });
      } finally {
        await reader.close();
      }
    });
  });

  describe('update_landing_page', () => {
    test('update_landing_page patches title, slug, SEO and merges the theme, keeping the rest', async () => {
      const page = await draftPage({ seo_title: 'Viejo', sections: SECTIONS, theme: { primary_color: '#111111' } });
      const newSlug = slug('nuevo');
      const value = await ok(client, 'update_landing_page', { landing_page_id: page.id, title: 'Nuevo título', slug: newSlug, seo_description: 'Nueva', theme: { font: 'rounded' } });
      assert.equal(value.title, 'Nuevo título');
      assert.equal(value.url, `${server.deps.config.baseUrl}/l/${newSlug}`);
      assert.deepEqual(value.theme, { primary_color: '#111111', font: 'rounded' });
      const row = await landingRow(server.deps, page.id);
      assert.equal(row.title, 'Nuevo título');
      assert.equal(row.slug, newSlug);
      assert.equal(row.seo_title, 'Viejo');
      assert.equal(row.seo_description, 'Nueva');
      assert.deepEqual(JSON.parse(row.theme), { primary_color: '#111111', font: 'rounded' });
      assert.equal(JSON.parse(row.sections).length, 3, 'sections stay');
      await ok(client, 'update_landing_page', { landing_page_id: page.id, seo_title: '' });
      assert.equal((await landingRow(server.deps, page.id)).seo_title, null);
    });

    test('update_landing_page moves a live page to another ready product of its store; its orders follow', async () => {
      const page = await draftPage({ publish: true });
      const product = await addProduct(server.deps, { store_id: shop.storeId, name: 'Otra faja', packs: [{ quantity: 1, price: 100000 }] });
      const value = await ok(client, 'update_landing_page', { landing_page_id: page.id, product_id: product.id.toUpperCase() });
      assert.equal(value.product_id, product.id);
      assert.equal((await landingRow(server.deps, page.id)).product_id, product.id);
      const created = await expectCreated(await landingOrder(page.id));
      assert.equal((await orderRow(server.deps, created.data.id)).product_id, product.id);
    });

    test('update_landing_page refuses a product of another store, a draft product for a live page and a taken slug, changing nothing', async () => {
      const page = await draftPage({ publish: true });
      const second = await addStore(server.deps, shop.accountId, { name: 'Otra', country: 'CO', domains: ['otra.example.com'] });
      const elsewhere = await addProduct(server.deps, { store_id: second.id, name: 'Lejos', packs: [{ quantity: 1, price: 1000 }] });
      const draft = await addProduct(server.deps, { store_id: shop.storeId, name: 'Borrador', status: 'draft', packs: [{ quantity: 1, price: 1000 }] });
      await expectToolError(server.deps, client, 'update_landing_page', { landing_page_id: page.id, product_id: elsewhere.id }, 'invalid_input', 'product_id');
      await expectToolError(server.deps, client, 'update_landing_page', { landing_page_id: page.id, product_id: draft.id }, 'invalid_state', 'product_id');
      await expectToolError(server.deps, client, 'update_landing_page', { landing_page_id: page.id, slug: (await landingRow(server.deps, shop.landingId)).slug }, 'conflict', 'slug');
      await expectToolError(server.deps, client, 'update_landing_page', { landing_page_id: page.id, theme: { font: 'comic' } }, 'invalid_input', 'theme.font');
      await expectToolError(server.deps, client, 'update_landing_page', { landing_page_id: page.id, sections: SECTIONS }, 'invalid_input');
    });

    test("update_landing_page of another account's page, or to its product, answers not_found exactly like an unknown id", async () => {
      await expectForeignLikeUnknown(server.deps, client, 'update_landing_page', (id) => ({ landing_page_id: id, title: 'Mía' }), other.landingId, 'landing_page_id');
      const page = await draftPage();
      await expectForeignLikeUnknown(server.deps, client, 'update_landing_page', (id) => ({ landing_page_id: page.id, product_id: id }), other.productId, 'product_id');
      assert.equal((await landingRow(server.deps, other.landingId)).title, 'Faja');
    });

    test('update_landing_page with a token holding landings:read only is 403 and changes nothing', async () => {
      await expectInsufficientScope(server, tokens.landingsRead, LANDINGS_READ, 'update_landing_page', { landing_page_id: shop.landingId, title: 'X' }, 'landings:write');
    });
  });

  describe('set_landing_sections', () => {
    test('set_landing_sections replaces the ordered section list and stores it', async () => {
      const page = await draftPage({ sections: [{ type: 'text', body: 'old' }] });
      const value = await ok(client, 'set_landing_sections', { landing_page_id: page.id, sections: SECTIONS });
      assert.deepEqual(value.sections.map((s: { type: string }) => s.type), ['hero', 'benefits', 'faq']);
      const stored = JSON.parse((await landingRow(server.deps, page.id)).sections);
      assertHostedSections(value.sections, stored);
      assert.ok(stored[0].image, 'the hero image is hosted');
      assert.equal(stored[0].heading, 'La faja que sí funciona', 'trimmed');
      assert.deepEqual(stored[2].items, [{ title: '¿Pago contra entrega?', text: 'Sí, pagas al recibir.' }]);
    });

    test('set_landing_sections refuses no section, too many, and a bad section, changing nothing', async () => {
      const page = await draftPage({ sections: [{ type: 'text', body: 'keep' }] });
      await expectToolError(server.deps, client, 'set_landing_sections', { landing_page_id: page.id, sections: [] }, 'invalid_input', 'sections');
      await expectToolError(server.deps, client, 'set_landing_sections', { landing_page_id: page.id, sections: Array.from({ length: 31 }, () => ({ type: 'text' })) }, 'invalid_input', 'sections');
      await expectToolError(server.deps, client, 'set_landing_sections', { landing_page_id: page.id, sections: [{ type: 'cta', colour: 'red' }] }, 'invalid_input');
      await expectToolError(
        server.deps,
        client,
        'set_landing_sections',
        { landing_page_id: page.id, sections: [{ type: 'faq', items: Array.from({ length: 13 }, (_, i) => ({ title: `Q${i}` })) }] },
        'invalid_input',
        'sections.0.items',
      );
      await expectToolError(server.deps, client, 'set_landing_sections', { landing_page_id: page.id, sections: [{ type: 'faq', items: [{ title: '' }] }] }, 'invalid_input', 'sections.0.items.0.title');
    });

    test("set_landing_sections of another account's page answers not_found exactly like an unknown id and changes nothing", async () => {
      await expectForeignLikeUnknown(server.deps, client, 'set_landing_sections', (id) => ({ landing_page_id: id, sections: SECTIONS }), other.landingId, 'landing_page_id');
    });

    test('set_landing_sections with a token holding landings:read only is 403 and changes nothing', async () => {
      await expectInsufficientScope(server, tokens.landingsRead, LANDINGS_READ, 'set_landing_sections', { landing_page_id: shop.landingId, sections: SECTIONS }, 'landings:write');
    });
  });

  describe('publish_landing_page', () => {
    test('publish_landing_page publishes a ready page, which then takes mode-1 orders', async () => {
      const page = await draftPage();
      await expectError(await landingOrder(page.id), 400, { fields: ['landing_page_id'] });
      const value = await ok(client, 'publish_landing_page', { landing_page_id: page.id });
      assert.equal(value.status, 'published');
      assert.ok(value.published_at);
      const row = await landingRow(server.deps, page.id);
      assert.equal(row.published, 1);
      assert.equal(row.published_at, value.published_at);
      const created = await expectCreated(await landingOrder(page.id));
      const order = await orderRow(server.deps, created.data.id);
      assert.equal(order.landing_page_id, page.id);
      assert.equal(order.store_id, shop.storeId);
    });

    test('publish_landing_page of a published page changes nothing', async () => {
      const before_ = await landingRow(server.deps, shop.landingId);
      const value = await unchanged(server.deps, () => ok(client, 'publish_landing_page', { landing_page_id: shop.landingId }));
      assert.equal(value.published_at, before_.published_at);
    });

    test('publish_landing_page of a page whose store has no checkout domain is invalid_state naming add_store_domain', async () => {
      const bare = await addStore(server.deps, shop.accountId, { name: 'Sin dominio', country: 'CO' });
      const product = await addProduct(server.deps, { store_id: bare.id, name: 'Lista', packs: [{ quantity: 1, price: 1000 }] });
      const page = await addLanding(server.deps, { product_id: product.id, slug: slug() });
      const error = await expectToolError(server.deps, client, 'publish_landing_page', { landing_page_id: page.id }, 'invalid_state', 'store_id');
      assert.match(error.message, /checkout domain/);
      assert.match(error.hint ?? '', /add_store_domain/);
      assert.equal((await landingRow(server.deps, page.id)).published, 0);
    });

    test('publish_landing_page of a page that fails several checks is invalid_state listing each problem, changing nothing', async () => {
      const bare = await addStore(server.deps, shop.accountId, { name: 'Vacía', country: 'CO' });
      const product = await addProduct(server.deps, { store_id: bare.id, name: 'Borrador', status: 'draft' });
      const page = await addLanding(server.deps, { product_id: product.id, slug: slug() });
      const error = await expectToolError(server.deps, client, 'publish_landing_page', { landing_page_id: page.id }, 'invalid_state');
      // The hint asks to "fix each listed check": every failed check must be in the answer.
      assert.match(error.message, /draft/, JSON.stringify(error));
      assert.match(error.message, /no packs/, JSON.stringify(error));
      assert.match(error.message, /checkout domain/, JSON.stringify(error));
      assert.equal((await landingRow(server.deps, page.id)).published, 0);
    });

    test('publish_landing_page refuses a landing_page_id that is not a UUID', async () => {
      await expectToolError(server.deps, client, 'publish_landing_page', { landing_page_id: 'x' }, 'invalid_input', 'landing_page_id');
    });

    test("publish_landing_page of another account's page answers not_found exactly like an unknown id and changes nothing", async () => {
      const theirs = await addLanding(server.deps, { product_id: other.productId, slug: slug() });
      await expectForeignLikeUnknown(server.deps, client, 'publish_landing_page', (id) => ({ landing_page_id: id }), theirs.id, 'landing_page_id');
      assert.equal((await landingRow(server.deps, theirs.id)).published, 0);
    });

    test('publish_landing_page with a token holding landings:read only is 403 and changes nothing', async () => {
      const page = await draftPage();
      await expectInsufficientScope(server, tokens.landingsRead, LANDINGS_READ, 'publish_landing_page', { landing_page_id: page.id }, 'landings:write');
    });
  });

  describe('unpublish_landing_page', () => {
    test('unpublish_landing_page takes the page offline, keeps its content, and it takes no more orders', async () => {
      const page = await draftPage({ publish: true, sections: SECTIONS });
      await expectCreated(await landingOrder(page.id));
      const value = await ok(client, 'unpublish_landing_page', { landing_page_id: page.id });
      assert.equal(value.status, 'unpublished');
      const row = await landingRow(server.deps, page.id);
      assert.equal(row.published, 0);
      assert.equal(JSON.parse(row.sections).length, 3);
      await expectError(await landingOrder(page.id), 400, { fields: ['landing_page_id'] });
      await unchanged(server.deps, () => ok(client, 'unpublish_landing_page', { landing_page_id: page.id }));
      await ok(client, 'publish_landing_page', { landing_page_id: page.id });
      await expectCreated(await landingOrder(page.id));
    });

    test("unpublish_landing_page of another account's page answers not_found exactly like an unknown id and it stays live", async () => {
      await expectForeignLikeUnknown(server.deps, client, 'unpublish_landing_page', (id) => ({ landing_page_id: id }), other.landingId, 'landing_page_id');
      assert.equal((await landingRow(server.deps, other.landingId)).published, 1);
    });

    test('unpublish_landing_page refuses extra arguments and changes nothing', async () => {
      await expectToolError(server.deps, client, 'unpublish_landing_page', { landing_page_id: shop.landingId, reason: 'x' }, 'invalid_input');
    });

    test('unpublish_landing_page with a token holding landings:read only is 403 and changes nothing', async () => {
      await expectInsufficientScope(server, tokens.landingsRead, LANDINGS_READ, 'unpublish_landing_page', { landing_page_id: shop.landingId }, 'landings:write');
    });
  });

  describe('delete_landing_page', () => {
    test('delete_landing_page of a published page is invalid_state and deletes nothing', async () => {
      const error = await expectToolError(server.deps, client, 'delete_landing_page', { landing_page_id: shop.landingId }, 'invalid_state', 'landing_page_id');
      assert.match(error.hint ?? '', /unpublish_landing_page/);
      assert.equal((await landingRow(server.deps, shop.landingId)).published, 1);
    });

    test('delete_landing_page of an unpublished page deletes it and keeps its orders without the link', async () => {
      const page = await draftPage({ publish: true });
      const created = await expectCreated(await landingOrder(page.id));
      await ok(client, 'unpublish_landing_page', { landing_page_id: page.id });
      const value = await ok(client, 'delete_landing_page', { landing_page_id: page.id });
      assert.deepEqual(value, { id: page.id, slug: page.slug, deleted: true, orders_detached: 1 });
      assert.equal(await server.deps.db.selectFrom('landing_pages').select('id').where('id', '=', page.id).executeTakeFirst(), undefined);
      const order = await orderRow(server.deps, created.data.id);
      assert.equal(order.landing_page_id, null);
      await expectToolError(server.deps, client, 'get_landing_page', { landing_page_id: page.id }, 'not_found', 'landing_page_id');
      // The slug is free again.
      await ok(client, 'create_landing_page', { product_id: shop.productId, slug: page.slug });
    });

    test("delete_landing_page of another account's page answers not_found exactly like an unknown id and deletes nothing", async () => {
      const theirs = await addLanding(server.deps, { product_id: other.productId, slug: slug() });
      await expectForeignLikeUnknown(server.deps, client, 'delete_landing_page', (id) => ({ landing_page_id: id }), theirs.id, 'landing_page_id');
      await landingRow(server.deps, theirs.id);
    });

    test('delete_landing_page refuses a landing_page_id that is not a UUID', async () => {
      await expectToolError(server.deps, client, 'delete_landing_page', { landing_page_id: '' }, 'invalid_input', 'landing_page_id');
    });

    test('delete_landing_page with a token holding landings:read only is 403 and deletes nothing', async () => {
      const page = await draftPage();
      await expectInsufficientScope(server, tokens.landingsRead, LANDINGS_READ, 'delete_landing_page', { landing_page_id: page.id }, 'landings:write');
      await landingRow(server.deps, page.id);
    });
  });
});
