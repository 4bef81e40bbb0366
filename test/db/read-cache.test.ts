// The configuration rows kept in memory under kysely (src/db/read-cache.ts, issue 26): answered
// from memory until something may have changed them, and never stale after a write through this
// connection, a rollback or another connection's commit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import BetterSqlite3 from 'better-sqlite3';
import { migratedDatabase } from '../helpers/database.ts';
import { CACHED_TABLES, TRAFFIC_TABLES, classify } from '../../src/db/read-cache.ts';
import { writeTransaction } from '../../src/db/transaction.ts';
import { findStore, takeOrderNumber } from '../../src/db/queries/stores.queries.ts';
import { hitBucket } from '../../src/db/queries/rate-limits.queries.ts';
import { sqliteOnly } from '../helpers/test-database.ts';

const STORE = '01a00000-0000-7000-8000-000000000001';
const ACCOUNT = '01a00000-0000-7000-8000-000000000002';
const opened = migratedDatabase(async () => {
  const now = new Date().toISOString();
  await opened.db.insertInto('accounts').values({ id: ACCOUNT, name: 'Tienda', created_at: now } as never).execute();
  await opened.db
    .insertInto('stores')
    .values({ id: STORE, account_id: ACCOUNT, name: 'Antes', country: 'CO', currency: 'COP', created_at: now, updated_at: now } as never)
    .execute();
}, { sqliteOnly: true });

/** Renames the store behind the cache's back: the same connection, not through kysely. */
const renameRaw = (name: string) => opened.raw.prepare('UPDATE stores SET name = ? WHERE id = ?').run(name, STORE);
const storeName = async () => (await findStore(opened.db, STORE))!.name;

test('a configuration read is answered from memory: a change made around the cache is not seen', { skip: sqliteOnly }, async () => {
  renameRaw('Primera');
  await opened.db.updateTable('accounts').set({ name: 'Tienda' }).where('id', '=', ACCOUNT).execute();
  assert.equal(await storeName(), 'Primera');
  renameRaw('Escondida');
  assert.equal(await storeName(), 'Primera', 'the second read came from memory');
});

test('a write to a traffic table keeps the cache; a write to any other table empties it', { skip: sqliteOnly }, async () => {
  renameRaw('Uno');
  await opened.db.updateTable('accounts').set({ name: 'Tienda' }).where('id', '=', ACCOUNT).execute();
  assert.equal(await storeName(), 'Uno');
  renameRaw('Dos');
  await hitBucket(opened.db, 'test:bucket', 1);
  await writeTransaction(opened.db, (tx) => takeOrderNumber(tx, STORE));
  assert.equal(await storeName(), 'Uno', 'counters and the order number do not empty it');
  await opened.db.updateTable('accounts').set({ name: 'Tienda 2' }).where('id', '=', ACCOUNT).execute();
  assert.equal(await storeName(), 'Dos');
});

test('a rolled-back write is never served from memory afterwards', { skip: sqliteOnly }, async () => {
  await opened.db.updateTable('stores').set({ name: 'Confirmado' }).where('id', '=', STORE).execute();
  assert.equal(await storeName(), 'Confirmado');
  await assert.rejects(
    writeTransaction(opened.db, async (tx) => {
      await tx.updateTable('stores').set({ name: 'Sin confirmar' }).where('id', '=', STORE).execute();
      assert.equal((await findStore(tx, STORE))!.name, 'Sin confirmar', 'inside, the transaction sees its own write');
      throw new Error('roll back');
    }),
    /roll back/,
  );
  assert.equal(await storeName(), 'Confirmado');
});

/** A commit by another connection to the file, as the CLI beside `serve` makes one. */
const renameElsewhere = (name: string) => {
  const other = new BetterSqlite3(opened.file);
  try {
    other.prepare('UPDATE stores SET name = ? WHERE id = ?').run(name, STORE);
  } finally {
    other.close();
  }
};
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

test("another connection's commit (the CLI beside serve) is seen from the next turn of the event loop, as any request arriving after it is", { skip: sqliteOnly }, async () => {
  await opened.db.updateTable('stores').set({ name: 'Servidor' }).where('id', '=', STORE).execute();
  assert.equal(await storeName(), 'Servidor');
  renameElsewhere('Desde la CLI');
  await nextTurn();
  assert.equal(await storeName(), 'Desde la CLI');
});

