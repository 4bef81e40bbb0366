// codrail keys create|list|revoke|roll (SPEC 5, 9): shown once, stored as SHA-256, revocable, rollable.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { tempDbFile } from '../helpers/server.ts';
import { cliFails, cliJson, count, readDb, UUID, withApp } from '../helpers/cli-expect.ts';
import { createAccount } from '../../src/use-cases/accounts/accounts.use-case.ts';
import { addKey, addStore, rollKey } from '../helpers/fixtures.ts';
import { GRANTABLE_SCOPES } from '../../src/domain/oauth/scopes.ts';

const tmp = tempDbFile();
after(() => tmp.cleanup());

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

interface KeyRow {
  id: string;
  store_id: string;
  type: string;
  env: string;
  hash: string;
  prefix: string;
  revoked_at: string | null;
  replaced_by: string | null;
  scopes: string | null;
  created_via: string;
  created_by_key: string | null;
  oauth_family_id: string | null;
}

const BY_OPERATOR = { via: 'operator', key_id: null, client_id: null, client_name: null, user_id: null, user_email: null };
const keyRow = (id: string) => readDb(tmp.file, (db) => db.prepare('SELECT * FROM api_keys WHERE id = ?').get(id) as KeyRow | undefined);

let accountId = '';
let storeId = '';

/** A store of the account; a test whose list must hold only its own keys makes one. */
const newStore = () => withApp(tmp.file, async (app) => (await addStore(app, accountId, { name: 'Tienda', country: 'CO', currency: 'COP', domains: ['shop.example.com', 'pay.example.com'] })).id);

/** A key issued in-process, as `keys create` issues it, for a test that rolls, lists or revokes one. */
const issue = (input: { type: 'publishable' | 'secret'; env?: 'live' | 'test'; domains?: string[] }, store = storeId) =>
  withApp(tmp.file, async (app) => {
    const { id, key } = await addKey(app, { store_id: store, ...input });
    return { id, key };
  });

before(async () => {
  accountId = await withApp(tmp.file, async (app) => (await createAccount(app, { name: 'Acme' })).id);
  storeId = await newStore();
});

test('keys create --type publishable --env test prints {id, key, type, env, prefix} and stores only the SHA-256 of the key', async () => {
  const { json } = await cliJson(tmp.file, ['keys', 'create', '--store', storeId, '--type', 'publishable', '--env', 'test']);
  assert.match(json.id, UUID);
  assert.match(json.key, /^svc_test_pub_[0-9A-Za-z]{32}$/);
  assert.equal(json.type, 'publishable');
  assert.equal(json.env, 'test');
  assert.equal(json.prefix, `${json.key.slice(0, 'svc_test_pub_'.length + 4)}…`);

  const row = keyRow(json.id);
  assert.ok(row);
  assert.equal(row.hash, sha256(json.key));
  assert.equal(row.store_id, storeId);
  assert.equal(row.prefix, json.prefix);
  assert.equal(row.revoked_at, null);
  const anywhere = readDb(tmp.file, (db) => db.prepare('SELECT count(*) AS n FROM api_keys WHERE id || hash || prefix || coalesce(label, \'\') LIKE ?').get(`%${json.key}%`) as { n: number });
  assert.equal(anywhere.n, 0);
});

test('keys create --type secret prints a svc_live_secret_ key with 40 base62 characters', async () => {
  const { json } = await cliJson(tmp.file, ['keys', 'create', '--store', storeId, '--type', 'secret']);
  assert.match(json.key, /^svc_live_secret_[0-9A-Za-z]{40}$/);
  assert.equal(json.type, 'secret');
  assert.equal(json.env, 'live');
  assert.equal(keyRow(json.id)?.hash, sha256(json.key));
});

