// codrail oauth clients|tokens|redirects|keys (SPEC 9, 10; OAUTH.md decisions 5, 6, 9): the CLI
// registers clients through the same redirect rule as /api/oauth/register, so no arbitrary callback
// is ever stored; revocation reaches every token family; signing keys rotate with one current key.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { tempDbFile } from '../helpers/server.ts';
import { cliFails, cliJson, count, readDb, withApp } from '../helpers/cli-expect.ts';
import { createAccount, createUser } from '../../src/use-cases/accounts/accounts.use-case.ts';
import { insertFamily } from '../../src/db/queries/oauth.queries.ts';

const tmp = tempDbFile();
after(() => tmp.cleanup());

const LOOPBACK = 'http://127.0.0.1:33418/callback';
const CLAUDE = 'https://claude.ai/api/mcp/auth_callback';
const APP_CALLBACK = 'https://app.example.com/oauth/callback';
const FOREIGN = ['https://evil.example/cb', 'https://claude.ai.evil/api/mcp/auth_callback', 'http://192.168.1.5/callback'];

interface ClientRow {
  id: string;
  client_name: string;
  redirect_uris: string;
  registered_via: string;
  revoked_at: string | null;
}
const clientRow = (id: string) => readDb(tmp.file, (db) => db.prepare('SELECT * FROM oauth_clients WHERE id = ?').get(id) as ClientRow | undefined);
const familyRow = (id: string) =>
  readDb(tmp.file, (db) => db.prepare('SELECT revoked_at, revoked_reason FROM oauth_families WHERE id = ?').get(id) as { revoked_at: string | null; revoked_reason: string | null } | undefined);

let accountId = '';
let userId = '';

/** A public client registered with the loopback callback, for a test that grants or revokes its tokens. */
const registerClient = async (name: string): Promise<string> => (await cliJson(tmp.file, ['oauth', 'clients', 'register', '--name', name, '--redirect-uri', LOOPBACK])).json.client_id;

/** A token family as the token endpoint would leave it after a code exchange. */
async function grantFamily(clientId: string): Promise<string> {
  const id = randomUUID();
  const now = new Date();
  await withApp(tmp.file, (app) =>
    insertFamily(app.db, { id, client_id: clientId, user_id: userId, account_id: accountId, scope: 'orders:read', resource: 'http://localhost:3000/api/mcp', created_at: now.toISOString(), expires_at: new Date(now.getTime() + 86_400_000).toISOString(), last_used_at: null, revoked_at: null, revoked_reason: null }),
  );
  return id;
}

before(async () => {
  await withApp(tmp.file, async (app) => {
    accountId = (await createAccount(app, { name: 'Acme' })).id;
    userId = (await createUser(app, { account_id: accountId, email: 'ana@example.com', password: 'correct horse battery staple' })).id;
  });
});

test('on a fresh database tokens list and keys list print [] and redirects list holds the vendor callbacks', async () => {
  assert.deepEqual((await cliJson(tmp.file, ['oauth', 'tokens', 'list'])).json, []);
  assert.deepEqual((await cliJson(tmp.file, ['oauth', 'keys', 'list'])).json, []);
  const { json } = await cliJson(tmp.file, ['oauth', 'redirects', 'list']);
  const uris = (json as { uri: string }[]).map((r) => r.uri);
  for (const uri of [CLAUDE, 'https://claude.com/api/mcp/auth_callback', 'https://chatgpt.com/connector_platform_oauth_redirect', 'https://vscode.dev/redirect']) assert.ok(uris.includes(uri), uri);
  assert.equal(json.find((r: { uri: string }) => r.uri === CLAUDE).label, 'Claude');
});

