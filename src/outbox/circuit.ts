// One circuit per destination (issue 21 §2): a platform connection, a store's WhatsApp sender, a
// webhook endpoint. After CIRCUIT_FAILURES_TO_OPEN failures in a row the destination is open: its
// jobs are no longer claimed, and one of them goes as a probe after a short wait (doubling to a
// cap). When a probe succeeds the circuit closes and every job waiting for that destination is due
// at once, so recovery takes seconds instead of waiting out each job's backoff (which an outage grew
// long). Refusals of a request itself (a 400) are answers, not failures of the destination.
//
// Kept in the database (issue 28): every process serving it sees one circuit per destination, so a
// platform down for one instance is down for all, and one probe goes, whoever takes it. A probe is
// held under a lease (the job's): a process that dies mid-probe does not keep the others from the next.
import type { Db } from '../db/connect.ts';
import { writeTransaction } from '../db/transaction.ts';
import { closeCircuit, findCircuit, openCircuits, probeCandidates, releaseProbe, saveCircuit, takeProbe } from '../db/queries/circuits.queries.ts';
import { lockForTransaction } from '../db/queries/locks.queries.ts';
import { CIRCUIT_FAILURES_TO_OPEN, CIRCUIT_FIRST_PROBE_MS, CIRCUIT_MAX_PROBE_MS } from '../limits.ts';

export class Circuits {
  readonly #db: Db;
  readonly #kind: string;
  readonly #now: () => number;
  readonly #probeLeaseMs: number;

  /** The circuits of one outbox (`kind`); a probe is held for at most `probeLeaseMs`. */
  constructor(db: Db, kind: string, probeLeaseMs: number, now: () => number = Date.now) {
    this.#db = db;
    this.#kind = kind;
    this.#probeLeaseMs = probeLeaseMs;
    this.#now = now;
  }

  #at(offsetMs = 0): string {
    return new Date(this.#now() + offsetMs).toISOString();
  }

  /** Destinations whose jobs are not claimed now (open). */
  open(): Promise<string[]> {
    return openCircuits(this.#db, this.#kind);
  }

  /** Open destinations whose probe may go now; each is taken (by this process only) until its outcome or its lease's end. */
  async probesDue(): Promise<string[]> {
    const now = this.#at();
    const due: string[] = [];
    for (const destination of await probeCandidates(this.#db, this.#kind, now))
      if (await takeProbe(this.#db, this.#kind, destination, now, this.#at(this.#probeLeaseMs))) due.push(destination);
    return due;
  }

  /** A probe that found nothing to send (the jobs went away): the circuit waits for the next one. */
  async probeSkipped(destination: string): Promise<void> {
    await releaseProbe(this.#db, this.#kind, destination, this.#at());
  }

  /** A success: the circuit closes. True when it was open (the caller releases the waiting jobs). */
  succeeded(destination: string): Promise<boolean> {
    return closeCircuit(this.#db, this.#kind, destination);
  }

  /** A failure of the destination (not of the request): counted; opens the circuit, or backs a failed probe off. */
  async failed(destination: string): Promise<void> {
    const now = this.#now();
    const at = new Date(now).toISOString();
    // One failure at a time per destination, whichever process saw it (READ COMMITTED under a lock of
    // its own, so that a burst of failures during an outage queues instead of retrying serialization).
    await writeTransaction(
      this.#db,
      async (tx) => {
        await lockForTransaction(tx, `circuit:${this.#kind}:${destination}`);
        const s = (await findCircuit(tx, this.#kind, destination)) ?? { kind: this.#kind, destination, failures: 0, probe_ms: CIRCUIT_FIRST_PROBE_MS, probe_at: null, probing_until: null, updated_at: at };
        const failures = s.failures + 1;
        let { probe_ms: probeMs, probe_at: probeAt } = s;
        const probing = s.probing_until !== null && s.probing_until > at;
        if (probeAt !== null) {
          // Open already: a failed probe doubles the wait; any failure pushes the next probe back.
          if (probing) probeMs = Math.min(probeMs * 2, CIRCUIT_MAX_PROBE_MS);
          probeAt = new Date(now + probeMs).toISOString();
        } else if (failures >= CIRCUIT_FAILURES_TO_OPEN) probeAt = new Date(now + probeMs).toISOString();
        await saveCircuit(tx, { ...s, failures, probe_ms: probeMs, probe_at: probeAt, probing_until: null, updated_at: at });
      },
      'read committed',
    );
  }

  /** Whether a destination is open (for status views and tests). */
  async isOpen(destination: string): Promise<boolean> {
    return (await this.open()).includes(destination);
  }
}
