// The fulfillment outbox (SPEC 7; issue 12): push jobs create the order at the platform, cancel jobs
// cancel what a push created. The worker inside `codrail serve` runs them on the one outbox loop
// (src/outbox/outbox-loop.ts); the push and cancel tools run one claimed job at once through the
// same `attemptJob`. The platform has no idempotency, so any push attempt after the first looks the
// order up by external reference before it creates anything: at most one platform order per codrail
// order, even after a crash mid-push, a replay or a tool's push racing the worker (the lease decides).
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/connect.ts';
import { writeTransaction } from '../db/transaction.ts';
import { abandonJob, claimDueJobs, findJob, finishJob, killJob, markConnection, pushPayloadRows, recordIntent, reportIntentAfterLostLease, retryJob, type JobRow } from '../db/queries/fulfillment.queries.ts';
import { findJobByOrder, findOrder, insertEvent } from '../db/queries/orders.queries.ts';
import { newId } from '../ids.ts';
import { FULFILLMENT_BACKOFF_MAX_MS, FULFILLMENT_CANCEL_WAIT_MS, FULFILLMENT_LEASE_MARGIN_MS, FULFILLMENT_POLL_MS } from '../limits.ts';
import { OutboxLoop, backoffMs as outboxBackoff } from '../outbox/outbox-loop.ts';
import type { SecretKeys } from '../secret-keys.ts';
import type { OutboundClient } from '../http/outbound/outbound-client.ts';
import { OutboundError } from '../http/outbound/outbound-error.ts';
import { AttemptFailure, classifyFailure } from '../outbox/attempt-failure.ts';
import { intentAfter, type IntentChange, type TryRecord } from '../outbox/intent.ts';
import type { Failpoints } from '../failpoints.ts';
import type { CreatePlatformOrder, PLATFORM_STATUSES, PlatformOrder } from './contract.ts';
import { applyStatusReport, type StatusReportHook } from './apply-status.ts';
import { platformFor } from './connections.ts';

export interface WorkerDeps {
  config: Config;
  db: Db;
  log: Logger;
  clock: Clock;
  secrets: SecretKeys;
  outbound: OutboundClient;
  failpoints: Failpoints;
  /** Called inside the transaction that moves an order's status (WhatsApp notifications). */
  onStatus?: StatusReportHook | undefined;
}

type Row = NonNullable<Awaited<ReturnType<typeof pushPayloadRows>>>;

/** The contract's create body for an order (docs/fulfillment-platform.md). */
export function platformOrder(o: Row): CreatePlatformOrder {
  const [name = o.nombre, ...rest] = o.nombre.trim().split(/\s+/);
  return {
    external_ref: o.id,
    name,
    surname: rest.join(' '),
    phone: o.telefono_e164,
    state: o.departamento,
    city: o.ciudad,
    city_code: o.city_code,
    address: o.direccion,
    neighborhood: o.barrio ?? o.colonia ?? null,
    notes: o.referencia,
    rate_type: 'CON RECAUDO',
    total_to_collect: o.total_price_minor / 100,
    currency: o.currency,
    products: [
      {
        sku: o.fulfillment_product_ref ?? o.product_sku,
        name: o.product_name,
        pack: o.pack,
        quantity: o.quantity,
        unit_price: o.unit_price_minor / 100,
        product_id: o.fulfillment_product_ref,
        variant_id: o.fulfillment_variant_ref,
      },
    ],
  };
}

/** Exponential backoff with jitter, capped at FULFILLMENT_BACKOFF_MAX_MS. */
export const backoffMs = (attempt: number, baseMs: number, random: () => number = Math.random): number => outboxBackoff(attempt, baseMs, FULFILLMENT_BACKOFF_MAX_MS, random);

/** A lease outlives an attempt (a lookup and a create, each bounded by the timeout); after it a crashed attempt's job is reclaimed. */
export const leaseMs = (config: Config) => config.fulfillmentTimeoutMs * 3 + FULFILLMENT_LEASE_MARGIN_MS;

