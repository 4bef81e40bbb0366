import { sql } from 'kysely';
import type { Db } from '../connect.ts';
import type { Tx } from '../transaction.ts';
import { compiledOnce } from '../compiled-query.ts';

/**
 * Counts one hit in a fixed window and returns the count so far. One statement: the upsert resets
 * the counter when the window moved on. Kept in the database so several servers share it (SPEC 16).
 */
export async function hitBucket(db: Db | Tx, bucket: string, windowStart: number): Promise<number> {
  return (await hit(db, bucket, windowStart))[0]!.count;
}

const hit = compiledOnce((db, bucket: string, windowStart: number) =>
  db
    .insertInto('rate_limits')
    .values({ bucket, window_start: windowStart, count: 1 })
    .onConflict((oc) =>
      oc.column('bucket').doUpdateSet({
        count: sql<number>`CASE WHEN rate_limits.window_start = excluded.window_start THEN rate_limits.count + 1 ELSE 1 END`,
        window_start: sql<number>`excluded.window_start`,
      }),
    )
    .returning('count'),
);

export async function peekBucket(db: Db, bucket: string, windowStart: number): Promise<number> {
  const row = await db.selectFrom('rate_limits').select(['count', 'window_start']).where('bucket', '=', bucket).executeTakeFirst();
  return row && row.window_start === windowStart ? row.count : 0;
}

export const deleteStaleBuckets = (db: Db, before: number) => db.deleteFrom('rate_limits').where('window_start', '<', before).execute();

/**
 * A run of failures (sign-in, issue 19 §7) kept in the same table: `count` failures in a row, the
 * last one at `window_start` (epoch ms). The sweep drops it with the windows that ended.
 */
export async function findFailureRun(db: Db, bucket: string): Promise<{ count: number; lastAt: number } | undefined> {
  const row = await db.selectFrom('rate_limits').select(['count', 'window_start']).where('bucket', '=', bucket).executeTakeFirst();
  return row && { count: row.count, lastAt: row.window_start };
}

/** Counts one more failure at `at` and returns the run's length; a run whose last failure is not after `forgetUpTo` starts again. One statement. */
export async function addFailure(db: Db, bucket: string, at: number, forgetUpTo: number): Promise<number> {
  const row = await db
    .insertInto('rate_limits')
    .values({ bucket, window_start: at, count: 1 })
    .onConflict((oc) =>
      oc.column('bucket').doUpdateSet({
        count: sql<number>`CASE WHEN rate_limits.window_start > ${forgetUpTo} THEN rate_limits.count + 1 ELSE 1 END`,
        window_start: sql<number>`excluded.window_start`,
      }),
    )
    .returning('count')
    .executeTakeFirstOrThrow();
  return row.count;
}

export const deleteBucket = (db: Db, bucket: string) => db.deleteFrom('rate_limits').where('bucket', '=', bucket).execute();
