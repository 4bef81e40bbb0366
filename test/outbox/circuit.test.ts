// One circuit per outbox destination (src/outbox/circuit.ts; issue 21 §2), on a clock the test moves:
// it opens after CIRCUIT_FAILURES_TO_OPEN failures in a row, keeps the destination's jobs from being
// claimed while open, lets one probe go after CIRCUIT_FIRST_PROBE_MS, doubles the wait after each
// failed probe up to CIRCUIT_MAX_PROBE_MS, and closes on a success (which says whether it was open,
// so the caller releases the waiting jobs). The circuits live in the database (issue 28): two
// processes' Circuits on one database are one circuit per destination, and one probe goes.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Circuits } from '../../src/outbox/circuit.ts';
import { CIRCUIT_FAILURES_TO_OPEN, CIRCUIT_FIRST_PROBE_MS, CIRCUIT_MAX_PROBE_MS } from '../../src/limits.ts';
import { migratedDatabase } from '../helpers/database.ts';

const A = 'platform:store-a';
const B = 'platform:store-b';
/** How long a probe is held before another process may take it (its job's lease). */
const PROBE_LEASE_MS = 60_000;

const database = migratedDatabase();
let kinds = 0;

/** Circuits of an outbox of their own, on a clock that moves only when the test says; `other()` is a second process's view of them. */
function circuits(start = 1_000_000) {
  let now = start;
  const kind = `kind-${++kinds}`;
  const c = new Circuits(database.db, kind, PROBE_LEASE_MS, () => now);
  return {
    c,
    other: () => new Circuits(database.db, kind, PROBE_LEASE_MS, () => now),
    advance: (ms: number) => void (now += ms),
    async failTimes(destination: string, n: number, by: Circuits = c) {
      for (let i = 0; i < n; i++) await by.failed(destination);
    },
  };
}

/** The waits between probes while every probe fails: doubling from the first wait to the cap. */
function expectedWaits(n: number): number[] {
  const waits: number[] = [];
  for (let wait = CIRCUIT_FIRST_PROBE_MS; waits.length < n; wait = Math.min(wait * 2, CIRCUIT_MAX_PROBE_MS)) waits.push(wait);
  return waits;
}

