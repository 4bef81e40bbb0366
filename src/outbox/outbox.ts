// The one outbox machinery (SPEC 17; issue 21): every outbox — fulfillment pushes and cancels,
// WhatsApp messages, webhook deliveries — is an OutboxKind (its table, its policy, its one try),
// and this runs it: claims due jobs under a lease (src/db/queries/outbox.queries.ts), runs tries at
// bounded concurrency on the loop, records intents before effects (src/outbox/intent.ts), settles
// failures — jittered backoff, Retry-After, give-up by age or tries, what a possibly-acted
// try means for this kind — and keeps one circuit per destination (src/outbox/circuit.ts). A kind
// writes only what is its own: the request, and what a success records.
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/connect.ts';
import { writeTransaction, type Tx } from '../db/transaction.ts';
import {
  claimById,
  claimDue,
  recordIntent,
  releaseDestination,
  reportIntentAfterLostLease,
  settleDead,
  settleDone,
  settleRetry,
  type OutboxRow,
  type OutboxTable,
} from '../db/queries/outbox.queries.ts';
import type { FailpointName, Failpoints } from '../failpoints.ts';
import { OutboundError } from '../http/outbound/outbound-error.ts';
import type { OutboundClient } from '../http/outbound/outbound-client.ts';
import type { OrderEvents } from '../order-events/order-events.ts';
import type { SecretKeys } from '../secret-keys.ts';
import { AttemptFailure, classifyFailure } from './attempt-failure.ts';
import { Circuits } from './circuit.ts';
import { intentAfter, type IntentChange, type TryRecord } from './intent.ts';
import { OutboxLoop, backoffMs } from './outbox-loop.ts';

export { backoffMs };

export interface OutboxPolicy {
  concurrency: number;
  pollMs: number;
  /** A claimed job's lease: longer than the slowest try (its requests are each bounded by a deadline). */
  leaseMs: number;
  /** Jitter between base/2 and base × 2^(try-1), capped (full jitter with a floor: never an instant retry); a longer Retry-After wins up to the cap. */
  backoff: { baseMs: number; maxMs: number };
  /** Give up by age (since the first try) and/or by tries. */
  giveUp: { afterMs?: number; tries?: number };
}

/**
 * What a try that may have acted, and could not record its outcome, means for this kind (the intent
 * rule, src/outbox/intent.ts): the next try finds out first (`look_up`: a push), or the job is given
 * up since nothing can be asked (`give_up`: a WhatsApp send), or it is simply repeated because the
 * receiver deduplicates (`repeat`: a webhook delivery, at least once by design).
 */
export type OnUnknown = 'look_up' | 'give_up' | { repeat: true };

export interface OutboxKind<J extends OutboxRow> {
  /** For log lines and metrics: `fulfillment`, `whatsapp`, `webhooks`. */
  name: string;
  /** What the other side is called in log lines: `platform`, `Cloud API`, `endpoint`. */
  destinationNoun: string;
  /** What a job is about, for its log lines: `{ orderId, action }`. */
  subject(job: J): Record<string, unknown>;
  table: OutboxTable;
  policy: OutboxPolicy;
  onUnknown: OnUnknown;
  /** Why a job given up under `give_up` is not tried again, for its last_error. */
  unknownReason?: string;
  /** The claim itself is the intent (the job's in-flight state says the request may have left): no separate write. */
  intentAtClaim?: boolean;
  /** One try. Throws on failure (the machinery settles it); records a success through `attempt.done`. */
  run(attempt: Attempt<J>): Promise<void>;
  /**
   * Destinations the kind holds back now, read before each claim: `paused` ones are not claimed at
   * all (a connection waiting for its seller's new credentials); `caps` limit the jobs of a
   * destination in flight in this process (a platform that takes one request at a time); `only`,
   * when given, is every destination that can be served (the others wait, untouched).
   */
  held?(): Promise<Held>;
  /** What a settled failure means beyond the job row (an order event, a mark on a connection), in the settle's transaction. */
  failed?(tx: Tx, job: J, failure: AttemptFailure, outcome: 'retry' | 'dead', at: string, tookMs: number): Promise<void>;
}

