// Issue 13 §1: a platform outage needs no operator. A push gives up by time (--fulfillment-give-up-after),
// not after a count of tries, so an outage longer than the old 10-try budget heals by itself once the
// platform is back, each order reaching it exactly once with no replay; and a try looks the order up
// only when an earlier one may have created it. Issue 21 §2: during the outage the store's circuit is
// open — one probe at a time instead of every push retrying — and the probe that finds the platform
// back makes every waiting push due at once.
import { OPERATOR } from '../../src/use-cases/caller.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startServer } from '../helpers/server.ts';
import { seedShop } from '../helpers/fixtures.ts';
import { until } from '../helpers/wait.ts';
import { startSimulator } from '../../src/platforms/generic/simulator.ts';
import { startPushWorker } from '../../src/use-cases/fulfillment/push-worker.use-case.ts';
import { listPushJobs } from '../../src/use-cases/fulfillment/fulfillment.use-case.ts';
import { platformDestination } from '../../src/platforms/connections.ts';
import { OPEN_LIMITS, nextPhone } from '../api/orders/order-kit.ts';
import { buyer, call, connect } from '../mcp/mcp-kit.ts';

/** Counts the simulator's requests by kind from its log lines. */
function requestLog() {
  const lines: string[] = [];
  return {
    log: (line: string) => lines.push(line),
    lookups: () => lines.filter((l) => /^GET \/orders\?external_ref=/.test(l)).length,
    created: () => lines.filter((l) => /^POST \/orders → 201$/.test(l)).length,
    refused: () => lines.filter((l) => /^POST \/orders → 500$/.test(l)).length,
  };
}

test('a platform down for longer than ten tries used to last comes back: every order reaches it once, with no replay and no look-up', async () => {
  // Backoff shortened as an operator would to rehearse it: 10 ms doubling, capped at 100 ms: the old
  // 10-try budget would have been spent in about half a second.
  let down = true;
  const requests = requestLog();
  // failRate 1 with the test's own draw: every request fails (500) while down, none once it is back.
  const sim = await startSimulator({ failRate: 1, random: () => (down ? 0 : 1), log: requests.log });
  const server = await startServer({ ...OPEN_LIMITS, fulfillmentUrl: sim.url, fulfillmentBackoffMs: 10, fulfillmentBackoffMaxMs: 100, fulfillmentConcurrency: 8 });
  const worker = startPushWorker(server.deps)!;
  try {
    const shop = await seedShop(server.deps);
    const destination = platformDestination(shop.storeId);
    const client = await connect(server.url, shop.secretKey);
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push((await call(client, 'create_order', { store_id: shop.storeId, product_id: shop.productId, buyer: buyer({ telefono: nextPhone() }), idempotency_key: `outage-${i}` })).value.id);
    await client.close();
    // The circuit opens after a few failures; then two probes fail, one request each, while every push waits.
    await until('the store\'s circuit to open', () => worker.circuits.isOpen(destination));
    const atOpen = requests.refused();
    await until('two probes to fail', () => requests.refused() >= atOpen + 2);

    const askedAt = Date.now();
    const during = await listPushJobs(server.deps, OPERATOR, { limit: 100 });
    const answeredAt = Date.now();
    assert.equal(during.counts.dead, 0, 'nothing gave up during the outage');
    assert.equal(during.backlog.pending, 20);
    // The age of the oldest waiting push is the time since it was queued, read between the two instants the question was asked and answered.
    const since = Date.parse(during.backlog.oldest_pending_since!);
    const age = during.backlog.oldest_pending_age_s!;
    assert.ok(Math.round((askedAt - since) / 1000) <= age && age <= Math.round((answeredAt - since) / 1000), JSON.stringify({ ...during.backlog, askedAt, answeredAt }));
    assert.ok(await worker.circuits.isOpen(destination), 'still open: probes only');
    assert.ok(requests.refused() < 20 * 10, `the open circuit spared the platform: ${requests.refused()} requests, not 20 pushes × 10 tries`);
    assert.equal(requests.created(), 0, 'nothing reached the platform during the outage');
    assert.equal(requests.lookups(), 0, 'a 500 is a known failure: no try looked the order up');

    // The platform comes back: the next probe succeeds and every waiting push is due at once.
    down = false;
    await until('every push done', async () => (await listPushJobs(server.deps, OPERATOR, { state: 'done', limit: 100 })).jobs.length === 20);
    assert.equal(await worker.circuits.isOpen(destination), false);
    // The probe closed the circuit and released the store's waiting pushes (due now whatever their backoff said).
    assert.ok(server.logs.some((l) => l.destination === destination && typeof l.released === 'number'), 'the circuit closed on the successful probe');
    const counts = new Map<string, number>();
    for (const o of sim.orders()) counts.set(o.external_ref, (counts.get(o.external_ref) ?? 0) + 1);
    assert.deepEqual(ids.filter((id) => counts.get(id) !== 1), [], 'each order reached the platform exactly once');
    assert.equal(sim.orders().length, 20);
    // One successful create each, and never a look-up: every failure was a known one.
    assert.equal(requests.created(), 20);
    assert.equal(requests.lookups(), 0, 'no try looked an order up');
    assert.equal(server.logs.filter((l) => l.kind === 'unknown').length, 0, 'no outcome was unknown');
    const after = await listPushJobs(server.deps, OPERATOR, { limit: 100 });
    assert.deepEqual([after.backlog.pending, after.backlog.oldest_pending_age_s], [0, null]);
    const replays = await server.deps.db.selectFrom('order_events').select('id').where('type', '=', 'fulfillment.replayed').execute();
    assert.equal(replays.length, 0, 'no replay was needed');
  } finally {
    await worker.stop();
    await server.close();
    await sim.close();
  }
});

