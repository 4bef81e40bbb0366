// codrail demo (SPEC 9): idempotent demo data; every run issues a fresh test key and revokes the old one.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { tempDbFile } from '../helpers/server.ts';
import { cliJson, readDb, UUID } from '../helpers/cli-expect.ts';

const tmp = tempDbFile();
after(() => tmp.cleanup());

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

test('codrail demo run twice keeps the same account, store, product and landing and rolls the demo key', async () => {
  const first = (await cliJson(tmp.file, ['demo'])).json;
  assert.match(first.account.id, UUID);
  assert.match(first.store.id, UUID);
  assert.equal(first.store.country, 'CO');
  assert.equal(first.store.currency, 'COP');
  assert.match(first.product.id, UUID);
  assert.match(first.landing.id, UUID);
  assert.match(first.landing.url, /\/l\/demo-faja$/);
  assert.match(first.key.key, /^svc_test_pub_[0-9A-Za-z]{32}$/);
  assert.equal(first.key.env, 'test');
  assert.ok(first.curl.includes(first.key.key), 'the curl line carries the new key');
  assert.ok(first.curl.includes(first.store.id) && first.curl.includes(first.product.id));
  assert.equal(first.user.email, 'demo@codrail.test');
  assert.match(first.user.password, /^[0-9A-Za-z]{16}$/);
  assert.match(first.mcp.url, /\/api\/mcp$/);

  const second = (await cliJson(tmp.file, ['demo'])).json;
  assert.deepEqual(
    { account: second.account, store: second.store, product: second.product, landing: second.landing },
    { account: first.account, store: first.store, product: first.product, landing: first.landing },
  );
  assert.notEqual(second.key.id, first.key.id);
  assert.notEqual(second.key.key, first.key.key);
  assert.match(second.key.key, /^svc_test_pub_[0-9A-Za-z]{32}$/);
  assert.notEqual(second.user.password, first.user.password);

  const stored = readDb(tmp.file, (db) => ({
    counts: db
      .prepare(
        "SELECT (SELECT count(*) FROM accounts) AS accounts, (SELECT count(*) FROM stores) AS stores, (SELECT count(*) FROM products) AS products, (SELECT count(*) FROM landing_pages) AS landings, (SELECT count(*) FROM api_keys) AS keys",
      )
      .get(),
    keys: db.prepare('SELECT id, hash, revoked_at, replaced_by FROM api_keys ORDER BY created_at').all() as { id: string; hash: string; revoked_at: string | null; replaced_by: string | null }[],
  }));
  assert.deepEqual(stored.counts, { accounts: 1, stores: 1, products: 1, landings: 1, keys: 2 });
  const [old, fresh] = stored.keys;
  assert.equal(old?.id, first.key.id);
  assert.ok(old?.revoked_at && Date.parse(old.revoked_at) <= Date.now(), 'the first demo key is revoked');
  assert.equal(old?.replaced_by, second.key.id);
  assert.equal(old?.hash, sha256(first.key.key));
  assert.equal(fresh?.id, second.key.id);
  assert.equal(fresh?.revoked_at, null);
  assert.equal(fresh?.hash, sha256(second.key.key));
  // The demo password is stored as a scrypt hash only, and only the newest one signs in.
  const { verifyPassword } = await import('../../src/domain/password.ts');
  const users = readDb(tmp.file, (db) => db.prepare('SELECT email, password_hash FROM users').all() as { email: string; password_hash: string }[]);
  assert.equal(users.length, 1);
  assert.ok(!users[0]!.password_hash.includes(second.user.password));
  assert.equal(verifyPassword(second.user.password, users[0]!.password_hash), true);
  assert.equal(verifyPassword(first.user.password, users[0]!.password_hash), false);
});
