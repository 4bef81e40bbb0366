// The landing page and API key routes of the account API (SPEC 4.3, SPEC 5; MCP-TOOLS.md §6.3, §6.6)
// with a secret key: what each answers and stores, readiness and slug rules (409), keys shown once
// and stored as SHA-256, and 404 alike for unknown and foreign ids. The hero's image comes from a
// local image host (private addresses allowed): it is hosted, and views show codrail's URL of it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { addStore, openShop, seedShop, type Shop } from '../../helpers/fixtures.ts';
import type { TestServer } from '../../helpers/server.ts';
import { photo, startImageHost, type ImageHost } from '../../helpers/image-host.ts';
import { OPEN_LIMITS } from '../orders/order-kit.ts';
import { UNKNOWN_ID, V1Client, failed, ok, rows, storesNothing, type V1Answer, sameNotFound } from './v1-kit.ts';

const LANDING = '/api/v1/landing-pages/{landing_page_id}';
const KEY = '/api/v1/keys/{key_id}';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const ID = /^[A-Za-z0-9_-]{22}$/;
const HOSTED_JPEG = /\/img\/[A-Za-z0-9_-]{22}-\d+\.jpg$/;

type SectionSent = { type: string; heading?: string; body?: string; image_url?: string; items?: { title: string; text?: string }[] };
const sectionsWith = (heroUrl: string): SectionSent[] => [
  { type: 'hero', heading: 'Faja reductora', body: 'Moldea tu figura', image_url: heroUrl },
  { type: 'faq', heading: 'Preguntas', items: [{ title: '¿Pago contra entrega?', text: 'Sí' }] },
];
let SECTIONS: SectionSent[] = [];