test('clients register with a loopback and a vendor callback prints the public client, stores it as cli and lists it', async () => {
  const { json, result } = await cliJson(tmp.file, ['oauth', 'clients', 'register', '--name', 'Claude Desktop', '--redirect-uri', LOOPBACK, '--redirect-uri', CLAUDE]);
  assert.match(json.client_id, /^mcp_[0-9A-Za-z]+$/);
  assert.equal(json.client_name, 'Claude Desktop');
  assert.deepEqual(json.redirect_uris, [LOOPBACK, CLAUDE]);
  assert.equal(json.token_endpoint_auth_method, 'none');
  assert.equal(json.client_secret, undefined);
  assert.doesNotMatch(result.stderr, /warning/);
  const row = clientRow(json.client_id);
  assert.equal(row?.registered_via, 'cli');
  assert.deepEqual(JSON.parse(row!.redirect_uris), [LOOPBACK, CLAUDE]);

  const list = (await cliJson(tmp.file, ['oauth', 'clients', 'list'])).json;
  assert.deepEqual(
    list.map((c: { client_id: string; redirect_uris: string[]; revoked_at: string | null }) => [c.client_id, c.redirect_uris, c.revoked_at]),
    [[json.client_id, [LOOPBACK, CLAUDE], null]],
  );
});

test('clients register with a mixed list keeps the allowed URIs, stores only those and warns on stderr naming the dropped ones', async () => {
  const { json, result } = await cliJson(tmp.file, ['oauth', 'clients', 'register', '--name', 'Mixed', '--redirect-uri', FOREIGN[0]!, '--redirect-uri', LOOPBACK, '--redirect-uri', FOREIGN[1]!]);
  assert.deepEqual(json.redirect_uris, [LOOPBACK]);
  assert.deepEqual(JSON.parse(clientRow(json.client_id)!.redirect_uris), [LOOPBACK]);
  assert.match(result.stderr, /^warning: dropped redirect URIs https:\/\/evil\.example\/cb, https:\/\/claude\.ai\.evil\/api\/mcp\/auth_callback;/);
});

test('clients register with only foreign callbacks exits 1 naming the refused URIs and the rule, and stores nothing', async () => {
  const before = count(tmp.file, 'oauth_clients');
  const r = await cliFails(tmp.file, ['oauth', 'clients', 'register', '--name', 'Evil', ...FOREIGN.flatMap((u) => ['--redirect-uri', u])], 1);
  assert.match(r.stderr, /no redirect URI is an allowed callback/);
  for (const uri of FOREIGN) assert.ok(r.stderr.includes(uri), uri);
  assert.match(r.stderr, /loopback/);
  assert.match(r.stderr, /oauth redirects add/);
  assert.equal(count(tmp.file, 'oauth_clients'), before);
});

test('clients register without --name or without --redirect-uri is a usage error with exit 2 that stores nothing', async () => {
  const before = count(tmp.file, 'oauth_clients');
  assert.match((await cliFails(tmp.file, ['oauth', 'clients', 'register', '--redirect-uri', LOOPBACK], 2)).stderr, /--name/);
  assert.match((await cliFails(tmp.file, ['oauth', 'clients', 'register', '--name', 'No callback'], 2)).stderr, /--redirect-uri/);
  assert.equal(count(tmp.file, 'oauth_clients'), before);
});

test('redirects add lets a client register the new callback; remove stops new registrations with it', async () => {
  const added = (await cliJson(tmp.file, ['oauth', 'redirects', 'add', APP_CALLBACK, '--label', 'Our app'])).json;
  assert.deepEqual(added.find((r: { uri: string }) => r.uri === APP_CALLBACK)?.label, 'Our app');
  const client = (await cliJson(tmp.file, ['oauth', 'clients', 'register', '--name', 'Our app', '--redirect-uri', APP_CALLBACK])).json;
  assert.deepEqual(client.redirect_uris, [APP_CALLBACK]);

  const removed = (await cliJson(tmp.file, ['oauth', 'redirects', 'remove', APP_CALLBACK])).json;
  assert.equal(removed.length, added.length - 1);
  assert.ok(!removed.some((r: { uri: string }) => r.uri === APP_CALLBACK));
  await cliFails(tmp.file, ['oauth', 'clients', 'register', '--name', 'Too late', '--redirect-uri', APP_CALLBACK], 1);
  // Clients registered before keep their callbacks.
  assert.deepEqual(JSON.parse(clientRow(client.client_id)!.redirect_uris), [APP_CALLBACK]);
});

