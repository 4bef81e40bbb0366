// codrail products images add / rehost (issue 23 §3): the real CLI, spawned with --json, adds an
// image file to a product (the same operation as the REST upload) and hosts the images a product
// stored as external URLs; refusals are usage errors (exit 2) on the field, storing nothing.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { tempDbFile } from '../helpers/server.ts';
import { cliFails, cliJson, count, readDb, withApp } from '../helpers/cli-expect.ts';
import { addProduct, addStore } from '../helpers/fixtures.ts';
import { photo, startImageHost, SVG_LOGO, type ImageHost } from '../helpers/image-host.ts';
import { createAccount } from '../../src/use-cases/accounts/accounts.use-case.ts';
import { updateProduct } from '../../src/db/queries/products.queries.ts';
import { IMAGE_MAX_BYTES } from '../../src/limits.ts';

const tmp = tempDbFile();
const files = mkdtempSync(join(tmpdir(), 'codrail-images-'));
let host: ImageHost;
let accountId = '';
let otherAccountId = '';
let storeId = '';

/** A product of its own, for a test that adds to it. */
const newProduct = () => withApp(tmp.file, async (app) => (await addProduct(app, { store_id: storeId, name: 'Faja' })).id);

/** A photo of its own written to a file. */
let seed = 1;
async function photoFile(name: string, format: 'jpeg' | 'png' = 'png'): Promise<{ path: string; bytes: Buffer }> {
  const bytes = await photo({ width: 700, height: 500, seed: seed++, format });
  const path = join(files, name);
  writeFileSync(path, bytes);
  return { path, bytes };
}

const storedImages = (productId: string) => JSON.parse(readDb(tmp.file, (db) => (db.prepare('SELECT images FROM products WHERE id = ?').get(productId) as { images: string }).images));

before(async () => {
  host = await startImageHost();
  ({ accountId, otherAccountId, storeId } = await withApp(tmp.file, async (app) => {
    const account = await createAccount(app, { name: 'Acme' });
    const other = await createAccount(app, { name: 'Otra' });
    return { accountId: account.id, otherAccountId: other.id, storeId: (await addStore(app, account.id, { name: 'Tienda', country: 'CO', currency: 'COP' })).id };
  }));
});
after(async () => {
  await host.close();
  tmp.cleanup();
  rmSync(files, { recursive: true, force: true });
});

test('products images add PRODUCT FILE --alt appends the hosted image and prints the product', async () => {
  const productId = await newProduct();
  const { path } = await photoFile('frente.png');
  const { json } = await cliJson(tmp.file, ['products', 'images', 'add', productId, path, '--alt', 'Vista frontal']);
  assert.equal(json.id, productId);
  const [image] = json.images;
  assert.match(image.id, /^[A-Za-z0-9_-]{22}$/);
  assert.deepEqual(image, { url: `http://127.0.0.1:3000/img/${image.id}-640.jpg`, id: image.id, alt: 'Vista frontal', width: 640, height: 457 });
  assert.deepEqual(storedImages(productId), [{ id: image.id, width: 640, height: 457, alt: 'Vista frontal' }]);
  const stored = readDb(tmp.file, (db) => db.prepare('SELECT width, format FROM image_variants WHERE image_id = ? ORDER BY width, format').all(image.id));
  assert.deepEqual(stored, [320, 640].flatMap((width) => ['avif', 'jpeg', 'webp'].map((format) => ({ width, format }))));
  const jpeg = readDb(tmp.file, (db) => (db.prepare("SELECT bytes FROM image_variants WHERE image_id = ? AND width = 640 AND format = 'jpeg'").get(image.id) as { bytes: Buffer }).bytes);
  assert.equal((await sharp(jpeg).metadata()).width, 640);
});

test('products images add reads the file from standard input given -', async () => {
  const productId = await newProduct();
  const bytes = await photo({ width: 300, height: 300, seed: seed++ });
  const { json } = await cliJson(tmp.file, ['products', 'images', 'add', productId, '-'], { input: bytes });
  assert.deepEqual([json.images[0].width, json.images[0].height], [300, 300]);
});

test('products images add refuses what is not an image, a missing file and a file over 10 MB as usage errors on file, storing nothing', async () => {
  const productId = await newProduct();
  const text = join(files, 'notes.png');
  writeFileSync(text, 'esto no es una imagen');
  const svg = join(files, 'logo.png');
  writeFileSync(svg, SVG_LOGO);
  const huge = join(files, 'huge.jpg');
  writeFileSync(huge, '');
  truncateSync(huge, IMAGE_MAX_BYTES + 1);
  const before = { images: count(tmp.file, 'images'), files: count(tmp.file, 'image_variants') };
  for (const [path, message] of [
    [text, /file is not an image/],
    [svg, /SVG/],
    [join(files, 'nowhere.jpg'), /cannot read .*nowhere\.jpg: ENOENT/],
    [huge, /file is larger than 10 MB/],
  ] as const) {
    const r = await cliFails(tmp.file, ['products', 'images', 'add', productId, path], 2);
    assert.deepEqual(r.error.details?.map((d) => d.field), ['file'], path);
    assert.match(r.error.details![0]!.message, message);
  }
  assert.deepEqual({ images: count(tmp.file, 'images'), files: count(tmp.file, 'image_variants') }, before);
  assert.deepEqual(storedImages(productId), []);
});

test("products images add --account acting as another account finds no product (exit 1), like an unknown id", async () => {
  const productId = await newProduct();
  const { path } = await photoFile('ajena.png');
  const theirs = await cliFails(tmp.file, ['products', 'images', 'add', productId, path, '--account', otherAccountId], 1);
  const unknown = await cliFails(tmp.file, ['products', 'images', 'add', '01900000-0000-7000-8000-000000000000', path, '--account', otherAccountId], 1);
  assert.equal(theirs.error.code, 'not_found');
  assert.deepEqual(theirs.error, unknown.error);
  assert.deepEqual(storedImages(productId), []);
  const mine = await cliJson(tmp.file, ['products', 'images', 'add', productId, path, '--account', accountId]);
  assert.equal(mine.json.images.length, 1);
});

test('products images rehost --store hosts the external image URLs a product stored before hosting, and run again fetches nothing', async () => {
  const productId = await newProduct();
  host.serve('/vieja.jpg', await photo({ width: 500, height: 400, seed: seed++ }));
  await withApp(tmp.file, (app) => updateProduct(app.db, productId, { images: JSON.stringify([{ url: host.url('/vieja.jpg'), alt: 'Vieja' }]) }));
  const env = { CODRAIL_IMAGE_URLS_ALLOW_PRIVATE: '1' };
  const { json } = await cliJson(tmp.file, ['products', 'images', 'rehost', '--store', storeId], { env });
  assert.deepEqual(json, { products: 1, hosted: 1, failed: [] });
  const [image] = storedImages(productId);
  assert.deepEqual(image, { id: image.id, width: 320, height: 256, source: host.url('/vieja.jpg'), alt: 'Vieja' });
  const again = await cliJson(tmp.file, ['products', 'images', 'rehost', '--store', storeId], { env });
  assert.deepEqual(again.json, { products: 0, hosted: 0, failed: [] });
  assert.equal(host.hits('/vieja.jpg'), 1);
});
