// One circuit per outbox destination (src/outbox/circuit.ts; issue 21 §2), on a clock the test moves:
// it opens after CIRCUIT_FAILURES_TO_OPEN failures in a row, keeps the destination's jobs from being
// claimed while open, lets one probe go after CIRCUIT_FIRST_PROBE_MS, doubles the wait after each
// failed probe up to CIRCUIT_MAX_PROBE_MS, and closes on a success (which says whether it was open,
// so the caller releases the waiting jobs).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Circuits } from '../../src/outbox/circuit.ts';
import { CIRCUIT_FAILURES_TO_OPEN, CIRCUIT_FIRST_PROBE_MS, CIRCUIT_MAX_PROBE_MS } from '../../src/limits.ts';

const A = 'platform:store-a';
const B = 'platform:store-b';

/** Circuits on a clock that moves only when the test says. */
function circuits(start = 1_000_000) {
  let now = start;
  const c = new Circuits(() => now);
  return {
    c,
    advance: (ms: number) => void (now += ms),
    failTimes(destination: string, n: number) {
      for (let i = 0; i < n; i++) c.failed(destination);
    },
  };
}

/** The waits between probes while every probe fails: doubling from the first wait to the cap. */
function expectedWaits(n: number): number[] {
  const waits: number[] = [];
  for (let wait = CIRCUIT_FIRST_PROBE_MS; waits.length < n; wait = Math.min(wait * 2, CIRCUIT_MAX_PROBE_MS)) waits.push(wait);
  return waits;
}

