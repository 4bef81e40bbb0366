// Product images hosted by codrail (issue 23 §3) through the account API and GET /img/: an image given
// by URL is fetched once through the guarded outbound path, judged by its bytes, re-encoded to AVIF,
// WebP and JPEG at its widths with its metadata stripped and turned upright, stored once per content
// and served immutable; an uploaded file goes the same way. Every refusal is an invalid_input on the
// field that stores nothing. The seller's image host is a local server (private addresses allowed).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { openShop, seedShop, type Shop } from '../../helpers/fixtures.ts';
import type { TestServer } from '../../helpers/server.ts';
import { bombPng, photo, sidewaysPhotoWithGps, startImageHost, SVG_LOGO, type ImageHost } from '../../helpers/image-host.ts';
import { until } from '../../helpers/wait.ts';
import { OPEN_LIMITS } from '../orders/order-kit.ts';
import { UNKNOWN_ID, V1Client, failed, ok, rows, sameNotFound, storesNothing } from './v1-kit.ts';
import { updateProduct } from '../../../src/db/queries/products.queries.ts';
import { runDemo } from '../../../src/use-cases/demo.use-case.ts';
import { IMAGE_MAX_BYTES, MAX_PRODUCT_IMAGES } from '../../../src/limits.ts';

const PRODUCTS = '/api/v1/products';
const PRODUCT = '/api/v1/products/{product_id}';
const UPLOAD = '/api/v1/products/{product_id}/images';
const HOST = '/api/v1/product-images/rehost';
const ID = /^[A-Za-z0-9_-]{22}$/;

interface ImageView {
  url: string;
  id?: string;
  alt?: string;
  width?: number;
  height?: number;
  source?: string;
}

