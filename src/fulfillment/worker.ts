// The fulfillment outbox (SPEC 7; issue 12): push jobs create the order at the platform, cancel jobs
// cancel what a push created. It is one kind of the one outbox machinery (src/outbox/outbox.ts),
// which claims, settles, backs off, gives up and keeps the per-store circuit; this file holds only
// what is the platform's: the requests, and what a success records. The push and cancel tools run
// one claimed job at once through the same machinery. The platform has no idempotency, so a push
// after a try that may have created the order looks it up by external reference first (the intent
// rule, src/outbox/intent.ts): at most one platform order per codrail order, even after a crash
// mid-push, a failed record, a replay or a tool's push racing the worker (the lease decides).
import type { Config } from '../config.ts';
import { writeTransaction, type Tx } from '../db/transaction.ts';
import { connectedStores, findConnection, findJob, heldConnections, markConnection, pauseConnection, pushPayloadRows, type JobRow } from '../db/queries/fulfillment.queries.ts';
import { settleAs, type OutboxTable } from '../db/queries/outbox.queries.ts';
import { findJobByOrder, findOrder } from '../db/queries/orders.queries.ts';
import { FULFILLMENT_CANCEL_WAIT_MS, FULFILLMENT_LEASE_MARGIN_MS, FULFILLMENT_POLL_MS } from '../limits.ts';
import { Outbox, type Attempt, type Held, type KindDeps, type OutboxKind } from '../outbox/outbox.ts';
import { OutboundError } from '../http/outbound/outbound-error.ts';
import { AttemptFailure } from '../outbox/attempt-failure.ts';
import type { PushOrder, RemoteOrder } from '../platforms/platform.ts';
import { platformNamed } from '../platforms/index.ts';
import { platformDestination, platformFor } from '../platforms/connections.ts';
import { applyStatusReport } from './apply-status.ts';

/** The fulfillment jobs as the outbox machinery sees them. */
export const FULFILLMENT_JOBS: OutboxTable = {
  name: 'fulfillment_jobs',
  state: 'state',
  waiting: ['queued', 'failed'],
  inFlight: 'in_flight',
  retrying: 'failed',
  done: 'done',
  dead: 'dead',
  over: ['done', 'dead', 'cancelled'],
  expiredLease: { reclaim: true },
};

type Row = NonNullable<Awaited<ReturnType<typeof pushPayloadRows>>>;

/** An order as the platform seam takes it (src/platforms/platform.ts). */
export function pushOrder(o: Row): PushOrder {
  return {
    id: o.id,
    order_number: o.order_number,
    created_at: o.created_at,
    country: o.country,
    currency: o.currency,
    nombre: o.nombre,
    telefono_e164: o.telefono_e164,
    departamento: o.departamento,
    ciudad: o.ciudad,
    city_code: o.city_code,
    direccion: o.direccion,
    barrio: o.barrio,
    colonia: o.colonia,
    distrito: o.distrito,
    codigo_postal: o.codigo_postal,
    referencia: o.referencia,
    total_price_minor: o.total_price_minor,
    product: {
      name: o.product_name,
      sku: o.product_sku,
      pack: o.pack,
      quantity: o.quantity,
      pack_units: o.pack_units,
      unit_price_minor: o.unit_price_minor,
      platform_ref: o.fulfillment_product_ref,
      variant_ref: o.fulfillment_variant_ref,
    },
  };
}

/** A lease outlives an attempt (a lookup and a create, each bounded by the timeout); after it a crashed attempt's job is reclaimed. */
export const leaseMs = (config: Config) => config.fulfillmentTimeoutMs * 3 + FULFILLMENT_LEASE_MARGIN_MS;

/**
 * A try that acted and then lost its lease before recording: the job says the order may exist
 * (the machinery), and if another holder already finished it with another platform order, the
 * platform holds two: said loudly.
 */
async function afterLostLease(deps: KindDeps, attempt: Attempt<JobRow>, remoteId: string | undefined): Promise<void> {
  const { job } = attempt;
  await attempt.lostAfterActing();
  const now = await findJob(deps.db, job.id);
  if (now?.state === 'done' && remoteId !== undefined && now.remote_id !== remoteId && job.action === 'push')
    deps.log.error({ orderId: job.order_id, remoteIds: [now.remote_id, remoteId] }, 'fulfillment: the platform may hold two orders for one reference (an attempt outlived its lease)');
  else deps.log.warn({ orderId: job.order_id, jobId: job.id, remoteId }, `fulfillment: lease lost before the ${job.action} was recorded; the next holder looks it up first`);
}

