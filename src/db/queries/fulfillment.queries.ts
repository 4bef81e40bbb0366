// The fulfillment outbox (SPEC 7): claim due jobs under a lease, finish, retry, kill, replay.
import { sql, type Selectable } from 'kysely';
import type { Db } from '../connect.ts';
import type { Tx } from '../transaction.ts';
import type { FulfillmentJobState, FulfillmentJobsTable } from '../tables/index.ts';

export type JobRow = Selectable<FulfillmentJobsTable>;

/**
 * Due jobs become in_flight with a lease and one more attempt, counted before anything is sent:
 * queued or failed jobs whose time came, and in_flight jobs whose lease ran out (a crash mid-push).
 */
export async function claimDueJobs(tx: Tx, now: string, leaseUntil: string, limit: number): Promise<JobRow[]> {
  const due = await tx
    .selectFrom('fulfillment_jobs')
    .select('id')
    .where((eb) =>
      eb.or([
        eb.and([eb('state', 'in', ['queued', 'failed']), eb('next_attempt_at', '<=', now)]),
        eb.and([eb('state', '=', 'in_flight'), eb('lease_until', '<', now)]),
      ]),
    )
    .orderBy('next_attempt_at')
    .limit(limit)
    .execute();
  if (due.length === 0) return [];
  return tx
    .updateTable('fulfillment_jobs')
    .set({ state: 'in_flight', lease_until: leaseUntil, attempts: sql<number>`attempts + 1`, updated_at: now })
    .where(
      'id',
      'in',
      due.map((d) => d.id),
    )
    .returningAll()
    .execute();
}

/** Only the holder of the lease may settle a job: a reclaimed job answers 0 rows here. */
const held = (job: Pick<JobRow, 'id' | 'lease_until'>) => (qb: Tx) =>
  qb.updateTable('fulfillment_jobs').where('id', '=', job.id).where('state', '=', 'in_flight').where('lease_until', '=', job.lease_until);

export const finishJob = async (tx: Tx, job: JobRow, remoteId: string, now: string) =>
  Number((await held(job)(tx).set({ state: 'done', remote_id: remoteId, lease_until: null, last_error: null, updated_at: now }).executeTakeFirst()).numUpdatedRows) === 1;

export const retryJob = async (tx: Tx | Db, job: JobRow, error: string, nextAttemptAt: string, now: string) =>
  Number((await held(job)(tx).set({ state: 'failed', lease_until: null, last_error: error, next_attempt_at: nextAttemptAt, updated_at: now }).executeTakeFirst()).numUpdatedRows) === 1;

export const killJob = async (tx: Tx | Db, job: JobRow, error: string, now: string) =>
  Number((await held(job)(tx).set({ state: 'dead', lease_until: null, last_error: error, updated_at: now }).executeTakeFirst()).numUpdatedRows) === 1;

export interface JobListing extends JobRow {
  order_number: number;
  store_id: string;
  nombre: string;
  ciudad: string;
}

export const listJobs = (db: Db, state: FulfillmentJobState | undefined, limit: number) => {
  let q = db
    .selectFrom('fulfillment_jobs as j')
    .innerJoin('orders as o', 'o.id', 'j.order_id')
    .selectAll('j')
    .select(['o.order_number', 'o.store_id', 'o.nombre', 'o.ciudad']);
  if (state) q = q.where('j.state', '=', state);
  return q.orderBy('j.updated_at', 'desc').orderBy('j.id', 'desc').limit(limit).execute();
};

export const countJobsByState = (db: Db) =>
  db.selectFrom('fulfillment_jobs').select(['state', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('state').execute();

/** Replay: a failed or dead job is due now with a fresh attempt budget; anything else is left alone. */
export const requeueJobs = (tx: Tx, where: { orderId?: string; state?: 'dead' }, now: string) => {
  let q = tx
    .updateTable('fulfillment_jobs')
    .set({ state: 'queued', attempts: 0, next_attempt_at: now, lease_until: null, updated_at: now })
    .where('state', 'in', ['failed', 'dead']);
  if (where.orderId) q = q.where('order_id', '=', where.orderId);
  if (where.state) q = q.where('state', '=', where.state);
  return q.returning(['id', 'order_id']).execute();
};

/** What the platform needs to know about an order: the order, its product, its store's country. */
export const pushPayloadRows = (db: Db, orderId: string) =>
  db
    .selectFrom('orders as o')
    .innerJoin('products as p', 'p.id', 'o.product_id')
    .selectAll('o')
    .select(['p.name as product_name', 'p.sku as product_sku', 'p.fulfillment_product_ref'])
    .where('o.id', '=', orderId)
    .executeTakeFirst();

/** Pushed orders the platform may still move, a page at a time after `afterId` (ids are time-ordered UUIDv7). */
export const pushedOpenOrders = (db: Db, afterId: string, limit: number) =>
  db
    .selectFrom('fulfillment_jobs as j')
    .innerJoin('orders as o', 'o.id', 'j.order_id')
    .select(['o.id', 'o.status', 'o.fulfillment_status', 'j.remote_id'])
    .where('j.state', '=', 'done')
    .where('o.status', 'not in', ['delivered', 'returned', 'cancelled'])
    .where('o.id', '>', afterId)
    .orderBy('o.id')
    .limit(limit)
    .execute();

/** Records a webhook delivery; false when its event id was seen before (deduplication). */
export const rememberWebhookEvent = async (tx: Tx, row: { event_id: string; remote_id: string; order_id: string | null; status: string; received_at: string }) =>
  Number((await tx.insertInto('fulfillment_webhook_events').values(row).onConflict((oc) => oc.column('event_id').doNothing()).executeTakeFirst()).numInsertedOrUpdatedRows ?? 0n) === 1;

/** The order a platform report is about: by the platform id we recorded, else by our own id as reference. */
export const orderOfRemote = async (tx: Tx, remoteId: string, externalRef: string) =>
  (await tx.selectFrom('fulfillment_jobs').select('order_id').where('remote_id', '=', remoteId).executeTakeFirst())?.order_id ??
  (await tx.selectFrom('fulfillment_jobs').select('order_id').where('order_id', '=', externalRef).where('state', '=', 'done').executeTakeFirst())?.order_id;
