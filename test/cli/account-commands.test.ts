// The CLI commands derived from the account operations (SPEC 9; src/cli/operations.command.ts):
// positionals from the `<field>`s, --kebab-case options, SPEC 9 spellings (--pack CODE:PRICE[:MIN],
// --store, --product, --domain), JSON / @file / @- for objects, booleans, lists printed as arrays
// with the next cursor on stderr, --account tenancy, and exit codes 1 (failure) and 2 (usage).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDbFile } from '../helpers/server.ts';
import { cliFails, cliJson, readDb, withApp } from '../helpers/cli-expect.ts';
import { runCli } from '../helpers/cli.ts';
import { seedShop, type Shop } from '../helpers/fixtures.ts';

const tmp = tempDbFile();
after(() => tmp.cleanup());

const UNKNOWN_ID = '01900000-0000-7000-8000-000000000000';
const SECTIONS = [
  { type: 'hero', heading: 'Faja', body: 'Moldea tu figura' },
  { type: 'faq', items: [{ title: '¿Pago contra entrega?', text: 'Sí' }] },
];

type Row = Record<string, any>;
const one = (sql: string, ...params: unknown[]): Row | undefined => readDb(tmp.file, (db) => db.prepare(sql).get(...params) as Row | undefined);
const all = (sql: string, ...params: unknown[]): Row[] => readDb(tmp.file, (db) => db.prepare(sql).all(...params) as Row[]);
/** Every row of the tables the account commands write, to check a refused command wrote nothing. */
const snapshot = () =>
  readDb(tmp.file, (db) => Object.fromEntries(['stores', 'products', 'product_packs', 'landing_pages', 'api_keys', 'idempotency_records'].map((t) => [t, db.prepare(`SELECT * FROM ${t}`).all()])));

let shop: Shop;
let other: Shop;

before(async () => {
  ({ shop, other } = await withApp(tmp.file, async (app) => ({ shop: await seedShop(app), other: await seedShop(app) })));
});

describe('products', () => {
  let productId = '';

  test('products create takes --pack CODE:PRICE, CODE:PRICE:MIN and a JSON pack, and stores them in minor units', async () => {
    const { json } = await cliJson(tmp.file, [
      'products', 'create', '--store', shop.storeId, '--name', 'Faja', '--status', 'active',
      '--pack', '1x:89900', '--pack', '2x:159900:150000', '--pack', '{"quantity":3,"price":219900,"label":"Más vendido","is_default":true}',
    ]);
    productId = json.id;
    assert.equal(json.default_pack, '3x');
    assert.deepEqual(all('SELECT code, price_minor, min_price_minor, label, is_default FROM product_packs WHERE product_id = ? ORDER BY position', productId), [
      { code: '1x', price_minor: 8_990_000, min_price_minor: null, label: null, is_default: 0 },
      { code: '2x', price_minor: 15_990_000, min_price_minor: 15_000_000, label: null, is_default: 0 },
      { code: '3x', price_minor: 21_990_000, min_price_minor: null, label: 'Más vendido', is_default: 1 },
    ]);
    assert.equal(one('SELECT status FROM products WHERE id = ?', productId)?.status, 'active');
  });

  /** A product of its own with a 1x/2x ladder, for a test that changes or prices one. */
  const ladderProduct = async () =>
    (await cliJson(tmp.file, ['products', 'create', '--store', shop.storeId, '--name', 'Faja propia', '--pack', '1x:80000', '--pack', '2x:150000'])).json.id as string;

  test('products packs set replaces the ladder from --pack specs, a bare quantity code included', async () => {
    const productId = await ladderProduct();
    await cliJson(tmp.file, ['products', 'packs', 'set', productId, '--pack', '2:150000', '--pack', '1X:80000']);
    assert.deepEqual(all('SELECT code, price_minor FROM product_packs WHERE product_id = ? ORDER BY position', productId), [
      { code: '2x', price_minor: 15_000_000 },
      { code: '1x', price_minor: 8_000_000 },
    ]);
  });

  test('products create with a JSON pack that is not JSON is a usage error with exit 2 that stores nothing', async () => {
    const before_ = snapshot();
    const r = await cliFails(tmp.file, ['products', 'create', '--store', shop.storeId, '--name', 'Rota', '--pack', '{"quantity":2,'], 2);
    assert.match(r.stderr, /pack/);
    assert.deepEqual(snapshot(), before_);
  });

  test('products create without the mandatory --name is a usage error with exit 2 that stores nothing', async () => {
    const before_ = snapshot();
    const r = await cliFails(tmp.file, ['products', 'create', '--store', shop.storeId], 2);
    assert.match(r.stderr, /--name/);
    assert.deepEqual(snapshot(), before_);
  });

  test('products create with an option the command does not have is a usage error with exit 2', async () => {
    await cliFails(tmp.file, ['products', 'create', '--store', shop.storeId, '--name', 'X', '--colour', 'red'], 2);
  });

  test('products stock set and products quote take their numbers as options', async () => {
    const productId = await ladderProduct();
    const stock = await cliJson(tmp.file, ['products', 'stock', 'set', productId, '--quantity', '12', '--reason', 'restock']);
    assert.equal(stock.json.stock, 12);
    assert.deepEqual(one('SELECT stock, stock_note FROM products WHERE id = ?', productId), { stock: 12, stock_note: 'restock' });
    const quote = await cliJson(tmp.file, ['products', 'quote', productId, '--quantity', '4']);
    assert.deepEqual([quote.json.pack, quote.json.multiplier, quote.json.total_price], ['2x', 2, 300000]);
  });

  test('products stock set with a quantity that is not a number is a usage error with exit 2 that changes nothing', async () => {
    const before_ = snapshot();
    await cliFails(tmp.file, ['products', 'stock', 'set', productId, '--quantity', 'twelve'], 2);
    assert.deepEqual(snapshot(), before_);
  });

  test('products archive --unpublish-landings, a bare boolean flag, archives a product a published page sells and unpublishes the page', async () => {
    const refused = await cliFails(tmp.file, ['products', 'archive', shop.productId], 1);
    assert.match(refused.stderr, /unpublish_landings/);
    assert.equal(one('SELECT status FROM products WHERE id = ?', shop.productId)?.status, 'active');
    const { json } = await cliJson(tmp.file, ['products', 'archive', shop.productId, '--unpublish-landings']);
    assert.equal(json.status, 'archived');
    assert.equal(one('SELECT published FROM landing_pages WHERE id = ?', shop.landingId)?.published, 0);
  });

  test('products update of an unknown product exits 1 with "not found" on stderr and nothing on stdout', async () => {
    const r = await cliFails(tmp.file, ['products', 'update', UNKNOWN_ID, '--name', 'Nada'], 1);
    assert.match(r.stderr, /not found/);
  });
});