test('keys create --type secret gives the key every grantable scope, and keys list --json shows its scopes and that the operator made it', async () => {
  const store = await newStore();
  const { json } = await cliJson(tmp.file, ['keys', 'create', '--store', store, '--type', 'secret']);
  assert.deepEqual(json.scopes, [...GRANTABLE_SCOPES]);
  assert.deepEqual(json.created_by, BY_OPERATOR);
  const row = keyRow(json.id)!;
  assert.equal(row.scopes, GRANTABLE_SCOPES.join(' '));
  assert.equal(row.created_via, 'operator');
  assert.equal(row.created_by_key, null);
  assert.equal(row.oauth_family_id, null);
  const publishable = (await cliJson(tmp.file, ['keys', 'create', '--store', store, '--type', 'publishable'])).json;
  const { json: listed } = await cliJson(tmp.file, ['keys', 'list', '--store', store]);
  const secret = listed.find((k: { id: string }) => k.id === json.id);
  assert.deepEqual(secret.scopes, [...GRANTABLE_SCOPES]);
  assert.deepEqual(secret.created_by, BY_OPERATOR);
  const pub = listed.find((k: { id: string }) => k.id === publishable.id);
  assert.equal(pub.scopes, null, 'a publishable key only creates orders: it has no scopes');
  assert.deepEqual(pub.created_by, BY_OPERATOR);
});

test('keys create --type secret --scope orders:read --scope mcp:invoke restricts the key to those scopes, as does keys create-secret --scope', async () => {
  const { json } = await cliJson(tmp.file, ['keys', 'create', '--store', storeId, '--type', 'secret', '--scope', 'orders:read', '--scope', 'mcp:invoke']);
  assert.deepEqual(json.scopes, ['mcp:invoke', 'orders:read']);
  assert.equal(keyRow(json.id)?.scopes, 'mcp:invoke orders:read');
  const derived = (await cliJson(tmp.file, ['keys', 'create-secret', storeId, '--scope', 'stores:read'])).json;
  assert.deepEqual(derived.scopes, ['stores:read']);
  assert.equal(keyRow(derived.id)?.scopes, 'stores:read');
});

test('keys create --scope with an unknown scope, with ai:generate, or on a publishable key is a usage error with exit 2 and stores nothing', async () => {
  const before = count(tmp.file, 'api_keys');
  const unknown = await cliFails(tmp.file, ['keys', 'create', '--store', storeId, '--type', 'secret', '--scope', 'orders:reed'], 2);
  assert.equal(unknown.error.details?.[0]?.field, 'scopes.0');
  await cliFails(tmp.file, ['keys', 'create', '--store', storeId, '--type', 'secret', '--scope', 'ai:generate'], 2);
  await cliFails(tmp.file, ['keys', 'create', '--store', storeId, '--type', 'publishable', '--scope', 'orders:read'], 2);
  assert.equal(count(tmp.file, 'api_keys'), before);
});

test('keys roll keeps a secret key its scopes and origin', async () => {
  const { json: restricted } = await cliJson(tmp.file, ['keys', 'create', '--store', storeId, '--type', 'secret', '--scope', 'orders:read']);
  const { json } = await cliJson(tmp.file, ['keys', 'roll', restricted.id]);
  assert.deepEqual(json.scopes, ['orders:read']);
  assert.deepEqual(json.created_by, BY_OPERATOR);
  assert.equal(keyRow(json.id)?.scopes, 'orders:read');
});

test('keys create --type publishable without --env makes a live key', async () => {
  const { json } = await cliJson(tmp.file, ['keys', 'create', '--store', storeId, '--type', 'publishable', '--domain', 'pay.example.com']);
  assert.match(json.key, /^svc_live_pub_[0-9A-Za-z]{32}$/);
  assert.equal(json.env, 'live');
});

test('keys create of a secret test key, which has no format, is a usage error with exit 2 and stores nothing', async () => {
  const before = count(tmp.file, 'api_keys');
  await cliFails(tmp.file, ['keys', 'create', '--store', storeId, '--type', 'secret', '--env', 'test'], 2);
  assert.equal(count(tmp.file, 'api_keys'), before);
});

test('keys create for a store that does not exist fails with exit 1', async () => {
  const r = await cliFails(tmp.file, ['keys', 'create', '--store', '01900000-0000-7000-8000-000000000000', '--type', 'secret'], 1);
  assert.match(r.stderr, /Store not found/);
});