describe('Circuits', () => {
  test('five failures in a row open a circuit, and probes are never further apart than a cap well inside the 15 s recovery of issue 21 §2', () => {
    assert.equal(CIRCUIT_FAILURES_TO_OPEN, 5);
    assert.ok(CIRCUIT_FIRST_PROBE_MS <= CIRCUIT_MAX_PROBE_MS);
    assert.ok(CIRCUIT_MAX_PROBE_MS < 15_000, 'a platform that returns is probed within the recovery budget');
  });

  test('a destination with fewer failures in a row than the threshold stays closed: its jobs are claimed and no probe is due', () => {
    const { c, advance, failTimes } = circuits();
    failTimes(A, CIRCUIT_FAILURES_TO_OPEN - 1);
    advance(CIRCUIT_MAX_PROBE_MS * 10);
    assert.equal(c.isOpen(A), false);
    assert.deepEqual(c.open(), []);
    assert.deepEqual(c.probesDue(), []);
  });

  test('the threshold of failures in a row opens the destination, and only that destination', () => {
    const { c, failTimes } = circuits();
    failTimes(B, CIRCUIT_FAILURES_TO_OPEN - 1);
    failTimes(A, CIRCUIT_FAILURES_TO_OPEN);
    assert.equal(c.isOpen(A), true);
    assert.equal(c.isOpen(B), false, 'failures are counted per destination');
    assert.deepEqual(c.open(), [A]);
  });

  test('a success in between starts the count again: four failures, a success, four failures leave it closed; one more opens it', () => {
    const { c, failTimes } = circuits();
    failTimes(A, CIRCUIT_FAILURES_TO_OPEN - 1);
    assert.equal(c.succeeded(A), false, 'a success of a closed destination releases nothing');
    failTimes(A, CIRCUIT_FAILURES_TO_OPEN - 1);
    assert.equal(c.isOpen(A), false);
    c.failed(A);
    assert.equal(c.isOpen(A), true);
  });

  test('an open destination is not claimed, and its one probe is due only once the first wait has passed', () => {
    const { c, advance, failTimes } = circuits();
    failTimes(A, CIRCUIT_FAILURES_TO_OPEN);
    advance(CIRCUIT_FIRST_PROBE_MS - 1);
    assert.deepEqual(c.probesDue(), [], 'not before the first wait');
    assert.deepEqual(c.open(), [A]);
    advance(1);
    assert.deepEqual(c.probesDue(), [A]);
  });

  test('a due probe is marked probing: it is not due a second time, and the destination stays out of the claims meanwhile', () => {
    const { c, advance, failTimes } = circuits();
    failTimes(A, CIRCUIT_FAILURES_TO_OPEN);
    advance(CIRCUIT_FIRST_PROBE_MS);
    assert.deepEqual(c.probesDue(), [A]);
    assert.deepEqual(c.probesDue(), [], 'one probe in flight at a time');
    advance(CIRCUIT_MAX_PROBE_MS * 10);
    assert.deepEqual(c.probesDue(), [], 'still one probe, however long it takes');
    assert.deepEqual(c.open(), [A]);
  });

  test('each failed probe doubles the wait for the next one, up to the cap', () => {
    const { c, advance, failTimes } = circuits();
    failTimes(A, CIRCUIT_FAILURES_TO_OPEN);
    const waits = expectedWaits(7);
    for (const [i, wait] of waits.entries()) {
      advance(wait - 1);
      assert.deepEqual(c.probesDue(), [], `probe ${i + 1} is not due before ${wait} ms`);
      advance(1);
      assert.deepEqual(c.probesDue(), [A], `probe ${i + 1} is due after ${wait} ms`);
      c.failed(A);
      assert.equal(c.isOpen(A), true, 'a failed probe keeps it open');
    }
  });

  test('a successful probe closes the destination, and succeeded() answers true only because it was open', () => {
    const { c, advance, failTimes } = circuits();
    failTimes(A, CIRCUIT_FAILURES_TO_OPEN);
    advance(CIRCUIT_FIRST_PROBE_MS);
    assert.deepEqual(c.probesDue(), [A]);
    assert.equal(c.succeeded(A), true, 'it was open: the caller releases the waiting jobs');
    assert.equal(c.isOpen(A), false);
    assert.deepEqual(c.open(), []);
    assert.deepEqual(c.probesDue(), []);
    assert.equal(c.succeeded(A), false, 'closed now: nothing more to release');
    assert.equal(c.succeeded('platform:never-seen'), false, 'a destination never failed releases nothing');
  });

  test('after it closed, the count starts from zero and a new opening waits the first wait again, not the doubled one', () => {
    const { c, advance, failTimes } = circuits();
    failTimes(A, CIRCUIT_FAILURES_TO_OPEN);
    for (const wait of expectedWaits(3)) {
      advance(wait);
      assert.deepEqual(c.probesDue(), [A]);
      c.failed(A);
    }
    advance(CIRCUIT_MAX_PROBE_MS);
    assert.deepEqual(c.probesDue(), [A]);
    assert.equal(c.succeeded(A), true);
    failTimes(A, CIRCUIT_FAILURES_TO_OPEN - 1);
    assert.equal(c.isOpen(A), false, 'the earlier failures are forgotten');
    c.failed(A);
    advance(CIRCUIT_FIRST_PROBE_MS - 1);
    assert.deepEqual(c.probesDue(), []);
    advance(1);
    assert.deepEqual(c.probesDue(), [A], 'the first wait again');
  });

  test('a probe skipped because nothing was waiting lets the next probe go without waiting or doubling', () => {
    const { c, advance, failTimes } = circuits();
    failTimes(A, CIRCUIT_FAILURES_TO_OPEN);
    advance(CIRCUIT_FIRST_PROBE_MS);
    assert.deepEqual(c.probesDue(), [A]);
    c.probeSkipped(A);
    assert.equal(c.isOpen(A), true, 'still open: no answer came');
    assert.deepEqual(c.probesDue(), [A], 'the next claim may probe at once');
    c.failed(A);
    advance(CIRCUIT_FIRST_PROBE_MS * 2 - 1);
    assert.deepEqual(c.probesDue(), []);
    advance(1);
    assert.deepEqual(c.probesDue(), [A], 'the skipped probe did not double the wait; the failed one did');
  });

  test('two open destinations each have their own probe and their own wait', () => {
    const { c, advance, failTimes } = circuits();
    failTimes(A, CIRCUIT_FAILURES_TO_OPEN);
    advance(CIRCUIT_FIRST_PROBE_MS / 2);
    failTimes(B, CIRCUIT_FAILURES_TO_OPEN);
    assert.deepEqual(c.open().sort(), [A, B].sort());
    advance(CIRCUIT_FIRST_PROBE_MS / 2);
    assert.deepEqual(c.probesDue(), [A]);
    advance(CIRCUIT_FIRST_PROBE_MS / 2);
    assert.deepEqual(c.probesDue(), [B]);
    assert.equal(c.succeeded(B), true);
    assert.deepEqual(c.open(), [A], 'closing one leaves the other open');
  });
});
