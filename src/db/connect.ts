import { closeSync, fchmodSync, openSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresAdapter, SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely';
import type { Database } from './tables/index.ts';
import { SQLITE_BUSY_TIMEOUT_MS, SQLITE_CACHE_KIB } from '../limits.ts';
import { ReadCache } from './read-cache.ts';
import { openPostgres } from './postgres.ts';
import { isPostgresUrl } from '../config.ts';

export type Db = Kysely<Database>;

/** The two databases codrail runs on (SPEC 16): SQLite embedded, PostgreSQL past one machine. */
export type Dialect = 'sqlite' | 'postgres';


/**
 * Which database `db` (or a transaction or connection of it) talks to. The few statements whose SQL
 * differs between the two ask this; everything else is written once in SQL both accept.
 */
export const dialectOf = (db: Kysely<any>): Dialect => (db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite');

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query it runs; better-sqlite3 statements are reusable, so we keep them
 * by SQL text and a hot path prepares each of its statements once per process.
 * Safe because kysely runs one query at a time per connection and we never stream. Each statement
 * goes through the read cache (read-cache.ts): configuration reads answered from memory.
 */
class StatementCache implements SqliteDatabase {
  readonly #cache = new Map<string, SqliteStatement>();
  readonly #reads: ReadCache;
  constructor(readonly raw: BetterSqlite3.Database) {
    this.#reads = new ReadCache(raw);
  }
  prepare(sqlText: string): SqliteStatement {
    let statement = this.#cache.get(sqlText);
    if (statement === undefined) {
      statement = this.#reads.wrap(sqlText, this.raw.prepare(sqlText));
      if (this.#cache.size >= STATEMENT_CACHE_SIZE) this.#cache.clear();
      this.#cache.set(sqlText, statement);
    }
    return statement;
  }
  newTurn(): void {
    this.#reads.newTurn();
  }
  close(): void {
    this.#cache.clear();
    this.#reads.clear();
    if (this.raw.open) this.raw.close();
  }
}

export interface OpenedDatabase {
  db: Db;
  dialect: Dialect;
  /** The SQLite connection itself (its backup, pragmas, the checkpointer); undefined on PostgreSQL. */
  raw: BetterSqlite3.Database | undefined;
  /** A request from outside begins: cached configuration is checked against other processes' commits (SQLite's read cache; nothing on PostgreSQL, which caches nothing). */
  freshReads(): void;
  close(): Promise<void>;
}

/**
 * Opens the database `where` names (the one place the dialect is chosen): a `postgres://` URL opens
 * a pool on PostgreSQL, anything else the SQLite file of that name.
 */
export function openDatabase(where: string): OpenedDatabase {
  return isPostgresUrl(where) ? openPostgres(where) : openSqlite(where);
}

/**
 * The database holds buyers' names, phones and addresses and users' password hashes (issue 19 §8):
 * a new file is created owner-only (0600) before SQLite opens it, and SQLite creates its -wal and
 * -shm files with the main file's permission bits (unix VFS, findCreateFileMode). An existing file
 * keeps the mode its operator gave it (a group-readable backup setup is theirs to choose); the
 * README says how to tighten one an older version created. When the file cannot be created here
 * (a missing directory, a read-only mount), SQLite's own open reports it in its words.
 */
function createPrivately(file: string): void {
  if (file === '' || file === ':memory:') return;
  let fd: number;
  try {
    fd = openSync(file, 'wx', 0o600);
  } catch {
    return;
  }
  try {
    // The umask may have taken more than the mode asked for; the owner must keep read and write.
    fchmodSync(fd, 0o600);
  } finally {
    closeSync(fd);
  }
}

/** Opens the SQLite file in WAL mode with foreign keys and a busy timeout (SPEC 2). */
function openSqlite(file: string): OpenedDatabase {
  createPrivately(file);
  const raw = new BetterSqlite3(file);
  raw.pragma('journal_mode = WAL');
  raw.pragma('foreign_keys = ON');
  raw.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  // WAL + NORMAL survives a process crash (kill -9) without losing committed transactions.
  raw.pragma('synchronous = NORMAL');
  // The pages an order touches (the newest leaves of each table and index, the phone index) stay
  // in memory: +6% orders/s in the bench against SQLite's default 2 MB (issue 26). Filled only as read.
  raw.pragma(`cache_size = -${SQLITE_CACHE_KIB}`);
  const statements = new StatementCache(raw);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: statements }) });
  return {
    db,
    dialect: 'sqlite',
    raw,
    freshReads: () => statements.newTurn(),
    close: () => db.destroy(),
  };
}
