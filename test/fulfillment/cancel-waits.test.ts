// A cancellation that meets its order's push in flight (issue 12; src/fulfillment/worker.ts
// attemptCancel): while the push holds a live lease the cancel job waits, and it acts only once the
// push's outcome is recorded, then on exactly the platform order that push created: one create, one
// cancel request. The real worker runs both jobs against the simulator, whose answers come late so
// the push stays in flight while the order is cancelled.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openShop, orderBody, postOrder, type Shop } from '../helpers/fixtures.ts';
import type { TestServer } from '../helpers/server.ts';
import { seeded, until } from '../helpers/wait.ts';
import { OPEN_LIMITS, eventsOf, expectCreated, jobsOf, liveHeaders, nextPhone, orderRow } from '../api/orders/order-kit.ts';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../src/platforms/generic/simulator.ts';
import { startPushWorker } from '../../src/use-cases/fulfillment/push-worker.use-case.ts';
import { cancelOrder } from '../../src/use-cases/orders/order-life.use-case.ts';
import { OPERATOR } from '../../src/use-cases/caller.ts';
import type { OutboxWorker } from '../../src/fulfillment/worker.ts';
import type { ConfigFlags } from '../../src/config.ts';

const WAITING = 'waiting for the push in flight';

interface Bench {
  sim: Simulator;
  server: TestServer;
  shop: Shop;
  worker: OutboxWorker;
}

function bench(simOptions: SimulatorOptions, flags: ConfigFlags): Bench {
  const b = {} as Bench;
  before(async () => {
    b.sim = await startSimulator(simOptions);
    ({ server: b.server, shop: b.shop } = await openShop({ ...OPEN_LIMITS, fulfillmentUrl: b.sim.url, fulfillmentBackoffMs: 10, ...flags }));
    b.worker = startPushWorker(b.server.deps)!;
  });
  after(async () => {
    await b.worker?.stop();
    await b.server?.close();
    await b.sim?.close();
  });
  return b;
}

const jobOf = async (b: Bench, orderId: string, action: 'push' | 'cancel') => (await jobsOf(b.server.deps, orderId)).find((j) => j.action === action);

/** A live order whose push the worker has sent: the platform holds the order, its answer not yet back. */
async function pushInFlight(b: Bench): Promise<string> {
  const id = (await expectCreated(await postOrder(b.server.url, orderBody(b.shop, { telefono: nextPhone() }), liveHeaders(b.shop)))).data.id;
  await until('the platform to have created the order', () => b.sim.orders().some((o) => o.external_ref === id));
  const push = (await jobOf(b, id, 'push'))!;
  assert.equal(push.state, 'in_flight', 'the push has not recorded its answer yet');
  assert.equal(push.remote_id, null);
  return id;
}

/** Cancels through the use-case every shell calls (the worker is nudged and may claim the cancel job at once). */
async function cancel(b: Bench, id: string): Promise<void> {
  const detail = await cancelOrder(b.server.deps, OPERATOR, { order_id: id, reason: 'buyer_declined' });
  assert.equal(detail.status, 'cancelled');
  assert.ok(detail.fulfillment?.cancel, 'a cancel job is queued for the platform');
  const event = (await eventsOf(b.server.deps, id)).find((e) => e.type === 'order.cancelled')!;
  assert.equal(JSON.parse(event.data).platform_cancel, 'queued');
  assert.equal((await jobOf(b, id, 'cancel'))!.remote_id, null, 'no platform order id is known yet');
}

/**
 * Waits for the cancel job to be done, checking at every look that no cancel reached the platform
 * while the push's outcome was not recorded (the platform is read first, then the push job).
 */
async function cancelDoneAfterPush(b: Bench, id: string): Promise<void> {
  await until('the cancel job done', async () => {
    const cancelled = b.sim.orders().some((o) => o.external_ref === id && o.cancellation !== null);
    const push = (await jobOf(b, id, 'push'))!;
    if (cancelled) assert.ok(push.state !== 'in_flight', `a cancel reached the platform while the push was ${push.state}`);
    return (await jobOf(b, id, 'cancel'))!.state === 'done';
  });
}

