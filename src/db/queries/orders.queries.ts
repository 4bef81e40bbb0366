import { sql, type Expression, type Insertable, type Selectable, type SqlBool, type Updateable } from 'kysely';
import { after as afterKey, containing, type After } from './keyset.ts';
import type { Db } from '../connect.ts';
import type { Tx } from '../transaction.ts';
import type { ConfirmationState } from '../../domain/confirmation.ts';
import { PHONE_HISTORY_LIMIT } from '../../limits.ts';
import type { FulfillmentAction, FulfillmentJobsTable, IdempotencyRecordsTable, OrderEventsTable, OrdersTable, OrderStatus } from '../tables/index.ts';
import { compiledOnce, compiledPerRow } from '../compiled-query.ts';

export type OrderRow = Selectable<OrdersTable>;

/** Inserts an order and returns it as stored (defaults filled), so the event writer need not read it back. */
const orderInsert = compiledPerRow((tx, row: Insertable<OrdersTable>) => tx.insertInto('orders').values(row).returningAll());
export const insertOrder = async (tx: Tx, row: Insertable<OrdersTable>) => (await orderInsert(tx, row))[0]!;
const eventInsert = compiledPerRow((db, row: Insertable<OrderEventsTable>) => db.insertInto('order_events').values(row));
export const insertEvent = (db: Db | Tx, row: Insertable<OrderEventsTable>) => eventInsert(db, row);
const jobInsert = compiledPerRow((tx, row: Insertable<FulfillmentJobsTable>) => tx.insertInto('fulfillment_jobs').values(row));
export const insertJob = (tx: Tx, row: Insertable<FulfillmentJobsTable>) => jobInsert(tx, row);

const orderById = compiledOnce((db, id: string) => db.selectFrom('orders').selectAll().where('id', '=', id));
export const findOrder = async (db: Db | Tx, id: string) => (await orderById(db, id))[0];

/** Orders with one of these numbers, with their store's prefix, inside one account (null: every account). */
export const findOrdersByNumbers = (db: Db, numbers: readonly number[], accountId: string | null) => {
  let q = db
    .selectFrom('orders')
    .innerJoin('stores', 'stores.id', 'orders.store_id')
    .selectAll('orders')
    .select(['stores.order_prefix as store_prefix'])
    .where('orders.order_number', 'in', numbers);
  if (accountId !== null) q = q.where('stores.account_id', '=', accountId);
  return q.limit(50).execute();
};

/** The first order of the same buyer and basket inside the duplicate window (SPEC 4.1 step 10). */
export const findRecentDuplicate = (
  db: Db | Tx,
  k: { storeId: string; productId: string; phone: string; pack: string; quantity: number; sandbox: number; since: string },
) =>
  db
    .selectFrom('orders')
    .select(['id', 'order_number', 'status', 'created_at'])
    .where('store_id', '=', k.storeId)
    .where('telefono_e164', '=', k.phone)
    .where('created_at', '>=', k.since)
    .where('product_id', '=', k.productId)
    .where('pack', '=', k.pack)
    .where('quantity', '=', k.quantity)
    .where('sandbox', '=', k.sandbox)
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirst();

/** Free-text search over number, buyer name, phone and city. */
export const searchOrders = (db: Db, text: string, limit: number) => {
  const digits = text.replace(/\D+/g, '');
  return db
    .selectFrom('orders')
    .selectAll()
    .where((eb) => {
      const contains = (column: 'nombre' | 'ciudad' | 'telefono') => containing(db, column, text);
      const ors: Expression<SqlBool>[] = [contains('nombre'), contains('ciudad'), contains('telefono'), eb('id', '=', text)];
      if (digits.length >= 3) ors.push(eb('telefono_e164', 'like', `%${digits}%`));
      if (/^\d+$/.test(text)) ors.push(eb('order_number', '=', Number(text)));
      return eb.or(ors);
    })
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
};

/** The `order.created` event data of these orders (it holds the city decision), for support's lists. */
export const createdEventData = (db: Db, orderIds: readonly string[]) =>
  orderIds.length === 0
    ? Promise.resolve([])
    : db.selectFrom('order_events').select(['order_id', 'data']).where('order_id', 'in', orderIds).where('type', '=', 'order.created').execute();

