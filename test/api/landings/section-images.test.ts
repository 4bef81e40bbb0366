// Landing section images hosted by codrail (issue 23 §3), end to end through /api/v1 and the public
// page: a section's image_url is fetched once through the guarded outbound path, stored by content
// like a product image, and shown as codrail's own URL; the published page serves it as a <picture>
// from /img/ under a CSP that allows images from itself only. A URL that is not an image refuses
// the whole call on its own field and stores nothing. The seller's image host is a local server
// (private addresses allowed).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { openShop, type Shop } from '../../helpers/fixtures.ts';
import type { TestServer } from '../../helpers/server.ts';
import { photo, startImageHost, type ImageHost } from '../../helpers/image-host.ts';
import { OPEN_LIMITS } from '../orders/order-kit.ts';
import { V1Client, failed, ok, rows, storesNothing } from '../v1/v1-kit.ts';

const LANDINGS = '/api/v1/landing-pages';
const LANDING = '/api/v1/landing-pages/{landing_page_id}';
const SECTIONS = '/api/v1/landing-pages/{landing_page_id}/sections';
const ID = /^[A-Za-z0-9_-]{22}$/;
const HOSTED_JPEG = /\/img\/[A-Za-z0-9_-]{22}-\d+\.jpg$/;

type SectionSent = { type: string; heading?: string; body?: string; image_url?: string };