export interface Held {
  paused: readonly string[];
  caps: ReadonlyMap<string, number>;
  only?: readonly string[] | undefined;
}

export interface OutboxDeps {
  db: Db;
  log: Logger;
  clock: Clock;
  failpoints: Failpoints;
}

/** What every kind's attempts work with besides the machinery's own: the outbound path, sealed secrets, the event writer. */
export interface KindDeps extends OutboxDeps {
  config: Config;
  outbound: OutboundClient;
  secrets: SecretKeys;
  orderEvents: OrderEvents;
}

/** The lease ran out before this try could act or record: the job's new holder carries it on. */
export class LeaseLost extends Error {
  override readonly name = 'LeaseLost';
}

/** One try of one claimed job: what the kind's `run` works with. */
export class Attempt<J extends OutboxRow> {
  readonly record: TryRecord = { intentRecorded: false, lookedUpNothing: false };
  #acted = false;

  constructor(
    readonly job: J,
    readonly deps: OutboxDeps,
    readonly table: OutboxTable,
    readonly intentAtClaim: boolean,
  ) {}

  /**
   * A request that may act on the other side, under the intent rule: the intent is recorded (and
   * committed) before it leaves, and its own failure is kept for the settle.
   */
  async act<T>(request: () => Promise<T>, failpoint?: FailpointName): Promise<T> {
    if (!this.intentAtClaim && !(await recordIntent(this.deps.db, this.table, this.job, this.deps.clock.now().toISOString())))
      throw new LeaseLost(`the lease of ${this.table.name} ${this.job.id} was lost before its request`);
    this.record.intentRecorded = true;
    if (failpoint) await this.deps.failpoints.hit(failpoint);
    try {
      const value = await request();
      this.#acted = true;
      return value;
    } catch (error) {
      this.record.effectError = error;
      throw error;
    }
  }

  /** A look-up found nothing made by earlier tries. */
  lookedUpNothing(): void {
    this.record.lookedUpNothing = true;
  }

  /** A request failed in a way known not to have acted, and the try goes on (a 404 on a cancel). */
  forget(): void {
    this.record.effectError = undefined;
  }

  /** Settles the job done inside the caller's transaction, with what the table records of a success; false when the lease was lost. */
  done(tx: Tx, extra: Record<string, unknown> = {}): Promise<boolean> {
    return settleDone(tx, this.table, this.job, this.deps.clock.now().toISOString(), extra);
  }

  /** After a success that could not be recorded because the lease was lost: the job says the effect may exist. */
  async lostAfterActing(): Promise<void> {
    if (this.#acted || this.record.intentRecorded) await reportIntentAfterLostLease(this.deps.db, this.table, this.job.id, this.deps.clock.now().toISOString());
  }
}

export class Outbox<J extends OutboxRow> {
  readonly #kind: OutboxKind<J>;
  readonly #deps: OutboxDeps;
  readonly #loop: OutboxLoop<J>;
  readonly circuits: Circuits;

