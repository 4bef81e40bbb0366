// Issue 20: exactly once where it hurts. The real worker pushes and cancels against the real
// simulator over HTTP while a failure is injected at each step of an attempt — before the request
// leaves, after it left with no answer, after the answer and before the record, during the record,
// at lease expiry — and each run ends with exactly one platform order per reference (and one cancel
// per cancelled order), asserted on the platform and in the database, never on a log line.
// SIGKILL at the same steps is in exactly-once-kill.test.ts.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { startServer, type TestServer } from '../helpers/server.ts';
import { orderBody, postOrder, seedShop, type Shop } from '../helpers/fixtures.ts';
import { OPEN_LIMITS, expectCreated, liveHeaders, nextPhone } from '../api/orders/order-kit.ts';
import { seeded, until } from '../helpers/wait.ts';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../src/platforms/generic/simulator.ts';
import { startPushWorker } from '../../src/use-cases/fulfillment/push-worker.use-case.ts';
import { OutboxWorker } from '../../src/fulfillment/worker.ts';
import { cancelOrder } from '../../src/use-cases/orders/order-life.use-case.ts';
import { operatorAs } from '../../src/use-cases/caller.ts';
import { parseWith } from '../../src/use-cases/validate.ts';
import { CancelOrderInput } from '../../src/use-cases/orders/order-life.schemas.ts';
import { dropRefusal, refuseEvents } from '../helpers/database.ts';

const FAST = { fulfillmentBackoffMs: 10, fulfillmentBackoffMaxMs: 50, fulfillmentTimeoutMs: 300, fulfillmentConcurrency: 4 } as const;

interface Bench {
  sim: Simulator;
  server: TestServer;
  shop: Shop;
  close(): Promise<void>;
}

async function bench(failpoints: string | undefined, simOptions: SimulatorOptions = {}, flags: Record<string, unknown> = {}): Promise<Bench> {
  const sim = await startSimulator({ port: 0, ...simOptions });
  const server = await startServer({ ...OPEN_LIMITS, ...FAST, fulfillmentUrl: sim.url, ...flags }, { env: failpoints ? { CODRAIL_FAILPOINTS: failpoints } : {} });
  const shop = await seedShop(server.deps);
  return {
    sim,
    server,
    shop,
    async close() {
      await server.close();
      await sim.close();
    },
  };
}

async function liveOrders(b: Bench, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await expectCreated(await postOrder(b.server.url, orderBody(b.shop, { telefono: nextPhone() }), liveHeaders(b.shop)))).data.id);
  return ids;
}

const jobs = (b: Bench, action: 'push' | 'cancel' = 'push') => b.server.deps.db.selectFrom('fulfillment_jobs').selectAll().where('action', '=', action).execute();
const allDone = async (b: Bench, action: 'push' | 'cancel' = 'push') => (await jobs(b, action)).every((j) => j.state === 'done');

/** The platform holds exactly one order per codrail order, each recorded on its job and in one `fulfillment.pushed` event. */
async function exactlyOnce(b: Bench, ids: readonly string[]): Promise<void> {
  const platform = b.sim.orders();
  for (const id of ids) {
    const mine = platform.filter((o) => o.external_ref === id);
    assert.equal(mine.length, 1, `order ${id}: ${mine.length} platform orders (${mine.map((o) => o.id).join(', ')})`);
    const job = (await jobs(b)).find((j) => j.order_id === id)!;
    assert.deepEqual([job.state, job.remote_id, job.unknown_outcome], ['done', mine[0]!.id, 0], `order ${id}`);
    const pushed = await b.server.deps.db.selectFrom('order_events').select('data').where('order_id', '=', id).where('type', '=', 'fulfillment.pushed').execute();
    assert.equal(pushed.length, 1, `order ${id}: one fulfillment.pushed event`);
    assert.equal((JSON.parse(pushed[0]!.data) as { remote_id: string }).remote_id, mine[0]!.id);
  }
  assert.equal(platform.length, ids.length, 'nothing else on the platform');
}

async function withWorkers<T>(b: Bench, count: number, act: () => Promise<T>): Promise<T> {
  const workers = Array.from({ length: count }, () => (count === 1 ? startPushWorker(b.server.deps)! : new OutboxWorker({ ...b.server.deps, log: b.server.deps.log.child({ worker: Math.random() }) })));
  if (count > 1) for (const w of workers) w.start();
  try {
    return await act();
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
  }
}

