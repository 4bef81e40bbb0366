// A migrated SQLite file for the tests of one file, opened before them and closed and removed after
// (the tests of src/db/ that work on a connection, not through a server).
import { after, before } from 'node:test';
import type BetterSqlite3 from 'better-sqlite3';
import { openDatabase, type Db, type OpenedDatabase } from '../../src/db/connect.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { tempDbFile } from './server.ts';

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
export function migratedDatabase(setup?: (database: MigratedDatabase) => Promise<unknown> | unknown): MigratedDatabase {
  const tmp = tempDbFile();
  let opened: OpenedDatabase | undefined;
  before(async () => {
    opened = openDatabase(tmp.file);
    await migrateToLatest(opened.db);
    await setup?.(database);
  });
  after(async () => {
    await opened?.close();
    tmp.cleanup();
  });
  const open = () => opened ?? notYetOpen();
  const database: MigratedDatabase = {
    file: tmp.file,
    get db() {
      return open().db;
    },
    get raw() {
      return open().raw ?? sqliteOnly();
    },
  };
  return database;
}

function sqliteOnly(): never {
  throw new Error('the SQLite connection of a test run on PostgreSQL: this test reads SQLite itself');
}

function notYetOpen(): never {
  throw new Error('the database opens in a before() hook: use it inside a test');
}