describe('a cancel while the push is in flight, the push then answered', () => {
  // The platform creates the order at once and answers 2.5 s later: the push holds its lease that long.
  const b = bench({ latencyMs: 2_500 }, {});

  test('the cancel job waits for the push to record its platform order, then cancels that order with one request', async () => {
    const id = await pushInFlight(b);
    await cancel(b, id);
    await until('the cancel job to have waited for the push', async () => (await jobOf(b, id, 'cancel'))!.last_error === WAITING);
    assert.equal((await jobOf(b, id, 'cancel'))!.state, 'failed', 'the cancel is due again later, not done');
    assert.equal((await jobOf(b, id, 'push'))!.state, 'in_flight', 'the push was still in flight when the cancel looked');
    assert.equal(b.sim.orders().find((o) => o.external_ref === id)!.cancellation, null, 'nothing was cancelled at the platform while waiting');

    await cancelDoneAfterPush(b, id);
    const [platform, ...others] = b.sim.orders().filter((o) => o.external_ref === id);
    assert.equal(others.length, 0, 'one platform order for the reference');
    assert.equal(platform!.create_calls, 1);
    assert.equal(platform!.cancellation?.calls, 1, 'one cancel request');
    assert.equal(platform!.status, 'CANCELADO');

    const push = (await jobOf(b, id, 'push'))!;
    const cancelJob = (await jobOf(b, id, 'cancel'))!;
    assert.equal(push.state, 'done');
    assert.equal(push.remote_id, platform!.id, 'the push recorded the order it created');
    assert.equal(cancelJob.remote_id, platform!.id, 'the cancel acted on that order');
    assert.ok(cancelJob.attempts >= 2, 'the first try only waited');
    const events = await eventsOf(b.server.deps, id);
    const pushed = events.filter((e) => e.type === 'fulfillment.pushed');
    const cancelled = events.filter((e) => e.type === 'fulfillment.cancelled');
    assert.equal(pushed.length, 1);
    assert.equal(cancelled.length, 1);
    assert.deepEqual(JSON.parse(cancelled[0]!.data).remote_ids, [platform!.id]);
    assert.ok(platform!.cancellation!.at >= pushed[0]!.created_at, 'the platform was asked to cancel after the push was recorded');
    const order = await orderRow(b.server.deps, id);
    assert.equal(order.status, 'cancelled', 'the push answer (PENDIENTE) did not bring the order back');
    assert.equal(order.fulfillment_status, 'CANCELADO');
  });
});

describe('a cancel while the push is in flight, the push answer then lost', () => {
  // Every create is made at the platform but answered after the client gave up (1.5 s): the push ends
  // with an unknown outcome, and the cancel finds the platform order by reference.
  const b = bench({ timeoutRate: 1, lateMs: 60_000, random: seeded(20) }, { fulfillmentTimeoutMs: 1_500 });

  test('the cancel job waits for the failed push to be recorded, then cancels the order it created, found by reference, and the push is never retried', async () => {
    const id = await pushInFlight(b);
    await cancel(b, id);
    await until('the cancel job to have waited for the push', async () => (await jobOf(b, id, 'cancel'))!.last_error === WAITING);
    assert.equal(b.sim.orders().find((o) => o.external_ref === id)!.cancellation, null, 'nothing was cancelled at the platform while waiting');

    await cancelDoneAfterPush(b, id);
    const [platform, ...others] = b.sim.orders().filter((o) => o.external_ref === id);
    assert.equal(others.length, 0, 'one platform order for the reference');
    assert.equal(platform!.cancellation?.calls, 1, 'one cancel request');
    assert.equal(platform!.status, 'CANCELADO');
    const cancelJob = (await jobOf(b, id, 'cancel'))!;
    assert.equal(cancelJob.remote_id, platform!.id, 'the cancel acted on the order the lost push created');
    const cancelled = (await eventsOf(b.server.deps, id)).filter((e) => e.type === 'fulfillment.cancelled');
    assert.deepEqual(JSON.parse(cancelled[0]!.data).remote_ids, [platform!.id]);
    await until('the push to settle', async () => (await jobOf(b, id, 'push'))!.state !== 'in_flight');
    const push = (await jobOf(b, id, 'push'))!;
    assert.notEqual(push.state, 'done', 'the lost answer was never recorded as a push');
    assert.equal(platform!.create_calls, 1, 'the cancelled order was not pushed again');
    assert.equal((await orderRow(b.server.deps, id)).status, 'cancelled');
  });
});
