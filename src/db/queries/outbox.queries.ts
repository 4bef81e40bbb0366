// The outbox machinery's SQL (issue 21), written once for every outbox table: the fulfillment jobs,
// the WhatsApp messages and the webhook deliveries each keep their own rows (what a support agent, a
// seller or a test reads about a push, a message, a delivery), and share the machinery's columns:
//   id, <state column>, attempts, next_attempt_at, lease_until, last_error, first_attempt_at,
//   unknown_outcome, destination, updated_at.
// Claims re-check the state they select (the UPDATE … WHERE repeats it), so concurrent workers on
// one database never run one job twice; PostgreSQL can later take the same rows `FOR UPDATE SKIP
// LOCKED` with the same shape. Only the holder of a lease settles its job.
import { sql, type Kysely } from 'kysely';
import { dialectOf, type Db } from '../connect.ts';
import type { Tx } from '../transaction.ts';
import type { IntentChange } from '../../outbox/intent.ts';

/** How one table speaks the machinery's states. */
export interface OutboxTable {
  name: 'fulfillment_jobs' | 'whatsapp_messages' | 'webhook_deliveries';
  /** The column holding the job's state. */
  state: 'state' | 'status';
  /** States a job waits in until its next_attempt_at. */
  waiting: readonly string[];
  inFlight: string;
  /** Where a failed try waits for the next one. */
  retrying: string;
  done: string;
  dead: string;
  /** States that are over: nothing of them is ever tried again. */
  over: readonly string[];
  /**
   * A job whose holder's lease ran out: claimed again with an unknown outcome (its holder may have
   * acted: the next try finds out first), or failed for good with a reason (a step that cannot be
   * looked up, such as a WhatsApp send, is never repeated).
   */
  expiredLease: { reclaim: true } | { fail: string; reason: string };
  /** A later job of one destination and key waits while an earlier one is pending (webhooks: one order's events in order). */
  ordered?: { key: string; seq: string };
  /** A column that, when 1, makes its job a one-off: its first failure is final (a `webhooks test`). */
  once?: string;
}

/** The columns every outbox row has, whatever else it holds. */
export interface OutboxRow {
  id: string;
  attempts: number;
  next_attempt_at: string;
  lease_until: string | null;
  last_error: string | null;
  first_attempt_at: string | null;
  unknown_outcome: number;
  destination: string;
  updated_at: string;
}

// Table and column names come from the descriptors above, never from input.
type AnyDb = Kysely<any>;
const any = (db: Db | Tx): AnyDb => db as unknown as AnyDb;

export interface ClaimFilter {
  now: string;
  leaseUntil: string;
  limit: number;
  /** Destinations whose circuit is open: not claimed. */
  exclude?: readonly string[];
  /** A probe: the next job of this destination, whatever its backoff says. */
  probe?: string;
  /** Only these destinations (a kind that knows which destinations can be served at all). */
  only?: readonly string[];
  /** Only this destination, at most `limit` of its due jobs (a destination with a cap on jobs in flight). */
  one?: string;
  /**
   * At most this many of the destination's jobs (`one` or `probe`) in flight at once, counted in the
   * table across every process (a lease not yet run out), not in one process's memory.
   */
  cap?: number;
}

/** The claim's write: in flight under a lease, one more attempt, the give-up clock started; a reclaimed job keeps an unknown outcome. */
function claimedSet(t: OutboxTable, now: string, leaseUntil: string) {
  return {
    [t.state]: t.inFlight,
    lease_until: leaseUntil,
    attempts: sql<number>`attempts + 1`,
    first_attempt_at: sql<string>`coalesce(first_attempt_at, ${now})`,
    unknown_outcome: sql<number>`case when ${sql.ref(t.state)} = ${t.inFlight} then (case when unknown_outcome > 1 then unknown_outcome else 1 end) else unknown_outcome end`,
    updated_at: now,
  };
}

/**
 * Claimable now: waiting and due (or any waiting one, for a probe), or reclaimable after a lost
 * lease. The claim's UPDATE re-checks it on the rows it selected: written as a CASE so that SQLite
 * finds those rows by their ids, where an OR of indexed terms led it to walk the whole backlog
 * (5 ms per claim at 50,000 waiting rows).
 */
function claimable(t: OutboxTable, now: string, probe: boolean) {
  const due = probe ? sql`true` : sql`next_attempt_at <= ${now}`;
  const lost = 'reclaim' in t.expiredLease ? sql` when ${sql.ref(t.state)} = ${t.inFlight} then lease_until < ${now}` : sql``;
  return sql<boolean>`(case when ${sql.ref(t.state)} in (${sql.join(t.waiting)}) then ${due}${lost} else false end)`;
}