describe('account API: landing pages and keys', () => {
  let server: TestServer;
  let shop: Shop;
  let foreign: Shop;
  let v1: V1Client;
  let host: ImageHost;

  before(async () => {
    host = await startImageHost();
    host.serve('/hero.jpg', await photo({ width: 1600, height: 1200 }));
    SECTIONS = sectionsWith(host.url('/hero.jpg'));
    ({ server, shop } = await openShop(OPEN_LIMITS, { env: { CODRAIL_IMAGE_URLS_ALLOW_PRIVATE: '1' } }));
    foreign = await seedShop(server.deps);
    v1 = await V1Client.open(server, shop.secretKey);
  });
  after(async () => {
    await server.close();
    await host.close();
  });

  const landingRow = async (id: string) => (await rows(server.deps, 'select * from landing_pages where id = ?', id))[0]!;
  const keyRow = async (id: string) => (await rows(server.deps, 'select * from api_keys where id = ?', id))[0]!;

  /**
   * Stored sections are the sections sent, each with an image_url beside the image hosted from it
   * (the 1600×1200 hero, stored at 1280×960); answers the hosted image's id.
   */
  function assertStoredSections(stored: any[], sent: SectionSent[]): string {
    const image = stored.find((s) => s.image)?.image;
    assert.match(image?.id ?? '', ID, 'the hero image is hosted');
    assert.deepEqual(
      stored,
      sent.map((s) => (s.image_url ? { ...s, image: { id: image.id, width: 1280, height: 960, source: s.image_url } } : s)),
    );
    return image.id;
  }

  /** A view shows the sections sent, with codrail's URL of the hosted image (its largest JPEG) as each image_url. */
  function assertViewSections(view: any[], sent: SectionSent[], imageId: string): void {
    assert.equal(view.length, sent.length);
    view.forEach((section, i) => {
      const { image_url: url, ...rest } = section;
      const { image_url: sentUrl, ...sentRest } = sent[i]!;
      assert.deepEqual(rest, sentRest, `section ${i}`);
      if (sentUrl === undefined) return assert.equal(url, undefined, `section ${i} has no image`);
      assert.ok(url.startsWith(`${server.deps.config.baseUrl}/img/`), `section ${i}: ${url} is served by codrail`);
      assert.match(url, HOSTED_JPEG);
      assert.equal(url, `${server.deps.config.baseUrl}/img/${imageId}-1280.jpg`);
    });
  }

  describe('landing pages', () => {
    let draftProduct = '';
    let bareStore = '';
    let landingId = '';

    before(async () => {
      const store = await addStore(server.deps, shop.accountId, { name: 'Sin dominio', country: 'CO' });
      bareStore = store.id;
      draftProduct = ok(await v1.post('/api/v1/products', { body: { store_id: bareStore, name: 'Gorra', packs: [] } }), 201).id;
    });

    /** A fresh unpublished page of the shop's product, for a test that needs one: no test relies on another's page. */
    let pages = 0;
    const page = async (over: Record<string, unknown> = {}) =>
      ok(
        await v1.post('/api/v1/landing-pages', {
          body: { product_id: shop.productId, slug: `pagina-${++pages}`, title: 'Faja en promoción', sections: SECTIONS, seo_title: 'Faja', seo_description: 'La mejor faja', theme: { primary_color: '#0a7d4f', font: 'serif' }, ...over },
        }),
        201,
      ) as { id: string; slug: string };
    /** Takes a page a test published off line again, so that the lists other tests read hold only theirs. */
    const tidy = async (id: string) => void (await v1.delete(LANDING, { params: { landing_page_id: id } }).then(async (r) => (r.status === 409 ? v1.post(`${LANDING}/unpublish`, { params: { landing_page_id: id } }).then(() => v1.delete(LANDING, { params: { landing_page_id: id } })) : r)));

    test('POST /landing-pages creates an unpublished page with its sections, SEO and theme and answers 201', async () => {
      const data = ok(
        await v1.post('/api/v1/landing-pages', {
          body: { product_id: shop.productId, slug: ' Faja-Promo ', title: 'Faja en promoción', sections: SECTIONS, seo_title: 'Faja', seo_description: 'La mejor faja', theme: { primary_color: '#0a7d4f', font: 'serif' } },
        }),
        201,
      );
      landingId = data.id;
      assert.equal(data.url, `${server.deps.config.baseUrl}/l/faja-promo`);
      assert.equal(data.status, 'unpublished');
      const row = await landingRow(landingId);
      assert.deepEqual(
        {
          store_id: row.store_id,
          product_id: row.product_id,
          slug: row.slug,
          title: row.title,
          published: row.published,
          seo_title: row.seo_title,
          seo_description: row.seo_description,
          theme: JSON.parse(row.theme),
          published_at: row.published_at,
        },
        {
          store_id: shop.storeId,
          product_id: shop.productId,
          slug: 'faja-promo',
          title: 'Faja en promoción',
          published: 0,
          seo_title: 'Faja',
          seo_description: 'La mejor faja',
          theme: { primary_color: '#0a7d4f', font: 'serif' },
          published_at: null,
        },
      );
      assertViewSections(data.sections, SECTIONS, assertStoredSections(JSON.parse(row.sections), SECTIONS));
    });

    test('POST /landing-pages with a slug another page has answers 409 naming slug and stores nothing', async () => {
      // Its own page first, so the test stands alone; the slug is compared case-insensitively.
      const own = ok(await v1.post('/api/v1/landing-pages', { body: { product_id: shop.productId, slug: 'taken-slug' } }), 201);
      failed(await storesNothing(server.deps, () => v1.post('/api/v1/landing-pages', { body: { product_id: shop.productId, slug: 'TAKEN-SLUG' } })), 409, ['slug']);
      // …and leaves nothing behind for the tests that list pages.
      ok(await v1.delete('/api/v1/landing-pages/{landing_page_id}', { params: { landing_page_id: own.id } }));
    });

    test('POST /landing-pages with a slug that is not letters, digits and dashes and a bad colour answers 400 naming both and stores nothing', async () => {
      const answer = await storesNothing(server.deps, () => v1.post('/api/v1/landing-pages', { body: { product_id: shop.productId, slug: 'faja promo!', theme: { primary_color: 'green' } } }));
      failed(answer, 400, ['slug', 'theme.primary_color']);
    });

    test('POST /landing-pages with publish true for a page that is not ready answers 409 listing every problem and stores nothing', async () => {
      const answer = await storesNothing(server.deps, () => v1.post('/api/v1/landing-pages', { body: { product_id: draftProduct, slug: 'gorra', publish: true } }));
      const body = failed(answer, 409);
      assert.deepEqual(body.details?.map((d) => d.field).sort(), ['product_id', 'product_id', 'store_id']);
      assert.match(answer.text, /draft/);
      assert.match(answer.text, /no packs/);
      assert.match(answer.text, /no checkout domain/);
    });

    test('POST /landing-pages for another account’s product answers the same 404 as an unknown product and stores nothing', async () => {
      await sameNotFound(server.deps, (id) => v1.post('/api/v1/landing-pages', { body: { product_id: id, slug: 'robada' } }), foreign.productId, 'product_id');
    });

    test('POST /landing-pages with a store_id that is not the product’s store answers 400 naming product_id and stores nothing', async () => {
      failed(await storesNothing(server.deps, () => v1.post('/api/v1/landing-pages', { body: { store_id: bareStore, product_id: shop.productId, slug: 'cruzada' } })), 400, ['product_id']);
    });

    test('GET /landing-pages/{landing_page_id} answers the stored page', async () => {
      const landingId = (await page()).id;
      const data = ok(await v1.get(LANDING, { params: { landing_page_id: landingId } }));
      assert.equal(data.id, landingId);
      assertViewSections(data.sections, SECTIONS, assertStoredSections(JSON.parse((await landingRow(landingId)).sections), SECTIONS));
      assert.equal(data.order_url, `${server.deps.config.baseUrl}/api/orders/create`);
    });

    test('GET /landing-pages/{landing_page_id} of an unknown and of another account’s page answer the same 404', async () => {
      await sameNotFound(server.deps, (id) => v1.get(LANDING, { params: { landing_page_id: id } }), foreign.landingId, 'landing_page_id');
    });

    test('PATCH /landing-pages/{landing_page_id} changes the fields sent and merges the theme', async () => {
      const landingId = (await page()).id;
      const data = ok(await v1.patch(LANDING, { params: { landing_page_id: landingId }, body: { title: 'Faja 2x1', seo_title: '', theme: { font: 'rounded' } } }));
      assert.equal(data.title, 'Faja 2x1');
      const row = await landingRow(landingId);
      assert.deepEqual([row.title, row.seo_title, row.seo_description, JSON.parse(row.theme)], ['Faja 2x1', null, 'La mejor faja', { primary_color: '#0a7d4f', font: 'rounded' }]);
    });

    test('PATCH /landing-pages/{landing_page_id} to a slug another page has answers 409 naming slug and changes nothing', async () => {
      const landingId = (await page()).id;
      const taken = (await landingRow(shop.landingId)).slug;
      failed(await storesNothing(server.deps, () => v1.patch(LANDING, { params: { landing_page_id: landingId }, body: { slug: taken } })), 409, ['slug']);
    });

    test('PATCH /landing-pages/{landing_page_id} to another account’s product answers the same 404 as an unknown product and changes nothing', async () => {
      const landingId = (await page()).id;
      await sameNotFound(server.deps, (id) => v1.patch(LANDING, { params: { landing_page_id: landingId }, body: { product_id: id } }), foreign.productId, 'product_id');
    });

    test('PATCH /landing-pages/{landing_page_id} of another account’s page answers the same 404 as an unknown one', async () => {
      await sameNotFound(server.deps, (id) => v1.patch(LANDING, { params: { landing_page_id: id }, body: { title: 'Mía' } }), foreign.landingId, 'landing_page_id');
    });

    test('PUT /landing-pages/{landing_page_id}/sections replaces the sections in order', async () => {
      const landingId = (await page()).id;
      const next = [{ type: 'cta', heading: 'Pide ya' }, ...SECTIONS];
      const data = ok(await v1.put(`${LANDING}/sections`, { params: { landing_page_id: landingId }, body: { sections: next } }));
      assertViewSections(data.sections, next, assertStoredSections(JSON.parse((await landingRow(landingId)).sections), next));
    });

    test('PUT /landing-pages/{landing_page_id}/sections with an unknown section type or none answers 400 naming the field and changes nothing', async () => {
      const landingId = (await page()).id;
      failed(await storesNothing(server.deps, () => v1.put(`${LANDING}/sections`, { params: { landing_page_id: landingId }, body: { sections: [{ type: 'video' }] } })), 400, ['sections.0.type']);
      failed(await storesNothing(server.deps, () => v1.put(`${LANDING}/sections`, { params: { landing_page_id: landingId }, body: { sections: [] } })), 400, ['sections']);
    });

    test('PUT /landing-pages/{landing_page_id}/sections of another account’s page answers the same 404 as an unknown one', async () => {
      await sameNotFound(server.deps, (id) => v1.put(`${LANDING}/sections`, { params: { landing_page_id: id }, body: { sections: [{ type: 'text', body: 'x' }] } }), foreign.landingId, 'landing_page_id');
    });

    test('POST /landing-pages/{landing_page_id}/publish without a body publishes a ready page', async () => {
      const landingId = (await page()).id;
      const data = ok(await v1.post(`${LANDING}/publish`, { params: { landing_page_id: landingId } }));
      assert.equal(data.published, true);
      const row = await landingRow(landingId);
      assert.equal(row.published, 1);
      assert.ok(row.published_at);
      await tidy(landingId);
    });

    test('POST /landing-pages/{landing_page_id}/publish of a page that is not ready answers 409 with the problems and changes nothing', async () => {
      const page = ok(await v1.post('/api/v1/landing-pages', { body: { product_id: draftProduct, slug: 'gorra-borrador' } }), 201);
      const answer = await storesNothing(server.deps, () => v1.post(`${LANDING}/publish`, { params: { landing_page_id: page.id }, body: {} }));
      failed(answer, 409, ['product_id', 'product_id', 'store_id']);
      assert.equal((await landingRow(page.id)).published, 0);
      await tidy(page.id);
    });

    test('POST /landing-pages/{landing_page_id}/publish of another account’s page answers the same 404 as an unknown one', async () => {
      await sameNotFound(server.deps, (id) => v1.post(`${LANDING}/publish`, { params: { landing_page_id: id } }), foreign.landingId, 'landing_page_id');
    });

    test('DELETE /landing-pages/{landing_page_id} of a published page answers 409 and deletes nothing', async () => {
      const landingId = (await page()).id;
      ok(await v1.post(`${LANDING}/publish`, { params: { landing_page_id: landingId } }));
      failed(await storesNothing(server.deps, () => v1.delete(LANDING, { params: { landing_page_id: landingId } })), 409, ['landing_page_id']);
      await tidy(landingId);
    });

    test('POST /landing-pages/{landing_page_id}/unpublish takes the page offline and keeps its content', async () => {
      const landingId = (await page()).id;
      const content = (await landingRow(landingId)).sections;
      ok(await v1.post(`${LANDING}/publish`, { params: { landing_page_id: landingId } }));
      const data = ok(await v1.post(`${LANDING}/unpublish`, { params: { landing_page_id: landingId } }));
      assert.equal(data.published, false);
      const row = await landingRow(landingId);
      assert.equal(row.published, 0);
      assert.equal(row.sections, content);
      assertStoredSections(JSON.parse(row.sections), SECTIONS);
      await tidy(landingId);
    });

    test('POST /landing-pages/{landing_page_id}/unpublish of another account’s page answers the same 404 and leaves it published', async () => {
      await sameNotFound(server.deps, (id) => v1.post(`${LANDING}/unpublish`, { params: { landing_page_id: id } }), foreign.landingId, 'landing_page_id');
      assert.equal((await landingRow(foreign.landingId)).published, 1);
    });

    test('GET /landing-pages filters by store, product, status and a title or slug query from the query string', async () => {
      // An account of its own: exactly its published page, one unpublished page and a draft product's page.
      const own = await seedShop(server.deps);
      const own1 = await V1Client.open(server, own.secretKey);
      const unpublished = ok(await own1.post('/api/v1/landing-pages', { body: { product_id: own.productId, slug: `faja-2x1-${own.storeId.slice(-6)}`, title: 'Faja 2x1' } }), 201).id;
      const draft = ok(await own1.post('/api/v1/products', { body: { store_id: own.storeId, name: 'Gorra', packs: [] } }), 201).id;
      ok(await own1.post('/api/v1/landing-pages', { body: { product_id: draft, slug: `gorra-${own.storeId.slice(-6)}` } }), 201);
      const ids = (data: { items: { id: string }[] }) => data.items.map((l) => l.id);
      const all = ok(await own1.get('/api/v1/landing-pages'));
      const stored = await rows(server.deps, 'select l.id from landing_pages l join stores s on s.id = l.store_id where s.account_id = ? order by l.created_at desc, l.id desc', own.accountId);
      assert.deepEqual(ids(all), stored.map((r) => r.id));
      assert.equal(ids(all).length, 3);
      assert.ok(!ids(all).includes(foreign.landingId));
      assert.deepEqual(ids(ok(await own1.get('/api/v1/landing-pages', { query: { status: 'published' } }))), [own.landingId]);
      assert.deepEqual(ids(ok(await own1.get('/api/v1/landing-pages', { query: { product_id: draft } }))).length, 1);
      assert.deepEqual(ids(ok(await own1.get('/api/v1/landing-pages', { query: { store_id: own.storeId, status: 'unpublished', product_id: own.productId } }))), [unpublished]);
      assert.deepEqual(ids(ok(await own1.get('/api/v1/landing-pages', { query: { query: '2x1' } }))), [unpublished]);
      const first = ok(await own1.get('/api/v1/landing-pages', { query: { limit: 1 } }));
      assert.equal(first.has_more, true);
      const second = ok(await own1.get('/api/v1/landing-pages', { query: { limit: 100, cursor: first.next_cursor } }));
      assert.deepEqual([...ids(first), ...ids(second)], ids(all));
    });

    test('GET /landing-pages of another account’s product answers the same 404 as an unknown product', async () => {
      await sameNotFound(server.deps, (id) => v1.get('/api/v1/landing-pages', { query: { product_id: id } }), foreign.productId, 'product_id');
    });

    test('DELETE /landing-pages/{landing_page_id} deletes an unpublished page and answers what it deleted', async () => {
      const { id: landingId, slug } = await page();
      const data = ok(await v1.delete(LANDING, { params: { landing_page_id: landingId } }));
      assert.deepEqual(data, { id: landingId, slug, deleted: true, orders_detached: 0 });
      assert.deepEqual(await rows(server.deps, 'select id from landing_pages where id = ?', landingId), []);
      failed(await v1.get(LANDING, { params: { landing_page_id: landingId } }), 404, ['landing_page_id']);
    });

    test('DELETE /landing-pages/{landing_page_id} of another account’s page answers the same 404 and deletes nothing', async () => {
      await sameNotFound(server.deps, (id) => v1.delete(LANDING, { params: { landing_page_id: id } }), foreign.landingId, 'landing_page_id');
    });

    test('DELETE /landing-pages/{landing_page_id} with a body parameter in the query string answers 400 naming it', async () => {
      failed(await storesNothing(server.deps, () => v1.delete(LANDING, { params: { landing_page_id: shop.landingId }, query: { force: true } })), 400, ['force']);
    });

    test('a method the landing routes do not have answers 405 with Allow', async () => {
      const answer = await storesNothing(server.deps, () => v1.put(LANDING, { params: { landing_page_id: shop.landingId }, body: { title: 'x' } }));
      failed(answer, 405);
      assert.deepEqual(answer.headers.get('allow')?.split(', ').sort(), ['DELETE', 'GET', 'HEAD', 'PATCH']);
    });
  });

  describe('keys', () => {
    let publishable = { id: '', key: '' };
    let secret = { id: '', key: '' };
    /** Keys of their own for the tests that change or list keys: none relies on an earlier test's key. */
    const newPublishable = async () => {
      const d = ok(await v1.post('/api/v1/keys/publishable', { body: { store_id: shop.storeId, mode: 'test', allowed_domains: ['shop.example.com'], label: 'checkout' } }), 201);
      return { id: d.id as string, key: d.key as string };
    };
    const newSecret = async () => {
      const d = ok(await v1.post('/api/v1/keys/secret', { body: { store_id: shop.storeId, label: 'erp' } }), 201);
      return { id: d.id as string, key: d.key as string };
    };

    test('POST /keys/publishable creates a test key limited to a store domain and a product, shown once and stored as SHA-256', async () => {
      const data = ok(
        await v1.post('/api/v1/keys/publishable', { body: { store_id: shop.storeId, mode: 'test', allowed_domains: ['shop.example.com'], allowed_products: [shop.productId], label: 'checkout' } }),
        201,
      );
      publishable = { id: data.id, key: data.key };
      assert.match(data.key, /^svc_test_pub_[0-9A-Za-z]{32}$/);
      assert.equal(data.masked.slice(-4), data.key.slice(-4));
      const row = await keyRow(data.id);
      assert.deepEqual(
        { account_id: row.account_id, store_id: row.store_id, type: row.type, env: row.env, hash: row.hash, label: row.label, domains: JSON.parse(row.allowed_domains), inherit: row.inherit_domains, products: JSON.parse(row.allowed_products) },
        { account_id: shop.accountId, store_id: shop.storeId, type: 'publishable', env: 'test', hash: sha256(data.key), label: 'checkout', domains: ['shop.example.com'], inherit: 0, products: [shop.productId] },
      );
      const leaked = await rows(server.deps, "select count(*) as n from api_keys where hash = ? or prefix like ? or coalesce(label, '') like ?", data.key, `%${data.key}%`, `%${data.key}%`);
      assert.equal(leaked[0]?.n, 0, 'the key itself is stored nowhere');
    });

    test('POST /keys/publishable with a domain the store does not allow answers 400 naming it and stores nothing', async () => {
      failed(await storesNothing(server.deps, () => v1.post('/api/v1/keys/publishable', { body: { store_id: shop.storeId, allowed_domains: ['evil.example'] } })), 400, ['allowed_domains.0']);
    });

    test('POST /keys/publishable for another account’s store answers the same 404 as an unknown store and stores nothing', async () => {
      await sameNotFound(server.deps, (id) => v1.post('/api/v1/keys/publishable', { body: { store_id: id } }), foreign.storeId, 'store_id');
    });

    test('POST /keys/secret creates a live secret key that works on /api/v1 at once', async () => {
      const data = ok(await v1.post('/api/v1/keys/secret', { body: { store_id: shop.storeId, label: 'erp' } }), 201);
      secret = { id: data.id, key: data.key };
      assert.match(data.key, /^svc_live_secret_[0-9A-Za-z]{40}$/);
      const row = await keyRow(data.id);
      assert.deepEqual([row.type, row.env, row.hash, row.account_id], ['secret', 'live', sha256(data.key), shop.accountId]);
      assert.equal(ok(await v1.get('/api/v1/account', { key: data.key })).account.id, shop.accountId);
    });

    test('POST /keys/secret in test mode answers 400 naming mode and stores nothing', async () => {
      failed(await storesNothing(server.deps, () => v1.post('/api/v1/keys/secret', { body: { store_id: shop.storeId, mode: 'test' } })), 400, ['mode']);
    });

    test('POST /keys/secret for another account’s store answers the same 404 as an unknown store and stores nothing', async () => {
      await sameNotFound(server.deps, (id) => v1.post('/api/v1/keys/secret', { body: { store_id: id } }), foreign.storeId, 'store_id');
    });

    test('PATCH /keys/{key_id} renames a key and makes a publishable key follow the store domains again', async () => {
      publishable = await newPublishable();
      const data = ok(await v1.patch(KEY, { params: { key_id: publishable.id }, body: { label: 'tienda', follow_store_domains: true } }));
      assert.equal(data.follows_store_domains, true);
      const row = await keyRow(publishable.id);
      assert.deepEqual([row.label, row.inherit_domains, row.allowed_domains], ['tienda', 1, '[]']);
      assert.ok(!JSON.stringify(data).includes(publishable.key));
    });

    test('PATCH /keys/{key_id} restricting a secret key to domains answers 400 naming key_id and changes nothing', async () => {
      secret = await newSecret();
      failed(await storesNothing(server.deps, () => v1.patch(KEY, { params: { key_id: secret.id }, body: { allowed_domains: ['shop.example.com'] } })), 400, ['key_id']);
    });

    test('PATCH /keys/{key_id} of another account’s key answers the same 404 as an unknown key and changes nothing', async () => {
      await sameNotFound(server.deps, (id) => v1.patch(KEY, { params: { key_id: id }, body: { label: 'mine' } }), foreign.liveKeyId, 'key_id');
    });

    test('GET /keys lists masked keys filtered by store, type and mode, never a key or its hash', async () => {
      publishable = await newPublishable();
      secret = await newSecret();
      const all = await v1.get('/api/v1/keys', { query: { store_id: shop.storeId } });
      const data = ok(all);
      const stored = await rows(server.deps, 'select id, hash from api_keys where store_id = ? and revoked_at is null order by created_at desc, id desc', shop.storeId);
      assert.deepEqual(data.items.map((k: { id: string }) => k.id), stored.map((k) => k.id));
      for (const k of stored) assert.ok(!all.text.includes(k.hash), 'no hash is listed');
      for (const key of [publishable.key, secret.key, shop.secretKey, shop.liveKey]) assert.ok(!all.text.includes(key), 'no key is listed');
      const secrets = ok(await v1.get('/api/v1/keys', { query: { type: 'secret' } }));
      assert.ok(secrets.items.every((k: { type: string }) => k.type === 'secret'));
      assert.ok(secrets.items.some((k: { id: string }) => k.id === secret.id));
      const tests = ok(await v1.get('/api/v1/keys', { query: { mode: 'test', store_id: shop.storeId } }));
      assert.deepEqual(new Set(tests.items.map((k: { mode: string }) => k.mode)), new Set(['test']));
      const ids = ok(await v1.get('/api/v1/keys')).items.map((k: { id: string }) => k.id);
      assert.ok(!ids.includes(foreign.liveKeyId));
    });

    test('POST /keys/{key_id}/revoke revokes at once: the revoked secret key answers 401 next', async () => {
      secret = await newSecret();
      const data = ok(await v1.post(`${KEY}/revoke`, { params: { key_id: secret.id } }));
      assert.equal(data.active, false);
      assert.ok((await keyRow(secret.id)).revoked_at);
      failed(await v1.get('/api/v1/account', { key: secret.key }), 401);
    });

    test('POST /keys/{key_id}/revoke of a key already revoked answers 409 naming key_id and changes nothing', async () => {
      secret = await newSecret();
      ok(await v1.post(`${KEY}/revoke`, { params: { key_id: secret.id } }));
      failed(await storesNothing(server.deps, () => v1.post(`${KEY}/revoke`, { params: { key_id: secret.id } })), 409, ['key_id']);
    });

    test('POST /keys/{key_id}/revoke of another account’s key answers the same 404 as an unknown key and leaves it active', async () => {
      await sameNotFound(server.deps, (id) => v1.post(`${KEY}/revoke`, { params: { key_id: id } }), foreign.liveKeyId, 'key_id');
      assert.equal((await keyRow(foreign.liveKeyId)).revoked_at, null);
    });

    test('GET /keys lists revoked keys only with include_revoked=true', async () => {
      secret = await newSecret();
      ok(await v1.post(`${KEY}/revoke`, { params: { key_id: secret.id } }));
      const without = ok(await v1.get('/api/v1/keys', { query: { type: 'secret' } }));
      assert.ok(!without.items.some((k: { id: string }) => k.id === secret.id));
      const withRevoked = ok(await v1.get('/api/v1/keys', { query: { type: 'secret', include_revoked: true } }));
      const listed = withRevoked.items.find((k: { id: string }) => k.id === secret.id);
      assert.ok(listed);
      assert.equal(listed.active, false);
      assert.ok(listed.revoked_at);
    });

    test('GET /keys with include_revoked that is not a boolean answers 400 naming it', async () => {
      failed(await v1.get('/api/v1/keys', { query: { include_revoked: 'sometimes' } }), 400, ['include_revoked']);
    });

    test('a method the key routes do not have answers 405 with Allow and revokes nothing', async () => {
      publishable = await newPublishable();
      const answer = await storesNothing(server.deps, () => v1.delete(KEY, { params: { key_id: publishable.id } }));
      failed(answer, 405);
      assert.equal(answer.headers.get('allow'), 'PATCH');
    });
  });
});
