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