describe('hosted product images', () => {
  let server: TestServer;
  let shop: Shop;
  let foreign: Shop;
  let v1: V1Client;
  let host: ImageHost;
  /** Distinct photos (distinct bytes) for tests that need an image no other test stored. */
  let seed = 100;

  before(async () => {
    host = await startImageHost();
    ({ server, shop } = await openShop(OPEN_LIMITS, { env: { CODRAIL_IMAGE_URLS_ALLOW_PRIVATE: '1' } }));
    foreign = await seedShop(server.deps);
    v1 = await V1Client.open(server, shop.secretKey);
  });
  after(async () => {
    await server.close();
    await host.close();
  });

  /** A photo of its own served at a path of its own. */
  async function served(name: string, size = { width: 1600, height: 1200 }, format: 'jpeg' | 'png' | 'webp' | 'gif' = 'jpeg'): Promise<{ url: string; bytes: Buffer; path: string }> {
    const bytes = await photo({ ...size, seed: seed++, format });
    const path = `/${name}-${seed}.${format === 'jpeg' ? 'jpg' : format}`;
    host.serve(path, bytes, `image/${format}`);
    return { url: host.url(path), bytes, path };
  }

  const newProduct = async (images?: unknown): Promise<any> =>
    ok(await v1.post(PRODUCTS, { body: { store_id: shop.storeId, name: 'Faja', status: 'active', ...(images !== undefined && { images }) } }), 201);

  const storedImages = async (productId: string) => JSON.parse((await rows(server.deps, 'select images from products where id = ?', productId))[0]!.images as string);
  const imageRows = (id: string) => rows(server.deps, 'select id, width, height, source_format, created_at from images where id = ?', id);
  const fileRows = (id: string) => rows(server.deps, 'select width, format, byte_length, length(bytes) as stored from image_variants where image_id = ? order by width, format', id);

  const file = (view: ImageView, width: number, ext: 'avif' | 'webp' | 'jpg') => `${server.url}/img/${view.id}-${width}.${ext}`;

  describe('by URL', () => {
    test('create_product with an image URL fetches it once and stores one image with an AVIF, WebP and JPEG file at each width', async () => {
      const { url, path } = await served('faja');
      const data = await newProduct([{ url, alt: 'Faja color piel' }]);
      const [view] = data.images as ImageView[];
      assert.match(view!.id!, ID);
      assert.deepEqual(view, { url: `${server.url}/img/${view!.id}-1280.jpg`, id: view!.id, alt: 'Faja color piel', width: 1280, height: 960, source: url });
      assert.deepEqual(await storedImages(data.id), [{ id: view!.id, width: 1280, height: 960, source: url, alt: 'Faja color piel' }]);
      assert.equal(host.hits(path), 1, 'fetched once');
      assert.deepEqual((await imageRows(view!.id!)).map((r) => [r.width, r.height, r.source_format]), [[1280, 960, 'jpeg']]);
      const files = await fileRows(view!.id!);
      assert.deepEqual(
        files.map((f) => [f.width, f.format]),
        [320, 640, 960, 1280].flatMap((w) => ['avif', 'jpeg', 'webp'].map((f) => [w, f])),
      );
      for (const f of files) assert.equal(f.byte_length, f.stored);
      const got = ok(await v1.get(PRODUCT, { params: { product_id: data.id } }));
      assert.deepEqual(got.images, data.images, 'get_product shows the same');
    });

    test('each file is served with its type, a year of immutable caching, a strong ETag, nosniff and cross-origin resource policy; 304 on If-None-Match', async () => {
      const { url } = await served('served');
      const [view] = (await newProduct([{ url }])).images as ImageView[];
      for (const [ext, type, format] of [
        ['avif', 'image/avif', 'heif'],
        ['webp', 'image/webp', 'webp'],
        ['jpg', 'image/jpeg', 'jpeg'],
      ] as const)
        for (const width of [320, 640, 960, 1280]) {
          const res = await fetch(file(view!, width, ext));
          assert.equal(res.status, 200, `${width}.${ext}`);
          assert.equal(res.headers.get('content-type'), type);
          assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
          assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
          assert.equal(res.headers.get('cross-origin-resource-policy'), 'cross-origin');
          const etag = res.headers.get('etag') ?? '';
          assert.match(etag, /^"[A-Za-z0-9_-]{22}"$/, 'a strong ETag');
          const bytes = Buffer.from(await res.arrayBuffer());
          assert.equal(Number(res.headers.get('content-length')), bytes.length);
          const meta = await sharp(bytes).metadata();
          assert.equal(meta.format, format);
          assert.equal(meta.width, width);
          assert.equal(meta.height, (width * 3) / 4);
          const again = await fetch(file(view!, width, ext), { headers: { 'if-none-match': etag } });
          assert.equal(again.status, 304);
          assert.equal(await again.text(), '');
          assert.equal(again.headers.get('etag'), etag);
          assert.equal(again.headers.get('cache-control'), 'public, max-age=31536000, immutable');
        }
      const jpeg = Buffer.from(await (await fetch(file(view!, 1280, 'jpg'))).arrayBuffer());
      assert.equal((await sharp(jpeg).metadata()).isProgressive, true, 'a progressive JPEG');
      const head = await fetch(file(view!, 640, 'webp'), { method: 'HEAD' });
      assert.equal(head.status, 200);
      assert.equal(await head.text(), '');
    });

    test('the EXIF of the original (GPS position, camera) is in no file, and its orientation is applied: stored sideways, served upright', async () => {
      const bytes = await sidewaysPhotoWithGps();
      const exif = (await sharp(bytes).metadata()).exif!;
      assert.ok(exif.includes(Buffer.from('SecretCam')) && exif.includes(Buffer.from([0x25, 0x88])), 'the original carries a camera and a GPS position');
      host.serve('/sideways.jpg', bytes);
      const [view] = (await newProduct([{ url: host.url('/sideways.jpg') }])).images as ImageView[];
      // Stored 800×400 with orientation 6: upright it is 400×800, so one width, 320.
      assert.deepEqual([view!.width, view!.height], [320, 640]);
      for (const ext of ['avif', 'webp', 'jpg'] as const) {
        const out = Buffer.from(await (await fetch(file(view!, 320, ext))).arrayBuffer());
        const meta = await sharp(out).metadata();
        assert.deepEqual([meta.width, meta.height], [320, 640], ext);
        assert.equal(meta.exif, undefined, `${ext}: no EXIF`);
        assert.equal(meta.xmp, undefined, `${ext}: no XMP`);
        assert.equal(meta.icc, undefined, `${ext}: no ICC profile`);
        assert.equal(meta.orientation, undefined, `${ext}: no orientation left to apply`);
        assert.ok(!out.includes(Buffer.from('SecretCam')) && !out.includes(Buffer.from('Tracker')), `${ext}: no camera`);
        const { data, info } = await sharp(out).raw().toBuffer({ resolveWithObject: true });
        const pixel = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)];
        const [r1, , b1] = pixel(160, 100);
        const [r2, , b2] = pixel(160, 540);
        assert.ok(r1! > 200 && b1! < 60, `${ext}: red on top (${pixel(160, 100)})`);
        assert.ok(b2! > 200 && r2! < 60, `${ext}: blue below (${pixel(160, 540)})`);
      }
    });

    test('the same image twice — at another URL, in another product, uploaded as a file — is stored once', async () => {
      const { url, bytes, path } = await served('twice');
      const first = ((await newProduct([{ url }])).images as ImageView[])[0]!;
      const [stored] = await imageRows(first.id!);
      host.serve('/twice-copy.jpg', bytes);
      const second = ((await newProduct([{ url: host.url('/twice-copy.jpg') }, { url }])).images as ImageView[]).map((i) => i.id);
      assert.deepEqual(second, [first.id, first.id]);
      const third = await newProduct();
      const uploaded = ok(await v1.post(UPLOAD, { params: { product_id: third.id }, raw: bytes, headers: { 'content-type': 'image/jpeg' } }));
      assert.equal(uploaded.images[0].id, first.id);
      assert.deepEqual(await imageRows(first.id!), [stored], 'one image row, unchanged');
      assert.equal((await fileRows(first.id!)).length, 12, 'its files once');
      assert.equal(host.hits('/twice-copy.jpg'), 1);
      assert.equal(host.hits(path), 2, 'each product fetches a URL it does not host yet once');
    });

    test('update_product keeps an image it hosts by its hosted URL or by its source URL, fetching nothing, and changes only the alt', async () => {
      const { url, path } = await served('keep');
      const product = await newProduct([{ url, alt: 'Antes' }]);
      const [view] = product.images as ImageView[];
      const data = ok(await v1.patch(PRODUCT, { params: { product_id: product.id }, body: { images: [{ url: view!.url, alt: 'Después' }, { url }] } }));
      assert.deepEqual(
        data.images.map((i: ImageView) => [i.id, i.alt, i.source]),
        [
          [view!.id, 'Después', url],
          [view!.id, undefined, url],
        ],
      );
      assert.equal(host.hits(path), 1, 'nothing fetched again');
    });

    test('several URLs of one call are fetched at once, each in its place in the list', async () => {
      const made = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((n) => served(`many-${n}`, { width: 700, height: 700 })));
      const data = await newProduct(made.map((m, i) => ({ url: m.url, alt: `Foto ${i + 1}` })));
      assert.deepEqual(
        data.images.map((i: ImageView) => [i.source, i.alt, i.width]),
        made.map((m, i) => [m.url, `Foto ${i + 1}`, 640]),
      );
    });

    test('PNG, WebP and GIF are taken too (a GIF by its first frame), an image narrower than 320 keeps its own width', async () => {
      const png = await served('png', { width: 500, height: 500 }, 'png');
      const webp = await served('webp', { width: 1000, height: 500 }, 'webp');
      const gif = await served('gif', { width: 250, height: 150 }, 'gif');
      const data = await newProduct([{ url: png.url }, { url: webp.url }, { url: gif.url }]);
      assert.deepEqual(
        data.images.map((i: ImageView) => [i.width, i.height]),
        [
          [320, 320],
          [960, 480],
          [250, 150],
        ],
      );
      const small = data.images[2] as ImageView;
      assert.equal((await fetch(file(small, 250, 'avif'))).status, 200);
      assert.equal((await fetch(file(small, 320, 'avif'))).status, 404, 'no larger file than the image');
      assert.deepEqual((await rows(server.deps, 'select source_format from images where id = ?', small.id))[0], { source_format: 'gif' });
    });
  });

  describe('refusals store nothing', () => {
    const refused = async (images: unknown[], field: string, message: RegExp) => {
      const answer = await storesNothing(server.deps, () => v1.post(PRODUCTS, { body: { store_id: shop.storeId, name: 'Faja', images } }));
      const body = failed(answer, 400, [field]);
      assert.match(body.details![0]!.message, message);
      assert.match(body.error, message);
      return body;
    };

    test('a URL answering 404 is refused on its field with the status', async () => {
      await refused([{ url: host.url('/missing.jpg') }], 'images.0.url', /could not be fetched: HTTP 404/);
    });

    test('an HTML page is not an image, whatever the URL ends with', async () => {
      host.serve('/photo-that-is-html.jpg', Buffer.from('<!doctype html><p>hola</p>'), 'image/jpeg');
      await refused([{ url: host.url('/photo-that-is-html.jpg') }], 'images.0.url', /is not an image/);
      await refused([{ url: host.url('/page.html') }], 'images.0.url', /is not an image/);
    });

    test('an SVG is refused even when its host calls it a PNG', async () => {
      await refused([{ url: host.url('/logo.svg') }], 'images.0.url', /SVG/);
    });

    test('a body that never ends is cut at 10 MB while it streams', async () => {
      await refused([{ url: host.url('/endless.jpg') }], 'images.0.url', /is larger than 10 MB/);
      // The host sees the connection closed, having written at most the cap and what sockets buffer.
      await until('the endless body to be cut', () => host.endless.closed, 5_000);
      assert.ok(host.endless.written < IMAGE_MAX_BYTES + 8 * 1024 * 1024, `${host.endless.written} bytes written`);
    });

    test('a decompression bomb (a tiny PNG declaring 50,000×50,000) is refused from its header', async () => {
      await refused([{ url: host.url('/bomb.png') }], 'images.0.url', /more than 40 megapixels \(50000×50000\)/);
    });

    test('an image smaller than 100×100 or too tall for its width, plain http to another host and another scheme are refused', async () => {
      const tiny = await served('tiny', { width: 90, height: 300 });
      await refused([{ url: tiny.url }], 'images.0.url', /smaller than 100×100/);
      host.serve('/banner.png', await sharp({ create: { width: 100, height: 20_000, channels: 3, background: '#000' } }).png().toBuffer(), 'image/png');
      await refused([{ url: host.url('/banner.png') }], 'images.0.url', /too tall for its width \(100×20000\)/);
      await refused([{ url: 'http://img.example.com/a.jpg' }], 'images.0.url', /https/);
      await refused([{ url: 'ftp://img.example.com/a.jpg' }], 'images.0.url', /https/);
    });

    test('a URL naming an image this server does not host is refused without a fetch', async () => {
      await refused([{ url: `${server.url}/img/${'A'.repeat(22)}-640.jpg` }], 'images.0.url', /names no image hosted here/);
    });

    test('one bad image in a list refuses the list: the good ones are not stored either, and every bad one is named', async () => {
      const good = await served('good-in-bad-list');
      const before = (await rows(server.deps, 'select count(*) as n from images'))[0]!.n;
      const answer = await storesNothing(server.deps, () =>
        v1.post(PRODUCTS, { body: { store_id: shop.storeId, name: 'Faja', images: [{ url: good.url }, { url: host.url('/missing.jpg') }, { url: host.url('/logo.svg') }] } }),
      );
      failed(answer, 400, ['images.1.url', 'images.2.url']);
      assert.equal((await rows(server.deps, 'select count(*) as n from images'))[0]!.n, before);
    });

    test('update_product with a refused image changes nothing', async () => {
      const { url } = await served('stays');
      const product = await newProduct([{ url }]);
      const answer = await storesNothing(server.deps, () => v1.patch(PRODUCT, { params: { product_id: product.id }, body: { name: 'Otro', images: [{ url: host.url('/bomb.png') }] } }));
      failed(answer, 400, ['images.0.url']);
    });
  });

  describe('upload (POST /products/{product_id}/images)', () => {
    const upload = (productId: string, bytes: Uint8Array, type = 'image/png', query: Record<string, string> = {}, client = v1) =>
      client.post(UPLOAD, { params: { product_id: productId }, query, raw: bytes, headers: { 'content-type': type } });

    test('an image file is appended to the product with its alt; the same file again only updates the alt', async () => {
      const product = await newProduct([{ url: (await served('before-upload')).url }]);
      const png = await photo({ width: 900, height: 600, seed: seed++, format: 'png' });
      const data = ok(await upload(product.id, png, 'image/png', { alt: 'Vista lateral' }));
      assert.equal(data.images.length, 2);
      const added = data.images[1] as ImageView;
      assert.deepEqual(added, { url: `${server.url}/img/${added.id}-640.jpg`, id: added.id, alt: 'Vista lateral', width: 640, height: 427 });
      assert.equal((await rows(server.deps, 'select source_format from images where id = ?', added.id))[0]!.source_format, 'png');
      const again = ok(await upload(product.id, png, 'image/png', { alt: 'Vista de lado' }));
      assert.deepEqual(
        again.images.map((i: ImageView) => [i.id, i.alt]),
        [
          [data.images[0].id, undefined],
          [added.id, 'Vista de lado'],
        ],
      );
      assert.equal((await fetch(file(added, 640, 'avif'))).status, 200);
    });

    test('an image in Display P3 is converted to sRGB, its colours kept and its profile dropped', async () => {
      const product = await newProduct();
      // sRGB (200, 60, 60) stored as Display P3 numbers with the P3 profile.
      const p3 = await sharp({ create: { width: 300, height: 300, channels: 3, background: { r: 200, g: 60, b: 60 } } })
        .withIccProfile('p3')
        .png()
        .toBuffer();
      assert.deepEqual([...(await sharp(p3, { ignoreIcc: true }).raw().toBuffer()).subarray(0, 3)], [185, 71, 65], 'the file holds P3 numbers');
      const [view] = ok(await upload(product.id, p3)).images as ImageView[];
      const out = Buffer.from(await (await fetch(file(view!, 300, 'webp'))).arrayBuffer());
      assert.equal((await sharp(out).metadata()).icc, undefined);
      const [r, g, b] = (await sharp(out).raw().toBuffer()).subarray(0, 3);
      assert.ok(Math.abs(r! - 200) <= 4 && Math.abs(g! - 60) <= 4 && Math.abs(b! - 60) <= 4, `sRGB ${r},${g},${b}`);
    });

    test('what is not an image is refused on file, by its bytes and not its Content-Type, storing nothing', async () => {
      const product = await newProduct();
      for (const [bytes, message] of [
        [Buffer.from('%PDF-1.4 not an image'), /file is not an image/],
        [SVG_LOGO, /file is an image type that is not accepted \(SVG\)/],
        [bombPng(50_000, 50_000), /file has more than 40 megapixels/],
      ] as const) {
        const body = failed(await storesNothing(server.deps, () => upload(product.id, bytes, 'image/png')), 400, ['file']);
        assert.match(body.details![0]!.message, message);
      }
    });

    test('another Content-Type is 415 and a body over 10 MB is 413, both storing nothing', async () => {
      const product = await newProduct();
      const png = await photo({ width: 200, height: 200, seed: seed++, format: 'png' });
      const text = await storesNothing(server.deps, () => upload(product.id, png, 'text/plain'));
      assert.match(failed(text, 415).error, /image\/jpeg, image\/png, image\/webp, image\/avif, image\/gif/);
      failed(await storesNothing(server.deps, () => upload(product.id, png, 'application/json')), 415);
      const big = Buffer.alloc(IMAGE_MAX_BYTES + 1, 1);
      failed(await storesNothing(server.deps, () => upload(product.id, big, 'image/jpeg')), 413);
    });

    test("another account's product answers exactly like an unknown one, and stores nothing", async () => {
      const png = await photo({ width: 200, height: 200, seed: seed++, format: 'png' });
      await sameNotFound(server.deps, (id) => upload(id, png), foreign.productId, 'product_id');
    });

    test(`a product with ${MAX_PRODUCT_IMAGES} images takes no more (409), but the same image again is still fine`, async () => {
      const one = await served('full', { width: 300, height: 300 });
      const product = await newProduct(Array.from({ length: MAX_PRODUCT_IMAGES }, () => ({ url: one.url })));
      const png = await photo({ width: 200, height: 200, seed: seed++, format: 'png' });
      failed(await storesNothing(server.deps, () => upload(product.id, png)), 409, ['product_id']);
      ok(await upload(product.id, one.bytes, 'image/jpeg', { alt: 'Otra vez' }));
    });
  });

  describe('GET /img/', () => {
    test('unknown and malformed names answer 404 in the ErrorResponse shape', async () => {
      const { url } = await served('known');
      const [view] = (await newProduct([{ url }])).images as ImageView[];
      for (const name of [
        `${'A'.repeat(22)}-640.jpg`,
        `${view!.id}-641.jpg`,
        `${view!.id}-640.png`,
        `${view!.id}-640.jpeg`,
        `${view!.id}-2560.jpg`,
        `${view!.id}-0640.jpg`,
        `${view!.id}.jpg`,
        `${view!.id!.slice(1)}-640.jpg`,
        '..%2F..%2Fetc%2Fpasswd',
        'x',
      ]) {
        const res = await fetch(`${server.url}/img/${name}`);
        assert.equal(res.status, 404, name);
        const body = (await res.json()) as { success: boolean; error: string };
        assert.deepEqual(body, { success: false, error: 'Image not found' }, name);
      }
      assert.equal((await fetch(`${server.url}/img/`)).status, 404);
    });
  });

  describe('images stored before hosting', () => {
    test('rehost_product_images fetches and hosts external URLs once, keeps a failing one as it was and reports it; run again, it fetches nothing it hosts', async () => {
      const { url, path } = await served('legacy');
      const product = await newProduct();
      // As an earlier release stored them: external URLs.
      await updateProduct(server.deps.db, product.id, { images: JSON.stringify([{ url, alt: 'Vieja' }, { url: host.url('/missing.jpg') }]) });
      const view = ok(await v1.get(PRODUCT, { params: { product_id: product.id } }));
      assert.deepEqual(view.images, [{ url, alt: 'Vieja' }, { url: host.url('/missing.jpg') }], 'shown as they are until hosted');
      const report = ok(await v1.post(HOST, { body: { product_id: product.id } }));
      assert.deepEqual(report, { products: 1, hosted: 1, failed: [{ product_id: product.id, url: host.url('/missing.jpg'), message: 'url could not be fetched: HTTP 404' }] });
      const stored = await storedImages(product.id);
      assert.match(stored[0].id, ID);
      assert.deepEqual(stored, [{ id: stored[0].id, width: 1280, height: 960, source: url, alt: 'Vieja' }, { url: host.url('/missing.jpg') }]);
      const again = ok(await v1.post(HOST, { body: { product_id: product.id } }));
      assert.deepEqual(again, { products: 1, hosted: 0, failed: [{ product_id: product.id, url: host.url('/missing.jpg'), message: 'url could not be fetched: HTTP 404' }] });
      assert.equal(host.hits(path), 1, 'the hosted image is not fetched again');
    });

    test("rehost_product_images for another account's store or product answers not found", async () => {
      await sameNotFound(server.deps, (id) => v1.post(HOST, { body: { store_id: id } }), foreign.storeId, 'store_id');
      await sameNotFound(server.deps, (id) => v1.post(HOST, { body: { product_id: id } }), foreign.productId, 'product_id');
      failed(await v1.post(HOST, { body: { product_id: UNKNOWN_ID } }), 404, ['product_id']);
    });
  });

  test('the demo product has three hosted images, drawn without the network, each served', async () => {
    const demo = await runDemo(server.deps);
    const images = await storedImages(demo.product.id);
    assert.equal(images.length, 3);
    for (const image of images) {
      assert.match(image.id, ID);
      assert.deepEqual([image.width, image.height], [1280, 1280]);
      assert.ok(image.alt);
      assert.equal(image.source, undefined);
      for (const ext of ['avif', 'webp', 'jpg']) assert.equal((await fetch(`${server.url}/img/${image.id}-640.${ext}`)).status, 200);
    }
    const again = await runDemo(server.deps);
    assert.deepEqual(await storedImages(again.product.id), images, 'a second run adds none');
  });
});
