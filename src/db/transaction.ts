import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import PQueue from 'p-queue';
import { dialectOf, type Db } from './connect.ts';
import type { Database } from './tables/index.ts';
import { GROUP_COMMIT_MAX_MS, GROUP_COMMIT_MAX_WRITES, PG_RETRY_BASE_MS, PG_SERIALIZATION_RETRIES } from '../limits.ts';

declare const inTransaction: unique symbol;
/**
 * A connection inside a write transaction (issue 28): what writeTransaction hands its function. A
 * query function that must run inside one takes a Tx, and a plain Db does not type-check there.
 */
export type Tx = Kysely<Database> & { readonly [inTransaction]: true };

/** What to do once a transaction committed (counters, wake-ups): dropped when it rolls back. */
const committed = new WeakMap<object, (() => void)[]>();

interface Pending {
  fn: (tx: Tx) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

interface Settled {
  pending: Pending;
  ok: boolean;
  value: unknown;
  after: (() => void)[];
}

/**
 * Group commit (issue 26): the write transactions that queue while one runs are applied together,
 * each inside a savepoint of one SQLite transaction, and committed once. Most of a commit's cost
 * is writing the pages it changed to the WAL, and one busy second of orders changes the same few
 * pages (the newest leaf of each table and index) again and again.
 *
 * Each write keeps its own outcome: one that throws rolls back to its savepoint and only its caller
 * sees the error; the others go on. Nobody is answered before the COMMIT: a caller's promise
 * settles, and its afterCommit work runs, only once the whole group is durable (a 200 still means
 * committed). When the COMMIT itself fails, every write of the group fails with it.
 */
class GroupCommitter {
  readonly #queue: Pending[] = [];
  #running = false;

  constructor(private readonly db: Db) {}

  submit<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ fn, resolve: resolve as (value: unknown) => void, reject });
      if (this.#running) return;
      // The group starts once this turn of the event loop is over: every request read in the same
      // turn has reached its write by then and joins it. Idle, that costs one loop turn.
      this.#running = true;
      setImmediate(() => void this.#drain());
    });
  }

  async #drain(): Promise<void> {
    try {
      while (this.#queue.length > 0) await this.#group();
    } finally {
      this.#running = false;
    }
  }

  async #group(): Promise<void> {
    const settled: Settled[] = [];
    let current: Pending | undefined;
    try {
      await this.db.connection().execute(async (connection) => {
        const conn = connection as Tx;
        // BEGIN IMMEDIATE takes SQLite's write lock up front: another process (the CLI beside
        // `serve`) waits on the busy timeout instead of failing the upgrade from a read snapshot.
        await sql`BEGIN IMMEDIATE`.execute(conn);
        try {
          const until = performance.now() + GROUP_COMMIT_MAX_MS;
          while (this.#queue.length > 0 && settled.length < GROUP_COMMIT_MAX_WRITES && (settled.length === 0 || performance.now() < until)) {
            current = this.#queue.shift()!;
            settled.push(await this.#apply(conn, current));
            current = undefined;
          }
          await sql`COMMIT`.execute(conn);
        } catch (error) {
          await sql`ROLLBACK`.execute(conn).catch(() => undefined);
          throw error;
        }
      });
    } catch (error) {
      // Nothing of this group was written. When not even BEGIN went through (another process held
      // the lock past the busy timeout), the first write waiting fails with it; the others try again.
      if (settled.length === 0 && !current) this.#queue.shift()?.reject(error);
      current?.reject(error);
      for (const s of settled) s.pending.reject(error);
      return;
    }
    for (const s of settled) {
      if (!s.ok) {
        s.pending.reject(s.value);
        continue;
      }
      for (const run of s.after) run();
      s.pending.resolve(s.value);
    }
  }

  /** One write in its savepoint. A failure to roll back to it ends the group (thrown). */
  async #apply(conn: Tx, pending: Pending): Promise<Settled> {
    const after: (() => void)[] = [];
    await sql`SAVEPOINT write`.execute(conn);
    committed.set(conn, after);
    try {
      const value = await pending.fn(conn);
      await sql`RELEASE write`.execute(conn);
      return { pending, ok: true, value, after };
    } catch (error) {
      await sql`ROLLBACK TO write`.execute(conn);
      await sql`RELEASE write`.execute(conn);
      return { pending, ok: false, value: error, after: [] };
    } finally {
      committed.delete(conn);
    }
  }
}

