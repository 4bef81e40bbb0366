// codrail stores create / stores domains add|remove|list (SPEC 3, 9).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { tempDbFile } from '../helpers/server.ts';
import { cliFails, cliJson, count, readDb, UUID, withApp } from '../helpers/cli-expect.ts';
import { createAccount } from '../../src/use-cases/accounts/accounts.use-case.ts';
import { addStore } from '../helpers/fixtures.ts';

const tmp = tempDbFile();
after(() => tmp.cleanup());

let accountId = '';

/** The store the create test makes (domains shop.example.com and *.brand.example), made in-process for a test that changes its domains. */
const newStore = () =>
  withApp(tmp.file, async (app) => (await addStore(app, accountId, { name: 'Tienda Bogotá', country: 'CO', currency: 'COP', domains: ['shop.example.com', '*.Brand.Example'] })).id);

const storedDomains = (id: string) =>
  readDb(tmp.file, (db) => JSON.parse((db.prepare('SELECT allowed_domains FROM stores WHERE id = ?').get(id) as { allowed_domains: string }).allowed_domains) as string[]);

before(async () => {
  accountId = await withApp(tmp.file, async (app) => (await createAccount(app, { name: 'Acme' })).id);
});

test('stores create prints the store with its country, currency, default discount and normalized domains', async () => {
  const { json } = await cliJson(tmp.file, [
    'stores', 'create', '--account', accountId, '--name', 'Tienda Bogotá', '--country', 'CO', '--currency', 'COP',
    '--domain', 'shop.example.com', '--domain', '*.Brand.Example',
  ]);
  const storeId = json.id;
  assert.match(json.id, UUID);
  assert.equal(json.account_id, accountId);
  assert.equal(json.name, 'Tienda Bogotá');
  assert.equal(json.country, 'CO');
  assert.equal(json.currency, 'COP');
  assert.equal(json.max_discount_pct, 30);
  assert.deepEqual(json.domains, ['shop.example.com', '*.brand.example']);
  assert.equal(json.next_order_number, undefined);
  assert.deepEqual(storedDomains(storeId), ['shop.example.com', '*.brand.example']);
});

test('stores create with country XX is a usage error with exit 2 and stores nothing', async () => {
  const before = count(tmp.file, 'stores');
  const r = await cliFails(tmp.file, ['stores', 'create', '--account', accountId, '--name', 'Nowhere', '--country', 'XX', '--currency', 'COP'], 2);
  assert.match(r.stderr, /country/);
  assert.equal(count(tmp.file, 'stores'), before);
});

test('stores create for an account that does not exist fails with exit 1 (not found)', async () => {
  const before = count(tmp.file, 'stores');
  const r = await cliFails(tmp.file, ['stores', 'create', '--account', '01900000-0000-7000-8000-000000000000', '--name', 'Ghost', '--country', 'CO', '--currency', 'COP'], 1);
  assert.match(r.stderr, /account/i);
  assert.equal(count(tmp.file, 'stores'), before);
});

test('stores domains add normalizes the host, appends it once and prints the store with its new list', async () => {
  const storeId = await newStore();
  const { json } = await cliJson(tmp.file, ['stores', 'domains', 'add', storeId, 'Checkout.Example.COM.']);
  assert.equal(json.id, storeId);
  assert.deepEqual(json.domains, ['shop.example.com', '*.brand.example', 'checkout.example.com']);
  assert.deepEqual(storedDomains(storeId), json.domains);
  const again = await cliJson(tmp.file, ['stores', 'domains', 'add', storeId, 'checkout.example.com']);
  assert.deepEqual(again.json.domains, json.domains, 'adding it again is a no-op');
});

test('stores domains add with a host that has a path is a usage error with exit 2 and changes nothing', async () => {
  const storeId = await newStore();
  await cliFails(tmp.file, ['stores', 'domains', 'add', storeId, 'shop.example.com/checkout'], 2);
  assert.deepEqual(storedDomains(storeId), ['shop.example.com', '*.brand.example']);
});

test('stores domains remove takes the host off the list and prints the store with what is left', async () => {
  const storeId = await newStore();
  const { json } = await cliJson(tmp.file, ['stores', 'domains', 'remove', storeId, 'SHOP.example.com']);
  assert.deepEqual(json.domains, ['*.brand.example']);
  assert.deepEqual(storedDomains(storeId), json.domains);
});

test('stores domains remove of a host that is not on the list fails with exit 1', async () => {
  const storeId = await newStore();
  await cliJson(tmp.file, ['stores', 'domains', 'remove', storeId, 'shop.example.com']);
  const r = await cliFails(tmp.file, ['stores', 'domains', 'remove', storeId, 'shop.example.com'], 1);
  assert.match(r.stderr, /not found/);
});

test('stores domains list prints the stored list as a JSON array', async () => {
  const storeId = await newStore();
  const { json } = await cliJson(tmp.file, ['stores', 'domains', 'list', storeId]);
  assert.deepEqual(json, ['shop.example.com', '*.brand.example']);
});
