import { sql, type Kysely } from 'kysely';
import type { Db } from './connect.ts';
import type { Database } from './tables/index.ts';
import { GROUP_COMMIT_MAX_MS, GROUP_COMMIT_MAX_WRITES } from '../limits.ts';

export type Tx = Kysely<Database>;

/** What to do once a transaction committed (counters, wake-ups): dropped when it rolls back. */
const committed = new WeakMap<Tx, (() => void)[]>();

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
      await this.db.connection().execute(async (conn) => {
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

/**
 * A write transaction: `fn` runs inside SQLite's write lock, and the returned promise settles once
 * its writes are committed (or rolled back, with its error). Multi-row writes go through here (STYLE).
 */
export function writeTransaction<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  let committer = committers.get(db);
  if (!committer) committers.set(db, (committer = new GroupCommitter(db)));
  return committer.submit(fn);
}

/** Runs `fn` once the transaction `tx` commits (at once when `tx` is not inside writeTransaction). */
export function afterCommit(tx: Tx, fn: () => void): void {
  const list = committed.get(tx);
  if (list) list.push(fn);
  else fn();
}