async function runPush(deps: KindDeps, attempt: Attempt<JobRow>): Promise<void> {
  const { db, log, clock, failpoints } = deps;
  const { job } = attempt;
  const row = await pushPayloadRows(db, job.order_id);
  if (!row) throw new AttemptFailure('permanent', 'order not found');
  if (row.status === 'cancelled') {
    // Cancelled while this push was due: it never goes out; the cancel job cleans up any earlier attempt.
    await settleAs(db, FULFILLMENT_JOBS, job, 'cancelled', clock.now().toISOString());
    return;
  }
  if (row.fulfillment_unlinked_at !== null && row.fulfillment_product_ref === null)
    throw new AttemptFailure('permanent', `product "${row.product_name}" was unlinked from the platform: link it (link_product_to_fulfillment), then push the order again`);
  const access = await platformFor(deps, row.store_id);
  if (!access) throw new AttemptFailure('retry', 'no fulfillment platform: the store has no connection and the server no default (CODRAIL_FULFILLMENT_URL)');
  let placed: RemoteOrder | undefined;
  let reconciled = false;
  if (job.unknown_outcome > 0) {
    // An earlier request may have created it (a lost answer, a failed record, a crash): never
    // create twice. Only then is the order looked up; a look-up that finds nothing and the create are one try.
    const existing = await access.session.findByRef(row);
    if (existing.length > 1) log.warn({ orderId: row.id, remoteIds: existing.map((o) => o.id) }, 'fulfillment: the platform has several orders for one reference');
    placed = existing[0];
    reconciled = placed !== undefined;
    if (!reconciled) attempt.lookedUpNothing();
  }
  placed ??= await attempt.act(() => access.session.create(pushOrder(row)), 'push.before_request');
  const order = placed;
  await failpoints.hit('push.after_answer');
  const now = clock.now().toISOString();
  const settled = await writeTransaction(db, async (tx) => {
    if (!(await attempt.done(tx, { remote_id: order.id }))) return false;
    await deps.orderEvents.record(tx, { order_id: row.id, store_id: row.store_id, type: 'fulfillment.pushed', actor: 'system', data: { remote_id: order.id, attempts: job.attempts, reconciled, credentials: access.source, platform: access.platform.name }, created_at: now });
    await applyStatusReport(deps, tx, row.id, access.platform, order.status, { via: 'push', actor: 'system', remoteId: order.id, tracking: order.tracking_number }, now);
    await failpoints.hit('push.during_record');
    return true;
  });
  if (access.source === 'store') await markConnection(db, row.store_id, { ok: true, at: now });
  if (settled) log.info({ orderId: row.id, remoteId: order.id, attempts: job.attempts, reconciled }, 'fulfillment: pushed');
  else await afterLostLease(deps, attempt, order.id);
}

async function runCancel(deps: KindDeps, attempt: Attempt<JobRow>): Promise<void> {
  const { db, log, clock, failpoints } = deps;
  const { job } = attempt;
  const order = await findOrder(db, job.order_id);
  if (!order) throw new AttemptFailure('permanent', 'order not found');
  const push = await findJobByOrder(db, order.id, 'push');
  if (push?.state === 'in_flight' && (push.lease_until ?? '') > clock.now().toISOString())
    // The push may be creating the order right now: cancel once its outcome is recorded.
    throw new AttemptFailure('retry', 'waiting for the push in flight', FULFILLMENT_CANCEL_WAIT_MS);
  const access = await platformFor(deps, order.store_id);
  if (!access) throw new AttemptFailure('retry', 'no fulfillment platform: the store has no connection and the server no default (CODRAIL_FULFILLMENT_URL)');
  // Whatever a push may have created, also by an attempt whose answer was lost.
  const remoteIds = push?.remote_id ? [push.remote_id] : (await access.session.findByRef(order)).map((o) => o.id);
  const cancelled: string[] = [];
  for (const id of remoteIds) {
    try {
      // An earlier cancel request may have acted: read the order before acting again.
      if (job.unknown_outcome > 0 && (await access.session.get(id)).status === access.platform.cancelled) {
        cancelled.push(id);
        continue;
      }
      await attempt.act(() => access.session.cancel(id), 'cancel.before_request');
      cancelled.push(id);
    } catch (error) {
      // Deleted at the platform by hand: nothing left to cancel there.
      if (!(error instanceof OutboundError && error.kind === 'status' && error.status === 404)) throw error;
      attempt.forget();
    }
  }
  await failpoints.hit('cancel.after_answer');
  const now = clock.now().toISOString();
  const settled = await writeTransaction(db, async (tx) => {
    if (!(await attempt.done(tx, { remote_id: remoteIds[0] ?? null }))) return false;
    await deps.orderEvents.record(tx, { order_id: order.id, store_id: order.store_id, type: 'fulfillment.cancelled', actor: 'system', data: { remote_ids: cancelled, attempts: job.attempts }, created_at: now });
    if (cancelled.length) await applyStatusReport(deps, tx, order.id, access.platform, access.platform.cancelled, { via: 'cancel', actor: 'system', remoteId: cancelled[0]! }, now);
    await failpoints.hit('cancel.during_record');
    return true;
  });
  if (settled) log.info({ orderId: order.id, remoteIds: cancelled }, 'fulfillment: cancelled at the platform');
  else await afterLostLease(deps, attempt, undefined);
}

