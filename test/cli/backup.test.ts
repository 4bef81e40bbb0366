// `codrail backup FILE` while serve takes orders, and `codrail restore FILE` (issue 27 §3): the copy
// is a whole codrail database as of one moment, a restore over a running server is refused and
// changes nothing, and a restore keeps the database it replaces.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cliFails, cliJson, count } from '../helpers/cli-expect.ts';
import { spawnServe, type ServeProcess } from '../helpers/cli.ts';
import { tempDbFile } from '../helpers/server.ts';
import { onPostgres, sqliteOnly } from '../helpers/test-database.ts';
import Database from 'better-sqlite3';

/** A backup is a SQLite file whatever else: read with SQLite itself. */
function readSqlite<T>(file: string, fn: (db: Database.Database) => T): T {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

const tmp = tempDbFile();
const dir = dirname(tmp.file);
const backupFile = join(dir, 'nightly.sqlite');
let served: ServeProcess | undefined;
let order: (phone: string) => Promise<Response>;

/** The backup the later tests work from (each test runs alone too: it is taken when missing). */
const backupOnce = async () => {
  if (existsSync(backupFile)) return;
  await serving();
  assert.equal((await order('3001110009')).status, 200);
  await cliJson(tmp.file, ['backup', backupFile]);
};
const serving = async () => {
  served ??= await spawnServe(tmp.file, [], 30_000, { CODRAIL_RATE_PHONE_PER_HOUR: '1000', CODRAIL_RATE_IP_PER_MIN: '1000' });
};
const stop = async () => {
  if (!served) return;
  served.child.kill('SIGTERM');
  await served.exited;
  served = undefined;
};

// Nothing to set up where the tests skip themselves (PostgreSQL): a demo and a serve cost 10 s there.
before(async () => {
  if (sqliteOnly) return;
  const demo = (await cliJson(tmp.file, ['demo'])).json as { curl: string };
  // The demo's own curl, aimed at this server: its headers and body.
  const headers = Object.fromEntries([...demo.curl.matchAll(/-H '([^:]+): ([^']*)'/g)].map((m) => [m[1]!, m[2]!]));
  const body = JSON.parse(/-d '(.*)'$/.exec(demo.curl)![1]!) as Record<string, unknown>;
  await serving();
  order = (phone) => fetch(`${served!.base}/api/orders/create`, { method: 'POST', headers, body: JSON.stringify({ ...body, telefono: phone }) });
});
after(async () => {
  await stop();
  tmp.cleanup();
});

describe('backup and restore', { skip: sqliteOnly }, () => {
  test('a backup taken while serve takes orders is a codrail database with the orders acknowledged before it, and the key file beside it', async () => {
    for (const phone of ['3001110001', '3001110002', '3001110003']) assert.equal((await order(phone)).status, 200);
    // Orders keep coming while it copies.
    const during = Promise.all(['3001110004', '3001110005'].map((p) => order(p)));
    const { json } = await cliJson(tmp.file, ['backup', backupFile]);
    for (const res of await during) assert.equal(res.status, 200);
    assert.equal(json.backup, backupFile);
    assert.ok(json.orders >= 3 && json.orders <= 5, `orders in the backup: ${json.orders}`);
    assert.deepEqual(json.key, { file: `${backupFile}.key` });
    assert.equal(json.bytes, statSync(backupFile).size);
    // One self-contained, owner-only file, and its key beside it: the same key as the database's.
    assert.equal(statSync(backupFile).mode & 0o777, 0o600);
    assert.equal(statSync(`${backupFile}.key`).mode & 0o777, 0o600);
    assert.equal(readFileSync(`${backupFile}.key`, 'utf8'), readFileSync(`${tmp.file}.key`, 'utf8'));
    assert.deepEqual(readdirSync(dir).filter((f) => f.includes('nightly')).sort(), ['nightly.sqlite', 'nightly.sqlite.key']);
    readSqlite(backupFile, (db) => {
      assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
      assert.equal(db.pragma('journal_mode', { simple: true }), 'delete');
      assert.equal(db.prepare('SELECT count(*) FROM orders').pluck().get(), json.orders);
      // Every order in the copy came with its event (the demo key is a test key: sandbox orders have no push job).
      assert.equal(db.prepare("SELECT count(*) FROM orders o WHERE NOT EXISTS (SELECT 1 FROM order_events e WHERE e.order_id = o.id AND e.type = 'order.created')").pluck().get(), 0);
    });
  });

  test('a backup never overwrites a file', async () => {
    await backupOnce();
    const before = statSync(backupFile).mtimeMs;
    const r = await cliFails(tmp.file, ['backup', backupFile], 1);
    assert.equal(r.error.code, 'conflict');
    assert.match(r.error.message, /already exists/);
    assert.equal(statSync(backupFile).mtimeMs, before);
  });

  test('a restore while serve has the database open is refused, and the server goes on taking orders', async () => {
    await backupOnce();
    await serving();
    const ordersBefore = count(tmp.file, 'orders');
    const r = await cliFails(tmp.file, ['restore', backupFile], 1);
    assert.equal(r.error.code, 'conflict');
    assert.match(r.error.message, /open in another process.*stop it/);
    assert.deepEqual(readdirSync(dir).filter((f) => f.includes('before-restore')), []);
    assert.equal((await order('3001110006')).status, 200);
    assert.equal(count(tmp.file, 'orders'), ordersBefore + 1);
  });

  test('a file that is not a codrail database is refused before anything is touched', async () => {
    await stop();
    const junk = join(dir, 'notes.txt');
    writeFileSync(junk, 'not a database');
    const r = await cliFails(tmp.file, ['restore', junk], 2);
    assert.equal(r.error.code, 'invalid_input');
    assert.match(r.error.message, /not a SQLite database/);
    assert.deepEqual(readdirSync(dir).filter((f) => f.includes('before-restore')), []);
  });

  test('with serve stopped, a restore puts the backup in place, keeps the database it replaces, and the CLI reads the restored orders', async () => {
    await backupOnce();
    // One order more than the backup holds, then the server stops.
    await serving();
    assert.equal((await order('3001110007')).status, 200);
    await stop();
    const current = count(tmp.file, 'orders');
    const backedUp = readSqlite(backupFile, (db) => db.prepare('SELECT count(*) FROM orders').pluck().get() as number);
    assert.ok(current > backedUp);
    const { json } = await cliJson(tmp.file, ['restore', backupFile]);
    assert.equal(json.orders, backedUp);
    assert.match(json.previous, /\.before-restore-\d{8}T\d{6}Z$/);
    assert.ok(existsSync(json.previous));
    assert.equal(readSqlite(json.previous, (db) => db.prepare('SELECT count(*) FROM orders').pluck().get()), current);
    assert.equal(json.key.file, `${tmp.file}.key`);
    assert.equal(statSync(tmp.file).mode & 0o777, 0o600);
    const list = (await cliJson(tmp.file, ['orders', 'list', '--limit', '100'])).json as { id: string }[];
    assert.equal(list.length, backedUp);
    const shown = (await cliJson(tmp.file, ['orders', 'show', list[0]!.id])).json as { id: string };
    assert.equal(shown.id, list[0]!.id);
    // And serve starts on it again.
    served = await spawnServe(tmp.file);
    assert.equal((await fetch(`${served.base}/healthz`)).status, 200);
  });
});

test('on PostgreSQL, backup and restore refuse with what to use instead (pg_dump, pg_restore) and write nothing', { skip: onPostgres ? false : 'the suite runs on SQLite' }, async () => {
  const tmp = tempDbFile();
  try {
    for (const command of ['backup', 'restore']) {
      const failed = await cliFails(tmp.file, [command, join(dirname(new URL(import.meta.url).pathname), 'never-written.sqlite')], 1);
      assert.equal(failed.error.code, 'invalid_state');
      assert.match(failed.error.message, /pg_dump and pg_restore/);
    }
    assert.equal(existsSync(join(dirname(new URL(import.meta.url).pathname), 'never-written.sqlite')), false);
  } finally {
    tmp.cleanup();
  }
});
