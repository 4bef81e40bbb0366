// What the tests read and write beside the product, synchronously, as better-sqlite3 lets them on a
// SQLite file: `readDb(file, (db) => db.prepare(sql).get(...))`. In the suite's PostgreSQL run the
// same calls go to the test's PostgreSQL database through psql, PostgreSQL's own client (one process
// per statement: slow, and only for tests). The subset the tests use: prepare(sql) with `?`
// parameters, then get / all / run, optionally after pluck() or raw().
import { spawnSync } from 'node:child_process';
import Database from 'better-sqlite3';
import { isPostgresUrl } from '../../src/config.ts';

export interface SyncStatement {
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): { changes: number };
  pluck(on?: boolean): SyncStatement;
  raw(on?: boolean): SyncStatement;
}

export interface SyncDatabase {
  prepare(sql: string): SyncStatement;
  exec(sql: string): void;
  /** better-sqlite3's: `fn` in one transaction. Through psql each statement commits on its own (test set-up only). */
  transaction<F extends (...args: never[]) => unknown>(fn: F): F;
  close(): void;
}

/** A value as an SQL literal (PostgreSQL's standard strings: only the quote is doubled). */
function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (Buffer.isBuffer(value)) return `'\\x${value.toString('hex')}'::bytea`;
  return `'${String(value).replace(/'/g, "''")}'`;
}

/** `?` placeholders (outside quotes) replaced by the values, in order; or `@name` ones by one object's fields. */
function bind(sql: string, params: unknown[]): string {
  const [only] = params;
  if (params.length === 1 && only !== null && typeof only === 'object' && !Buffer.isBuffer(only) && /@\w/.test(sql))
    return sql.replace(/@(\w+)/g, (_, name: string) => literal((only as Record<string, unknown>)[name]));
  let i = 0;
  let out = '';
  let quote: string | null = null;
  for (const c of sql) {
    if (quote) {
      if (c === quote) quote = null;
      out += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      out += c;
    } else if (c === '?') out += literal(params[i++]);
    else out += c;
  }
  if (i !== params.length) throw new Error(`sync-database: ${params.length} values for ${i} placeholders in ${sql}`);
  return out;
}

function psql(url: string, sql: string): string {
  const r = spawnSync('psql', ['-qAtX', '-v', 'ON_ERROR_STOP=1', '-d', url, '-c', sql], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`psql: ${r.stderr || r.error?.message}\n${sql}`);
  return r.stdout;
}

class PsqlStatement implements SyncStatement {
  constructor(
    private readonly url: string,
    private readonly sql: string,
    private readonly mode: 'rows' | 'pluck' | 'raw' = 'rows',
  ) {}
  all(...params: unknown[]): unknown[] {
    const text = psql(this.url, `SELECT coalesce(json_agg(row_to_json(q)), '[]') FROM (${bind(this.sql.trim().replace(/;$/, ''), params)}) q`);
    // bytea comes through JSON as "\\x…" hex: back to the Buffer better-sqlite3 gives for a BLOB.
    const rows = JSON.parse(text, (_k, v: unknown) => (typeof v === 'string' && /^\\x(?:[0-9a-f]{2})*$/.test(v) ? Buffer.from(v.slice(2), 'hex') : v)) as Record<string, unknown>[];
    if (this.mode === 'rows') return rows;
    return rows.map((r) => (this.mode === 'pluck' ? Object.values(r)[0] : Object.values(r)));
  }
  get(...params: unknown[]): unknown {
    return this.all(...params)[0];
  }
  run(...params: unknown[]): { changes: number } {
    const text = psql(this.url.toString(), `WITH done AS (${bind(this.sql.trim().replace(/;$/, ''), params)} RETURNING 1) SELECT count(*) FROM done`);
    return { changes: Number(text.trim()) };
  }
  pluck(on = true): SyncStatement {
    return new PsqlStatement(this.url, this.sql, on ? 'pluck' : 'rows');
  }
  raw(on = true): SyncStatement {
    return new PsqlStatement(this.url, this.sql, on ? 'raw' : 'rows');
  }
}

/** The database `file` names (a SQLite file or, in the PostgreSQL run, a PostgreSQL URL), opened for a test's own reads and writes. */
export function openSync(file: string, options: { readonly?: boolean } = {}): SyncDatabase {
  if (!isPostgresUrl(file)) return new Database(file, { readonly: options.readonly ?? false, fileMustExist: true }) as unknown as SyncDatabase;
  return {
    prepare: (sql) => new PsqlStatement(file, sql),
    exec: (sql) => void psql(file, sql),
    transaction: (fn) => fn,
    close: () => undefined,
  };
}
