import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { tempDbFile } from '../helpers/server.ts';
import { cliJson, readDb } from '../helpers/cli-expect.ts';

const tmp = tempDbFile();
after(() => tmp.cleanup());

test('codrail migrate on a fresh file applies the migrations and loads the bundled city catalogs, then is a no-op', async () => {
  const first = (await cliJson(tmp.file, ['migrate'])).json;
  assert.equal(first.database, tmp.file);
  assert.deepEqual(first.migrations, ['0001-initial', '0002-fulfillment', '0003-oauth', '0004-account', '0005-push-policy', '0006-whatsapp-settings', '0007-order-life', '0008-push-give-up', '0009-client-metadata-documents']);
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
    mode: (db.prepare('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode,
  }));
  assert.deepEqual(stored.migrations, [{ name: '0001-initial' }, { name: '0002-fulfillment' }, { name: '0003-oauth' }, { name: '0004-account' }, { name: '0005-push-policy' }, { name: '0006-whatsapp-settings' }, { name: '0007-order-life' }, { name: '0008-push-give-up' }, { name: '0009-client-metadata-documents' }]);
  assert.ok(stored.coCities > 1000, `CO fulfillment catalog has ${stored.coCities} cities`);
  assert.equal(stored.mode, 'wal');

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
    const Database = (await import('better-sqlite3')).default;
    const rw = new Database(db.file);
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
