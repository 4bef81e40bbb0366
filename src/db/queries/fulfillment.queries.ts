// The fulfillment outbox's own reads and writes (SPEC 7): listings, replays, payloads, connections.
// Claiming and settling jobs is the outbox machinery's (outbox.queries.ts), the same for every outbox.
import type { Selectable } from 'kysely';
import type { Db } from '../connect.ts';
import type { Tx } from '../transaction.ts';
import type { FulfillmentConnectionsTable, FulfillmentJobState, FulfillmentJobsTable } from '../tables/index.ts';

export type JobRow = Selectable<FulfillmentJobsTable>;

export interface JobListing extends JobRow {
  order_number: number;
  store_id: string;
  nombre: string;
  ciudad: string;
}

/** Which jobs: one state, one account's (null: every account, the operator), one store's. */
export interface JobScope {
  state?: FulfillmentJobState | undefined;
  accountId: string | null;
  storeId?: string | undefined;
}

export const listJobs = (db: Db, scope: JobScope, limit: number) => {
  let q = db
    .selectFrom('fulfillment_jobs as j')
    .innerJoin('orders as o', 'o.id', 'j.order_id')
    .innerJoin('stores as s', 's.id', 'o.store_id')
    .selectAll('j')
    .select(['o.order_number', 'o.store_id', 'o.nombre', 'o.ciudad', 'o.needs_review', 'o.status as order_status', 'o.ciudad_input', 'o.departamento_input', 'o.risk_score', 's.name as store_name', 's.push_policy', 's.risk_hold']);
  if (scope.state) q = q.where('j.state', '=', scope.state);
  if (scope.accountId !== null) q = q.where('s.account_id', '=', scope.accountId);
  if (scope.storeId) q = q.where('o.store_id', '=', scope.storeId);
  return q.orderBy('j.updated_at', 'desc').orderBy('j.id', 'desc').limit(limit).execute();
};

/** Jobs of one account's orders (null: every account), as a subquery of order ids. */
const scopedOrders = (db: Db, accountId: string | null, storeId?: string) => {
  let q = db.selectFrom('orders as o').innerJoin('stores as s', 's.id', 'o.store_id').select('o.id');
  if (accountId !== null) q = q.where('s.account_id', '=', accountId);
  if (storeId) q = q.where('o.store_id', '=', storeId);
  return q;
};

export const countJobsByState = (db: Db, accountId: string | null = null, storeId?: string) => {
  let q = db.selectFrom('fulfillment_jobs').select(['state', (eb) => eb.fn.countAll<number>().as('n')]);
  if (accountId !== null || storeId) q = q.where('order_id', 'in', scopedOrders(db, accountId, storeId));
  return q.groupBy('state').execute();
};

/** Pushes waiting to reach the platform (queued, retrying or in flight) and the oldest one's creation. */
export const pushBacklog = (db: Db, accountId: string | null = null, storeId?: string) => {
  let q = db
    .selectFrom('fulfillment_jobs')
    .select([(eb) => eb.fn.countAll<number>().as('pending'), (eb) => eb.fn.min('created_at').as('oldest')])
    .where('action', '=', 'push')
    .where('state', 'in', ['queued', 'failed', 'in_flight']);
  if (accountId !== null || storeId) q = q.where('order_id', 'in', scopedOrders(db, accountId, storeId));
  return q.executeTakeFirstOrThrow();
};

/** Replay: a failed or dead job is due now with a fresh attempt budget; anything else is left alone. */
export const requeueJobs = (tx: Tx, where: { orderId?: string; state?: 'dead'; accountId: string | null }, now: string) => {
  let q = tx
    .updateTable('fulfillment_jobs')
    .set({ state: 'queued', attempts: 0, first_attempt_at: null, next_attempt_at: now, lease_until: null, updated_at: now })
    .where('state', 'in', ['failed', 'dead']);
  if (where.orderId) q = q.where('order_id', '=', where.orderId);
  if (where.state) q = q.where('state', '=', where.state);
  if (where.accountId !== null) q = q.where('order_id', 'in', scopedOrders(tx, where.accountId));
  return q.returning(['id', 'order_id']).execute();
};

/** What the platform needs to know about an order: the order, its product, its store's country. */
export const pushPayloadRows = (db: Db, orderId: string) =>
  db
    .selectFrom('orders as o')
    .innerJoin('products as p', 'p.id', 'o.product_id')
    .innerJoin('stores as s', 's.id', 'o.store_id')
    .selectAll('o')
    .select(['s.country', 'p.name as product_name', 'p.sku as product_sku', 'p.fulfillment_product_ref', 'p.fulfillment_variant_ref', 'p.fulfillment_unlinked_at'])
    .where('o.id', '=', orderId)
    .executeTakeFirst();

