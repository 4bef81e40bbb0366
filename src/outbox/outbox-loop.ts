// The one outbox machinery (SPEC 7; issue 12): a loop that claims due rows under a lease, runs each
// attempt on a p-queue at bounded concurrency, sleeps when nothing is due and wakes on a nudge, and
// drains on stop. The fulfillment jobs (pushes, cancellations) and the WhatsApp messages are two
// tables with their own claim and attempt; everything about running them lives here once.
// Every promise the queue returns is handled: a failing attempt is logged, never an unhandled
// rejection that would end `codrail serve`.
import PQueue from 'p-queue';
import type { Logger } from 'pino';
import { OUTBOX_NUDGE_MS } from '../limits.ts';

export interface OutboxLoopOptions<J> {
  /** For log lines: `fulfillment`, `whatsapp`. */
  name: string;
  concurrency: number;
  pollMs: number;
  log: Logger;
  /** Due rows, now in flight under a lease with one more attempt counted. */
  claim(limit: number): Promise<J[]>;
  /** One attempt; settles the row itself (done, retry later, dead). */
  attempt(job: J): Promise<void>;
}

/** Exponential backoff with jitter: a random delay between base/2 and base × 2^(attempt-1), capped. */
export function backoffMs(attempt: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(baseMs / 2 + random() * (ceiling - baseMs / 2));
}

export class OutboxLoop<J> {
  readonly #o: OutboxLoopOptions<J>;
  readonly #queue: PQueue;
  #running = false;
  #loop: Promise<void> | undefined;
  #wake: ((inMs: number) => void) | undefined;
  #nudged = false;

  constructor(options: OutboxLoopOptions<J>) {
    this.#o = options;
    this.#queue = new PQueue({ concurrency: options.concurrency });
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#loop = this.#run();
  }

  /** Stops claiming and waits for the attempts in flight (a SIGTERM drain). */
  async stop(): Promise<void> {
    this.#running = false;
    this.#wake?.(0);
    await this.#loop;
    await this.#queue.onIdle();
  }

  /**
   * Look for due rows soon (a row was just written). A busy second writes hundreds of rows: their
   * nudges wake the loop once, OUTBOX_NUDGE_MS after the first, and one claim takes them together
   * instead of one claim per row.
   */
  nudge(): void {
    if (this.#nudged) return;
    this.#nudged = true;
    this.#wake?.(OUTBOX_NUDGE_MS);
  }

  async #run(): Promise<void> {
    const { concurrency, pollMs, log, name } = this.#o;
    while (this.#running) {
      this.#nudged = false;
      let claimed = 0;
      const room = concurrency * 2 - this.#queue.size - this.#queue.pending;
      if (room > 0) {
        try {
          const jobs = await this.#o.claim(room);
          claimed = jobs.length;
          for (const job of jobs)
            this.#queue.add(() => this.#o.attempt(job)).catch((error: unknown) => log.error({ err: error }, `${name}: an attempt failed unexpectedly; its lease will expire and it is tried again`));
        } catch (error) {
          log.error({ err: error }, `${name}: claiming due rows failed`);
        }
      }
      if (claimed === 0 || room <= 0) await this.#sleep(this.#nudged ? OUTBOX_NUDGE_MS : room <= 0 ? pollMs / 5 : pollMs);
    }
  }

  /** Sleeps `ms`, or less when woken: `wake(inMs)` brings the end forward, never back. */
  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      let due = performance.now() + ms;
      let timer = setTimeout(done, ms);
      const self = this;
      function done() {
        clearTimeout(timer);
        self.#wake = undefined;
        resolve();
      }
      this.#wake = (inMs) => {
        if (inMs <= 0) return done();
        if (performance.now() + inMs >= due) return;
        due = performance.now() + inMs;
        clearTimeout(timer);
        timer = setTimeout(done, inMs);
      };
    });
  }
}