describe('a push with a failure injected at each step ends with exactly one platform order per order', () => {
  test('the record fails for 1.5 s after the platform created the order (the duplicate-push reproduction): one platform order, found by look-up', async () => {
    const b = await bench(undefined);
    try {
      const ids = await liveOrders(b, 3);
      // Recording a push is impossible while this trigger exists: the transaction that records it throws.
      await refuseEvents(b.server.deps.db, 'no_pushed', 'fulfillment.pushed');
      await withWorkers(b, 1, async () => {
        await until('the platform to have created every order while codrail could not record it', () => ids.every((id) => b.sim.orders().some((o) => o.external_ref === id)));
        await until('a few failed records', async () => (await jobs(b)).every((j) => j.attempts >= 3));
        await new Promise((r) => setTimeout(r, 1_500));
        await dropRefusal(b.server.deps.db, 'no_pushed');
        await until('every push to be recorded', () => allDone(b));
      });
      await exactlyOnce(b, ids);
      for (const id of ids) assert.equal(b.sim.orders().find((o) => o.external_ref === id)!.create_calls, 1, 'created once, then only looked up');
    } finally {
      await b.close();
    }
  });

  test('before the request leaves (the intent recorded, our side failing): one platform order', async () => {
    const b = await bench('push.before_request=error*4');
    try {
      const ids = await liveOrders(b, 4);
      await withWorkers(b, 1, () => until('every push done', () => allDone(b)));
      await exactlyOnce(b, ids);
    } finally {
      await b.close();
    }
  });

  test('after the request left with no answer (the platform creates, then answers after the timeout): one platform order', async () => {
    const b = await bench(undefined, { timeoutRate: 0.5, lateMs: 1_000, random: seeded(20) });
    try {
      const ids = await liveOrders(b, 8);
      await withWorkers(b, 1, () => until('every push done', () => allDone(b)));
      await exactlyOnce(b, ids);
      assert.ok(b.sim.orders().some((o) => o.create_calls === 1) && (await b.server.deps.db.selectFrom('fulfillment_jobs').select('attempts').where('attempts', '>', 1).execute()).length > 0, 'answers were lost and tried again');
    } finally {
      await b.close();
    }
  });

  test('after the answer and before the record: one platform order', async () => {
    const b = await bench('push.after_answer=error*5');
    try {
      const ids = await liveOrders(b, 4);
      await withWorkers(b, 1, () => until('every push done', () => allDone(b)));
      await exactlyOnce(b, ids);
      assert.equal(b.sim.orders().reduce((n, o) => n + o.create_calls, 0), 4, 'no order was created a second time');
    } finally {
      await b.close();
    }
  });

  test('during the record (the transaction rolls back): one platform order', async () => {
    const b = await bench('push.during_record=error*5');
    try {
      const ids = await liveOrders(b, 4);
      await withWorkers(b, 1, () => until('every push done', () => allDone(b)));
      await exactlyOnce(b, ids);
      assert.equal(b.sim.orders().reduce((n, o) => n + o.create_calls, 0), 4);
    } finally {
      await b.close();
    }
  });

  test('at lease expiry: an attempt that outlives its lease while another worker takes the job over: one platform order', async () => {
    // Timeout 300 ms: a lease of 3 × 300 + 1000 ms. The first answer is held past it; a second worker reclaims the job meanwhile.
    const b = await bench('push.after_answer=delay:2500*1', {}, { fulfillmentConcurrency: 1 });
    try {
      const ids = await liveOrders(b, 1);
      await withWorkers(b, 2, () => until('the push done', () => allDone(b), 20_000));
      await exactlyOnce(b, ids);
      const [job] = await jobs(b);
      assert.ok(job!.attempts >= 2, 'the job was reclaimed after its lease ran out');
      // The first holder, back after its lease, must not leave the job believing the order absent.
      await until('the first holder to come back', () => b.server.logs.some((l) => /lease lost before the push was recorded/.test(String(l.msg))), 10_000);
      assert.equal((await jobs(b))[0]!.state, 'done');
      assert.equal(b.sim.orders().length, 1);
    } finally {
      await b.close();
    }
  });

  test('a claim is refused while another worker holds a live lease: the second worker never runs the job', async () => {
    const b = await bench('push.after_answer=delay:800*1');
    try {
      const ids = await liveOrders(b, 1);
      await withWorkers(b, 3, () => until('the push done', () => allDone(b)));
      await exactlyOnce(b, ids);
      assert.equal((await jobs(b))[0]!.attempts, 1, 'claimed once: the other workers saw the live lease');
    } finally {
      await b.close();
    }
  });
});

describe('a cancel with a failure injected at each step cancels once', () => {
  async function cancelled(failpoints: string): Promise<void> {
    const b = await bench(failpoints);
    try {
      const ids = await liveOrders(b, 2);
      await withWorkers(b, 1, async () => {
        await until('pushed', () => allDone(b));
        for (const id of ids) await cancelOrder({ ...b.server.deps }, operatorAs(b.shop.accountId), parseWith(CancelOrderInput, { order_id: id, reason: 'buyer_declined' }));
        b.server.deps.nudge.fulfillment();
        await until('every cancel done', async () => (await jobs(b, 'cancel')).length === ids.length && (await allDone(b, 'cancel')));
      });
      for (const id of ids) {
        const remote = b.sim.orders().filter((o) => o.external_ref === id);
        assert.equal(remote.length, 1);
        assert.deepEqual([remote[0]!.status, remote[0]!.cancellation?.calls], ['CANCELADO', 1], `order ${id}: cancelled with one request`);
        const order = await b.server.deps.db.selectFrom('orders').select('status').where('id', '=', id).executeTakeFirstOrThrow();
        assert.equal(order.status, 'cancelled');
        const job = (await jobs(b, 'cancel')).find((j) => j.order_id === id)!;
        assert.deepEqual([job.state, job.unknown_outcome], ['done', 0]);
      }
    } finally {
      await b.close();
    }
  }

  test('after the cancel answer, before the record: one cancel request', () => cancelled('cancel.after_answer=error*3'));
  test('during the record of the cancel: one cancel request', () => cancelled('cancel.during_record=error*3'));
  test('before the cancel request leaves: one cancel request', () => cancelled('cancel.before_request=error*3'));
});
