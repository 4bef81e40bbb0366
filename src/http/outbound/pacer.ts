// Pacing per credential (issue 22 §3): a fragile platform (Dropi locks a key for a long time after a
// burst) is called one request at a time per key, with a least gap between requests, whoever calls
// it in this process — the outbox, a tool listing products, a sync, a webhook re-read. One queue per
// key, created on first use and dropped once idle, so the map never grows with keys no longer used.
// The wait in the queue is not part of a request's deadline (that covers connect, headers and body).
// With slots in the database (issue 28: src/db/queries/pace.queries.ts), the gap also holds between
// processes: each start is reserved there, so two instances calling one key keep one pace, not two.

export interface Pace {
  /** Whose requests are paced together: a hash of the credential, never the credential. */
  key: string;
  /** Requests of this key in flight at once. */
  concurrency: number;
  /** The least time between the starts of two requests of this key. */
  minIntervalMs: number;
}

interface Lane {
  running: number;
  lastStart: number;
  waiting: (() => void)[];
}

/** Where every process serving one database reserves a key's starts. */
export interface PaceSlots {
  /** Reserves the key's next start, at least `intervalMs` after the one before, not before `nowMs` (epoch ms): when it is. */
  reserve(key: string, intervalMs: number, nowMs: number): Promise<number>;
}

export class Pacer {
  readonly #lanes = new Map<string, Lane>();
  readonly #now: () => number;
  readonly #slots: PaceSlots | undefined;

  constructor(options: { now?: () => number; slots?: PaceSlots | undefined } = {}) {
    this.#now = options.now ?? (() => performance.now());
    this.#slots = options.slots;
  }

  /** Runs `fn` when the key's pace allows it. */
  async run<T>(pace: Pace, fn: () => Promise<T>): Promise<T> {
    let lane = this.#lanes.get(pace.key);
    if (!lane) this.#lanes.set(pace.key, (lane = { running: 0, lastStart: Number.NEGATIVE_INFINITY, waiting: [] }));
    while (lane.running >= pace.concurrency) await new Promise<void>((resolve) => lane.waiting.push(resolve));
    lane.running++;
    try {
      // The start is reserved first (another waiter of a wider lane computes from it), then moved to
      // when the timer really fired: a late timer never shortens the next gap.
      let now = this.#now();
      let at = Math.max(now, lane.lastStart + pace.minIntervalMs);
      if (this.#slots && pace.minIntervalMs > 0) {
        // The shared slot, on the wall clock every process shares, turned into this process's clock
        // (both read at one instant). A timer firing late here is not made up for in the other
        // processes' reservations: across processes a gap can be short by that lateness (a few ms).
        const start = await this.#slots.reserve(pace.key, pace.minIntervalMs, Date.now());
        now = this.#now();
        at = Math.max(at, now + (start - Date.now()));
      }
      lane.lastStart = at;
      // A timer may fire a fraction of a millisecond early: wait out the rest.
      for (let left = at - now; left > 0; left = at - this.#now()) await new Promise((resolve) => setTimeout(resolve, Math.ceil(left)));
      lane.lastStart = Math.max(lane.lastStart, this.#now());
      return await fn();
    } finally {
      lane.running--;
      const next = lane.waiting.shift();
      if (next) next();
      else if (lane.running === 0) {
        // Idle: forgotten once its gap has passed (until then the next request must still wait).
        const idle = lane;
        setTimeout(() => {
          if (idle.running === 0 && idle.waiting.length === 0 && this.#lanes.get(pace.key) === idle) this.#lanes.delete(pace.key);
        }, pace.minIntervalMs).unref();
      }
    }
  }

  /** Keys with a request running or waiting (for tests and metrics). */
  get busy(): number {
    return this.#lanes.size;
  }
}
