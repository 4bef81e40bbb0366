// The pace of one credential (src/http/outbound/pacer.ts; issue 22 §3): Dropi locks a key after
// bursts, so its requests go one at a time, a least gap apart, whoever calls — and another key
// never waits for it. Starts are recorded where the pacer lets a request go (in this process), so
// the assertions hold whatever the network or the machine's load adds after that.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Pacer } from '../../../src/http/outbound/pacer.ts';
import { databasePaceSlots } from '../../../src/db/queries/pace.queries.ts';
import { migratedDatabase } from '../../helpers/database.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('one key: never two at once, and each start at least the gap after the previous one', async () => {
  const pacer = new Pacer();
  const pace = { key: 'dropi:a', concurrency: 1, minIntervalMs: 40 };
  const starts: number[] = [];
  let running = 0;
  let most = 0;
  await Promise.all(
    Array.from({ length: 5 }, () =>
      pacer.run(pace, async () => {
        starts.push(performance.now());
        most = Math.max(most, ++running);
        await sleep(5);
        running--;
      }),
    ),
  );
  assert.equal(most, 1);
  for (let i = 1; i < starts.length; i++) assert.ok(starts[i]! - starts[i - 1]! >= 39, `gap ${i}: ${(starts[i]! - starts[i - 1]!).toFixed(1)} ms`);
});

test('another key does not wait for a paced one', async () => {
  const pacer = new Pacer();
  const order: string[] = [];
  const slow = { key: 'dropi:slow', concurrency: 1, minIntervalMs: 200 };
  const first = pacer.run(slow, async () => void order.push('slow 1'));
  const second = pacer.run(slow, async () => void order.push('slow 2'));
  await pacer.run({ key: 'dropi:other', concurrency: 1, minIntervalMs: 200 }, async () => void order.push('other'));
  await Promise.all([first, second]);
  assert.deepEqual(order, ['slow 1', 'other', 'slow 2']);
});

test('a failing request frees its key for the next one, and an idle key is forgotten after its gap', async () => {
  const pacer = new Pacer();
  const pace = { key: 'dropi:f', concurrency: 1, minIntervalMs: 20 };
  await assert.rejects(pacer.run(pace, async () => Promise.reject(new Error('boom'))), /boom/);
  assert.equal(await pacer.run(pace, async () => 'next'), 'next');
  assert.equal(pacer.busy, 1, 'remembered while its gap runs');
  await sleep(40);
  assert.equal(pacer.busy, 0);
});

describe('with its slots in the database (issue 28)', () => {
  const database = migratedDatabase();

  test('two processes pacing one key keep one gap between all their starts, not one gap each', async () => {
    const slots = databasePaceSlots(database.db);
    const one = new Pacer({ slots });
    const two = new Pacer({ slots });
    const GAP = 200;
    const pace = { key: 'dropi:shared', concurrency: 1, minIntervalMs: GAP };
    const starts: number[] = [];
    await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? one : two).run(pace, async () => void starts.push(Date.now()))));
    starts.sort((a, b) => a - b);
    // A start is taken in the database the moment it goes, so a late timer only delays it; what a
    // gap can lose is the time between that statement and the request (a round trip to the database).
    for (let i = 1; i < starts.length; i++) assert.ok(starts[i]! - starts[i - 1]! >= GAP - 20, `gap ${i}: ${starts[i]! - starts[i - 1]!} ms`);
    const [slot] = await database.db.selectFrom('pace_slots').selectAll().where('key', '=', 'dropi:shared').execute();
    assert.ok(slot && slot.next_start_ms > starts.at(-1)! + GAP - 20, `the next start is a gap after the last (${slot?.next_start_ms} vs ${starts.at(-1)})`);
  });

  test('a key idle past its gap starts at once', async () => {
    const slots = databasePaceSlots(database.db);
    const pace = { key: 'dropi:idle', concurrency: 1, minIntervalMs: 30 };
    await new Pacer({ slots }).run(pace, async () => undefined);
    await sleep(40);
    const began = Date.now();
    await new Pacer({ slots }).run(pace, async () => undefined);
    assert.ok(Date.now() - began < 25, `waited ${Date.now() - began} ms`);
  });
});
