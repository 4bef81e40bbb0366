// The two schemas agree (issue 28): SQLite's migrations and PostgreSQL's give the same tables,
// columns (nullability, defaults), primary keys, foreign keys and indexes. Runs in the suite's
// PostgreSQL run (it needs both databases); a migration added to one list and not the other fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/db/connect.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { migrations, postgresMigrations } from '../../src/db/migrations/index.ts';
import { onPostgres, tempDatabase } from '../helpers/test-database.ts';

const skip = onPostgres ? false : 'needs a PostgreSQL server: runs in the suite\u2019s PostgreSQL run (CODRAIL_TEST_DATABASE_URL)';

interface Schema {
  /** table → "column notnull default?" lines, in name order. */
  columns: Map<string, string[]>;
  /** "table(pk columns)". */
  primaryKeys: Set<string>;
  /** "table(column) → table(column)". */
  foreignKeys: Set<string>;
  /** "table(columns) unique? partial?", for every index that is not the primary key. */
  indexes: Set<string>;
}

const INTERNAL = /^(kysely_migration|kysely_migration_lock|sqlite_sequence)$/;

function sqliteSchema(file: string): Schema {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    const schema: Schema = { columns: new Map(), primaryKeys: new Set(), foreignKeys: new Set(), indexes: new Set() };
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name).filter((n) => !INTERNAL.test(n));
    for (const table of tables) {
      const info = db.prepare(`PRAGMA table_info("${table}")`).all() as { name: string; notnull: number; dflt_value: string | null; pk: number }[];
      // SQLite lets a PRIMARY KEY column be NULL unless said otherwise; PostgreSQL never does. Both refuse it in practice (ids are always given).
      schema.columns.set(table, info.map((c) => `${c.name} ${c.notnull || c.pk ? 'not null' : 'null'}${c.dflt_value !== null ? ' default' : ''}`).sort());
      const pk = info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name);
      schema.primaryKeys.add(`${table}(${pk.join(',')})`);
      for (const fk of db.prepare(`PRAGMA foreign_key_list("${table}")`).all() as { table: string; from: string; to: string | null }[])
        schema.foreignKeys.add(`${table}(${fk.from}) → ${fk.table}(${fk.to ?? 'id'})`);
      for (const index of db.prepare(`PRAGMA index_list("${table}")`).all() as { name: string; unique: number; origin: string; partial: number }[]) {
        if (index.origin === 'pk') continue;
        const cols = (db.prepare(`PRAGMA index_info("${index.name}")`).all() as { name: string }[]).map((c) => c.name);
        schema.indexes.add(`${table}(${cols.join(',')})${index.unique ? ' unique' : ''}${index.partial ? ' partial' : ''}`);
      }
    }
    return schema;
  } finally {
    db.close();
  }
}