describe('landing pages', () => {
  let landingId = '';

  before(async () => {
    landingId = (await cliJson(tmp.file, ['landings', 'create', '--product', other.productId, '--slug', 'cli-secciones'])).json.id;
  });

  test('landings sections set --sections @file reads the sections from a JSON file', async () => {
    const file = join(tmp.dir, 'sections.json');
    writeFileSync(file, JSON.stringify(SECTIONS));
    const { json } = await cliJson(tmp.file, ['landings', 'sections', 'set', landingId, '--sections', `@${file}`]);
    assert.deepEqual(json.sections, SECTIONS);
    assert.deepEqual(JSON.parse(one('SELECT sections FROM landing_pages WHERE id = ?', landingId)?.sections), SECTIONS);
  });

  test('landings sections set --sections @- reads the sections from standard input', async () => {
    const next = [{ type: 'cta', heading: 'Pide ya' }];
    const { json } = await cliJson(tmp.file, ['landings', 'sections', 'set', landingId, '--sections', '@-'], { input: JSON.stringify(next) });
    assert.deepEqual(json.sections, next);
    assert.deepEqual(JSON.parse(one('SELECT sections FROM landing_pages WHERE id = ?', landingId)?.sections), next);
  });

  test('landings sections set with inline JSON text takes it as it is', async () => {
    const { json } = await cliJson(tmp.file, ['landings', 'sections', 'set', landingId, '--sections', JSON.stringify(SECTIONS)]);
    assert.deepEqual(json.sections, SECTIONS);
  });

  test('landings sections set with a file that does not exist or stdin that is not JSON is a usage error with exit 2 that changes nothing', async () => {
    const before_ = snapshot();
    const missing = await cliFails(tmp.file, ['landings', 'sections', 'set', landingId, '--sections', `@${join(tmp.dir, 'nope.json')}`], 2);
    assert.match(missing.stderr, /sections/);
    await cliFails(tmp.file, ['landings', 'sections', 'set', landingId, '--sections', '@-'], 2, { input: 'hero, faq' });
    assert.deepEqual(snapshot(), before_);
  });

  test('landings sections set with a section type it does not know is a usage error with exit 2 naming the field', async () => {
    const r = await cliFails(tmp.file, ['landings', 'sections', 'set', landingId, '--sections', '[{"type":"video"}]'], 2);
    assert.match(r.stderr, /sections\.0\.type/);
  });
});