const committers = new WeakMap<Db, GroupCommitter>();

/** PostgreSQL's isolation for a transaction: SERIALIZABLE unless its function says it needs less. */
export type Isolation = 'serializable' | 'read committed';

const RETRYABLE = new Set([
  '40001', // serialization_failure: SERIALIZABLE found an order of transactions it cannot give
  '40P01', // deadlock_detected: one of two transactions waiting on each other was cancelled
]);

/**
 * PostgreSQL (SPEC 16): several processes write at once, so a transaction that reads and then writes
 * (a duplicate check before an insert, a code redeemed once, a job claimed) gets SERIALIZABLE: it
 * commits only if the outcome is one that running the transactions one at a time could give, the
 * guarantee SQLite's single writer gives by construction. One that fails to serialize is run again,
 * whole, after a short random wait; `fn` does nothing outside the database before it commits
 * (what it must do after goes through afterCommit), so running it again is safe.
 */
async function postgresTransaction<T>(db: Db, fn: (tx: Tx) => Promise<T>, isolation: Isolation): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const after: (() => void)[] = [];
    const once = () =>
      db
        .transaction()
        .setIsolationLevel(isolation)
        .execute(async (trx) => {
          const tx = trx as unknown as Tx;
          committed.set(tx, after);
          return fn(tx);
        });
    try {
      // A transaction that already failed to serialize runs again in this process's retry lane, one
      // at a time: under a burst (200 buyers answering at once) the retries would otherwise conflict
      // with each other again and again, each wait longer than the last; in the lane they conflict
      // only with first tries, and make progress.
      const value = attempt === 0 ? await once() : ((await retryLane(db).add(once)) as T);
      for (const run of after) run();
      return value;
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      if (typeof code !== 'string' || !RETRYABLE.has(code) || attempt >= PG_SERIALIZATION_RETRIES) throw error;
      await sleep(Math.random() * PG_RETRY_BASE_MS * 2 ** Math.min(attempt, 6));
    }
  }
}

const lanes = new WeakMap<Db, PQueue>();
const retryLane = (db: Db): PQueue => {
  let lane = lanes.get(db);
  if (!lane) lanes.set(db, (lane = new PQueue({ concurrency: 1 })));
  return lane;
};

/**
 * A write transaction: `fn` runs inside SQLite's write lock (on PostgreSQL, a SERIALIZABLE
 * transaction, or the isolation given), and the returned promise settles once its writes are
 * committed (or rolled back, with its error). Multi-row writes go through here (STYLE).
 */
export function writeTransaction<T>(db: Db, fn: (tx: Tx) => Promise<T>, isolation: Isolation = 'serializable'): Promise<T> {
  if (dialectOf(db) === 'postgres') return postgresTransaction(db, fn, isolation);
  let committer = committers.get(db);
  if (!committer) committers.set(db, (committer = new GroupCommitter(db)));
  return committer.submit(fn);
}

/** Runs `fn` once the transaction `tx` commits (at once when `tx` is not inside writeTransaction). */
export function afterCommit(tx: Tx | Db, fn: () => void): void {
  const list = committed.get(tx);
  if (list) list.push(fn);
  else fn();
}

/**
 * Whether this database runs one write transaction at a time (SQLite). There, a transaction that
 * touches a row every request shares (a counter) makes nobody wait longer than they would anyway;
 * on PostgreSQL, where writers run side by side, such a row is better written in a statement of
 * its own than held to the end of a long transaction.
 */
export const singleWriter = (db: Db): boolean => dialectOf(db) === 'sqlite';
