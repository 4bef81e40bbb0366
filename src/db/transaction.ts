import { sql, type Kysely } from 'kysely';
import type { Db } from './connect.ts';
import type { Database } from './tables/index.ts';

export type Tx = Kysely<Database>;

/** What to do once a transaction committed (counters, wake-ups): dropped when it rolls back. */
const committed = new WeakMap<Tx, (() => void)[]>();

/**
 * A write transaction that takes SQLite's write lock up front (BEGIN IMMEDIATE): another process
 * (the CLI beside `serve`) then waits on the busy timeout instead of failing the upgrade from a
 * read snapshot. Multi-row writes go through here (STYLE).
 */
export async function writeTransaction<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  let after: (() => void)[] = [];
  const result = await db.connection().execute(async (conn) => {
    await sql`BEGIN IMMEDIATE`.execute(conn);
    committed.set(conn, after);
    try {
      const value = await fn(conn);
      await sql`COMMIT`.execute(conn);
      return value;
    } catch (error) {
      after = [];
      await sql`ROLLBACK`.execute(conn).catch(() => undefined);
      throw error;
    } finally {
      committed.delete(conn);
    }
  });
  for (const run of after) run();
  return result;
}

/** Runs `fn` once the transaction `tx` commits (at once when `tx` is not inside writeTransaction). */
export function afterCommit(tx: Tx, fn: () => void): void {
  const list = committed.get(tx);
  if (list) list.push(fn);
  else fn();
}
