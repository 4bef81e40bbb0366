// Outbound webhooks (issue 21): endpoints, the events written for them, deliveries and their tries.
// Claiming and settling deliveries is the outbox machinery's (outbox.queries.ts).
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../connect.ts';
import type { Tx } from '../transaction.ts';
import type { WebhookAttemptsTable, WebhookDeliveriesTable, WebhookEndpointsTable, WebhookEventsTable } from '../tables/index.ts';
import { before, type After } from './keyset.ts';
import { compiledOnce } from '../compiled-query.ts';

export type EndpointRow = Selectable<WebhookEndpointsTable>;
export type WebhookEventRow = Selectable<WebhookEventsTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;

export const insertEndpoint = (db: Db | Tx, row: EndpointRow) => db.insertInto('webhook_endpoints').values(row).execute();

export const findEndpoint = (db: Db | Tx, id: string) => db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();

export const updateEndpoint = (db: Db | Tx, id: string, change: Updateable<WebhookEndpointsTable>) => db.updateTable('webhook_endpoints').set(change).where('id', '=', id).execute();

/** A store's endpoints that receive events now (enabled). */
export const enabledEndpointsOfStore = (db: Db | Tx, storeId: string) => db.selectFrom('webhook_endpoints').selectAll().where('store_id', '=', storeId).where('status', '=', 'enabled').execute();

export const countEndpointsOfStore = async (db: Db | Tx, storeId: string) =>
  Number((await db.selectFrom('webhook_endpoints').select((eb) => eb.fn.countAll<number>().as('n')).where('store_id', '=', storeId).executeTakeFirstOrThrow()).n);

/** Whether a store has any endpoint at all: without one no event is written (the order hot path stays as it was). */
const anEndpoint = compiledOnce((db, storeId: string) => db.selectFrom('webhook_endpoints').select('id').where('store_id', '=', storeId).limit(1));
export const storeHasEndpoints = async (db: Db | Tx, storeId: string) => (await anEndpoint(db, storeId)).length > 0;

export interface EndpointFilter {
  accountId: string | null;
  storeId?: string | undefined;
  after?: After | undefined;
  limit: number;
}

export const listEndpointPage = (db: Db, f: EndpointFilter) => {
  let q = db.selectFrom('webhook_endpoints').selectAll();
  if (f.accountId !== null) q = q.where('account_id', '=', f.accountId);
  if (f.storeId) q = q.where('store_id', '=', f.storeId);
  if (f.after) q = q.where(before('created_at', 'id', f.after));
  return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(f.limit).execute();
};

/** Removes an endpoint with its deliveries and their log (the events stay, for other endpoints and replays). */
export async function deleteEndpoint(tx: Tx, id: string): Promise<void> {
  await tx.deleteFrom('webhook_attempts').where('delivery_id', 'in', (eb) => eb.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', id)).execute();
  await tx.deleteFrom('webhook_deliveries').where('endpoint_id', '=', id).execute();
  await tx.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
}

/** Deliveries of an endpoint that will not go now (it was disabled): cancelled. */
export const cancelPendingDeliveries = (db: Db | Tx, endpointId: string, now: string, reason: string) =>
  db.updateTable('webhook_deliveries').set({ state: 'cancelled', last_error: reason, updated_at: now }).where('endpoint_id', '=', endpointId).where('state', 'in', ['queued', 'failed']).execute();

/** Writes an event; its seq orders one order's deliveries. */
export const insertWebhookEvent = async (tx: Tx, row: Omit<Insertable<WebhookEventsTable>, 'seq'>) =>
  (await tx.insertInto('webhook_events').values(row).returning('seq').executeTakeFirstOrThrow()).seq;

export const findWebhookEvent = (db: Db | Tx, id: string) => db.selectFrom('webhook_events').selectAll().where('id', '=', id).executeTakeFirst();

export interface EventFilter {
  accountId: string | null;
  storeId?: string | undefined;
  type?: string | undefined;
  since?: string | undefined;
  after?: After | undefined;
  limit: number;
}

/** Events newest first, or (for a replay) every one since a time, oldest first. */
export const listEventPage = (db: Db, f: EventFilter) => {
  let q = db.selectFrom('webhook_events').selectAll();
  if (f.accountId !== null) q = q.where('account_id', '=', f.accountId);
  if (f.storeId) q = q.where('store_id', '=', f.storeId);
  if (f.type) q = q.where('type', '=', f.type);
  if (f.since) q = q.where('created_at', '>=', f.since);
  if (f.after) q = q.where(before('created_at', 'id', f.after));
  return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(f.limit).execute();
};

/** Events since a time, oldest first, but those of one type (a replay leaves out `webhooks test` events). */
export const eventsSince = (db: Db | Tx, f: { accountId: string | null; since: string; exceptType: string; limit: number }) => {
  let q = db.selectFrom('webhook_events').selectAll().where('created_at', '>=', f.since).where('type', '!=', f.exceptType);
  if (f.accountId !== null) q = q.where('account_id', '=', f.accountId);
  return q.orderBy('seq').limit(f.limit).execute();
};

export const insertDelivery = (tx: Tx, row: DeliveryRow) => tx.insertInto('webhook_deliveries').values(row).execute();

export const findDelivery = (db: Db | Tx, id: string) => db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst();

/** One try of a delivery, and what it last saw, for the log. */
export async function recordDeliveryTry(db: Db | Tx, row: Insertable<WebhookAttemptsTable>): Promise<void> {
  await db.insertInto('webhook_attempts').values(row).onConflict((oc) => oc.doNothing()).execute();
  await db.updateTable('webhook_deliveries').set({ last_status: row.status ?? null, last_latency_ms: row.latency_ms }).where('id', '=', row.delivery_id).execute();
}

export interface DeliveryFilter {
  endpointId: string;
  state?: string | undefined;
  after?: After | undefined;
  limit: number;
}

/** An endpoint's deliveries, newest first, with their event's type. */
export const listDeliveryPage = (db: Db, f: DeliveryFilter) => {
  let q = db.selectFrom('webhook_deliveries as d').innerJoin('webhook_events as e', 'e.id', 'd.event_id').selectAll('d').select(['e.type as event_type', 'e.order_id']).where('d.endpoint_id', '=', f.endpointId);
  if (f.state) q = q.where('d.state', '=', f.state as DeliveryRow['state']);
  if (f.after) q = q.where(before('d.created_at', 'd.id', f.after));
  return q.orderBy('d.created_at', 'desc').orderBy('d.id', 'desc').limit(f.limit).execute();
};

export const triesOf = (db: Db, deliveryIds: readonly string[]) =>
  deliveryIds.length === 0 ? Promise.resolve([]) : db.selectFrom('webhook_attempts').selectAll().where('delivery_id', 'in', deliveryIds).orderBy('delivery_id').orderBy('attempt').execute();

/** Every endpoint's sealed secrets (`codrail secrets rotate`). */
export const allEndpointSecrets = (db: Db) => db.selectFrom('webhook_endpoints').select(['id', 'secret_sealed', 'previous_secret_sealed']).execute();