describe('Circuits', async () => {
  test('five failures in a row open a circuit, and probes are never further apart than a cap well inside the 15 s recovery of issue 21 §2', async () => {
    assert.equal(CIRCUIT_FAILURES_TO_OPEN, 5);
    assert.ok(CIRCUIT_FIRST_PROBE_MS <= CIRCUIT_MAX_PROBE_MS);
    assert.ok(CIRCUIT_MAX_PROBE_MS < 15_000, 'a platform that returns is probed within the recovery budget');
  });

  test('a destination with fewer failures in a row than the threshold stays closed: its jobs are claimed and no probe is due', async () => {
    const { c, advance, failTimes } = circuits();
    await failTimes(A, CIRCUIT_FAILURES_TO_OPEN - 1);
    advance(CIRCUIT_MAX_PROBE_MS * 10);
    assert.equal(await c.isOpen(A), false);
    assert.deepEqual(await c.open(), []);
    assert.deepEqual(await c.probesDue(), []);
  });

  test('the threshold of failures in a row opens the destination, and only that destination', async () => {
    const { c, failTimes } = circuits();
    await failTimes(B, CIRCUIT_FAILURES_TO_OPEN - 1);
    await failTimes(A, CIRCUIT_FAILURES_TO_OPEN);
    assert.equal(await c.isOpen(A), true);
    assert.equal(await c.isOpen(B), false, 'failures are counted per destination');
    assert.deepEqual(await c.open(), [A]);
  });

  test('a success in between starts the count again: four failures, a success, four failures leave it closed; one more opens it', async () => {
    const { c, failTimes } = circuits();
    await failTimes(A, CIRCUIT_FAILURES_TO_OPEN - 1);
    assert.equal(await c.succeeded(A), false, 'a success of a closed destination releases nothing');
    await failTimes(A, CIRCUIT_FAILURES_TO_OPEN - 1);
    assert.equal(await c.isOpen(A), false);
    await c.failed(A);
    assert.equal(await c.isOpen(A), true);
  });

  test('an open destination is not claimed, and its one probe is due only once the first wait has passed', async () => {
    const { c, advance, failTimes } = circuits();
    await failTimes(A, CIRCUIT_FAILURES_TO_OPEN);
    advance(CIRCUIT_FIRST_PROBE_MS - 1);
    assert.deepEqual(await c.probesDue(), [], 'not before the first wait');
    assert.deepEqual(await c.open(), [A]);
    advance(1);
    assert.deepEqual(await c.probesDue(), [A]);
  });

  test('a due probe is marked probing: it is not due a second time, and the destination stays out of the claims meanwhile', async () => {
    const { c, advance, failTimes } = circuits();
    await failTimes(A, CIRCUIT_FAILURES_TO_OPEN);
    advance(CIRCUIT_FIRST_PROBE_MS);
    assert.deepEqual(await c.probesDue(), [A]);
    assert.deepEqual(await c.probesDue(), [], 'one probe in flight at a time');
    advance(PROBE_LEASE_MS - 1);
    assert.deepEqual(await c.probesDue(), [], 'still one probe, as long as its lease lasts');
    assert.deepEqual(await c.open(), [A]);
    advance(1);
    assert.deepEqual(await c.probesDue(), [A], 'a probe whose holder died (its lease ran out) does not keep the next one from going');
  });

  test('two processes on one database see one circuit: their failures add up, either sees it open, one takes the probe, either closes it', async () => {
    const { c, other, advance, failTimes } = circuits();
    const d = other();
    await failTimes(A, 2, c);
    await failTimes(A, CIRCUIT_FAILURES_TO_OPEN - 3, d);
    assert.equal(await c.isOpen(A), false);
    await d.failed(A);
    assert.deepEqual(await c.open(), [A], 'opened by the other process\'s failure');
    advance(CIRCUIT_FIRST_PROBE_MS);
    const [first, second] = await Promise.all([c.probesDue(), d.probesDue()]);
    assert.deepEqual([...first, ...second], [A], 'one probe between them');
    assert.equal(await (first.length ? d : c).succeeded(A), true, 'the other process\'s success closes it');
    assert.deepEqual(await c.open(), []);
    assert.deepEqual(await d.probesDue(), []);
  });

  test('each failed probe doubles the wait for the next one, up to the cap', async () => {
    const { c, advance, failTimes } = circuits();
    await failTimes(A, CIRCUIT_FAILURES_TO_OPEN);
    const waits = expectedWaits(7);
    for (const [i, wait] of waits.entries()) {
      advance(wait - 1);
      assert.deepEqual(await c.probesDue(), [], `probe ${i + 1} is not due before ${wait} ms`);
      advance(1);
      assert.deepEqual(await c.probesDue(), [A], `probe ${i + 1} is due after ${wait} ms`);
      await c.failed(A);
      assert.equal(await c.isOpen(A), true, 'a failed probe keeps it open');
    }
  });

  test('a successful probe closes the destination, and succeeded() answers true only because it was open', async () => {
    const { c, advance, failTimes } = circuits();
    await failTimes(A, CIRCUIT_FAILURES_TO_OPEN);
    advance(CIRCUIT_FIRST_PROBE_MS);
    assert.deepEqual(await c.probesDue(), [A]);
    assert.equal(await c.succeeded(A), true, 'it was open: the caller releases the waiting jobs');
    assert.equal(await c.isOpen(A), false);
    assert.deepEqual(await c.open(), []);
    assert.deepEqual(await c.probesDue(), []);
    assert.equal(await c.succeeded(A), false, 'closed now: nothing more to release');
    assert.equal(await c.succeeded('platform:never-seen'), false, 'a destination never failed releases nothing');
  });

  test('after it closed, the count starts from zero and a new opening waits the first wait again, not the doubled one', async () => {
    const { c, advance, failTimes } = circuits();
    await failTimes(A, CIRCUIT_FAILURES_TO_OPEN);
    for (const wait of expectedWaits(3)) {
      advance(wait);
      assert.deepEqual(await c.probesDue(), [A]);
      await c.failed(A);
    }
    advance(CIRCUIT_MAX_PROBE_MS);
    assert.deepEqual(await c.probesDue(), [A]);
    assert.equal(await c.succeeded(A), true);
    await failTimes(A, CIRCUIT_FAILURES_TO_OPEN - 1);
    assert.equal(await c.isOpen(A), false, 'the earlier failures are forgotten');
    await c.failed(A);
    advance(CIRCUIT_FIRST_PROBE_MS - 1);
    assert.deepEqual(await c.probesDue(), []);
    advance(1);
    assert.deepEqual(await c.probesDue(), [A], 'the first wait again');
  });

  test('a probe skipped because nothing was waiting lets the next probe go without waiting or doubling', async () => {
    const { c, advance, failTimes } = circuits();
    await failTimes(A, CIRCUIT_FAILURES_TO_OPEN);
    advance(CIRCUIT_FIRST_PROBE_MS);
    assert.deepEqual(await c.probesDue(), [A]);
    await c.probeSkipped(A);
    assert.equal(await c.isOpen(A), true, 'still open: no answer came');
    assert.deepEqual(await c.probesDue(), [A], 'the next claim may probe at once');
    await c.failed(A);
    advance(CIRCUIT_FIRST_PROBE_MS * 2 - 1);
    assert.deepEqual(await c.probesDue(), []);
    advance(1);
    assert.deepEqual(await c.probesDue(), [A], 'the skipped probe did not double the wait; the failed one did');
  });

  test('two open destinations each have their own probe and their own wait', async () => {
    const { c, advance, failTimes } = circuits();
    await failTimes(A, CIRCUIT_FAILURES_TO_OPEN);
    advance(CIRCUIT_FIRST_PROBE_MS / 2);
    await failTimes(B, CIRCUIT_FAILURES_TO_OPEN);
    assert.deepEqual((await c.open()).sort(), [A, B].sort());
    advance(CIRCUIT_FIRST_PROBE_MS / 2);
    assert.deepEqual(await c.probesDue(), [A]);
    advance(CIRCUIT_FIRST_PROBE_MS / 2);
    assert.deepEqual(await c.probesDue(), [B]);
    assert.equal(await c.succeeded(B), true);
    assert.deepEqual(await c.open(), [A], 'closing one leaves the other open');
  });
});