/**
 * A failure settled: a refused token marks the connection, and one the platform says expired
 * pauses the store's pushes (an event, a webhook, the connection's view) until new credentials;
 * a job given up is an order event.
 */
async function failed(deps: KindDeps, tx: Tx, job: JobRow, failure: AttemptFailure, outcome: 'retry' | 'dead', at: string): Promise<void> {
  const order = await findOrder(tx, job.order_id);
  if (!order) return;
  if (failure.status === 401 || failure.status === 403) await markConnection(tx, order.store_id, { ok: false, at, error: failure.message });
  const connection = await findConnection(tx, order.store_id);
  if (connection && platformNamed(connection.platform).expired(failure)) {
    const paused = await pauseConnection(tx, order.store_id, failure.message, at);
    if (Number(paused.numUpdatedRows) === 1) {
      await deps.orderEvents.record(tx, { order_id: null, store_id: order.store_id, type: 'fulfillment.paused', actor: 'platform', data: { platform: connection.platform, reason: failure.message }, created_at: at });
      deps.log.warn({ storeId: order.store_id, platform: connection.platform, error: failure.message }, 'fulfillment: the platform refused the store\'s token; its pushes wait for new credentials (set_fulfillment_credentials)');
    }
  }
  if (outcome === 'dead')
    await deps.orderEvents.record(tx, { order_id: job.order_id, store_id: order.store_id, type: job.action === 'cancel' ? 'fulfillment.cancel_dead' : 'fulfillment.dead', actor: 'system', data: { attempts: job.attempts, error: failure.message }, created_at: at });
}

/** The fulfillment outbox kind: its table, its configured policy, its try. */
export function fulfillmentKind(deps: KindDeps): OutboxKind<JobRow> {
  const { config } = deps;
  return {
    name: 'fulfillment',
    destinationNoun: 'platform',
    subject: (job) => ({ orderId: job.order_id, action: job.action }),
    table: FULFILLMENT_JOBS,
    policy: {
      concurrency: config.fulfillmentConcurrency,
      pollMs: FULFILLMENT_POLL_MS,
      leaseMs: leaseMs(config),
      backoff: { baseMs: config.fulfillmentBackoffMs, maxMs: config.fulfillmentBackoffMaxMs },
      giveUp: { afterMs: config.fulfillmentGiveUpAfterMs },
    },
    onUnknown: 'look_up',
    run: (attempt) => (attempt.job.action === 'cancel' ? runCancel(deps, attempt) : runPush(deps, attempt)),
    failed: (tx, job, failure, outcome, at) => failed(deps, tx, job, failure, outcome, at),
    held: () => held(deps),
  };
}

/**
 * Paused connections wait; a platform that takes one job at a time gets one per connection (Dropi:
 * a locked key must not take the slots of other stores); without a server-wide platform, only
 * stores with their own connection can push.
 */
async function held(deps: KindDeps): Promise<Held> {
  const rows = await heldConnections(deps.db);
  const caps = new Map<string, number>();
  for (const r of rows) {
    const cap = platformNamed(r.platform).pacing.concurrency;
    if (Number.isFinite(cap)) caps.set(platformDestination(r.store_id), cap);
  }
  return {
    paused: rows.filter((r) => r.paused_at !== null).map((r) => platformDestination(r.store_id)),
    caps,
    only: deps.config.fulfillmentUrl ? undefined : (await connectedStores(deps.db)).map((r) => platformDestination(r.store_id)),
  };
}

/** The fulfillment outbox of `codrail serve`, and of a tool that pushes now (claim, then runClaimed). */
export class OutboxWorker extends Outbox<JobRow> {
  constructor(deps: KindDeps) {
    super({ ...deps }, fulfillmentKind(deps));
  }
}