test("another connection's commit is seen by every transaction that begins after it, in the same turn too", { skip: sqliteOnly }, async () => {
  await opened.db.updateTable('stores').set({ name: 'En memoria' }).where('id', '=', STORE).execute();
  await nextTurn();
  // The transaction is queued first, so it begins before this turn's check would be forgotten.
  const inTransaction = writeTransaction(opened.db, async (tx) => (await findStore(tx, STORE))!.name);
  assert.equal(await storeName(), 'En memoria');
  renameElsewhere('Antes de la transacción');
  assert.equal(await inTransaction, 'Antes de la transacción');
});

test('a cached row is frozen: a caller that edits it fails instead of changing what others read', { skip: sqliteOnly }, async () => {
  const store = (await findStore(opened.db, STORE))!;
  assert.throws(() => {
    (store as { name: string }).name = 'editado';
  }, TypeError);
});

test('classify caches reads of configuration only, and treats unknown statements as changes', { skip: sqliteOnly }, () => {
  assert.deepEqual(classify('select * from "stores" where "id" = ?', true), { cached: true });
  assert.deepEqual(classify('select "o"."id" from "orders" as "o" inner join "stores" as "s" on "s"."id" = "o"."store_id"', true), { cached: false, invalidates: false });
  assert.deepEqual(classify('with "x" as (select 1) update "stores" set "name" = ? returning "id"', true), { cached: false, invalidates: true });
  assert.deepEqual(classify('insert into "orders" ("id") values (?)', false), { cached: false, invalidates: false });
  assert.deepEqual(classify('insert into "block_list" ("store_id") values (?)', false), { cached: false, invalidates: true });
  assert.deepEqual(classify('delete from "accounts" where "id" = ?', false), { cached: false, invalidates: true });
  assert.deepEqual(classify('ROLLBACK TO write', false), { cached: false, invalidates: true });
  assert.deepEqual(classify('SAVEPOINT write', false), { cached: false, invalidates: false });
  assert.deepEqual(classify('drop table "stores"', false), { cached: false, invalidates: true });
  assert.deepEqual(classify('PRAGMA foreign_keys = OFF', false), { cached: false, invalidates: true });
});

test('on the migrated schema, no write to a traffic table can reach a configuration table', { skip: sqliteOnly }, () => {
  const raw = opened.raw;
  const tables = (raw.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all() as string[]).sort();
  for (const t of [...CACHED_TABLES, ...TRAFFIC_TABLES]) assert.ok(tables.includes(t), `${t} is a table of the schema`);
  assert.deepEqual([...CACHED_TABLES].filter((t) => TRAFFIC_TABLES.has(t)), []);
  // Every table is a decision: cached, traffic, or written now and then (each such write empties the
  // cache). A new table written on every order or job and left out of TRAFFIC_TABLES would empty it
  // each time, silently: this list makes adding one a choice.
  const NOW_AND_THEN = ['users', 'block_list', 'city_catalogs', 'oauth_redirects', 'oauth_clients', 'oauth_signing_keys', 'whatsapp_numbers', 'server_settings', 'platform_city_catalogs'];
  assert.deepEqual(
    tables.filter((t) => !t.startsWith('kysely_') && !CACHED_TABLES.has(t) && !TRAFFIC_TABLES.has(t)).sort(),
    [...NOW_AND_THEN].sort(),
    'each table is cached, traffic, or written now and then',
  );
  // No trigger: a write's effects are the rows it names and the foreign keys' actions.
  assert.deepEqual(raw.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger'").pluck().all(), []);
  // The tables a write to a traffic table can change: itself, and every table a cascading foreign key reaches from it.
  const cascadesTo = new Map<string, string[]>();
  for (const child of tables)
    for (const fk of raw.prepare('SELECT "table", on_update, on_delete FROM pragma_foreign_key_list(?)').all(child) as { table: string; on_update: string; on_delete: string }[])
      if (![fk.on_update, fk.on_delete].every((a) => a === 'NO ACTION' || a === 'RESTRICT')) cascadesTo.set(fk.table, [...(cascadesTo.get(fk.table) ?? []), child]);
  const reached = new Set<string>(TRAFFIC_TABLES);
  for (const t of reached) for (const c of cascadesTo.get(t) ?? []) reached.add(c);
  assert.deepEqual([...reached].filter((t) => CACHED_TABLES.has(t)), []);
});