async function event(db: Db, job: JobRow, storeId: string, type: string, data: object, now: string) {
  await insertEvent(db, { id: newId(), order_id: job.order_id, store_id: storeId, type, actor: 'system', data: JSON.stringify(data), created_at: now });
}

/**
 * A failed attempt: dead when the platform refused the request itself, or when the job has been
 * trying for longer than --fulfillment-give-up-after (by time, not by count: an outage shorter than
 * that heals by itself); else due again after the backoff. `intents` is what this try learnt about
 * the requests that may have acted (src/outbox/intent.ts): only what is known lowers the count.
 */
async function settleFailure(deps: WorkerDeps, job: JobRow, storeId: string, error: unknown, intents: IntentChange, minDelayMs = 0): Promise<void> {
  const { db, log, clock, config } = deps;
  // Not the platform's answer: a database error or a bug. Its cause is logged once with the job, and
  // the job still retries (an order is never dropped for our own error), marked as internal.
  if (!(error instanceof AttemptFailure || error instanceof OutboundError)) log.error({ err: error, jobId: job.id, orderId: job.order_id, action: job.action }, 'fulfillment: an attempt failed on our side (not the platform)');
  const failure = classifyFailure(error);
  const now = clock.now();
  const verb = job.action === 'cancel' ? 'cancel' : 'push';
  if (failure.status === 401 || failure.status === 403) await markConnection(db, storeId, { ok: false, at: now.toISOString(), error: failure.message });
  const trying = now.getTime() - Date.parse(job.first_attempt_at ?? job.updated_at);
  if (failure.kind === 'permanent' || trying >= config.fulfillmentGiveUpAfterMs) {
    if (await killJob(db, job, failure.kind === 'permanent' ? failure.message : `gave up after ${Math.round(trying / 60_000)} min of tries: ${failure.message}`, now.toISOString(), intents)) {
      await event(db, job, storeId, job.action === 'cancel' ? 'fulfillment.cancel_dead' : 'fulfillment.dead', { attempts: job.attempts, error: failure.message }, now.toISOString());
      log.error({ orderId: job.order_id, attempts: job.attempts, error: failure.message }, `fulfillment: ${verb} is dead`);
    }
    return;
  }
  // Retry-After is honoured, but a platform cannot park a job beyond the backoff cap.
  const cap = config.fulfillmentBackoffMaxMs;
  const delay = Math.max(minDelayMs, outboxBackoff(job.attempts, config.fulfillmentBackoffMs, cap), Math.min(failure.retryAfterMs ?? 0, cap));
  await retryJob(db, job, failure.message, new Date(now.getTime() + delay).toISOString(), now.toISOString(), intents);
  log.warn({ orderId: job.order_id, attempt: job.attempts, kind: failure.kind, retryInMs: delay, error: failure.message }, `fulfillment: ${verb} failed, will retry`);
}

/** The contract's status of a cancelled order (docs/fulfillment-platform.md). */
const CANCELLED: (typeof PLATFORM_STATUSES)[number] = 'CANCELADO';

/** The lease ran out before this try could act or record: the job's new holder carries it on. */
class LeaseLost extends Error {
  override readonly name = 'LeaseLost';
}

/**
 * One request that acts on the platform, under the intent rule: the intent is recorded (and
 * committed) before the request leaves; the request's own failure is kept for the settle.
 */
async function act<T>(deps: WorkerDeps, job: JobRow, step: 'push' | 'cancel', t: TryRecord, request: () => Promise<T>): Promise<T> {
  if (!(await recordIntent(deps.db, job, deps.clock.now().toISOString()))) throw new LeaseLost(`the lease of job ${job.id} was lost before the ${step} request`);
  t.intentRecorded = true;
  await deps.failpoints.hit(step === 'push' ? 'push.before_request' : 'cancel.before_request');
  try {
    return await request();
  } catch (error) {
    t.effectError = error;
    throw error;
  }
}

/**
 * A try that acted and then lost its lease before recording: the job's count of unknown outcomes is
 * raised whatever its state (unless done), so no later try takes the order for absent. If another
 * holder already finished the job with another platform order, the platform holds two: said loudly.
 */
