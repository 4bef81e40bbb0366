// The one outbox loop (src/outbox/outbox-loop.ts; issue 13 §5): an attempt that throws — a database
// error outside a try, a bug — is logged and the loop keeps going; it never becomes an unhandled
// rejection, which on Node 20 would end the whole `serve` process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { createLogger } from '../../src/log.ts';
import { OutboxLoop, backoffMs } from '../../src/outbox/outbox-loop.ts';

test('an attempt that throws is logged, the loop keeps claiming, and no rejection goes unhandled', async () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  const lines: Record<string, unknown>[] = [];
  const log = createLogger('info', new Writable({ write: (chunk: Buffer, _e, done) => (lines.push(JSON.parse(chunk.toString())), done()) }));
  let next = 1;
  const attempted: number[] = [];
  const loop = new OutboxLoop<number>({
    name: 'test',
    concurrency: 2,
    pollMs: 10,
    log,
    claim: async () => (next <= 6 ? [next++] : []),
    attempt: async (job) => {
      attempted.push(job);
      if (job % 2 === 0) throw new Error(`database is locked (job ${job})`);
    },
  });
  loop.start();
  const end = Date.now() + 5_000;
  while (attempted.length < 6 && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
  await loop.stop();
  await new Promise((r) => setImmediate(r));
  process.off('unhandledRejection', onUnhandled);
  assert.deepEqual(attempted.sort(), [1, 2, 3, 4, 5, 6]);
  assert.deepEqual(unhandled, []);
  const errors = lines.filter((l) => l.level === 50);
  assert.equal(errors.length, 3);
  assert.match(String((errors[0]!.err as { message: string }).message), /database is locked/);
});

test('a claim that throws is logged and the loop tries again', async () => {
  const lines: Record<string, unknown>[] = [];
  const log = createLogger('info', new Writable({ write: (chunk: Buffer, _e, done) => (lines.push(JSON.parse(chunk.toString())), done()) }));
  let claims = 0;
  const loop = new OutboxLoop<number>({
    name: 'test',
    concurrency: 1,
    pollMs: 5,
    log,
    claim: async () => {
      claims++;
      if (claims === 1) throw new Error('SQLITE_BUSY');
      return [];
    },
    attempt: async () => {},
  });
  loop.start();
  const end = Date.now() + 5_000;
  while (claims < 3 && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
  await loop.stop();
  assert.ok(claims >= 3);
  assert.equal(lines.filter((l) => l.level === 50).length, 1);
});

test('backoff delays lie between half the base and the capped ceiling (not "full jitter", which starts at 0)', () => {
  for (let attempt = 1; attempt < 20; attempt++)
    for (const r of [0, 0.5, 0.999]) {
      const d = backoffMs(attempt, 1_000, 60_000, () => r);
      assert.ok(d >= 500 && d <= Math.min(60_000, 1_000 * 2 ** (attempt - 1)), `${attempt} ${r} ${d}`);
    }
});
