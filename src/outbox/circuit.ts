// One circuit per destination (issue 21 §2): a platform connection, a store's WhatsApp sender, a
// webhook endpoint. After CIRCUIT_FAILURES_TO_OPEN failures in a row the destination is open: its
// jobs are no longer claimed, and one of them goes as a probe after a short wait (doubling to a
// cap). When a probe succeeds the circuit closes and every job waiting for that destination is due
// at once, so recovery takes seconds instead of waiting out each job's backoff (which an outage grew
// long). Refusals of a request itself (a 400) are answers, not failures of the destination.
// Kept in memory: a restarted worker starts with every circuit closed, which costs a few attempts.
import { CIRCUIT_FAILURES_TO_OPEN, CIRCUIT_FIRST_PROBE_MS, CIRCUIT_MAX_PROBE_MS } from '../limits.ts';

interface State {
  failures: number;
  /** Open: when the next probe may go. */
  probeAt: number | undefined;
  probeMs: number;
  /** A probe is in flight. */
  probing: boolean;
}

export class Circuits {
  readonly #states = new Map<string, State>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  #state(destination: string): State {
    let s = this.#states.get(destination);
    if (!s) this.#states.set(destination, (s = { failures: 0, probeAt: undefined, probeMs: CIRCUIT_FIRST_PROBE_MS, probing: false }));
    return s;
  }

  /** Destinations whose jobs are not claimed now (open). */
  open(): string[] {
    return [...this.#states].filter(([, s]) => s.probeAt !== undefined).map(([d]) => d);
  }

  /** Open destinations whose probe may go now; each is marked as probing until its outcome. */
  probesDue(): string[] {
    const now = this.#now();
    const due: string[] = [];
    for (const [destination, s] of this.#states)
      if (s.probeAt !== undefined && !s.probing && s.probeAt <= now) {
        s.probing = true;
        due.push(destination);
      }
    return due;
  }

  /** A probe that found nothing to send (the jobs went away): the circuit waits for the next one. */
  probeSkipped(destination: string): void {
    const s = this.#states.get(destination);
    if (s) s.probing = false;
  }

  /** A success: the circuit closes. True when it was open (the caller releases the waiting jobs). */
  succeeded(destination: string): boolean {
    const s = this.#states.get(destination);
    if (!s) return false;
    this.#states.delete(destination);
    return s.probeAt !== undefined;
  }

  /** A failure of the destination (not of the request): counted; opens the circuit, or backs a failed probe off. */
  failed(destination: string): void {
    const s = this.#state(destination);
    s.failures++;
    if (s.probeAt !== undefined) {
      if (s.probing) s.probeMs = Math.min(s.probeMs * 2, CIRCUIT_MAX_PROBE_MS);
      s.probing = false;
      s.probeAt = this.#now() + s.probeMs;
    } else if (s.failures >= CIRCUIT_FAILURES_TO_OPEN) s.probeAt = this.#now() + s.probeMs;
  }

  /** Whether a destination is open (for status views and tests). */
  isOpen(destination: string): boolean {
    return this.#states.get(destination)?.probeAt !== undefined;
  }
}
