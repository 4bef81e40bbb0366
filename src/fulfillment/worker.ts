// The outbox worker inside `codrail serve` (SPEC 7): claims due jobs under a lease, pushes them
// with p-queue at bounded concurrency, retries with exponential backoff and full jitter (Retry-After
// wins when longer), and marks a job dead after the configured attempts. The platform has no
// idempotency, so any attempt after the first looks the order up by external reference before it
// creates anything: at most one platform order per codrail order, even after a crash mid-push.
import PQueue from 'p-queue';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/connect.ts';
import { writeTransaction } from '../db/transaction.ts';
import { claimDueJobs, finishJob, killJob, pushPayloadRows, retryJob, type JobRow } from '../db/queries/fulfillment.queries.ts';
import { insertEvent } from '../db/queries/orders.queries.ts';
import { newId } from '../ids.ts';
import { FULFILLMENT_BACKOFF_MAX_MS, FULFILLMENT_LEASE_MARGIN_MS, FULFILLMENT_POLL_MS } from '../limits.ts';
import { PlatformClient, PlatformError } from './client.ts';
import type { CreatePlatformOrder, PlatformOrder } from './contract.ts';
import { applyStatusReport } from './apply-status.ts';

export interface WorkerDeps {
  config: Config;
  db: Db;
  log: Logger;
  clock: Clock;
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
    products: [{ sku: o.fulfillment_product_ref ?? o.product_sku, name: o.product_name, pack: o.pack, quantity: o.quantity, unit_price: o.unit_price_minor / 100 }],
  };
}

/** Exponential backoff with jitter: a random delay between base/2 and base × 2^(attempt-1), capped. */
export function backoffMs(attempt: number, baseMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(FULFILLMENT_BACKOFF_MAX_MS, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(baseMs / 2 + random() * (ceiling - baseMs / 2));
}

export class OutboxWorker {
  readonly #deps: WorkerDeps;
  readonly #client: PlatformClient;
  readonly #queue: PQueue;
  readonly #leaseMs: number;
  #running = false;
  #loop: Promise<void> | undefined;
  #wake: (() => void) | undefined;

  constructor(deps: WorkerDeps) {
    const { config } = deps;
    if (!config.fulfillmentUrl) throw new Error('No fulfillment platform URL configured');
    this.#deps = deps;
    this.#client = new PlatformClient({ url: config.fulfillmentUrl, token: config.fulfillmentToken, timeoutMs: config.fulfillmentTimeoutMs });
    this.#queue = new PQueue({ concurrency: config.fulfillmentConcurrency });
    // The lease must outlive a push (a lookup and a create, each bounded by the timeout); after it a
    // crashed worker's job is reclaimed, and the reclaiming attempt looks the order up first.
    this.#leaseMs = config.fulfillmentTimeoutMs * 3 + FULFILLMENT_LEASE_MARGIN_MS;
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#loop = this.#run();
  }

  /** Stops claiming and waits for the pushes in flight (a SIGTERM drain). */
  async stop(): Promise<void> {
    this.#running = false;
    this.#wake?.();
    await this.#loop;
    await this.#queue.onIdle();
  }

  /** Look for due jobs now (after an order was written, in tests). */
  nudge(): void {
    this.#wake?.();
  }

  async #run(): Promise<void> {
    while (this.#running) {
      let claimed = 0;
      const room = this.#deps.config.fulfillmentConcurrency * 2 - this.#queue.size - this.#queue.pending;
      if (room > 0) {
        try {
          const jobs = await this.#claim(room);
          claimed = jobs.length;
          for (const job of jobs) void this.#queue.add(() => this.#push(job));
        } catch (error) {
          this.#deps.log.error({ err: error }, 'fulfillment: claiming jobs failed');
        }
      }
      if (claimed === 0 || room <= 0) await this.#sleep(room <= 0 ? FULFILLMENT_POLL_MS / 5 : FULFILLMENT_POLL_MS);
    }
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#wake = done;
    });
  }

  #claim(limit: number): Promise<JobRow[]> {
    const now = this.#deps.clock.now();
    const leaseUntil = new Date(now.getTime() + this.#leaseMs).toISOString();
    return writeTransaction(this.#deps.db, (tx) => claimDueJobs(tx, now.toISOString(), leaseUntil, limit));
  }

  async #push(job: JobRow): Promise<void> {
    const { db, log, clock, config } = this.#deps;
    const row = await pushPayloadRows(db, job.order_id);
    if (!row) return void (await killJob(db, job, 'order not found', clock.now().toISOString()));
    try {
      let placed: PlatformOrder | undefined;
      let reconciled = false;
      if (job.attempts > 1 || job.last_error !== null) {
        // An earlier attempt may have created it (timeout, reset, crash): never create twice.
        const existing = await this.#client.findByRef(row.id);
        if (existing.length > 1) log.warn({ orderId: row.id, remoteIds: existing.map((o) => o.id) }, 'fulfillment: the platform has several orders for one reference');
        placed = existing[0];
        reconciled = placed !== undefined;
      }
      placed ??= await this.#client.create(platformOrder(row));
      await this.#finish(job, row, placed, reconciled);
    } catch (error) {
      const failure = error instanceof PlatformError ? error : new PlatformError('unknown', error instanceof Error ? error.message : String(error));
      const now = clock.now();
      if (failure.kind === 'permanent' || job.attempts >= config.fulfillmentMaxAttempts) {
        await killJob(db, job, failure.message, now.toISOString());
        await insertEvent(db, { id: newId(), order_id: row.id, store_id: row.store_id, type: 'fulfillment.dead', actor: 'system', data: JSON.stringify({ attempts: job.attempts, error: failure.message }), created_at: now.toISOString() });
        log.error({ orderId: row.id, attempts: job.attempts, error: failure.message }, 'fulfillment: push is dead');
        return;
      }
      // Retry-After is honoured, but a platform cannot park a job beyond the backoff cap.
      const delay = Math.max(backoffMs(job.attempts, config.fulfillmentBackoffMs), Math.min(failure.retryAfterMs ?? 0, FULFILLMENT_BACKOFF_MAX_MS));
      await retryJob(db, job, failure.message, new Date(now.getTime() + delay).toISOString(), now.toISOString());
      log.warn({ orderId: row.id, attempt: job.attempts, kind: failure.kind, retryInMs: delay, error: failure.message }, 'fulfillment: push failed, will retry');
    }
  }

  async #finish(job: JobRow, row: Row, placed: PlatformOrder, reconciled: boolean): Promise<void> {
    const now = this.#deps.clock.now().toISOString();
    const settled = await writeTransaction(this.#deps.db, async (tx) => {
      if (!(await finishJob(tx, job, placed.id, now))) return false;
      await insertEvent(tx, {
        id: newId(),
        order_id: row.id,
        store_id: row.store_id,
        type: 'fulfillment.pushed',
        actor: 'system',
        data: JSON.stringify({ remote_id: placed.id, attempts: job.attempts, reconciled }),
        created_at: now,
      });
      await applyStatusReport(tx, row.id, placed.status, { via: 'push', actor: 'system', remoteId: placed.id }, now);
      return true;
    });
    if (settled) this.#deps.log.info({ orderId: row.id, remoteId: placed.id, attempts: job.attempts, reconciled }, 'fulfillment: pushed');
    else this.#deps.log.warn({ orderId: row.id, remoteId: placed.id }, 'fulfillment: lease lost before the push was recorded');
  }
}
