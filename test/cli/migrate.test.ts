import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { tempDbFile } from '../helpers/server.ts';
import { cliFails, cliJson, readDb } from '../helpers/cli-expect.ts';
import { Migrator, sql } from 'kysely';
import { openDatabase } from '../../src/db/connect.ts';
import { migrations, postgresMigrations } from '../../src/db/migrations/index.ts';
import { onPostgres, sqliteOnly } from '../helpers/test-database.ts';
import { GRANTABLE_SCOPES } from '../../src/domain/oauth/scopes.ts';
import { openSync } from '../helpers/sync-database.ts';

const tmp = tempDbFile();
after(() => tmp.cleanup());

test('codrail migrate on a fresh file applies the migrations and loads the bundled city catalogs, then is a no-op', async () => {
  const first = (await cliJson(tmp.file, ['migrate'])).json;
  assert.equal(first.database, tmp.file);
  const expected = onPostgres ? Object.keys(postgresMigrations) : ['0001-initial', '0002-fulfillment', '0003-oauth', '0004-account', '0005-push-policy', '0006-whatsapp-settings', '0007-order-life', '0008-push-give-up', '0009-client-metadata-documents', '0010-key-scopes', '0011-whatsapp-senders', '0012-outbox-and-webhooks', '0013-platform-connections', '0014-product-images', '0015-store-trust', '0016-confirmation-and-risk', '0017-hot-path', '0018-claim-by-destination', '0019-shared-across-instances'];
  assert.deepEqual(first.migrations, expected);
  for (const cc of ['AR', 'CL', 'CO', 'EC', 'GT', 'MX', 'PE', 'PY']) {
    assert.ok(first.catalogs.includes(`${cc}:official`), `${cc}:official`);
    assert.ok(first.catalogs.includes(`${cc}:fulfillment`), `${cc}:fulfillment`);
  }
  assert.ok(first.catalogs.includes('PA:fulfillment'));
  assert.ok(!first.catalogs.includes('PA:official'));
  assert.equal(first.catalogs.length, 17);

  const stored = readDb(tmp.file, (db) => ({
    migrations: db.prepare('SELECT name FROM kysely_migration ORDER BY name').all() as { name: string }[],
    coCities: (db.prepare("SELECT count(*) AS n FROM city_catalogs WHERE country = 'CO' AND catalog = 'fulfillment'").get() as { n: number }).n,
  }));
  assert.deepEqual(stored.migrations, expected.map((name) => ({ name })));
  assert.ok(stored.coCities > 1000, `CO fulfillment catalog has ${stored.coCities} cities`);
  if (!onPostgres) assert.equal(readDb(tmp.file, (db) => (db.prepare('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode), 'wal');

  const second = (await cliJson(tmp.file, ['migrate'])).json;
  assert.deepEqual(second, { database: tmp.file, migrations: [], catalogs: [] });
  assert.equal(readDb(tmp.file, (db) => (db.prepare("SELECT count(*) AS n FROM city_catalogs WHERE country = 'CO' AND catalog = 'fulfillment'").get() as { n: number }).n), stored.coCities);
});

test('codrail migrate refreshes a catalog loaded from an older bundle and leaves an imported one alone', async () => {
  const db = tempDbFile();
  try {
    await cliJson(db.file, ['migrate']);
    // As a database migrated by an older release: PY without the districts created since 2016, the
    // source without a digest; CO replaced by the operator's own import.
    const rw = openSync(db.file);
    rw.prepare("DELETE FROM city_catalogs WHERE country = 'PY' AND city IN ('Nueva Asunción', 'Boquerón')").run();
    rw.prepare("UPDATE catalog_versions SET source = 'bundled:data/cities/PY.json' WHERE country = 'PY'").run();
    rw.prepare("DELETE FROM city_catalogs WHERE country = 'CO' AND catalog = 'fulfillment' AND region = 'Amazonas'").run();
    rw.prepare("UPDATE catalog_versions SET source = 'import:my-co.json' WHERE country = 'CO' AND catalog = 'fulfillment'").run();
    rw.close();
    const before = readDb(db.file, (d) => d.prepare("SELECT count(*) AS n FROM city_catalogs WHERE country = 'CO' AND catalog = 'fulfillment'").get() as { n: number }).n;

    const again = (await cliJson(db.file, ['migrate'])).json;
    assert.deepEqual(again.catalogs, ['PY:official', 'PY:fulfillment']);
    const py = readDb(db.file, (d) => ({
      versions: d.prepare("SELECT catalog, version, source FROM catalog_versions WHERE country = 'PY' ORDER BY catalog").all() as { catalog: string; version: number; source: string }[],
      cities: (d.prepare("SELECT count(*) AS n FROM city_catalogs WHERE country = 'PY' AND catalog = 'fulfillment'").get() as { n: number }).n,
      nueva: d.prepare("SELECT region, code FROM city_catalogs WHERE country = 'PY' AND catalog = 'fulfillment' AND city = 'Nueva Asunción'").get(),
    }));
    assert.equal(py.cities, 263);
    assert.deepEqual(py.nueva, { region: 'Presidente Hayes', code: '1511' });
    for (const v of py.versions) {
      assert.equal(v.version, 2);
      assert.match(v.source, /^bundled:data\/cities\/PY\.json#[0-9a-f]{12}$/);
    }
    const co = readDb(db.file, (d) => ({
      source: (d.prepare("SELECT source FROM catalog_versions WHERE country = 'CO' AND catalog = 'fulfillment'").get() as { source: string }).source,
      n: (d.prepare("SELECT count(*) AS n FROM city_catalogs WHERE country = 'CO' AND catalog = 'fulfillment'").get() as { n: number }).n,
    }));
    assert.deepEqual(co, { source: 'import:my-co.json', n: before });
    assert.deepEqual((await cliJson(db.file, ['migrate'])).json.catalogs, []);
  } finally {
    db.cleanup();
  }
});

// SQLite databases as earlier releases left them, migration by migration (PostgreSQL starts at the baseline).
test('codrail migrate on a database from before key scopes gives its secret keys every grantable scope and marks every key as made by the operator', { skip: sqliteOnly }, async () => {
  const db = tempDbFile();
  try {
    // The database as the release before migration 0010 left it, with one key of each type.
    const opened = openDatabase(db.file);
    const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '0010'));
    const { error } = await new Migrator({ db: opened.db, provider: { getMigrations: async () => before } }).migrateToLatest();
    assert.equal(error, undefined);
    const at = '2026-01-01T00:00:00.000Z';
    await sql`INSERT INTO accounts (id, name, created_at) VALUES ('acc', 'Acme', ${at})`.execute(opened.db);
    await sql`INSERT INTO stores (id, account_id, name, country, currency, created_at) VALUES ('sto', 'acc', 'Tienda', 'CO', 'COP', ${at})`.execute(opened.db);
    for (const [id, type, env] of [['sec', 'secret', 'live'], ['pub', 'publishable', 'test']])
      await sql`INSERT INTO api_keys (id, account_id, store_id, type, env, hash, prefix, created_at) VALUES (${id}, 'acc', 'sto', ${type}, ${env}, ${`hash-${id}`}, 'svc_', ${at})`.execute(opened.db);
    await opened.close();

    assert.equal((await cliJson(db.file, ['migrate'])).json.migrations[0], '0010-key-scopes');
    const keys = readDb(db.file, (d) => d.prepare('SELECT id, scopes, created_via, created_by_key, oauth_client_id, oauth_user_id, oauth_family_id FROM api_keys ORDER BY id').all());
    const none = { created_by_key: null, oauth_client_id: null, oauth_user_id: null, oauth_family_id: null };
    assert.deepEqual(keys, [
      { id: 'pub', scopes: null, created_via: 'operator', ...none },
      { id: 'sec', scopes: GRANTABLE_SCOPES.join(' '), created_via: 'operator', ...none },
    ]);
  } finally {
    db.cleanup();
  }
});

test('codrail migrate on a database from before WhatsApp senders assigns each number to the one account using it, and a number two accounts named to neither', { skip: sqliteOnly }, async () => {
  const db = tempDbFile();
  try {
    const opened = openDatabase(db.file);
    const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '0011'));
    const { error } = await new Migrator({ db: opened.db, provider: { getMigrations: async () => before } }).migrateToLatest();
    assert.equal(error, undefined);
    const at = '2026-01-01T00:00:00.000Z';
    for (const account of ['acc-a', 'acc-b']) await sql`INSERT INTO accounts (id, name, created_at) VALUES (${account}, ${account}, ${at})`.execute(opened.db);
    // Two stores of account A share one number; account B borrowed A's other number (the finding of issue 19 §4).
    for (const [store, account, number] of [['a1', 'acc-a', '111'], ['a2', 'acc-a', '111'], ['a3', 'acc-a', '222'], ['b1', 'acc-b', '222'], ['b2', 'acc-b', null]] as const) {
      await sql`INSERT INTO stores (id, account_id, name, country, currency, created_at) VALUES (${store}, ${account}, 'Tienda', 'CO', 'COP', ${at})`.execute(opened.db);
      await sql`INSERT INTO whatsapp_settings (store_id, enabled, phone_number_id, updated_at) VALUES (${store}, 1, ${number}, ${at})`.execute(opened.db);
    }
    await opened.close();

    assert.deepEqual((await cliJson(db.file, ['migrate'])).json.migrations, ['0011-whatsapp-senders', '0012-outbox-and-webhooks', '0013-platform-connections', '0014-product-images', '0015-store-trust', '0016-confirmation-and-risk', '0017-hot-path', '0018-claim-by-destination', '0019-shared-across-instances']);
    const numbers = readDb(db.file, (d) => d.prepare('SELECT phone_number_id, account_id, source FROM whatsapp_numbers ORDER BY phone_number_id').all());
    assert.deepEqual(numbers, [{ phone_number_id: '111', account_id: 'acc-a', source: 'operator' }]);
    const listed = (await cliJson(db.file, ['whatsapp', 'numbers', 'list'])).json as { phone_number_id: string; account_id: string }[];
    assert.deepEqual(listed.map((n) => [n.phone_number_id, n.account_id]), [['111', 'acc-a']]);
  } finally {
    db.cleanup();
  }
});

test('a database a newer release migrated is refused with what to do, not a stack trace, and left as it was', async () => {
  const db = tempDbFile();
  try {
    await cliJson(db.file, ['migrate']);
    const newer = openSync(db.file);
    newer.prepare("INSERT INTO kysely_migration (name, timestamp) VALUES ('9999-from-the-future', '2030-01-01T00:00:00.000Z')").run();
    newer.close();
    const r = await cliFails(db.file, ['orders', 'list'], 1);
    assert.equal(r.error.code, 'invalid_state');
    assert.match(r.error.message, onPostgres ? /migrated by a newer codrail \(its migration 9999-from-the-future is unknown to this release\).*pg_restore/ : /migrated by a newer codrail \(its migration 9999-from-the-future is unknown to this release\).*codrail restore FILE/);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
    assert.equal(readDb(db.file, (d) => d.prepare('SELECT count(*) FROM kysely_migration').pluck().get()), Object.keys(onPostgres ? postgresMigrations : migrations).length + 1);
  } finally {
    db.cleanup();
  }
});