describe('keys', () => {
  let keyId = '';

  test('keys create-publishable takes the store as a positional and repeated --domain and --product', async () => {
    const { json } = await cliJson(tmp.file, ['keys', 'create-publishable', shop.storeId, '--mode', 'test', '--domain', 'shop.example.com', '--domain', 'pay.brand.example', '--product', shop.productId]);
    keyId = json.id;
    assert.match(json.key, /^svc_test_pub_/);
    const row = one('SELECT allowed_domains, allowed_products, inherit_domains FROM api_keys WHERE id = ?', keyId)!;
    assert.deepEqual(JSON.parse(row.allowed_domains), ['shop.example.com', 'pay.brand.example']);
    assert.deepEqual(JSON.parse(row.allowed_products), [shop.productId]);
    assert.equal(row.inherit_domains, 0);
  });

  test('keys list --include-revoked true lists revoked keys, and --include-revoked false or no flag does not', async () => {
    const keyId = (await cliJson(tmp.file, ['keys', 'create-publishable', shop.storeId, '--mode', 'test'])).json.id as string;
    await cliJson(tmp.file, ['keys', 'revoke', keyId]);
    const listed = async (...extra: string[]) => ((await cliJson(tmp.file, ['keys', 'list', '--store', shop.storeId, ...extra])).json as { id: string }[]).map((k) => k.id);
    assert.ok((await listed('--include-revoked', 'true')).includes(keyId));
    assert.ok(!(await listed('--include-revoked', 'false')).includes(keyId));
    assert.ok(!(await listed()).includes(keyId));
  });

  test('keys list --include-revoked with a word that is not a boolean is a usage error with exit 2', async () => {
    await cliFails(tmp.file, ['keys', 'list', '--include-revoked', 'perhaps'], 2);
  });
});

describe('lists', () => {
  test('stores list prints a JSON array of every account’s stores without --account, and only its own with it', async () => {
    const { json: everyone } = await cliJson(tmp.file, ['stores', 'list']);
    assert.ok(Array.isArray(everyone));
    assert.deepEqual(everyone.map((s: { id: string }) => s.id).sort(), [shop.storeId, other.storeId].sort());
    const { json: mine } = await cliJson(tmp.file, ['stores', 'list', '--account', shop.accountId]);
    assert.deepEqual(mine.map((s: { id: string }) => s.id), [shop.storeId]);
  });

  test('a list with more items prints one page as an array and "more: add --cursor" on stderr, and the cursor gives the rest', async () => {
    const first = await cliJson(tmp.file, ['stores', 'list', '--limit', '1']);
    assert.equal(first.json.length, 1);
    const cursor = /more: add --cursor (\S+)/.exec(first.result.stderr)?.[1];
    assert.ok(cursor, `stderr names the next cursor: ${first.result.stderr}`);
    const second = await cliJson(tmp.file, ['stores', 'list', '--limit', '1', '--cursor', cursor]);
    assert.equal(second.json.length, 1);
    assert.doesNotMatch(second.result.stderr, /more:/, 'the last page says nothing more');
    assert.deepEqual([first.json[0].id, second.json[0].id].sort(), [shop.storeId, other.storeId].sort());
  });

  test('a list with a cursor it never issued is a usage error with exit 2', async () => {
    await cliFails(tmp.file, ['stores', 'list', '--cursor', 'bm9wZQ'], 2);
  });
});

describe('--account', () => {
  test('account get --account prints that account with operator credentials', async () => {
    const { json } = await cliJson(tmp.file, ['account', 'get', '--account', other.accountId]);
    assert.equal(json.account.id, other.accountId);
    assert.equal(json.credential, 'operator');
    assert.deepEqual(json.stores.map((s: { id: string }) => s.id), [other.storeId]);
  });

  test('stores create without --account is a usage error with exit 2 that stores nothing', async () => {
    const before_ = snapshot();
    const r = await cliFails(tmp.file, ['stores', 'create', '--name', 'Huérfana', '--country', 'CO'], 2);
    assert.match(r.stderr, /--account/);
    assert.deepEqual(snapshot(), before_);
  });

  test('--account that is not an account id is a usage error with exit 2', async () => {
    await cliFails(tmp.file, ['stores', 'get', shop.storeId, '--account', 'acme'], 2);
  });

  test('stores get of another account’s store with --account exits 1 "not found", and the same command without --account finds it', async () => {
    const r = await cliFails(tmp.file, ['stores', 'get', other.storeId, '--account', shop.accountId], 1);
    assert.match(r.stderr, /not found/);
    const { json } = await cliJson(tmp.file, ['stores', 'get', other.storeId]);
    assert.equal(json.id, other.storeId);
  });

  test('stores create --domain repeated stores every host for the --account', async () => {
    const { json } = await cliJson(tmp.file, ['stores', 'create', '--account', shop.accountId, '--name', 'Tienda MX', '--country', 'MX', '--domain', 'mx.example.com', '--domain', '*.mx.example']);
    const row = one('SELECT account_id, currency, allowed_domains FROM stores WHERE id = ?', json.id)!;
    assert.deepEqual([row.account_id, row.currency, JSON.parse(row.allowed_domains)], [shop.accountId, 'MXN', ['mx.example.com', '*.mx.example']]);
  });
});

describe('output', () => {
  test('geo phone takes country and phone as positionals and prints human text without --json', async () => {
    const r = await runCli(['geo', 'phone', 'CO', '3001234567'], { db: tmp.file });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /e164: \+573001234567/);
  });

  test('a missing positional is a usage error with exit 2 and nothing on stdout', async () => {
    await cliFails(tmp.file, ['geo', 'phone', 'CO'], 2);
  });
});
