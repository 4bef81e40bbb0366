// Pacing per credential (issue 22 §3): a fragile platform (Dropi locks a key for a long time after a
// burst) is called one request at a time per key, with a least gap between requests, whoever calls
// it in this process — the outbox, a tool listing products, a sync, a webhook re-read. One queue per
// key, created on first use and dropped once idle, so the map never grows with keys no longer used.
// The wait in the queue is not part of a request's deadline (that covers connect, headers and body).
// With slots in the database (issue 28: src/db/queries/pace.queries.ts), the gap also holds between
// processes: each start is taken there, so two instances calling one key keep one pace, not two.

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

/** Where every process serving one database takes a key's starts. */
export interface PaceSlots {
  /**
   * Takes the key's start now (`nowMs`, epoch ms) when its last start, by any process, is at least
   * `intervalMs` old: 0. Otherwise nothing is taken, and the answer is how many ms remain.
   */
  tryStart(key: string, intervalMs: number, nowMs: number): Promise<number>;
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
      const now = this.#now();
      const at = Math.max(now, lane.lastStart + pace.minIntervalMs);
      lane.lastStart = at;
      // A timer may fire a fraction of a millisecond early: wait out the rest.
      await this.#until(at);
      if (this.#slots && pace.minIntervalMs > 0) {
        // Every process's turn, taken in the database at the moment it starts (so a late timer only
        // delays, never shortens a gap): a start is taken when the key's last one is a gap old;
        // otherwise the answer says how long to wait before asking again.
        for (let wait = await this.#slots.tryStart(pace.key, pace.minIntervalMs, Date.now()); wait > 0; wait = await this.#slots.tryStart(pace.key, pace.minIntervalMs, Date.now()))
          await this.#until(this.#now() + wait);
      }
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

  async #until(at: number): Promise<void> {
    for (let left = at - this.#now(); left > 0; left = at - this.#now()) await new Promise((resolve) => setTimeout(resolve, Math.ceil(left)));
  }

  /** Keys with a request running or waiting (for tests and metrics). */
  get busy(): number {
    return this.#lanes.size;
  }
}