/**
 * A proxy in front of the platform that cuts the connection of the first create once codrail has sent
 * it all — after the platform created the order (`answerLost`), or before the platform got it — an
 * unknown outcome either way, which no timeout decides. Every other request passes through.
 */
async function cuttingFirstCreate(target: string, cut: 'answerLost' | 'requestLost'): Promise<{ url: string; close(): Promise<void> }> {
  let done = false;
  const proxy: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const first = !done && req.method === 'POST' && req.url === '/orders';
    if (first) done = true;
    if (first && cut === 'requestLost') return void res.socket?.destroy();
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name))) as Record<string, string>;
    const answer = await fetch(`${target}${req.url}`, { method: req.method, headers, ...(chunks.length > 0 && { body: Buffer.concat(chunks) }) });
    const body = Buffer.from(await answer.arrayBuffer());
    if (first) return void res.socket?.destroy();
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(body);
  });
  await new Promise<void>((ok) => proxy.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    close: () => new Promise<void>((ok) => (proxy.closeAllConnections(), proxy.close(() => ok()))),
  };
}

test('a try whose answer was lost looks the order up first, and the look-up that finds it finishes the job in one try, without a second create', async () => {
  const requests = requestLog();
  const sim = await startSimulator({ log: requests.log });
  const lossy = await cuttingFirstCreate(sim.url, 'answerLost');
  const server = await startServer({ ...OPEN_LIMITS, fulfillmentUrl: lossy.url, fulfillmentBackoffMs: 10, fulfillmentBackoffMaxMs: 50 });
  const worker = startPushWorker(server.deps)!;
  try {
    const shop = await seedShop(server.deps);
    const client = await connect(server.url, shop.secretKey);
    const id = (await call(client, 'create_order', { store_id: shop.storeId, product_id: shop.productId, buyer: buyer({ telefono: nextPhone() }), idempotency_key: 'lost-1' })).value.id;
    await client.close();
    await until('the push done', async () => (await listPushJobs(server.deps, OPERATOR, { state: 'done', limit: 10 })).jobs.some((j) => j.order_id === id));
    const job = (await listPushJobs(server.deps, OPERATOR, { state: 'done', limit: 10 })).jobs.find((j) => j.order_id === id)!;
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
    await lossy.close();
    await sim.close();
  }
});

test('a try whose request was cut before the platform got it looks the order up, and the look-up that finds nothing plus the create are one try', async () => {
  const requests = requestLog();
  const sim = await startSimulator({ log: requests.log });
  const lossy = await cuttingFirstCreate(sim.url, 'requestLost');
  const server = await startServer({ ...OPEN_LIMITS, fulfillmentUrl: lossy.url, fulfillmentBackoffMs: 10, fulfillmentBackoffMaxMs: 50 });
  const worker = startPushWorker(server.deps)!;
  try {
    const shop = await seedShop(server.deps);
    const client = await connect(server.url, shop.secretKey);
    const id = (await call(client, 'create_order', { store_id: shop.storeId, product_id: shop.productId, buyer: buyer({ telefono: nextPhone() }), idempotency_key: 'cut-1' })).value.id;
    await client.close();
    await until('the push done', async () => (await listPushJobs(server.deps, OPERATOR, { state: 'done', limit: 10 })).jobs.some((j) => j.order_id === id));
    const job = (await listPushJobs(server.deps, OPERATOR, { state: 'done', limit: 10 })).jobs.find((j) => j.order_id === id)!;
    assert.equal(job.attempts, 2, 'the cut create, then one try: a look-up that found nothing and the create');
    const placed = sim.orders().filter((o) => o.external_ref === id);
    assert.equal(placed.length, 1);
    assert.equal(placed[0]!.create_calls, 1, 'the cut request never reached the platform; the second try created it');
    assert.equal(requests.lookups(), 1);
    const pushed = await server.deps.db.selectFrom('order_events').select('data').where('order_id', '=', id).where('type', '=', 'fulfillment.pushed').executeTakeFirstOrThrow();
    assert.equal(JSON.parse(pushed.data).reconciled, false);
  } finally {
    await worker.stop();
    await server.close();
    await lossy.close();
    await sim.close();
  }
});
