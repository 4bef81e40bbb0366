// Issue 13 §1: a platform outage needs no operator. A push gives up by time (--fulfillment-give-up-after),
// not after a count of tries, so an outage longer than the old 10-try budget heals by itself once the
// platform is back, each order reaching it exactly once with no replay; and a try looks the order up
// only when an earlier one may have created it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../helpers/server.ts';
import { seedShop } from '../helpers/fixtures.ts';
import { startSimulator } from '../../src/fulfillment/simulator.ts';
import { startPushWorker } from '../../src/use-cases/fulfillment/push-worker.use-case.ts';
import { listPushJobs } from '../../src/use-cases/fulfillment/fulfillment.use-case.ts';
import { OPEN_LIMITS } from '../api/orders/order-kit.ts';
import { buyer, call, connect } from '../mcp/mcp-kit.ts';
import { nextPhone } from '../api/orders/order-kit.ts';

async function until(what: string, check: () => Promise<boolean> | boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Counts the simulator's requests by kind from its log lines. */
function requestLog() {
  const lines: string[] = [];
  return { log: (line: string) => lines.push(line), lookups: () => lines.filter((l) => /^GET \/orders\?external_ref=/.test(l)).length, creates: () => lines.filter((l) => /^POST \/orders → /.test(l)).length };
}

test('a platform down for longer than ten tries used to last comes back: every order reaches it once, with no replay and no look-up', async () => {
  // Backoff shortened as an operator would to rehearse it: 10 ms doubling, capped at 100 ms. Ten tries
  // (the old budget) then take under a second; the outage lasts three.
  let requests = requestLog();
  let sim = await startSimulator({ failRate: 1, log: requests.log });
  const port = sim.port;
  const server = await startServer({ ...OPEN_LIMITS, fulfillmentUrl: sim.url, fulfillmentBackoffMs: 10, fulfillmentBackoffMaxMs: 100, fulfillmentConcurrency: 8 });
  let worker = startPushWorker(server.deps)!;
  try {
    const shop = await seedShop(server.deps);
    const client = await connect(server.url, shop.secretKey);
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push((await call(client, 'create_order', { store_id: shop.storeId, product_id: shop.productId, buyer: buyer({ telefono: nextPhone() }), idempotency_key: `outage-${i}` })).value.id);
    await client.close();
    // Until every push has tried more often than the old budget allowed (10), however fast the machine is.
    await until('every push past 10 tries', async () => (await listPushJobs(server.deps, undefined, 100)).jobs.every((j) => j.attempts > 10));

    const during = await listPushJobs(server.deps, undefined, 100);
    assert.equal(during.counts.dead, 0, 'nothing gave up during the outage');
    assert.equal(during.backlog.pending, 20);
    // The age of the oldest waiting push is the time since the first order was created (±1 s).
    const waited = (Date.now() - Date.parse(during.backlog.oldest_pending_since!)) / 1000;
    assert.ok(Math.abs(during.backlog.oldest_pending_age_s! - waited) <= 1, JSON.stringify({ ...during.backlog, waited }));
    assert.ok(during.jobs.every((j) => j.attempts > 10), `every push outlived the old 10-try budget: ${during.jobs.map((j) => j.attempts).join(',')}`);
    assert.equal(requests.lookups(), 0, 'a 500 is a known failure: no try looked the order up');

    // The platform comes back (a new process on the same address, as after a deploy). The worker is
    // paused for the swap so that no request is cut mid-way (that would be an unknown outcome, and a
    // look-up, by design): what is measured is the recovery from known failures.
    await worker.stop();
    await sim.close();
    // Let the HTTP client notice its pooled connections to the old process are gone: a request sent
    // on one would be cut without an answer, an unknown outcome (and so, rightly, a look-up).
    await new Promise((r) => setTimeout(r, 300));
    requests = requestLog();
    sim = await startSimulator({ port, log: requests.log });
    worker = startPushWorker(server.deps)!;
    await until('every push done', async () => (await listPushJobs(server.deps, 'done', 100)).jobs.length === 20);
    const counts = new Map<string, number>();
    for (const o of sim.orders()) counts.set(o.external_ref, (counts.get(o.external_ref) ?? 0) + 1);
    assert.deepEqual(ids.filter((id) => counts.get(id) !== 1), [], 'each order reached the platform exactly once');
    // One request each: a look-up only follows a try whose outcome was unknown (a connection cut
    // without an answer), never a known failure.
    const unknowns = server.logs.filter((l) => l.kind === 'unknown').length;
    assert.ok(requests.lookups() <= unknowns, `${requests.lookups()} look-ups for ${unknowns} unknown outcomes`);
    assert.equal(requests.creates(), 20);
    const after = await listPushJobs(server.deps, undefined, 100);
    assert.deepEqual([after.backlog.pending, after.backlog.oldest_pending_age_s], [0, null]);
    const replays = await server.deps.db.selectFrom('order_events').select('id').where('type', '=', 'fulfillment.replayed').execute();
    assert.equal(replays.length, 0, 'no replay was needed');
  } finally {
    await worker.stop();
    await server.close();
    await sim.close();
  }
});

test('a try whose answer was lost looks the order up first, and the look-up that finds nothing plus the create are one try', async () => {
  const requests = requestLog();
  // Every create is accepted but answered too late: the outcome of each first try is unknown.
  const sim = await startSimulator({ timeoutRate: 1, lateMs: 1_200, log: requests.log });
  const server = await startServer({ ...OPEN_LIMITS, fulfillmentUrl: sim.url, fulfillmentBackoffMs: 10, fulfillmentBackoffMaxMs: 50, fulfillmentTimeoutMs: 400 });
  const worker = startPushWorker(server.deps)!;
  try {
    const shop = await seedShop(server.deps);
    const client = await connect(server.url, shop.secretKey);
    const id = (await call(client, 'create_order', { store_id: shop.storeId, product_id: shop.productId, buyer: buyer({ telefono: nextPhone() }), idempotency_key: 'lost-1' })).value.id;
    await client.close();
    await until('the push done', async () => (await listPushJobs(server.deps, 'done', 10)).jobs.some((j) => j.order_id === id));
    const job = (await listPushJobs(server.deps, 'done', 10)).jobs.find((j) => j.order_id === id)!;
    assert.equal(job.attempts, 2, 'the create whose answer was lost, then a look-up that found it');
    const placed = sim.orders().filter((o) => o.external_ref === id);
    assert.equal(placed.length, 1);
    assert.equal(placed[0]!.create_calls, 1, 'one create: the second try found it');
    assert.equal(requests.lookups(), 1);
    const pushed = await server.deps.db.selectFrom('order_events').select('data').where('order_id', '=', id).where('type', '=', 'fulfillment.pushed').executeTakeFirstOrThrow();
    assert.equal(JSON.parse(pushed.data).reconciled, true);
  } finally {
    await worker.stop();
    await server.close();
    await sim.close();
  }
});