/** Pushed orders the platform may still move, a page at a time after `afterId` (ids are time-ordered UUIDv7). */
export const pushedOpenOrders = (db: Db, afterId: string, limit: number) =>
  db
    .selectFrom('fulfillment_jobs as j')
    .innerJoin('orders as o', 'o.id', 'j.order_id')
    .select(['o.id', 'o.store_id', 'o.status', 'o.fulfillment_status', 'j.remote_id'])
    .where('j.action', '=', 'push')
    .where('j.state', '=', 'done')
    .where('o.status', 'not in', ['delivered', 'returned', 'cancelled'])
    .where('o.id', '>', afterId)
    .orderBy('o.id')
    .limit(limit)
    .execute();

/** Records a webhook delivery; false when its event id was seen before (deduplication). */
export const rememberWebhookEvent = async (tx: Tx, row: { event_id: string; remote_id: string; order_id: string | null; status: string; received_at: string }) =>
  Number((await tx.insertInto('fulfillment_webhook_events').values(row).onConflict((oc) => oc.column('event_id').doNothing()).executeTakeFirst()).numInsertedOrUpdatedRows ?? 0n) === 1;

/** The same, inside one store: a report on a store's own receiver path never reaches another store's order. */
export const orderOfRemoteInStore = async (db: Db | Tx, storeId: string, remoteId: string, reference: string | null) => {
  const jobs = db.selectFrom('fulfillment_jobs as j').innerJoin('orders as o', 'o.id', 'j.order_id').select('j.order_id').where('o.store_id', '=', storeId).where('j.action', '=', 'push');
  return (
    (await jobs.where('j.remote_id', '=', remoteId).executeTakeFirst())?.order_id ??
    (reference === null ? undefined : (await jobs.where('j.order_id', '=', reference).executeTakeFirst())?.order_id)
  );
};

/** The order a platform report is about: by the platform id we recorded, else by our own id as reference. */
export const orderOfRemote = async (tx: Tx, remoteId: string, externalRef: string) =>
  (await tx.selectFrom('fulfillment_jobs').select('order_id').where('remote_id', '=', remoteId).executeTakeFirst())?.order_id ??
  (await tx.selectFrom('fulfillment_jobs').select('order_id').where('order_id', '=', externalRef).where('action', '=', 'push').where('state', '=', 'done').executeTakeFirst())?.order_id;

export const findJob = (db: Db | Tx, jobId: string) => db.selectFrom('fulfillment_jobs').selectAll().where('id', '=', jobId).executeTakeFirst();

export const insertJobRow = (tx: Tx, row: JobRow) => tx.insertInto('fulfillment_jobs').values(row).execute();

/** A push that will never go out (its order was cancelled), unless it is in flight. */
export const cancelPushJob = (tx: Tx, jobId: string, now: string) =>
  tx.updateTable('fulfillment_jobs').set({ state: 'cancelled', lease_until: null, updated_at: now }).where('id', '=', jobId).where('state', '!=', 'in_flight').executeTakeFirst();

/** Due again now with a fresh attempt budget: a tool's push of a failed, dead or released job. */
export const requeueJob = (tx: Tx, jobId: string, now: string) =>
  tx
    .updateTable('fulfillment_jobs')
    .set({ state: 'queued', attempts: 0, first_attempt_at: null, next_attempt_at: now, lease_until: null, updated_at: now })
    .where('id', '=', jobId)
    .where('state', 'in', ['queued', 'held', 'failed', 'dead'])
    .executeTakeFirst();

// Per-store platform connections (issue 12). The token column is sealed; callers never see it.
export const findConnection = (db: Db | Tx, storeId: string) => db.selectFrom('fulfillment_connections').selectAll().where('store_id', '=', storeId).executeTakeFirst();

export const upsertConnection = (tx: Tx | Db, row: Selectable<FulfillmentConnectionsTable>) =>
  tx
    .insertInto('fulfillment_connections')
    .values(row)
    .onConflict((oc) =>
      oc.column('store_id').doUpdateSet({
        token_sealed: row.token_sealed,
        token_last4: row.token_last4,
        platform_account_id: row.platform_account_id,
        platform_account_name: row.platform_account_name,
        verified_at: row.verified_at,
        last_ok_at: row.last_ok_at,
        last_error: null,
        last_error_at: null,
        updated_at: row.updated_at,
        platform: row.platform,
        base_url: row.base_url,
        test: row.test,
        // New credentials end a pause (issue 22 §2): the store's pushes resume by themselves.
        paused_at: null,
        paused_reason: null,
      }),
    )
    .execute();

export const markConnection = (db: Db | Tx, storeId: string, outcome: { ok: true; at: string } | { ok: false; at: string; error: string }) =>
  db
    .updateTable('fulfillment_connections')
    .set(outcome.ok ? { last_ok_at: outcome.at } : { last_error: outcome.error, last_error_at: outcome.at })
    .where('store_id', '=', storeId)
    .execute();