test('redirects add of an http or javascript: URI is invalid input (exit 2) and leaves the allowlist unchanged', async () => {
  const before = count(tmp.file, 'oauth_redirects');
  assert.match((await cliFails(tmp.file, ['oauth', 'redirects', 'add', 'http://example.com/cb'], 2)).stderr, /uri: .*http is only allowed for loopback/);
  assert.match((await cliFails(tmp.file, ['oauth', 'redirects', 'add', 'javascript:alert(1)'], 2)).stderr, /uri: .*javascript: scheme/);
  assert.equal(count(tmp.file, 'oauth_redirects'), before);
});

test('redirects remove of a URI not in the allowlist exits 1', async () => {
  const r = await cliFails(tmp.file, ['oauth', 'redirects', 'remove', 'https://nowhere.example/cb'], 1);
  assert.match(r.stderr, /not found/);
});

test('keys rotate twice: the first retires nothing, the second retires the first; keys list shows two keys, one current', async () => {
  const first = (await cliJson(tmp.file, ['oauth', 'keys', 'rotate'])).json;
  assert.match(first.kid, /^\d{8}-[0-9A-Za-z]{12}$/);
  assert.deepEqual(first.retired, []);
  const second = (await cliJson(tmp.file, ['oauth', 'keys', 'rotate'])).json;
  assert.notEqual(second.kid, first.kid);
  assert.deepEqual(second.retired, [first.kid]);

  const keys = (await cliJson(tmp.file, ['oauth', 'keys', 'list'])).json as { kid: string; alg: string; retired_at: string | null }[];
  assert.deepEqual(keys.map((k) => k.kid).sort(), [first.kid, second.kid].sort());
  assert.deepEqual(keys.filter((k) => k.retired_at === null).map((k) => k.kid), [second.kid]);
  assert.ok(keys.every((k) => k.alg === 'ES256' && Object.keys(k).every((f) => !/jwk|private/i.test(f))));
});

test('tokens list shows active families with filters; tokens revoke stops one, which only --all still lists; an unknown family exits 1', async () => {
  const loopbackClient = await registerClient('Tokens');
  const family = await grantFamily(loopbackClient);
  const active = (await cliJson(tmp.file, ['oauth', 'tokens', 'list', '--client', loopbackClient, '--account', accountId])).json;
  assert.deepEqual(
    active.map((f: { id: string; client_id: string; email: string; state: string }) => [f.id, f.client_id, f.email, f.state]),
    [[family, loopbackClient, 'ana@example.com', 'active']],
  );
  assert.deepEqual((await cliJson(tmp.file, ['oauth', 'tokens', 'list', '--client', 'mcp_unknown'])).json, []);

  const revoked = (await cliJson(tmp.file, ['oauth', 'tokens', 'revoke', family])).json;
  assert.equal(revoked.id, family);
  assert.equal(revoked.revoked_reason, 'revoked_by_operator');
  assert.ok(familyRow(family)?.revoked_at);
  assert.deepEqual((await cliJson(tmp.file, ['oauth', 'tokens', 'list'])).json, []);
  const all = (await cliJson(tmp.file, ['oauth', 'tokens', 'list', '--all'])).json;
  assert.deepEqual(all.map((f: { id: string; state: string }) => [f.id, f.state]), [[family, 'revoked']]);

  assert.match((await cliFails(tmp.file, ['oauth', 'tokens', 'revoke', randomUUID()], 1)).stderr, /not found/);
});

test('clients revoke sets revoked_at and revokes every token family of the client; an unknown client exits 1', async () => {
  const loopbackClient = await registerClient('Revoked');
  const family = await grantFamily(loopbackClient);
  const { json } = await cliJson(tmp.file, ['oauth', 'clients', 'revoke', loopbackClient]);
  assert.equal(json.client_id, loopbackClient);
  assert.ok(json.revoked_at);
  assert.equal(clientRow(loopbackClient)?.revoked_at, json.revoked_at);
  assert.deepEqual(familyRow(family), { revoked_at: json.revoked_at, revoked_reason: 'client_revoked' });

  assert.match((await cliFails(tmp.file, ['oauth', 'clients', 'revoke', 'mcp_doesnotexist'], 1)).stderr, /not found/);
});