describe('hosted landing section images', () => {
  let server: TestServer;
  let shop: Shop;
  let v1: V1Client;
  let host: ImageHost;
  let base = '';
  /** Distinct photos (distinct bytes), so that no test finds an image another test stored. */
  let seed = 300;
  let slugs = 0;

  before(async () => {
    host = await startImageHost();
    // The seeded shop sells an active product with packs from a store with a checkout domain: its pages can be published.
    ({ server, shop } = await openShop(OPEN_LIMITS, { env: { CODRAIL_IMAGE_URLS_ALLOW_PRIVATE: '1' } }));
    v1 = await V1Client.open(server, shop.secretKey);
    base = server.deps.config.baseUrl;
  });
  after(async () => {
    await server.close();
    await host.close();
  });

  /** A 1600×1200 photo of its own at a path of its own: hosted at 1280×960. */
  async function served(name: string): Promise<{ url: string; path: string }> {
    const path = `/${name}-${++seed}.jpg`;
    host.serve(path, await photo({ width: 1600, height: 1200, seed }));
    return { url: host.url(path), path };
  }

  const newLanding = async (body: Record<string, unknown> = {}) =>
    ok(await v1.post(LANDINGS, { body: { product_id: shop.productId, slug: `secciones-${++slugs}`, ...body } }), 201) as { id: string; slug: string; sections: any[] };
  const setSections = (landingId: string, sections: unknown[]) => v1.put(SECTIONS, { params: { landing_page_id: landingId }, body: { sections } });
  const storedSections = async (landingId: string) => JSON.parse((await rows(server.deps, 'select sections from landing_pages where id = ?', landingId))[0]!.sections as string);

  /** codrail's URL of a hosted image's largest JPEG, as views show it. */
  function assertHostedUrl(url: unknown, imageId: string): void {
    assert.equal(typeof url, 'string');
    assert.ok((url as string).startsWith(`${base}/img/`), `${url} is served by codrail`);
    assert.match(url as string, HOSTED_JPEG);
    assert.equal(url, `${base}/img/${imageId}-1280.jpg`);
  }

  test('set_landing_sections with a hero image URL fetches it once, shows codrail’s URL of it, and serves it as an immutable JPEG', async () => {
    const { url, path } = await served('hero');
    const page = await newLanding();
    const sent: SectionSent[] = [
      { type: 'hero', heading: 'Faja reductora', body: 'Moldea tu figura', image_url: url },
      { type: 'text', body: 'Envío gratis' },
    ];
    const data = ok(await setSections(page.id, sent));
    assert.equal(host.hits(path), 1, 'fetched once');
    const stored = await storedSections(page.id);
    const image = stored[0].image;
    assert.match(image?.id ?? '', ID);
    assert.deepEqual(stored, [{ ...sent[0], image: { id: image.id, width: 1280, height: 960, source: url } }, sent[1]]);
    assert.equal((await rows(server.deps, 'select id from images where id = ?', image.id)).length, 1, 'the image is stored');
    const { image_url: shown, ...hero } = data.sections[0];
    assertHostedUrl(shown, image.id);
    assert.deepEqual(hero, { type: 'hero', heading: 'Faja reductora', body: 'Moldea tu figura' });
    assert.deepEqual(data.sections[1], sent[1]);
    assert.deepEqual(ok(await v1.get(LANDING, { params: { landing_page_id: page.id } })).sections, data.sections, 'get_landing_page shows the same');
    const res = await fetch(shown);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'image/jpeg');
    assert.match(res.headers.get('cache-control') ?? '', /\bimmutable\b/);
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    assert.deepEqual([meta.format, meta.width, meta.height], ['jpeg', 1280, 960]);
    assert.equal(host.hits(path), 1, 'the image is served by codrail, not fetched again');
  });

  test('setting the same sections again, with the URL sent or with the hosted URL the view shows, fetches nothing and keeps the same image', async () => {
    const { url, path } = await served('again');
    const page = await newLanding();
    const sent: SectionSent[] = [{ type: 'hero', heading: 'Otra vez', image_url: url }];
    const first = ok(await setSections(page.id, sent));
    const image = (await storedSections(page.id))[0].image;
    assert.equal(host.hits(path), 1);
    const again = ok(await setSections(page.id, sent));
    assert.deepEqual(again.sections, first.sections, 'the URL sent again');
    assert.deepEqual((await storedSections(page.id))[0].image, image);
    assert.equal(host.hits(path), 1, 'nothing fetched for the URL sent again');
    const back = ok(await setSections(page.id, first.sections));
    assert.deepEqual(back.sections, first.sections, 'the hosted URL sent back');
    assert.deepEqual((await storedSections(page.id))[0].image, image, 'the same image, its source kept');
    assert.equal(host.hits(path), 1, 'nothing fetched for the hosted URL sent back');
    assertHostedUrl(back.sections[0].image_url, image.id);
  });

  test('the published page shows a hosted section image as a <picture> with AVIF and WebP sources from /img/, and its CSP allows images from itself only', async () => {
    const { url } = await served('published');
    const page = await newLanding({ sections: [{ type: 'hero', heading: 'La faja que sí funciona', body: 'Moldea.', image_url: url }], publish: true });
    const id = (await storedSections(page.id))[0].image.id as string;
    assertHostedUrl(page.sections[0].image_url, id);
    const res = await fetch(`${server.url}/l/${page.slug}`);
    assert.equal(res.status, 200);
    const html = await res.text();
    const hero = /<section class="hero">.*?<\/section>/s.exec(html)?.[0] ?? '';
    const srcset = (ext: string) => [320, 640, 960, 1280].map((w) => `/img/${id}-${w}.${ext} ${w}w`).join(', ');
    const picture = /<picture><source type="image\/avif" srcset="([^"]+)"[^>]*><source type="image\/webp" srcset="([^"]+)"[^>]*><img src="([^"]+)" srcset="([^"]+)"[^>]*><\/picture>/.exec(hero);
    assert.ok(picture, `the hero section holds a <picture>: ${hero}`);
    assert.deepEqual(picture.slice(1), [srcset('avif'), srcset('webp'), `/img/${id}-1280.jpg`, srcset('jpg')]);
    for (const [ext, type] of [
      ['avif', 'image/avif'],
      ['webp', 'image/webp'],
      ['jpg', 'image/jpeg'],
    ] as const)
      for (const w of [320, 640, 960, 1280]) {
        const file = await fetch(`${server.url}/img/${id}-${w}.${ext}`);
        assert.equal(file.status, 200, `${w}.${ext}`);
        assert.equal(file.headers.get('content-type'), type);
        await file.arrayBuffer();
      }
    assert.ok(!html.includes(host.url('/')), 'the page names nothing of the image host');
    const csp = res.headers.get('content-security-policy') ?? '';
    assert.match(csp, /(?:^|; )img-src 'self' data:(?:;|$)/);
    assert.doesNotMatch(csp, /https:/);
  });

  test('a section image URL answering 404 or HTML refuses the whole call with invalid_input on that section’s image_url, and nothing changes', async () => {
    const { url } = await served('kept');
    const page = await newLanding({ sections: [{ type: 'hero', heading: 'Antes', image_url: url }] });
    const before_ = ok(await v1.get(LANDING, { params: { landing_page_id: page.id } }));
    const fresh = await served('never-stored');
    // A section without an image first: the index named is the section's, not the image's.
    const missing = failed(
      await storesNothing(server.deps, () =>
        setSections(page.id, [
          { type: 'text', body: 'Sin imagen' },
          { type: 'hero', heading: 'Rota', image_url: host.url('/missing.jpg') },
          { type: 'gallery', image_url: fresh.url },
        ]),
      ),
      400,
      ['sections.1.image_url'],
    );
    assert.equal(missing.details![0]!.message, 'image_url could not be fetched: HTTP 404');
    assert.match(missing.error, /sections\.1\.image_url/);
    const page_ = failed(
      await storesNothing(server.deps, () =>
        setSections(page.id, [
          { type: 'hero', image_url: fresh.url },
          { type: 'gallery', image_url: host.url('/page.html') },
        ]),
      ),
      400,
      ['sections.1.image_url'],
    );
    assert.match(page_.details![0]!.message, /^image_url is not an image/);
    assert.deepEqual(ok(await v1.get(LANDING, { params: { landing_page_id: page.id } })), before_, 'the landing is as it was');
  });
});
