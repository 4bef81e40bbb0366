// codrail products create / landings create (SPEC 3, 9, 13) as SPEC 9 spells them: --store, --pack
// CODE:PRICE[:MIN_PRICE], --product, --publish; derived from the account operations.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { tempDbFile } from '../helpers/server.ts';
import { recordServerSetting } from '../../src/db/queries/server-settings.queries.ts';
import { cliFails, cliJson, count, readDb, UUID, withApp } from '../helpers/cli-expect.ts';
import { runCli } from '../helpers/cli.ts';
import { createAccount } from '../../src/use-cases/accounts/accounts.use-case.ts';
import { addProduct, addStore } from '../helpers/fixtures.ts';

const tmp = tempDbFile();
after(() => tmp.cleanup());

let accountId = '';
let storeId = '';

/** A store of the account without checkout domains, for a test that adds products, domains or pages to it. */
const newStore = () => withApp(tmp.file, async (app) => (await addStore(app, accountId, { name: 'Tienda', country: 'CO', currency: 'COP' })).id);

/** The draft product `products create` makes in the first test (SKU S), made in-process in a store of the test's own. */
const draftProduct = (store: string) =>
  withApp(tmp.file, async (app) => (await addProduct(app, { store_id: store, name: 'Faja', sku: 'S', status: 'draft', packs: [{ quantity: 1, price: 89900 }, { quantity: 3, price: 219900, min_price: 180000 }] })).id);

before(async () => {
  accountId = await withApp(tmp.file, async (app) => (await createAccount(app, { name: 'Acme' })).id);
  storeId = await newStore();
});

test('products create prints a draft product with its packs in major units, min_price, floor and formatted price', async () => {
  const { json } = await cliJson(tmp.file, ['products', 'create', '--store', storeId, '--name', 'Faja', '--pack', '1x:89900', '--pack', '3x:219900:180000', '--sku', 'S']);
  const productId = json.id;
  assert.match(json.id, UUID);
  assert.equal(json.store_id, storeId);
  assert.equal(json.name, 'Faja');
  assert.equal(json.sku, 'S');
  assert.equal(json.status, 'draft');
  assert.equal(json.currency, 'COP');
  assert.deepEqual(
    json.packs.map((p: Record<string, unknown>) => [p.code, p.quantity, p.price, p.min_price, p.floor, p.price_formatted]),
    [
      ['1x', 1, 89900, null, 62930, '$\u00a089.900'],
      ['3x', 3, 219900, 180000, 180000, '$\u00a0219.900'],
    ],
  );
  const packs = readDb(tmp.file, (db) => db.prepare('SELECT code, units, price_minor, min_price_minor FROM product_packs WHERE product_id = ? ORDER BY position').all(productId));
  assert.deepEqual(packs, [
    { code: '1x', units: 1, price_minor: 8_990_000, min_price_minor: null },
    { code: '3x', units: 3, price_minor: 21_990_000, min_price_minor: 18_000_000 },
  ]);
});

test('products create with a pack spec without a price or with a price of three decimals is a usage error with exit 2', async () => {
  const before = count(tmp.file, 'products');
  for (const spec of ['1x', '1x:10.001']) {
    const r = await cliFails(tmp.file, ['products', 'create', '--store', storeId, '--name', 'Bad', '--pack', spec], 2);
    assert.match(r.stderr, /pack|price/, spec);
  }
  assert.equal(count(tmp.file, 'products'), before);
});

test('products create with a SKU already used in the store fails with exit 1', async () => {
  const store = await newStore();
  await draftProduct(store);
  const r = await cliFails(tmp.file, ['products', 'create', '--store', store, '--name', 'Otra faja', '--pack', '1x:100', '--sku', 'S'], 1);
  assert.match(r.stderr, /SKU S already exists/);
});

test('products create for a store that does not exist fails with exit 1', async () => {
  await cliFails(tmp.file, ['products', 'create', '--store', '01900000-0000-7000-8000-000000000000', '--name', 'Ghost', '--pack', '1x:100'], 1);
});

test('landings create --publish of a draft product in a store without domains is refused with each readiness problem and stores nothing', async () => {
  const productId = await draftProduct(await newStore());
  const before = count(tmp.file, 'landing_pages');
  const r = await cliFails(tmp.file, ['landings', 'create', '--product', productId, '--slug', 'faja-promo', '--publish'], 1);
  assert.match(r.stderr, /not ready/);
  assert.match(r.stderr, /draft/);
  assert.match(r.stderr, /no checkout domain/);
  assert.equal(count(tmp.file, 'landing_pages'), before);
});