async function afterLostLease(deps: WorkerDeps, job: JobRow, remoteId: string | undefined): Promise<void> {
  await reportIntentAfterLostLease(deps.db, job.id, deps.clock.now().toISOString());
  const now = await findJob(deps.db, job.id);
  if (now?.state === 'done' && remoteId !== undefined && now.remote_id !== remoteId && job.action === 'push')
    deps.log.error({ orderId: job.order_id, remoteIds: [now.remote_id, remoteId] }, 'fulfillment: the platform may hold two orders for one reference (an attempt outlived its lease)');
  else deps.log.warn({ orderId: job.order_id, jobId: job.id, remoteId }, `fulfillment: lease lost before the ${job.action} was recorded; the next holder looks it up first`);
}

async function attemptPush(deps: WorkerDeps, job: JobRow): Promise<void> {
  const { db, log, clock, failpoints } = deps;
  const row = await pushPayloadRows(db, job.order_id);
  if (!row) return void (await killJob(db, job, 'order not found', clock.now().toISOString()));
  if (row.status === 'cancelled') {
    // Cancelled while this push was due: it never goes out; the cancel job cleans up any earlier attempt.
    await abandonJob(db, job, clock.now().toISOString());
    return;
  }
  if (row.fulfillment_unlinked_at !== null && row.fulfillment_product_ref === null)
    return settleFailure(deps, job, row.store_id, new AttemptFailure('permanent', `product "${row.product_name}" was unlinked from the platform: link it (link_product_to_fulfillment), then push the order again`), 'keep');
  const t: TryRecord = { intentRecorded: false, lookedUpNothing: false };
  let placed: PlatformOrder | undefined;
  try {
    const access = await platformFor(deps, row.store_id);
    if (!access) throw new AttemptFailure('retry', 'no fulfillment platform configured (CODRAIL_FULFILLMENT_URL)');
    let reconciled = false;
    if (job.unknown_outcome > 0) {
      // An earlier request may have created it (a lost answer, a failed record, a crash): never
      // create twice. Only then is the order looked up; a look-up that finds nothing and the create are one try.
      const existing = await access.client.findByRef(row.id);
      if (existing.length > 1) log.warn({ orderId: row.id, remoteIds: existing.map((o) => o.id) }, 'fulfillment: the platform has several orders for one reference');
      placed = existing[0];
      reconciled = placed !== undefined;
      t.lookedUpNothing = !reconciled;
    }
    placed ??= await act(deps, job, 'push', t, () => access.client.create(platformOrder(row)));
    const order = placed;
    await failpoints.hit('push.after_answer');
    const now = clock.now().toISOString();
    const settled = await writeTransaction(db, async (tx) => {
      if (!(await finishJob(tx, job, order.id, now))) return false;
      await insertEvent(tx, { id: newId(), order_id: row.id, store_id: row.store_id, type: 'fulfillment.pushed', actor: 'system', data: JSON.stringify({ remote_id: order.id, attempts: job.attempts, reconciled, credentials: access.source }), created_at: now });
      await applyStatusReport(tx, row.id, order.status, { via: 'push', actor: 'system', remoteId: order.id, tracking: order.tracking_number ?? undefined }, now, deps.onStatus);
      await failpoints.hit('push.during_record');
      return true;
    });
    if (access.source === 'store') await markConnection(db, row.store_id, { ok: true, at: now });
    if (settled) log.info({ orderId: row.id, remoteId: order.id, attempts: job.attempts, reconciled }, 'fulfillment: pushed');
    else await afterLostLease(deps, job, order.id);
  } catch (error) {
    if (error instanceof LeaseLost) return void log.warn({ orderId: row.id, jobId: job.id }, error.message);
    await settleFailure(deps, job, row.store_id, error, intentAfter(t));
  }
}

