// The CLI's human output is safe whatever the database holds (issue 19 §3): rows written around the
// input rules (old data, another writer) hold ESC sequences, BEL, a C1 CSI, CR, line feeds and
// U+202E; `oauth clients list`, `keys list` and `products list|get` print them escaped and visible,
// no stored line feed starts a line of its own, and --json still carries the exact text.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openSync } from '../helpers/sync-database.ts';
import { tempDbFile } from '../helpers/server.ts';
import { runCli, type CliResult } from '../helpers/cli.ts';
import { cliJson, withApp } from '../helpers/cli-expect.ts';
import { createAccount } from '../../src/use-cases/accounts/accounts.use-case.ts';
import { registerClient } from '../../src/use-cases/oauth/clients.use-case.ts';
import { addKey, addProduct, addStore } from '../helpers/fixtures.ts';

const tmp = tempDbFile();
after(() => tmp.cleanup());

/** A client that erases its own line and draws a "verified" one, then fakes a second client on a line of its own. */
const CLIENT_NAME = 'Evil\u001b[2K\r\u001b[32m✓ Claude (verified)\u001b[0m\u0007\nmcp_FAKEFAKE  Claude  (dcr)';
const KEY_LABEL = 'ops\u001b]0;owned\u0007\nFAKE-KEY \u202Eyek terces';
const PRODUCT = { name: 'Faja\u009b2J\nFAKE-PRODUCT', sku: 'S\u001b[8m', description: 'Buena\u0007\n\u202Eanub' };

let clientId = '';
let keyId = '';
let productId = '';

before(async () => {
  await withApp(tmp.file, async (app) => {
    const accountId = (await createAccount(app, { name: 'Acme' })).id;
    const storeId = (await addStore(app, accountId, { name: 'Tienda', country: 'CO', currency: 'COP' })).id;
    productId = (await addProduct(app, { store_id: storeId, name: 'Faja', sku: 'S', description: 'Buena', packs: [{ quantity: 1, price: 89900 }] })).id;
    keyId = (await addKey(app, { store_id: storeId, type: 'secret', label: 'ops' })).id;
    clientId = (await registerClient(app, { client_name: 'Claude', redirect_uris: ['http://127.0.0.1:33418/callback'] }, 'cli')).client_id;
  });
  // Straight into the file, as an old release or another writer would have left them.
  const db = openSync(tmp.file);
  try {
    db.prepare('UPDATE oauth_clients SET client_name = ? WHERE id = ?').run(CLIENT_NAME, clientId);
    db.prepare('UPDATE api_keys SET label = ? WHERE id = ?').run(KEY_LABEL, keyId);
    db.prepare('UPDATE products SET name = ?, sku = ?, description = ? WHERE id = ?').run(PRODUCT.name, PRODUCT.sku, PRODUCT.description, productId);
  } finally {
    db.close();
  }
});

const RAW = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;

/** Nothing a terminal would obey on stdout or stderr; the line feeds left are the layout's. */
function assertInert(r: CliResult, label: string): void {
  assert.equal(r.code, 0, `${label}: ${r.stderr}`);
  for (const [stream, text] of [['stdout', r.stdout], ['stderr', r.stderr]] as const) {
    const found = RAW.exec(text);
    assert.equal(found, null, `${label} ${stream} holds U+${found?.[0].codePointAt(0)?.toString(16).padStart(4, '0')}: ${JSON.stringify(text)}`);
  }
  for (const line of r.stdout.split('\n')) assert.doesNotMatch(line, /^\s*(mcp_FAKEFAKE|FAKE-)/, `${label}: a stored line feed started a line: ${JSON.stringify(line)}`);
}

test('oauth clients list prints a client name holding ESC, BEL, CR and a line feed escaped, on its own line', async () => {
  const r = await runCli(['oauth', 'clients', 'list'], { db: tmp.file });
  assertInert(r, 'oauth clients list');
  const line = r.stdout.split('\n').find((l) => l.startsWith(clientId));
  assert.equal(line, `${clientId}  Evil\\x1b[2K\\r\\x1b[32m✓ Claude (verified)\\x1b[0m\\x07\\nmcp_FAKEFAKE  Claude  (dcr)  (cli)`);
  assert.equal(r.stdout.split('\n').filter((l) => l.startsWith('mcp_')).length, 1, 'one client, one line');
});

test('keys list prints a label holding an OSC title sequence and U+202E escaped', async () => {
  const r = await runCli(['keys', 'list'], { db: tmp.file });
  assertInert(r, 'keys list');
  assert.ok(r.stdout.includes('label: ops\\x1b]0;owned\\x07\\nFAKE-KEY \\u202eyek terces'), r.stdout);
});

test('products list and products get print a name, SKU and description holding C1, ESC, BEL and U+202E escaped', async () => {
  const list = await runCli(['products', 'list'], { db: tmp.file });
  assertInert(list, 'products list');
  assert.ok(list.stdout.includes('name: Faja\\x9b2J\\nFAKE-PRODUCT'), list.stdout);
  assert.ok(list.stdout.includes('sku: S\\x1b[8m'), list.stdout);
  const one = await runCli(['products', 'get', productId], { db: tmp.file });
  assertInert(one, 'products get');
  assert.ok(one.stdout.includes('description: Buena\\x07\\n\\u202eanub'), one.stdout);
});

test('--json still carries the stored text exactly', async () => {
  const { json: clients } = await cliJson(tmp.file, ['oauth', 'clients', 'list']);
  assert.equal(clients.find((c: { client_id: string }) => c.client_id === clientId).client_name, CLIENT_NAME);
  const { json: keys } = await cliJson(tmp.file, ['keys', 'list']);
  assert.equal(keys.find((k: { id: string }) => k.id === keyId).label, KEY_LABEL);
});

test('an error message quoting what the caller gave goes to stderr escaped', async () => {
  const r = await runCli(['cities', 'match', 'CO', '--file', 'missing\u001b[2K\nerror: FAKE.csv'], { db: tmp.file });
  assert.equal(r.code, 2);
  assert.equal(RAW.exec(r.stderr), null, JSON.stringify(r.stderr));
  assert.equal(r.stderr, 'error: Cannot read missing\\x1b[2K\\nerror: FAKE.csv: ENOENT\n  file: must be a readable file\n');
});
