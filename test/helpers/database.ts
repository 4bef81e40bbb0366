// A migrated SQLite file for the tests of one file, opened before them and closed and removed after
// (the tests of src/db/ that work on a connection, not through a server).
import { after, before } from 'node:test';
import type BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { dialectOf, openDatabase, type Db, type OpenedDatabase } from '../../src/db/connect.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { tempDbFile } from './server.ts';
import { onPostgres } from './test-database.ts';

export interface MigratedDatabase {
  readonly file: string;
  readonly db: Db;
  readonly raw: BetterSqlite3.Database;
}

/**
 * Registers the before/after hooks; the connection is there from the first test on. What a file
 * needs in it before its tests goes in `setup`, run in the same hook once migrated (Node 20 does not
 * wait for one root before() hook to finish before it starts the next).
 */
export function migratedDatabase(setup?: (database: MigratedDatabase) => Promise<unknown> | unknown, options: { sqliteOnly?: boolean } = {}): MigratedDatabase {
  let opened: OpenedDatabase | undefined;
  // A file of SQLite's own machinery, whose tests skip themselves on PostgreSQL: nothing to open there.
  const tmp = options.sqliteOnly && onPostgres ? undefined : tempDbFile();
  const database: MigratedDatabase = {
    get file() {
      return tmp?.file ?? notYetOpen();
    },
    get db() {
      return open().db;
    },
    get raw() {
      return open().raw ?? sqliteOnly();
    },
  };
  const open = () => opened ?? notYetOpen();
  if (!tmp) return database;
  before(async () => {
    opened = openDatabase(tmp.file);
    await migrateToLatest(opened.db);
    await setup?.(database);
  });
  after(async () => {
    await opened?.close();
    tmp.cleanup();
  });
  return database;
}

function sqliteOnly(): never {
  throw new Error('the SQLite connection of a test run on PostgreSQL: this test reads SQLite itself');
}

function notYetOpen(): never {
  throw new Error('the database opens in a before() hook: use it inside a test');
}

/**
 * A trigger that makes inserting an event of `type` into order_events fail (a failure injected into
 * the product's own transaction), on SQLite or PostgreSQL; `dropRefusal` removes it.
 */
export async function refuseEvents(db: Db, name: string, type: string): Promise<void> {
  if (dialectOf(db) === 'sqlite') {
    await sql`CREATE TRIGGER ${sql.id(name)} BEFORE INSERT ON order_events WHEN NEW.type = ${sql.lit(type)} BEGIN SELECT RAISE(ABORT, 'order_events is read-only (test)'); END`.execute(db);
    return;
  }
  await sql`CREATE FUNCTION ${sql.id(name)}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'order_events is read-only (test)'; END $$`.execute(db);
  await sql`CREATE TRIGGER ${sql.id(name)} BEFORE INSERT ON order_events FOR EACH ROW WHEN (NEW.type = ${sql.lit(type)}) EXECUTE FUNCTION ${sql.id(name)}()`.execute(db);
}

export async function dropRefusal(db: Db, name: string): Promise<void> {
  if (dialectOf(db) === 'sqlite') {
    await sql`DROP TRIGGER ${sql.id(name)}`.execute(db);
    return;
  }
  await sql`DROP TRIGGER ${sql.id(name)} ON order_events`.execute(db);
  await sql`DROP FUNCTION ${sql.id(name)}()`.execute(db);
}