async function attemptCancel(deps: WorkerDeps, job: JobRow): Promise<void> {
  const { db, log, clock, failpoints } = deps;
  const order = await findOrder(db, job.order_id);
  if (!order) return void (await killJob(db, job, 'order not found', clock.now().toISOString()));
  const push = await findJobByOrder(db, order.id, 'push');
  if (push?.state === 'in_flight' && (push.lease_until ?? '') > clock.now().toISOString())
    // The push may be creating the order right now: cancel once its outcome is recorded.
    return settleFailure(deps, job, order.store_id, new AttemptFailure('retry', 'waiting for the push in flight'), 'keep', FULFILLMENT_CANCEL_WAIT_MS);
  const t: TryRecord = { intentRecorded: false, lookedUpNothing: false };
  try {
    const access = await platformFor(deps, order.store_id);
    if (!access) throw new AttemptFailure('retry', 'no fulfillment platform configured (CODRAIL_FULFILLMENT_URL)');
    // Whatever a push may have created, also by an attempt whose answer was lost.
    const remoteIds = push?.remote_id ? [push.remote_id] : (await access.client.findByRef(order.id)).map((o) => o.id);
    const cancelled: string[] = [];
    for (const id of remoteIds) {
      try {
        // An earlier cancel request may have acted: read the order before acting again.
        if (job.unknown_outcome > 0 && (await access.client.get(id)).status === CANCELLED) {
          cancelled.push(id);
          continue;
        }
        await act(deps, job, 'cancel', t, () => access.client.cancel(id));
        cancelled.push(id);
      } catch (error) {
        // Deleted at the platform by hand: nothing left to cancel there.
        if (!(error instanceof OutboundError && error.kind === 'status' && error.status === 404)) throw error;
        t.effectError = undefined;
      }
    }
    await failpoints.hit('cancel.after_answer');
    const now = clock.now().toISOString();
    const settled = await writeTransaction(db, async (tx) => {
      if (!(await finishJob(tx, job, remoteIds[0] ?? null, now))) return false;
      await insertEvent(tx, { id: newId(), order_id: order.id, store_id: order.store_id, type: 'fulfillment.cancelled', actor: 'system', data: JSON.stringify({ remote_ids: cancelled, attempts: job.attempts }), created_at: now });
      if (cancelled.length) await applyStatusReport(tx, order.id, CANCELLED, { via: 'cancel', actor: 'system', remoteId: cancelled[0]! }, now, deps.onStatus);
      await failpoints.hit('cancel.during_record');
      return true;
    });
    if (settled) log.info({ orderId: order.id, remoteIds: cancelled }, 'fulfillment: cancelled at the platform');
    else await afterLostLease(deps, job, undefined);
  } catch (error) {
    if (error instanceof LeaseLost) return void log.warn({ orderId: order.id, jobId: job.id }, error.message);
    await settleFailure(deps, job, order.store_id, error, intentAfter(t));
  }
}

/** One attempt of a claimed job, by the worker or by a tool that pushes now. */
export function attemptJob(deps: WorkerDeps, job: JobRow): Promise<void> {
  return job.action === 'cancel' ? attemptCancel(deps, job) : attemptPush(deps, job);
}

export class OutboxWorker {
  readonly #loop: OutboxLoop<JobRow>;

  constructor(deps: WorkerDeps) {
    const { config } = deps;
    if (!config.fulfillmentUrl) throw new Error('No fulfillment platform URL configured');
    const lease = leaseMs(config);
    this.#loop = new OutboxLoop<JobRow>({
      name: 'fulfillment',
      concurrency: config.fulfillmentConcurrency,
      pollMs: FULFILLMENT_POLL_MS,
      log: deps.log,
      claim: (limit) => {
        const now = deps.clock.now();
        return writeTransaction(deps.db, (tx) => claimDueJobs(tx, now.toISOString(), new Date(now.getTime() + lease).toISOString(), limit));
      },
      attempt: (job) => attemptJob(deps, job),
    });
  }

  start(): void {
    this.#loop.start();
  }

  /** Stops claiming and waits for the attempts in flight (a SIGTERM drain). */
  stop(): Promise<void> {
    return this.#loop.stop();
  }

  /** Look for due jobs now (after an order was written). */
  nudge(): void {
    this.#loop.nudge();
  }
}