export const listEvents = (db: Db, orderId: string) =>
  db.selectFrom('order_events').selectAll().where('order_id', '=', orderId).orderBy('created_at').orderBy('id').execute();

/** The order's push job (or, with `action`, its platform cancellation job). */
export const findJobByOrder = (db: Db | Tx, orderId: string, action: FulfillmentAction = 'push') =>
  db.selectFrom('fulfillment_jobs').selectAll().where('order_id', '=', orderId).where('action', '=', action).executeTakeFirst();

export const findIdempotency = (db: Db | Tx, scope: string, key: string) =>
  db.selectFrom('idempotency_records').selectAll().where('scope', '=', scope).where('key', '=', key).executeTakeFirst();

export const insertIdempotency = (tx: Tx, row: IdempotencyRecordsTable) => tx.insertInto('idempotency_records').values(row).execute();

export const deleteIdempotencyBefore = (db: Db, before: string) =>
  db.deleteFrom('idempotency_records').where('created_at', '<', before).execute();

export const updateOrderCity = (
  tx: Tx,
  id: string,
  city: Pick<OrdersTable, 'departamento' | 'ciudad' | 'city_code' | 'city_match' | 'needs_review' | 'updated_at'>,
) => tx.updateTable('orders').set(city).where('id', '=', id).execute();

/** A held outbox job becomes due once its order's city is resolved (SPEC 6, 7). */
export const releaseHeldJob = (tx: Tx, orderId: string, now: string) =>
  tx
    .updateTable('fulfillment_jobs')
    .set({ state: 'queued', next_attempt_at: now, updated_at: now })
    .where('order_id', '=', orderId)
    .where('action', '=', 'push')
    .where('state', '=', 'held')
    .executeTakeFirst();

export const updateOrderFulfillment = (tx: Tx, id: string, change: Pick<OrdersTable, 'status' | 'fulfillment_status' | 'updated_at'> & Partial<Pick<OrdersTable, 'tracking_number'>>) =>
  tx.updateTable('orders').set(change).where('id', '=', id).execute();

export interface AccountOrderFilter {
  /** null: every account (the operator). */
  accountId: string | null;
  storeId?: string | undefined;
  statuses?: readonly OrderStatus[] | undefined;
  needsReview?: boolean | undefined;
  sandbox?: boolean | undefined;
  /** Order number, buyer name or phone. */
  text?: string | undefined;
  /** not_pushed, pushed (the push job is done) or push_failed (failed or dead). */
  pushState?: 'not_pushed' | 'pushed' | 'push_failed' | undefined;
  /** Created within these UTC windows, one per store (each store's days in its own timezone). */
  created?: readonly { storeId: string; from?: string | undefined; to?: string | undefined }[] | undefined;
  /** The stored (catalog) region, case aside. */
  departamento?: string | undefined;
  productId?: string | undefined;
  /** Where the buyer's confirmation stands (issue 25). */
  confirmation?: ConfirmationState | undefined;
  /** Return risk at least this. */
  riskMin?: number | undefined;
  /** newest first (default), or highest risk first (then newest). */
  sort?: 'newest' | 'risk' | undefined;
  /** Keyset: rows strictly after this (risk score when sorting by risk, created_at, id) in descending order. */
  after?: { risk?: number | undefined; createdAt: string; id: string } | undefined;
  limit: number;
}

