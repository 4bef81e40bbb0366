import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely';
import type { Database } from './tables/index.ts';
import { SQLITE_BUSY_TIMEOUT_MS } from '../limits.ts';

export type Db = Kysely<Database>;

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query it runs; better-sqlite3 statements are reusable, so we keep them
 * by SQL text and a hot path prepares each of its statements once per process.
 * Safe because kysely runs one query at a time per connection and we never stream.
 */
class StatementCache implements SqliteDatabase {
  readonly #cache = new Map<string, SqliteStatement>();
  constructor(readonly raw: BetterSqlite3.Database) {}
  prepare(sqlText: string): SqliteStatement {
    let statement = this.#cache.get(sqlText);
    if (statement === undefined) {
      statement = this.raw.prepare(sqlText) as unknown as SqliteStatement;
      if (this.#cache.size >= STATEMENT_CACHE_SIZE) this.#cache.clear();
      this.#cache.set(sqlText, statement);
    }
    return statement;
  }
  close(): void {
    this.#cache.clear();
    if (this.raw.open) this.raw.close();
  }
}

export interface OpenedDatabase {
  db: Db;
  raw: BetterSqlite3.Database;
  close(): Promise<void>;
}

/** Opens the SQLite file in WAL mode with foreign keys and a busy timeout (SPEC 2). */
export function openDatabase(file: string): OpenedDatabase {
  const raw = new BetterSqlite3(file);
  raw.pragma('journal_mode = WAL');
  raw.pragma('foreign_keys = ON');
  raw.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  // WAL + NORMAL survives a process crash (kill -9) without losing committed transactions.
  raw.pragma('synchronous = NORMAL');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: new StatementCache(raw) }) });
  return {
    db,
    raw,
    close: () => db.destroy(),
  };
}