/** Due jobs become in flight under a lease, one more attempt counted before anything is sent. */
export async function claimDue<J extends OutboxRow>(tx: Tx, t: OutboxTable, f: ClaimFilter): Promise<J[]> {
  const db = any(tx);
  if ('fail' in t.expiredLease)
    await db
      .updateTable(t.name)
      .set({ [t.state]: t.expiredLease.fail, lease_until: null, last_error: t.expiredLease.reason, updated_at: f.now })
      .where(t.state, '=', t.inFlight)
      .where('lease_until', '<', f.now)
      .execute();
  // One indexed range per state, each read in next_attempt_at order and stopped at the limit. One
  // query with an OR of them (or `state IN (…)`) made SQLite gather every due row and sort it: with
  // 50,000 webhook deliveries waiting, each claim took 76 ms of the event loop (issue 26's soak).
  let limit = f.probe !== undefined ? 1 : f.limit;
  const single = f.probe ?? f.one;
  if (f.cap !== undefined && single !== undefined) {
    // Two processes counting at once would both see room: on PostgreSQL the count is taken under a
    // lock of this destination's own, held to the end of the claim's transaction (SQLite's claims
    // already run one at a time, under its write lock).
    if (dialectOf(tx) === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(${`${t.name}:${single}`}))`.execute(db);
    const running = await db
      .selectFrom(t.name)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('destination', '=', single)
      .where(t.state, '=', t.inFlight)
      .where('lease_until', '>', f.now)
      .executeTakeFirstOrThrow();
    limit = Math.min(limit, f.cap - Number(running.n));
    if (limit <= 0) return [];
  }
  const ranges = t.waiting.map((state) => sql<boolean>`${sql.ref(`j.${t.state}`)} = ${state}${f.probe !== undefined ? sql`` : sql` and j.next_attempt_at <= ${f.now}`}`);
  if ('reclaim' in t.expiredLease) ranges.push(sql<boolean>`${sql.ref(`j.${t.state}`)} = ${t.inFlight} and j.lease_until < ${f.now}`);
  // Named destinations are read one at a time through (destination, state, next_attempt_at): a
  // filter on the state's range instead would walk past every other destination's due jobs.
  const named = single !== undefined ? [single].filter((d) => f.only === undefined || f.only.includes(d)) : f.only?.filter((d) => !f.exclude?.includes(d));
  // PostgreSQL, several instances claiming at once (SPEC 16): each takes row locks on the candidates
  // it read and passes over those another has locked, so two workers never wait on, or claim, the
  // same job; the UPDATE below re-checks each row's state as it is now. SQLite has one writer.
  const skipLocked = dialectOf(tx) === 'postgres';
  const candidates: { id: string; next_attempt_at: string }[] = [];
  for (const destination of named ?? [undefined])
    for (const range of ranges) {
      let q = db.selectFrom(`${t.name} as j`).select(['j.id', 'j.next_attempt_at']).where(range);
      if (destination !== undefined) q = q.where('j.destination', '=', destination);
      else if (f.exclude?.length) q = q.where('j.destination', 'not in', f.exclude);
      if (t.ordered) {
        const { key, seq } = t.ordered;
        // An earlier job of the same destination and key still pending holds this one back.
        q = q.where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom(`${t.name} as e`)
                .select('e.id')
                .whereRef('e.destination', '=', 'j.destination')
                .whereRef(`e.${key}`, '=', `j.${key}`)
                .whereRef(`e.${seq}`, '<', `j.${seq}`)
                .where(`e.${t.state}`, 'not in', t.over),
            ),
          ),
        );
      }
      q = q.orderBy('j.next_attempt_at').limit(limit);
      if (skipLocked) q = q.forUpdate().skipLocked();
      candidates.push(...((await q.execute()) as { id: string; next_attempt_at: string }[]));
    }
  const due = candidates.sort((a, b) => (a.next_attempt_at < b.next_attempt_at ? -1 : a.next_attempt_at > b.next_attempt_at ? 1 : 0)).slice(0, limit);
  if (due.length === 0) return [];
  return (await db
    .updateTable(t.name)
    .set(claimedSet(t, f.now, f.leaseUntil))
    .where(
      'id',
      'in',
      due.map((d: { id: string }) => d.id),
    )
    .where(claimable(t, f.now, f.probe !== undefined))
    .returningAll()
    .execute()) as J[];
}

/** One job now (a tool's push or cancel), if it is not in flight under a live lease. */
export async function claimById<J extends OutboxRow>(tx: Tx, t: OutboxTable, id: string, now: string, leaseUntil: string): Promise<J | undefined> {
  return (await any(tx).updateTable(t.name).set({ ...claimedSet(t, now, leaseUntil), next_attempt_at: now }).where('id', '=', id).where(claimable(t, now, true)).returningAll().executeTakeFirst()) as J | undefined;
}

/** Only the holder of the lease may write: a reclaimed job answers 0 rows here. */
const held = (db: Db | Tx, t: OutboxTable, job: Pick<OutboxRow, 'id' | 'lease_until'>) =>
  any(db).updateTable(t.name).where('id', '=', job.id).where(t.state, '=', t.inFlight).where('lease_until', '=', job.lease_until);

const one = (result: { numUpdatedRows: bigint }) => Number(result.numUpdatedRows) === 1;

const intentsAfter = (change: IntentChange) =>
  change === 'none_exist' ? 0 : change === 'resolve_own' ? sql<number>`(case when unknown_outcome > 1 then unknown_outcome - 1 else 0 end)` : sql<number>`unknown_outcome`;

/** Done, with what the table records of a success; false when the lease was lost. */
export const settleDone = async (db: Db | Tx, t: OutboxTable, job: OutboxRow, now: string, extra: Record<string, unknown> = {}) =>
  one(await held(db, t, job).set({ ...extra, [t.state]: t.done, lease_until: null, last_error: null, unknown_outcome: 0, updated_at: now }).executeTakeFirstOrThrow());

/** Waiting for the next try at `nextAttemptAt`. */
export const settleRetry = async (db: Db | Tx, t: OutboxTable, job: OutboxRow, error: string, nextAttemptAt: string, now: string, intents: IntentChange) =>
  one(await held(db, t, job).set({ [t.state]: t.retrying, lease_until: null, last_error: error, next_attempt_at: nextAttemptAt, unknown_outcome: intentsAfter(intents), updated_at: now }).executeTakeFirstOrThrow());

/** Given up. */
export const settleDead = async (db: Db | Tx, t: OutboxTable, job: OutboxRow, error: string, now: string, intents: IntentChange, state = t.dead) =>
  one(await held(db, t, job).set({ [t.state]: state, lease_until: null, last_error: error, unknown_outcome: intentsAfter(intents), updated_at: now }).executeTakeFirstOrThrow());

/** Ended without trying (its subject went away meanwhile: a cancelled order's push). */
export const settleAs = async (db: Db | Tx, t: OutboxTable, job: OutboxRow, state: string, now: string) =>
  one(await held(db, t, job).set({ [t.state]: state, lease_until: null, updated_at: now }).executeTakeFirstOrThrow());

/**
 * Intent before effect (src/outbox/intent.ts): before a request that may act leaves, the job durably
 * counts it. False when the lease was lost: the request must not leave.
 */
export const recordIntent = async (db: Db | Tx, t: OutboxTable, job: OutboxRow, now: string) =>
  one(await held(db, t, job).set({ unknown_outcome: sql<number>`unknown_outcome + 1`, updated_at: now }).executeTakeFirstOrThrow());

/**
 * A holder that lost its lease after a request that may have acted says so whatever the job's state
 * now, unless it is over: no later try takes the effect for absent.
 */
export const reportIntentAfterLostLease = (db: Db | Tx, t: OutboxTable, jobId: string, now: string) =>
  any(db).updateTable(t.name).set({ unknown_outcome: sql<number>`unknown_outcome + 1`, updated_at: now }).where('id', '=', jobId).where(t.state, 'not in', t.over).execute();

export const findOutboxRow = async <J extends OutboxRow>(db: Db | Tx, t: OutboxTable, id: string) => (await any(db).selectFrom(t.name).selectAll().where('id', '=', id).executeTakeFirst()) as (J & Record<string, unknown>) | undefined;

/** A destination is back (its circuit closed): every job waiting for it is due now. */
export const releaseDestination = async (db: Db | Tx, t: OutboxTable, destination: string, now: string) =>
  Number(
    (await any(db).updateTable(t.name).set({ next_attempt_at: now, updated_at: now }).where('destination', '=', destination).where(t.state, 'in', t.waiting).where('next_attempt_at', '>', now).executeTakeFirst()).numUpdatedRows,
  );