export const findStoreCountry = async (db: Db | Tx, storeId: string) => (await db.selectFrom('stores').select('country').where('id', '=', storeId).executeTakeFirst())?.country;

/** The platform said the store's token no longer works: its pushes wait for new credentials. */
export const pauseConnection = (db: Db | Tx, storeId: string, reason: string, at: string) =>
  db.updateTable('fulfillment_connections').set({ paused_at: at, paused_reason: reason, last_error: reason, last_error_at: at }).where('store_id', '=', storeId).where('paused_at', 'is', null).executeTakeFirst();

/** Connections the outbox must hold back (paused) or pace (a platform that takes one job at a time). */
export const heldConnections = (db: Db) => db.selectFrom('fulfillment_connections').select(['store_id', 'platform', 'paused_at']).where((eb) => eb.or([eb('paused_at', 'is not', null), eb('platform', '!=', 'generic')])).execute();

/** Every store with its own connection (when the server has no default platform, only they push). */
export const connectedStores = (db: Db) => db.selectFrom('fulfillment_connections').select('store_id').execute();

/** The connection of an unsigned platform's webhook path (by the SHA-256 of its token). */
export const connectionByHook = (db: Db | Tx, hash: string) => db.selectFrom('fulfillment_connections').selectAll().where('hook_token_hash', '=', hash).executeTakeFirst();

export const allConnections = (db: Db) => db.selectFrom('fulfillment_connections').select(['store_id', 'token_sealed', 'hook_token_sealed']).execute();

export const resealConnection = (db: Db, storeId: string, sealed: { token_sealed: string; hook_token_sealed: string | null }) =>
  db.updateTable('fulfillment_connections').set(sealed).where('store_id', '=', storeId).execute();

/**
 * A store's failed pushes are tried again now (new credentials were saved), their give-up clock
 * restarted: the days a connection waited for its seller are not days of tries.
 */
export const retryFailedPushesOfStore = (tx: Tx, storeId: string, now: string) =>
  tx
    .updateTable('fulfillment_jobs')
    .set({ next_attempt_at: now, first_attempt_at: null, updated_at: now })
    .where('state', '=', 'failed')
    .where('order_id', 'in', (eb) => eb.selectFrom('orders').select('id').where('store_id', '=', storeId))
    .executeTakeFirst();

/**
 * Confirmed live orders of a store whose push has not gone out, oldest first (push_confirmed_orders):
 * those that can go (`review: false`), or those whose city awaits review (`review: true`).
 */
export const confirmedUnpushed = (db: Db, storeId: string, review: boolean, limit: number) =>
  db
    .selectFrom('orders as o')
    .innerJoin('fulfillment_jobs as j', (join) => join.onRef('j.order_id', '=', 'o.id').on('j.action', '=', 'push'))
    .select(['o.id', 'o.order_number', 'o.created_at', 'j.id as job_id', 'j.state'])
    .where('o.store_id', '=', storeId)
    .where('o.status', '=', 'confirmed')
    .where('o.sandbox', '=', 0)
    .where('o.needs_review', '=', review ? 1 : 0)
    .where('j.state', 'in', ['queued', 'held', 'failed', 'dead'])
    .orderBy('o.created_at')
    .orderBy('o.id')
    .limit(limit)
    .execute();

/** A store's pushed, unfinished orders, optionally only some or those changed since a time (sync). */
export const pushedOpenOrdersOfStore = (db: Db, storeId: string, f: { orderIds?: readonly string[] | undefined; updatedSince?: string | undefined; afterId?: string | undefined; limit: number }) => {
  let q = db
    .selectFrom('fulfillment_jobs as j')
    .innerJoin('orders as o', 'o.id', 'j.order_id')
    .select(['o.id', 'o.order_number', 'o.status', 'o.fulfillment_status', 'j.remote_id'])
    .where('o.store_id', '=', storeId)
    .where('j.action', '=', 'push')
    .where('j.state', '=', 'done');
  if (f.orderIds) q = q.where('o.id', 'in', f.orderIds.length ? f.orderIds : ['']);
  else q = q.where('o.status', 'not in', ['delivered', 'returned', 'cancelled']);
  // Stored times are ISO strings in UTC with milliseconds: compare the same spelling of the instant.
  if (f.updatedSince) q = q.where('o.updated_at', '>=', new Date(f.updatedSince).toISOString());
  // Pages by order id (time-ordered UUIDv7): a store with many open orders is read through to the
  // end, page after page, instead of re-reading the same first ones.
  if (f.afterId) q = q.where('o.id', '>', f.afterId);
  return q.orderBy('o.id').limit(f.limit).execute();
};