  constructor(deps: OutboxDeps, kind: OutboxKind<J>) {
    this.#kind = kind;
    this.#deps = deps;
    this.circuits = new Circuits(deps.db, kind.name, kind.policy.leaseMs, () => deps.clock.now().getTime());
    this.#loop = new OutboxLoop<J>({
      name: kind.name,
      concurrency: kind.policy.concurrency,
      pollMs: kind.policy.pollMs,
      log: deps.log,
      claim: (limit) => this.#claim(limit),
      attempt: (job) => this.runClaimed(job),
    });
  }

  start(): void {
    this.#loop.start();
  }

  /** Stops claiming and waits for the tries in flight (a SIGTERM drain). */
  stop(): Promise<void> {
    return this.#loop.stop();
  }

  /** Look for due jobs now (one was just written). */
  nudge(): void {
    this.#loop.nudge();
  }

  #lease(now: Date): string {
    return new Date(now.getTime() + this.#kind.policy.leaseMs).toISOString();
  }

  /**
   * Due jobs of closed circuits, and one probe of each open circuit whose time came; nothing of a
   * paused destination; a capped destination's jobs only up to its cap in flight, claimed apart so
   * they never take the slots of the others.
   */
  async #claim(limit: number): Promise<J[]> {
    const { db, clock } = this.#deps;
    const now = clock.now();
    const held = (await this.#kind.held?.()) ?? { paused: [], caps: new Map<string, number>() };
    const only = held.only;
    const filter = { now: now.toISOString(), leaseUntil: this.#lease(now), limit, ...(only ? { only } : {}) };
    const open = await this.circuits.open();
    const exclude = [...new Set([...open, ...held.paused, ...held.caps.keys()])];
    // Claims lock the rows they take and skip others' (FOR UPDATE SKIP LOCKED on PostgreSQL): READ
    // COMMITTED is what that needs, and the claim's UPDATE re-checks each row as it is.
    const jobs = await writeTransaction(db, (tx) => claimDue<J>(tx, this.#kind.table, { ...filter, exclude }), 'read committed');
    // The jobs above are committed as ours: a later claim that fails must not drop them, or they
    // would sit leased and untried until the lease runs out, then count one more try.
    try {
      await this.#claimHeld(filter, held, open, jobs);
    } catch (error) {
      this.#deps.log.error({ err: error, outbox: this.#kind.name, claimed: jobs.length }, `${this.#kind.name}: claiming the jobs of capped or probed destinations failed; the ones already claimed run`);
    }
    return jobs;
  }

  /** The capped destinations' jobs and the circuits' probes, claimed apart, added to `jobs`. */
  async #claimHeld(filter: { now: string; leaseUntil: string; limit: number; only?: readonly string[] }, held: Held, open: readonly string[], jobs: J[]): Promise<void> {
    const { db, failpoints } = this.#deps;
    const { limit } = filter;
    await failpoints.hit('outbox.claim_held');
    const skip = new Set([...open, ...held.paused]);
    // A capped destination's jobs in flight are counted in the table by the claim itself, so the cap
    // holds across every process serving the database (SPEC 16), not per process.
    for (const [destination, cap] of held.caps) {
      const room = Math.min(cap, limit - jobs.length);
      if (skip.has(destination) || room <= 0) continue;
      jobs.push(...(await writeTransaction(db, (tx) => claimDue<J>(tx, this.#kind.table, { ...filter, one: destination, limit: room, cap }), 'read committed')));
    }
    for (const destination of await this.circuits.probesDue()) {
      if (held.paused.includes(destination)) {
        // Not now (paused): the probe waits for a later claim.
        await this.circuits.probeSkipped(destination);
        continue;
      }
      // A capped destination whose jobs in flight fill its cap claims nothing: the probe waits too.
      const cap = held.caps.get(destination);
      const [probe] = await writeTransaction(db, (tx) => claimDue<J>(tx, this.#kind.table, { ...filter, probe: destination, ...(cap !== undefined && { cap }) }), 'read committed');
      if (probe) jobs.push(probe);
      else await this.circuits.probeSkipped(destination);
    }
  }


  /** Claims one job by id now (a tool that pushes now), unless it is in flight under a live lease. */
  async claim(jobId: string): Promise<J | undefined> {
    const now = this.#deps.clock.now();
    return writeTransaction(this.#deps.db, (tx) => claimById<J>(tx, this.#kind.table, jobId, now.toISOString(), this.#lease(now)), 'read committed');
  }

  /** One try of a claimed job, then its settle: by the loop, or by a tool that claimed it. */
  async runClaimed(job: J): Promise<void> {
    const attempt = new Attempt(job, this.#deps, this.#kind.table, this.#kind.intentAtClaim === true);
    const started = performance.now();
    try {
      await this.#kind.run(attempt);
    } catch (error) {
      if (error instanceof LeaseLost) return void this.#deps.log.warn({ jobId: job.id, ...this.#kind.subject(job), outbox: this.#kind.name }, error.message);
      await this.#settleFailure(job, error, intentAfter(attempt.record), attempt.record, Math.round(performance.now() - started));
      return;
    }
    if (await this.circuits.succeeded(job.destination)) await this.#release(job.destination);
  }

  async #release(destination: string): Promise<void> {
    const n = await releaseDestination(this.#deps.db, this.#kind.table, destination, this.#deps.clock.now().toISOString());
    this.#deps.log.info({ outbox: this.#kind.name, destination, released: n }, `${this.#kind.name}: ${destination} answers again: its waiting jobs are due now`);
    this.nudge();
  }

  /**
   * A failed try: dead when the request itself was refused, when the job is past its age or tries,
   * or when it may have acted and this kind cannot find out; else due again after the backoff.
   */
  async #settleFailure(job: J, error: unknown, intents: IntentChange, record: TryRecord, tookMs: number): Promise<void> {
    const { db, log, clock } = this.#deps;
    const { policy, table, name } = this.#kind;
    // Not the other side's answer: a database error or a bug. Logged once with the job; the job
    // still settles like any failure, an outcome unknown (it may have struck after the request left).
    if (!(error instanceof AttemptFailure || error instanceof OutboundError)) log.error({ err: error, jobId: job.id, ...this.#kind.subject(job), outbox: name }, `${name}: an attempt failed on our side (not the ${this.#kind.destinationNoun})`);
    const failure = classifyFailure(error);
    // Only the destination's own failures count toward its circuit: not our conditions, not a refused request.
    if (error instanceof OutboundError && failure.kind !== 'permanent') await this.circuits.failed(job.destination);
    const now = clock.now();
    const at = now.toISOString();
    const mayHaveActed = record.intentRecorded && intents === 'keep';
    const trying = now.getTime() - Date.parse(job.first_attempt_at ?? job.updated_at);
    const tooOld = policy.giveUp.afterMs !== undefined && trying >= policy.giveUp.afterMs;
    const tooMany = policy.giveUp.tries !== undefined && job.attempts >= policy.giveUp.tries;
    const once = table.once !== undefined && (job as Record<string, unknown>)[table.once] === 1;
    const cannotKnow = this.#kind.onUnknown === 'give_up' && mayHaveActed;
    if (failure.kind === 'permanent' || tooOld || tooMany || once || cannotKnow) {
      const reason = cannotKnow
        ? `${failure.message}: ${this.#kind.unknownReason ?? 'it may have acted, so it is not repeated'}`
        : tooOld
          ? `gave up after ${Math.round(trying / 60_000)} min of tries: ${failure.message}`
          : failure.message;
      const settled = await writeTransaction(db, async (tx) => {
        if (!(await settleDead(tx, table, job, reason, at, intents))) return false;
        await this.#kind.failed?.(tx, job, new AttemptFailure(failure.kind, reason, failure.retryAfterMs, failure.status), 'dead', at, tookMs);
        return true;
      });
      // A job tried once by design (an endpoint's test delivery) answered whoever asked for it: its
      // failure is that answer, not a job lost to the operator, so it is no error (whichever process
      // ran it: the worker of `serve` may take a test delivery before the CLI that made it).
      if (settled) (once ? log.warn : log.error).call(log, { jobId: job.id, ...this.#kind.subject(job), attempts: job.attempts, error: reason }, `${name}: given up`);
      else this.#notSettled(job, reason);
      return;
    }
    // Retry-After is honoured, but another side cannot park a job beyond the backoff cap.
    const { baseMs, maxMs } = policy.backoff;
    const delay = Math.max(backoffMs(job.attempts, baseMs, maxMs), Math.min(failure.retryAfterMs ?? 0, maxMs));
    const settled = await writeTransaction(db, async (tx) => {
      if (!(await settleRetry(tx, table, job, failure.message, new Date(now.getTime() + delay).toISOString(), at, intents))) return false;
      await this.#kind.failed?.(tx, job, failure, 'retry', at, tookMs);
      return true;
    });
    if (settled) log.warn({ jobId: job.id, ...this.#kind.subject(job), attempt: job.attempts, kind: failure.kind, retryInMs: delay, error: failure.message }, `${name}: attempt failed, will retry`);
    else this.#notSettled(job, failure.message);
  }

  /** A failure this holder could not record: its lease ran out (another holder carries the job on) or the job was removed. */
  #notSettled(job: J, error: string): void {
    this.#deps.log.info({ jobId: job.id, ...this.#kind.subject(job), error, notSettled: true }, `${this.#kind.name}: the job was no longer ours when its failure came back (lease lost or job removed): not recorded`);
  }
}