/** One page of an account's orders, newest first, keyset over (created_at, id) (MCP-TOOLS.md §5.8). */
export const listAccountOrders = (db: Db, f: AccountOrderFilter) => {
  let q = db
    .selectFrom('orders')
    .innerJoin('stores', 'stores.id', 'orders.store_id')
    .selectAll('orders')
    .select('stores.name as store_name');
  if (f.accountId !== null) q = q.where('stores.account_id', '=', f.accountId);
  if (f.storeId) q = q.where('orders.store_id', '=', f.storeId);
  if (f.statuses?.length) q = q.where('orders.status', 'in', f.statuses);
  if (f.needsReview !== undefined) q = q.where('orders.needs_review', '=', f.needsReview ? 1 : 0);
  if (f.sandbox !== undefined) q = q.where('orders.sandbox', '=', f.sandbox ? 1 : 0);
  if (f.productId) q = q.where('orders.product_id', '=', f.productId);
  if (f.departamento) q = q.where(sql<string>`lower(orders.departamento)`, '=', f.departamento.toLowerCase());
  if (f.pushState) {
    const states = f.pushState === 'pushed' ? (['done'] as const) : f.pushState === 'push_failed' ? (['failed', 'dead'] as const) : (['done', 'failed', 'dead'] as const);
    const not = f.pushState === 'not_pushed';
    q = q.where((eb) => {
      const job = eb.exists(
        eb.selectFrom('fulfillment_jobs').select('fulfillment_jobs.id').whereRef('fulfillment_jobs.order_id', '=', 'orders.id').where('fulfillment_jobs.action', '=', 'push').where('fulfillment_jobs.state', 'in', [...states]),
      );
      return not ? eb.not(job) : job;
    });
  }
  const windows = f.created;
  if (windows)
    q = q.where((eb) =>
      eb.or(
        windows.map((w) =>
          eb.and([
            eb('orders.store_id', '=', w.storeId),
            ...(w.from ? [eb('orders.created_at', '>=', w.from)] : []),
            ...(w.to ? [eb('orders.created_at', '<', w.to)] : []),
          ]),
        ),
      ),
    );
  const text = f.text;
  if (text) {
    const digits = text.replace(/\D+/g, '');
    q = q.where((eb) => {
      const contains = (column: 'orders.nombre' | 'orders.telefono' | 'orders.ciudad') => containing(db, column, text);
      const ors: Expression<SqlBool>[] = [contains('orders.nombre'), contains('orders.telefono'), contains('orders.ciudad')];
      if (digits.length >= 3) ors.push(eb('orders.telefono_e164', 'like', `%${digits}%`));
      if (/^\d{1,12}$/.test(text)) ors.push(eb('orders.order_number', '=', Number(text)));
      return eb.or(ors);
    });
  }
  if (f.confirmation) q = q.where('orders.confirmation', '=', f.confirmation);
  if (f.riskMin !== undefined) q = q.where('orders.risk_score', '>=', f.riskMin);
  const after = f.after;
  if (after) {
    const risk = f.sort === 'risk' ? after.risk : undefined;
    q = q.where((eb) => {
      const newer = eb.or([eb('orders.created_at', '<', after.createdAt), eb.and([eb('orders.created_at', '=', after.createdAt), eb('orders.id', '<', after.id)])]);
      return risk === undefined ? newer : eb.or([eb('orders.risk_score', '<', risk), eb.and([eb('orders.risk_score', '=', risk), newer])]);
    });
  }
  if (f.sort === 'risk') q = q.orderBy('orders.risk_score', 'desc');
  return q.orderBy('orders.created_at', 'desc').orderBy('orders.id', 'desc').limit(f.limit).execute();
};

/** Orders keep their record when the landing page that took them is deleted; only the link goes. */
export const detachOrdersFromLanding = (tx: Tx, landingId: string) =>
  tx.updateTable('orders').set({ landing_page_id: null }).where('landing_page_id', '=', landingId).executeTakeFirst();

/** Live orders of some stores created in a UTC window, with their push job's state (account stats). */
export const liveOrdersForStats = (db: Db, storeIds: readonly string[], from: string, to: string) =>
  storeIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('orders')
        .leftJoin('fulfillment_jobs', (join) => join.onRef('fulfillment_jobs.order_id', '=', 'orders.id').on('fulfillment_jobs.action', '=', 'push'))
        .select(['orders.store_id', 'orders.status', 'orders.total_price_minor', 'orders.currency', 'orders.created_at', 'orders.risk_score', 'orders.confirmation', 'orders.confirmation_asked_at', 'orders.confirmed_at', 'orders.confirmed_by', 'fulfillment_jobs.state as job'])
        .where('orders.store_id', 'in', storeIds)
        .where('orders.sandbox', '=', 0)
        .where('orders.created_at', '>=', from)
        .where('orders.created_at', '<', to)
        .execute();

