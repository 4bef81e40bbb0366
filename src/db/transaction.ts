import { sql, type Kysely } from 'kysely';
import type { Db } from './connect.ts';
import type { Database } from './tables/index.ts';

export type Tx = Kysely<Database>;

/**
 * A write transaction that takes SQLite's write lock up front (BEGIN IMMEDIATE): another process
 * (the CLI beside `serve`) then waits on the busy timeout instead of failing the upgrade from a
 * read snapshot. Multi-row writes go through here (STYLE).
 */
export async function writeTransaction<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.connection().execute(async (conn) => {
    await sql`BEGIN IMMEDIATE`.execute(conn);
    try {
      const result = await fn(conn);
      await sql`COMMIT`.execute(conn);
      return result;
    } catch (error) {
      await sql`ROLLBACK`.execute(conn).catch(() => undefined);
      throw error;
    }
  });
}