test('landings create --publish prints the page with the URL under the configured base URL once the product and store are ready', async () => {
  const storeId = await newStore();
  const productId = await draftProduct(storeId);
  await cliJson(tmp.file, ['products', 'update', productId, '--status', 'active']);
  await cliJson(tmp.file, ['stores', 'domains', 'add', storeId, 'shop.example.com']);
  const { json } = await cliJson(tmp.file, ['landings', 'create', '--product', productId, '--slug', 'Faja-Promo', '--publish'], {
    env: { CODRAIL_BASE_URL: 'https://pay.example.test/' },
  });
  assert.match(json.id, UUID);
  assert.equal(json.slug, 'faja-promo');
  assert.equal(json.url, 'https://pay.example.test/l/faja-promo');
  assert.equal(json.published, true);
  const row = readDb(tmp.file, (db) => db.prepare('SELECT slug, title, published, store_id, product_id FROM landing_pages WHERE id = ?').get(json.id));
  assert.deepEqual(row, { slug: 'faja-promo', title: 'Faja', published: 1, store_id: storeId, product_id: productId });
});

test('without a configured base URL, landings create prints the URL the server on this database answers at, not the CLI’s default port 3000 (issue 23 §5)', async () => {
  const storeId = await newStore();
  const productId = await draftProduct(storeId);
  // What `codrail serve --port 4123 --base-url …` records when it starts (src/use-cases/fulfillment/push-worker.use-case.ts).
  await withApp(tmp.file, (app) => recordServerSetting(app.db, 'base_url', 'http://127.0.0.1:4123', new Date().toISOString()));
  try {
    const { json } = await cliJson(tmp.file, ['landings', 'create', '--product', productId, '--slug', 'faja-puerto']);
    assert.equal(json.url, 'http://127.0.0.1:4123/l/faja-puerto');
    const explicit = await cliJson(tmp.file, ['landings', 'get', json.id], { env: { CODRAIL_BASE_URL: 'https://pay.example.test' } });
    assert.equal(explicit.json.url, 'https://pay.example.test/l/faja-puerto', 'a base URL configured here still wins');
  } finally {
    await withApp(tmp.file, (app) => recordServerSetting(app.db, 'base_url', undefined, new Date().toISOString()));
  }
});

test('printed URLs say where their base URL came from when nobody configured one: this shell’s default, or what the server recorded (issue 23 §5)', async () => {
  const productId = await draftProduct(await newStore());
  const made = await runCli(['landings', 'create', '--product', productId, '--slug', 'faja-nota'], { db: tmp.file });
  assert.equal(made.code, 0, made.stderr);
  assert.match(made.stdout, /url: http:\/\/127\.0\.0\.1:3000\/l\/faja-nota/);
  assert.match(made.stderr, /^note: URLs use http:\/\/127\.0\.0\.1:3000, this shell's default: CODRAIL_BASE_URL is not set and no `codrail serve` has recorded its URL on this database\.$/m);
  await withApp(tmp.file, (app) => recordServerSetting(app.db, 'base_url', 'http://127.0.0.1:4124', new Date().toISOString()));
  try {
    const shown = await runCli(['landings', 'get', (made.stdout.match(/^id: (\S+)/m) ?? [])[1] ?? ''], { db: tmp.file });
    assert.match(shown.stdout, /url: http:\/\/127\.0\.0\.1:4124\/l\/faja-nota/);
    assert.match(shown.stderr, /^note: URLs use http:\/\/127\.0\.0\.1:4124, the base URL `codrail serve` recorded on this database; set CODRAIL_BASE_URL to name another\.$/m);
    const configured = await runCli(['landings', 'get', (made.stdout.match(/^id: (\S+)/m) ?? [])[1] ?? ''], { db: tmp.file, env: { CODRAIL_BASE_URL: 'https://pay.example.test' } });
    assert.match(configured.stdout, /url: https:\/\/pay\.example\.test\/l\/faja-nota/);
    assert.equal(configured.stderr, '', 'a configured base URL needs no note');
    const json = await runCli(['--json', 'landings', 'get', (made.stdout.match(/^id: (\S+)/m) ?? [])[1] ?? ''], { db: tmp.file });
    assert.equal(json.stderr, '', '--json output stays one document, with nothing on stderr');
  } finally {
    await withApp(tmp.file, (app) => recordServerSetting(app.db, 'base_url', undefined, new Date().toISOString()));
  }
});

test('landings create with a slug already taken fails with exit 1', async () => {
  const productId = await draftProduct(await newStore());
  await cliJson(tmp.file, ['landings', 'create', '--product', productId, '--slug', 'faja-repetida']);
  const r = await cliFails(tmp.file, ['landings', 'create', '--product', productId, '--slug', 'faja-repetida'], 1);
  assert.match(r.stderr, /taken/);
});

test('landings create with a slug that is not lower-case letters, digits and dashes is a usage error with exit 2', async () => {
  const productId = await draftProduct(await newStore());
  await cliFails(tmp.file, ['landings', 'create', '--product', productId, '--slug', 'faja promo!'], 2);
});

test('landings create for a product that does not exist fails with exit 1 (not found)', async () => {
  const before = count(tmp.file, 'landing_pages');
  await cliFails(tmp.file, ['landings', 'create', '--product', '01900000-0000-7000-8000-000000000000', '--slug', 'ghost'], 1);
  assert.equal(count(tmp.file, 'landing_pages'), before);
});
