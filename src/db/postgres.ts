// PostgreSQL (SPEC 16, issue 28): kysely's PostgreSQL dialect over a `pg` pool. Several
// `codrail serve` processes share the database; everything they must agree on lives in it.
import pg from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import type { Database } from './tables/index.ts';
import type { OpenedDatabase } from './connect.ts';
import { AppError } from '../errors.ts';
import { PG_CONNECT_TIMEOUT_MS, PG_IDLE_IN_TRANSACTION_TIMEOUT_MS, PG_POOL_MAX, PG_STATEMENT_TIMEOUT_MS } from '../limits.ts';

const INT8 = 20;
const NUMERIC = 1700;

/**
 * Integers come back as JavaScript numbers, as SQLite gives them: every integer column is bigint
 * (money in minor units, counters), and count() and sum() are bigint and numeric, which `pg` leaves
 * as strings. A value past 2^53 would lose digits silently, so it is an error instead.
 */
function toNumber(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n) && Number.isInteger(n)) throw new RangeError(`PostgreSQL returned ${text}, past what a JavaScript number holds exactly`);
  return n;
}

const types = {
  getTypeParser(oid: number, format?: string) {
    if (format !== 'binary' && (oid === INT8 || oid === NUMERIC)) return toNumber;
    return pg.types.getTypeParser(oid, format as 'text');
  },
} as pg.CustomTypesConfig;

/**
 * PostgreSQL's text cannot hold U+0000, and refusing it there would be a server error for what is
 * the caller's input (a NUL in a form field, a token, a query string): it is refused before the
 * query is sent, as the caller's error, whichever surface it came through. (SQLite stores it.)
 */
function refuseNul(values: unknown): void {
  if (!Array.isArray(values)) return;
  for (const v of values)
    if (typeof v === 'string' && v.includes('\u0000'))
      throw new AppError('invalid_input', 'Text may not contain the NUL character (U+0000)', [{ field: 'text', message: 'contains U+0000' }]);
}

/** Opens a pool on the database of `url`; connections are made as queries need them. */
export function openPostgres(url: string): OpenedDatabase {
  const pool = new pg.Pool({
    connectionString: url,
    max: PG_POOL_MAX,
    connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
    // A statement or an open transaction that hangs (a lock held by a stuck process) ends with an
    // error instead of holding a pool connection forever.
    statement_timeout: PG_STATEMENT_TIMEOUT_MS,
    idle_in_transaction_session_timeout: PG_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    application_name: 'codrail',
    types,
  });
  // An idle connection the server closed (a restart, a failover) is dropped from the pool; without
  // a listener its error would end the process.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      refuseNul(args[1]);
      return query(...args);
    };
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: 'postgres', raw: undefined, freshReads: () => undefined, close: () => db.destroy() };
}