async function postgresSchema(url: string): Promise<Schema> {
  const opened = openDatabase(url);
  try {
    const db = opened.db;
    const schema: Schema = { columns: new Map(), primaryKeys: new Set(), foreignKeys: new Set(), indexes: new Set() };
    const columns = await sql<{ table_name: string; column_name: string; is_nullable: string; column_default: string | null; is_identity: string }>`
      SELECT table_name, column_name, is_nullable, column_default, is_identity FROM information_schema.columns WHERE table_schema = current_schema()`.execute(db);
    for (const c of columns.rows) {
      if (INTERNAL.test(c.table_name)) continue;
      const list = schema.columns.get(c.table_name) ?? [];
      // An identity column is SQLite's INTEGER PRIMARY KEY AUTOINCREMENT: its default is the sequence.
      list.push(`${c.column_name} ${c.is_nullable === 'NO' ? 'not null' : 'null'}${c.column_default !== null && c.is_identity !== 'YES' ? ' default' : ''}`);
      schema.columns.set(c.table_name, list);
    }
    for (const list of schema.columns.values()) list.sort();
    const keys = await sql<{ kind: string; table_name: string; columns: string[]; ref_table: string | null; ref_columns: string[] | null }>`
      SELECT c.contype AS kind, t.relname AS table_name,
        ARRAY(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY k(n, i) JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY k.i) AS columns,
        r.relname AS ref_table,
        ARRAY(SELECT a.attname::text FROM unnest(c.confkey) WITH ORDINALITY k(n, i) JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n ORDER BY k.i) AS ref_columns
      FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid LEFT JOIN pg_class r ON r.oid = c.confrelid
      WHERE c.contype IN ('p', 'f') AND t.relnamespace = current_schema()::regnamespace`.execute(db);
    for (const k of keys.rows) {
      if (INTERNAL.test(k.table_name)) continue;
      if (k.kind === 'p') schema.primaryKeys.add(`${k.table_name}(${k.columns.join(',')})`);
      else schema.foreignKeys.add(`${k.table_name}(${k.columns.join(',')}) → ${k.ref_table}(${k.ref_columns!.join(',')})`);
    }
    const indexes = await sql<{ table_name: string; columns: string[]; unique: boolean; partial: boolean }>`
      SELECT t.relname AS table_name, i.indisunique AS unique, i.indpred IS NOT NULL AS partial,
        ARRAY(SELECT coalesce(a.attname::text, pg_get_indexdef(i.indexrelid, k.i::int, true)) FROM unnest(i.indkey) WITH ORDINALITY k(n, i)
              LEFT JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.n AND k.n <> 0 ORDER BY k.i) AS columns
      FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid
      WHERE NOT i.indisprimary AND t.relnamespace = current_schema()::regnamespace`.execute(db);
    for (const i of indexes.rows) {
      if (INTERNAL.test(i.table_name)) continue;
      schema.indexes.add(`${i.table_name}(${i.columns.join(',')})${i.unique ? ' unique' : ''}${i.partial ? ' partial' : ''}`);
    }
    return schema;
  } finally {
    await opened.close();
  }
}

/** The one difference on purpose: SQLite's e-mail is unique under COLLATE NOCASE, PostgreSQL's by lower(email). */
const normalize = (s: Schema): Schema => ({ ...s, indexes: new Set([...s.indexes].map((i) => (i === 'users(lower(email)) unique' ? 'users(email) unique' : i))) });

test('SQLite and PostgreSQL migrated to the latest have the same tables, columns, keys and indexes', { skip }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'codrail-parity-'));
  const pg = tempDatabase();
  try {
    const file = join(dir, 'codrail.sqlite');
    const lite = openDatabase(file);
    await migrateToLatest(lite.db);
    await lite.close();
    const remote = openDatabase(pg.file);
    await migrateToLatest(remote.db);
    await remote.close();
    const a = normalize(sqliteSchema(file));
    const b = normalize(await postgresSchema(pg.file));
    assert.deepEqual([...b.columns.keys()].sort(), [...a.columns.keys()].sort(), 'the same tables');
    for (const [table, columns] of a.columns) assert.deepEqual(b.columns.get(table), columns, `the columns of ${table}`);
    assert.deepEqual([...b.primaryKeys].sort(), [...a.primaryKeys].sort(), 'the same primary keys');
    assert.deepEqual([...b.foreignKeys].sort(), [...a.foreignKeys].sort(), 'the same foreign keys');
    assert.deepEqual([...b.indexes].sort(), [...a.indexes].sort(), 'the same indexes');
  } finally {
    rmSync(dir, { recursive: true, force: true });
    pg.cleanup();
  }
});

test('every migration after the PostgreSQL baseline exists under the same name in both lists', () => {
  const baselineCovers = Object.keys(migrations).filter((name) => name <= '0018-claim-by-destination');
  assert.equal(baselineCovers.length, 18, 'the baseline stands for SQLite 0001–0018');
  const later = Object.keys(migrations).filter((name) => !baselineCovers.includes(name));
  const pgLater = Object.keys(postgresMigrations).filter((name) => name !== '0001-postgres-baseline');
  assert.deepEqual(pgLater, later);
});