test('keys roll --grace 5 issues a new key and schedules the old one to be revoked five minutes later', async () => {
  const publishableTest = await issue({ type: 'publishable', env: 'test' });
  const t0 = Date.now();
  const { json } = await cliJson(tmp.file, ['keys', 'roll', publishableTest.id, '--grace', '5']);
  const t1 = Date.now();
  assert.notEqual(json.id, publishableTest.id);
  assert.notEqual(json.key, publishableTest.key);
  assert.match(json.key, /^svc_test_pub_[0-9A-Za-z]{32}$/);
  assert.equal(json.type, 'publishable');
  assert.equal(json.env, 'test');

  const old = keyRow(publishableTest.id)!;
  assert.ok(old.revoked_at, 'old key has a revocation time');
  const revokeAt = Date.parse(old.revoked_at);
  assert.ok(revokeAt >= t0 + 5 * 60_000 - 1000 && revokeAt <= t1 + 5 * 60_000, `revoked_at ${old.revoked_at} is five minutes after the roll`);
  assert.equal(old.replaced_by, json.id);
  const fresh = keyRow(json.id)!;
  assert.equal(fresh.hash, sha256(json.key));
  assert.equal(fresh.revoked_at, null);
  assert.equal(fresh.type, 'publishable');
  assert.equal(fresh.env, 'test');
});

test('keys roll with a grace that is not a whole number is a usage error with exit 2', async () => {
  const rolled = await issue({ type: 'publishable', env: 'test' });
  await cliFails(tmp.file, ['keys', 'roll', rolled.id, '--grace', 'soon'], 2);
  assert.equal(keyRow(rolled.id)?.revoked_at, null);
});

test('keys list shows prefixes and state but never a key or its hash', async () => {
  // A store of its own with the keys the create tests make, the first rolled with five minutes of grace.
  const store = await newStore();
  const publishableTest = await issue({ type: 'publishable', env: 'test' }, store);
  const issued = [publishableTest, await issue({ type: 'secret' }, store), await issue({ type: 'publishable', domains: ['pay.example.com'] }, store)];
  const rolled = await withApp(tmp.file, async (app) => {
    const { id, key } = await rollKey(app, publishableTest.id, 5);
    return { id, key };
  });
  issued.push(rolled);
  const { json, result } = await cliJson(tmp.file, ['keys', 'list', '--store', store]);
  assert.ok(Array.isArray(json));
  assert.equal(json.length, issued.length);
  for (const { id, key } of issued) {
    assert.ok(!result.stdout.includes(key), 'a key leaked into keys list');
    assert.ok(!result.stdout.includes(sha256(key)), 'a key hash leaked into keys list');
    const listed: Record<string, unknown> | undefined = json.find((k: { id: string }) => k.id === id);
    assert.ok(listed, id);
    assert.equal(listed.key, undefined);
    assert.equal(listed.hash, undefined);
    assert.equal(listed.prefix, `${key.slice(0, key.lastIndexOf('_') + 5)}…`);
  }
  // Inside its grace period the rolled key still works.
  assert.equal(json.find((k: { id: string }) => k.id === publishableTest.id).active, true);
  assert.equal(json.find((k: { id: string }) => k.id === rolled.id).active, true);
});

test('keys revoke revokes at once and prints the key as inactive, without the key', async () => {
  const secret = await issue({ type: 'secret' });
  const { json, result } = await cliJson(tmp.file, ['keys', 'revoke', secret.id]);
  assert.equal(json.id, secret.id);
  assert.equal(json.active, false);
  assert.ok(!result.stdout.includes(secret.key));
  const row = keyRow(secret.id)!;
  assert.ok(row.revoked_at && Date.parse(row.revoked_at) <= Date.now());
});

test('keys revoke of a key already revoked, or of an unknown key, fails with exit 1', async () => {
  const secret = await issue({ type: 'secret' });
  await cliJson(tmp.file, ['keys', 'revoke', secret.id]);
  const again = await cliFails(tmp.file, ['keys', 'revoke', secret.id], 1);
  assert.match(again.stderr, /already revoked/);
  const unknown = await cliFails(tmp.file, ['keys', 'revoke', '01900000-0000-7000-8000-000000000000'], 1);
  assert.match(unknown.stderr, /not found/);
});
