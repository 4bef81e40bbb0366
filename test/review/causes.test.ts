// Issue 13 §5 "errors lose their cause": an unexpected error is logged once with its cause and the id
// of what it happened to (the request, the job), and the CLI prints it with its stack.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { startServer } from '../helpers/server.ts';
import { seedShop, orderBody, postOrder } from '../helpers/fixtures.ts';
import { startSimulator } from '../../src/platforms/generic/simulator.ts';
import { startPushWorker } from '../../src/use-cases/fulfillment/push-worker.use-case.ts';
import { OPEN_LIMITS, liveHeaders, nextPhone } from '../api/orders/order-kit.ts';
import { runCli } from '../helpers/cli.ts';
import { until } from '../helpers/wait.ts';
import { refuseEvents } from '../helpers/database.ts';

test('/readyz answers 503 when the database is gone and logs why, with the request id', async () => {
  const server = await startServer();
  try {
    await server.deps.db.destroy();
    const res = await fetch(`${server.url}/readyz`);
    assert.equal(res.status, 503);
    const line = server.logs.find((l) => l.msg === 'readiness: the database does not answer');
    assert.ok(line, 'the cause is logged');
    assert.equal(line.reqId, res.headers.get('x-request-id'));
    assert.match(String((line.err as { stack?: string }).stack), /destroyed/);
  } finally {
    await server.close().catch(() => {});
  }
});

test('a push attempt failing on our side is logged with its job and stack, never passed off as the platform’s', async () => {
  const sim = await startSimulator({});
  const server = await startServer({ ...OPEN_LIMITS, fulfillmentUrl: sim.url, fulfillmentBackoffMs: 10 });
  const worker = startPushWorker(server.deps)!;
  try {
    const shop = await seedShop(server.deps);
    // The order's timeline cannot be written any more: recording the push fails inside the attempt.
    await refuseEvents(server.deps.db, 'no_events', 'fulfillment.pushed');
    const res = await postOrder(server.url, orderBody(shop, { telefono: nextPhone() }), liveHeaders(shop));
    assert.equal(res.status, 200);
    const end = Date.now() + 10_000;
    let line: Record<string, unknown> | undefined;
    while (!line && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 50));
      line = server.logs.find((l) => l.msg === 'fulfillment: an attempt failed on our side (not the platform)');
    }
    assert.ok(line, 'logged as our failure');
    assert.equal(line.level, 50);
    assert.ok(typeof line.jobId === 'string' && typeof line.orderId === 'string');
    assert.match(String((line.err as { stack?: string }).stack), /read-only \(test\)/);
    // The attempt logs, then settles the job in a write of its own (committed with its group): wait for that write.
    const job = await until('the job to record the failure', async () => {
      const row = await server.deps.db.selectFrom('fulfillment_jobs').select(['state', 'last_error']).executeTakeFirstOrThrow();
      return row.last_error !== null ? row : undefined;
    }, 10_000);
    assert.match(job!.last_error ?? '', /^internal error: /);
  } finally {
    await worker.stop();
    await server.close();
    await sim.close();
  }
});

test('the CLI prints an unexpected error with its stack, exit 1', async () => {
  const result = await runCli(['--db', '/nonexistent-dir/codrail.sqlite', 'orders', 'list']);
  assert.equal(result.code, 1);
  assert.match(result.stderr, /^error: unexpected: /m);
  assert.match(result.stderr, /\n\s+at /, 'with the stack');
});