/** A store's push jobs that have not started: what a change of its push policy re-decides. */
export const unstartedJobsOfStore = (db: Db | Tx, storeId: string) =>
  db
    .selectFrom('fulfillment_jobs')
    .innerJoin('orders', 'orders.id', 'fulfillment_jobs.order_id')
    .select(['fulfillment_jobs.id as job_id', 'fulfillment_jobs.state', 'orders.status', 'orders.needs_review', 'orders.risk_score'])
    .where('orders.store_id', '=', storeId)
    .where('fulfillment_jobs.action', '=', 'push')
    .where('fulfillment_jobs.state', 'in', ['queued', 'held'])
    .execute();

/** Holds or releases a job that has not started (never one in flight, failed, dead or done). */
export const setUnstartedJobState = (db: Db | Tx, jobId: string, state: 'queued' | 'held', now: string) =>
  db
    .updateTable('fulfillment_jobs')
    .set({ state, next_attempt_at: now, updated_at: now })
    .where('id', '=', jobId)
    .where('state', 'in', ['queued', 'held'])
    .executeTakeFirst();

/** One page of an order's timeline, oldest first. */
export const listEventPage = (db: Db, f: { orderId: string; after?: After | undefined; limit: number }) => {
  let q = db.selectFrom('order_events').selectAll().where('order_id', '=', f.orderId);
  if (f.after) q = q.where(afterKey('created_at', 'id', f.after));
  return q.orderBy('created_at').orderBy('id').limit(f.limit).execute();
};

export const updateOrder = (tx: Tx, id: string, change: Updateable<OrdersTable>) => tx.updateTable('orders').set(change).where('id', '=', id).execute();

/** The other orders of a buyer's phone across an account (issue 25's risk history), newest first, a bounded few. */
const ordersOfPhone = compiledOnce((db, accountId: string, phone: string, sandbox: number, excludeId: string) =>
  db
    .selectFrom('orders as o')
    .innerJoin('stores as s', 's.id', 'o.store_id')
    // What the score reads, and what a new order's duplicate check compares (store, product, pack, quantity).
    .select(['o.id', 'o.store_id', 'o.status', 'o.cancel_reason', 'o.confirmation', 'o.created_at', 'o.product_id', 'o.pack', 'o.quantity'])
    .where('s.account_id', '=', accountId)
    .where('o.telefono_e164', '=', phone)
    .where('o.sandbox', '=', sandbox)
    .where('o.id', '!=', excludeId)
    .orderBy('o.created_at', 'desc')
    .limit(PHONE_HISTORY_LIMIT),
);
export const phoneOrders = (db: Db | Tx, k: { accountId: string; phone: string; sandbox: number; excludeId: string }) => ordersOfPhone(db, k.accountId, k.phone, k.sandbox, k.excludeId);

export type PhoneOrder = Awaited<ReturnType<typeof phoneOrders>>[number];

/** Orders whose confirmation step (reminder, call queue) is due, oldest first (issue 25). */
export const dueConfirmations = (db: Db, now: string, limit: number) =>
  db.selectFrom('orders').select(['id']).where('confirmation_due_at', '<=', now).orderBy('confirmation_due_at').limit(limit).execute();

export const findOrderByCorrectionHash = (db: Db | Tx, hash: string) => db.selectFrom('orders').selectAll().where('correction_token_hash', '=', hash).executeTakeFirst();

/** Uses a correction link once: true for the one request that cleared it. */
export const consumeCorrection = async (tx: Tx, orderId: string, hash: string) =>
  (await tx.updateTable('orders').set({ correction_token_hash: null, correction_expires_at: null }).where('id', '=', orderId).where('correction_token_hash', '=', hash).executeTakeFirst()).numUpdatedRows === 1n;

/** Orders whose confirmation is still open, by state (the metrics' gauge; answered ones are history). */
export const countConfirmations = (db: Db) =>
  db.selectFrom('orders').select(['confirmation', (eb) => eb.fn.countAll<number>().as('n')]).where('confirmation', 'is not', null).where('confirmation', '!=', 'answered').groupBy('confirmation').execute();
