// The outbox machinery's promises (src/outbox/outbox.ts, src/db/queries/outbox.queries.ts; issue 21),
// kept on real tables through the fulfillment kind against the real simulator: claims re-check what
// they select, so two workers on one database never run one job twice; a lease that runs out makes
// the job claimable again with an unknown outcome, so the next try looks the order up first; a job
// is given up by age; a platform's Retry-After is honoured; a refusal of the request itself is dead
// at once and, like our own failures, is not the destination's failure and opens no circuit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { startServer, type TestServer } from '../helpers/server.ts';
import { orderBody, postOrder, seedShop, type Shop } from '../helpers/fixtures.ts';
import { startFlakyProxy, type FlakyProxy } from '../helpers/flaky-proxy.ts';
import { until } from '../helpers/wait.ts';
import { BIN, cliEnv } from '../helpers/cli.ts';
import { OPEN_LIMITS, expectCreated, liveHeaders, nextPhone } from '../api/orders/order-kit.ts';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../src/platforms/generic/simulator.ts';
import { OutboxWorker } from '../../src/fulfillment/worker.ts';
import { startPushWorker } from '../../src/use-cases/fulfillment/push-worker.use-case.ts';
import { platformDestination } from '../../src/platforms/connections.ts';
import { manualClock, type Clock } from '../../src/clock.ts';
import { CIRCUIT_FAILURES_TO_OPEN } from '../../src/limits.ts';

interface Bench {
  sim: Simulator;
  server: TestServer;
  shop: Shop;
  /** The simulator's log lines: what reached the platform. */
  platform: string[];
  proxy?: FlakyProxy;
  close(): Promise<void>;
}

async function bench(o: { flags?: Record<string, unknown>; sim?: SimulatorOptions; failpoints?: string; clock?: Clock; proxy?: boolean } = {}): Promise<Bench> {
  const platform: string[] = [];
  const sim = await startSimulator({ log: (line) => platform.push(line), ...o.sim });
  const proxy = o.proxy ? await startFlakyProxy(sim.url) : undefined;
  const server = await startServer(
    { ...OPEN_LIMITS, fulfillmentUrl: proxy?.url ?? sim.url, fulfillmentBackoffMs: 10, ...o.flags },
    { ...(o.clock && { clock: o.clock }), ...(o.failpoints && { env: { CODRAIL_FAILPOINTS: o.failpoints } }) },
  );
  const shop = await seedShop(server.deps);
  return {
    sim,
    server,
    shop,
    platform,
    ...(proxy && { proxy }),
    async close() {
      await server.close();
      await proxy?.close();
      await sim.close();
    },
  };
}

async function liveOrders(b: Bench, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await expectCreated(await postOrder(b.server.url, orderBody(b.shop, { telefono: nextPhone() }), liveHeaders(b.shop)))).data.id);
  return ids;
}

const pushJobs = (b: Bench) => b.server.deps.db.selectFrom('fulfillment_jobs').selectAll().where('action', '=', 'push').execute();
const jobOf = async (b: Bench, orderId: string) => (await pushJobs(b)).find((j) => j.order_id === orderId)!;
/** What the worker logged about one order's push, and the platform's requests: a failed count explains itself. */
const tries = (b: Bench, ref: string) =>
  [...b.server.logs.filter((l) => l.orderId === ref).map((l) => `${String(l.msg)} ${JSON.stringify(l.err ?? l.outcome ?? '')}`), ...b.platform].join('\n');
const lookupsOf = (b: Bench, ref: string) => b.platform.filter((l) => l.startsWith(`GET /orders?external_ref=${ref} `)).length;
const eventsOf = (b: Bench, orderId: string, type: string) =>
  b.server.deps.db.selectFrom('order_events').select('data').where('order_id', '=', orderId).where('type', '=', type).execute();
/** Log lines saying a circuit closed on a success (its waiting jobs released): none unless it was open. */
const circuitClosings = (b: Bench) => b.server.logs.filter((l) => typeof l.released === 'number');

/** `codrail serve` on the bench's database file, pushing to its simulator, once it listens (its worker starts next); with its log lines. */
async function serve(b: Bench): Promise<{ child: ChildProcess; logs: () => Record<string, unknown>[] }> {
  const args = [BIN, '--db', b.server.dbFile, 'serve', '--port', '0', '--log-level', 'info', '--fulfillment-url', b.sim.url, '--fulfillment-backoff-ms', '10', '--fulfillment-concurrency', '4'];
  const child = spawn(process.execPath, args, { env: cliEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  await until('codrail serve listening', () => stderr.includes('codrail listening') || child.exitCode !== null);
  assert.equal(child.exitCode, null, stderr);
  // Complete lines only: the last one may still be arriving.
  const logs = () => stdout.slice(0, stdout.lastIndexOf('\n') + 1).split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
  return { child, logs };
}

const stopped = (child: ChildProcess) => new Promise<void>((ok) => (child.exitCode !== null ? ok() : (child.once('exit', () => ok()), child.kill('SIGTERM'))));

test('two codrail serve processes on one database file push many orders without running any job twice: one create per reference, one try per job', async () => {
  // Answers take a while, so each process claims while the other's pushes are in flight.
  const b = await bench({ sim: { latencyMs: 50 } });
  const processes: { child: ChildProcess; logs: () => Record<string, unknown>[] }[] = [];
  try {
    processes.push(await serve(b), await serve(b));
    // Orders arrive while both workers poll the same table.
    const ids = await liveOrders(b, 60);
    await until('every push done', async () => (await pushJobs(b)).every((j) => j.state === 'done'));
    for (const id of ids) {
      const mine = b.sim.orders().filter((o) => o.external_ref === id);
      assert.equal(mine.length, 1, `order ${id}: one platform order`);
      assert.equal(mine[0]!.create_calls, 1, `order ${id}: one create request`);
      assert.equal((await jobOf(b, id)).attempts, 1, `order ${id}: claimed once`);
      assert.equal((await eventsOf(b, id, 'fulfillment.pushed')).length, 1);
    }
    assert.equal(b.sim.orders().length, ids.length);
    assert.equal(b.platform.filter((l) => l.startsWith('GET /orders?external_ref=')).length, 0, 'no try found an unknown outcome to look up');
    const pushedBy = () => processes.map((p) => p.logs().filter((l) => l.msg === 'fulfillment: pushed').length);
    // Each process logs a push just after recording it: the last lines may still be on their way.
    await until('a log line for each push', () => pushedBy().reduce((n, p) => n + p, 0) === ids.length);
    const pushed = pushedBy();
    assert.ok(pushed.every((n) => n > 0), `both processes pushed (${pushed.join(', ')})`);
  } finally {
    await Promise.all(processes.map((p) => stopped(p.child)));
    await b.close();
  }
});

test('two outbox workers in one process share its connection and never run one job twice: one create per reference, one try per job, both at work', async () => {
  const b = await bench({ sim: { latencyMs: 20 } });
  const workers = ['a', 'b'].map((name) => new OutboxWorker({ ...b.server.deps, log: b.server.deps.log.child({ worker: name }) }));
  try {
    const ids = await liveOrders(b, 60);
    for (const w of workers) w.start();
    await until('every push done', async () => (await pushJobs(b)).every((j) => j.state === 'done'));
    for (const id of ids) {
      assert.deepEqual(b.sim.orders().filter((o) => o.external_ref === id).map((o) => o.create_calls), [1], `order ${id}: one platform order, one create`);
      assert.equal((await jobOf(b, id)).attempts, 1, `order ${id}: claimed once`);
    }
    assert.equal(b.sim.orders().length, ids.length);
    const pushedBy = (worker: string) => b.server.logs.filter((l) => l.worker === worker && l.msg === 'fulfillment: pushed').length;
    await until('a log line for each push', () => pushedBy('a') + pushedBy('b') === ids.length);
    assert.ok(pushedBy('a') > 0 && pushedBy('b') > 0, `both workers pushed (a: ${pushedBy('a')}, b: ${pushedBy('b')})`);
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
    await b.close();
  }
});

test('a job whose holder vanished right after claiming it is claimed again once the lease runs out, as an unknown outcome: the next try looks the order up, finds nothing, and creates it once', async () => {
  // A 400 ms request timeout: a lease of 3 × 400 ms + 1 s. (100 ms was once too short for the new
  // holder's own look-up under CI's load: it timed out, and the job took a third try.)
  const b = await bench({ flags: { fulfillmentTimeoutMs: 400 } });
  let worker: OutboxWorker | undefined;
  try {
    const [id] = await liveOrders(b, 1);
    const job = await jobOf(b, id!);
    // A holder that claims the job and is never heard of again (a process killed at that instant).
    const claimed = await new OutboxWorker(b.server.deps).claim(job.id);
    assert.ok(claimed);
    assert.deepEqual([claimed.state, claimed.attempts, claimed.unknown_outcome], ['in_flight', 1, 0], 'nothing was sent: no intent yet');
    worker = startPushWorker(b.server.deps)!;
    await until('the push done', async () => (await jobOf(b, id!)).state === 'done', 20_000);
    const done = await jobOf(b, id!);
    assert.equal(done.attempts, 2, `the vanished claim, then one try by the new holder; its tries:\n${tries(b, id!)}`);
    assert.ok(Date.parse(done.updated_at) >= Date.parse(claimed.lease_until!), 'not before the first lease ran out');
    assert.equal(lookupsOf(b, id!), 1, 'a reclaimed job does not know what its holder did: it looks the order up first');
    const [placed, ...more] = b.sim.orders();
    assert.equal(more.length, 0);
    assert.deepEqual([placed!.external_ref, placed!.create_calls, done.remote_id], [id, 1, placed!.id]);
    assert.equal((JSON.parse((await eventsOf(b, id!, 'fulfillment.pushed'))[0]!.data) as { reconciled: boolean }).reconciled, false, 'the look-up found nothing, so the try created it');
  } finally {
    await worker?.stop();
    await b.close();
  }
});

test('a try that outlives its lease after the platform created the order is taken over: the new holder looks the order up and finds it, and the late holder cannot settle the job', async () => {
  // The first answer is held 5 s after it arrived, past a lease of 3 × 1 s + 1 s; the worker itself
  // claims the job again meanwhile. A request timeout of 400 ms was once too short for the new
  // holder's own look-up under CI's load (a third try): the timeout is the test's choice, not its point.
  const b = await bench({ flags: { fulfillmentTimeoutMs: 1_000 }, failpoints: 'push.after_answer=delay:5000*1' });
  let worker: OutboxWorker | undefined;
  try {
    const [id] = await liveOrders(b, 1);
    worker = startPushWorker(b.server.deps)!;
    await until('the push done', async () => (await jobOf(b, id!)).state === 'done', 20_000);
    await until('the late holder back', () => b.server.logs.some((l) => l.orderId === id && /lease lost before the push was recorded/.test(String(l.msg))), 20_000);
    const done = await jobOf(b, id!);
    const [placed, ...more] = b.sim.orders();
    assert.equal(more.length, 0, 'one platform order');
    assert.deepEqual([placed!.create_calls, done.attempts, done.remote_id, done.unknown_outcome], [1, 2, placed!.id, 0], `its tries:\n${tries(b, id!)}`);
    assert.equal(lookupsOf(b, id!), 1);
    const pushed = await eventsOf(b, id!, 'fulfillment.pushed');
    assert.equal(pushed.length, 1, 'recorded once, by the holder of the lease');
    assert.equal((JSON.parse(pushed[0]!.data) as { reconciled: boolean }).reconciled, true, 'found by reference, not created again');
  } finally {
    await worker?.stop();
    await b.close();
  }
});

test('a push keeps trying while younger than fulfillment-give-up-after, and the first failure past it is dead with "gave up after"', async () => {
  const clock = manualClock('2026-03-02T12:00:00.000Z');
  // Every platform request fails with a 500 (a retryable failure, nothing created).
  const b = await bench({ clock, sim: { failRate: 1, random: () => 0 }, flags: { fulfillmentGiveUpAfter: '1h', fulfillmentBackoffMs: 1_000 } });
  let worker: OutboxWorker | undefined;
  try {
    const [id] = await liveOrders(b, 1);
    worker = startPushWorker(b.server.deps)!;
    const failedTry = (n: number) => until(`try ${n} failed`, async () => ((j) => j.attempts === n && j.state !== 'in_flight')(await jobOf(b, id!)));
    await failedTry(1);
    const first = await jobOf(b, id!);
    assert.equal(first.state, 'failed');
    assert.equal(first.first_attempt_at, clock.now().toISOString());

    clock.advance(59 * 60_000);
    await failedTry(2);
    assert.equal((await jobOf(b, id!)).state, 'failed', 'after 59 min of tries it keeps trying');

    clock.advance(61_000);
    await failedTry(3);
    const dead = await jobOf(b, id!);
    assert.equal(dead.state, 'dead');
    assert.match(dead.last_error ?? '', /^gave up after 60 min of tries: .*HTTP 500/);
    const events = await eventsOf(b, id!, 'fulfillment.dead');
    assert.equal(events.length, 1);
    assert.equal((JSON.parse(events[0]!.data) as { attempts: number }).attempts, 3);
    assert.equal(b.sim.orders().length, 0);
  } finally {
    await worker?.stop();
    await b.close();
  }
});

test("a platform's 429 with Retry-After: 1 makes the job wait at least a second from its failure, even with a 10 ms backoff", async () => {
  const clock = manualClock('2026-03-02T12:00:00.000Z');
  // One request a second: of two pushes sent together, one is answered 429 with Retry-After: 1.
  const b = await bench({ clock, sim: { rateLimit: 1 } });
  let worker: OutboxWorker | undefined;
  try {
    const ids = await liveOrders(b, 2);
    worker = startPushWorker(b.server.deps)!;
    const throttled = (await until('a push throttled', async () => (await pushJobs(b)).find((j) => j.state === 'failed' && /HTTP 429/.test(j.last_error ?? ''))))!;
    const failedAt = Date.parse(throttled.updated_at);
    assert.equal(failedAt, clock.now().getTime());
    assert.ok(Date.parse(throttled.next_attempt_at) - failedAt >= 1_000, `next attempt at ${throttled.next_attempt_at}, a second after ${throttled.updated_at}`);

    // A millisecond short of that second, a new push is claimed and the throttled one is not.
    clock.advance(999);
    const [later] = await liveOrders(b, 1);
    worker.nudge();
    await until('the new push claimed', async () => (await jobOf(b, later!)).attempts > 0);
    assert.deepEqual([(await jobOf(b, throttled.order_id)).attempts, (await jobOf(b, throttled.order_id)).state], [1, 'failed'], 'not tried before its Retry-After');

    // Once the platform's second has passed on both clocks, every push goes, each exactly once.
    await until('every push done', async () => {
      clock.advance(1_000);
      return (await pushJobs(b)).every((j) => j.state === 'done');
    });
    for (const id of [...ids, later!]) assert.equal(b.sim.orders().filter((o) => o.external_ref === id).length, 1);
  } finally {
    await worker?.stop();
    await b.close();
  }
});

test('a platform refusing the order itself (400, 422) is dead at once with its reason, and refusals open no circuit however many in a row', async () => {
  const b = await bench({ proxy: true });
  const destination = platformDestination(b.shop.storeId);
  let worker: OutboxWorker | undefined;
  try {
    let creates = 0;
    b.proxy!.behave((r) =>
      r.method === 'POST' && r.url === '/orders'
        ? ++creates % 2 === 0
          ? { status: 422, body: { error: 'city not served by any carrier' } }
          : { status: 400, body: { error: 'address: too short' } }
        : 'forward',
    );
    const refused = await liveOrders(b, CIRCUIT_FAILURES_TO_OPEN + 3);
    worker = startPushWorker(b.server.deps)!;
    await until('every refused push dead', async () => (await pushJobs(b)).every((j) => j.state === 'dead'));
    for (const id of refused) {
      const job = await jobOf(b, id);
      assert.equal(job.attempts, 1, 'not retried');
      assert.match(job.last_error ?? '', /HTTP (400|422)/);
      assert.equal(job.unknown_outcome, 0, 'a refusal says nothing was created');
      assert.equal((await eventsOf(b, id, 'fulfillment.dead')).length, 1);
    }
    assert.ok(b.server.logs.some((l) => /city not served by any carrier/.test(String(l.error))), "the platform's reason is kept");
    assert.equal(await worker.circuits.isOpen(destination), false, `${refused.length} refusals in a row are answers, not an outage`);

    // The platform accepts again: a new push goes as an ordinary due job, no probe, no circuit to close.
    b.proxy!.behave(() => 'forward');
    const [accepted] = await liveOrders(b, 1);
    await until('the new push done', async () => (await jobOf(b, accepted!)).state === 'done');
    assert.equal((await jobOf(b, accepted!)).attempts, 1);
    assert.deepEqual(circuitClosings(b), [], 'the circuit never opened');
  } finally {
    await worker?.stop();
    await b.close();
  }
});

test('a claim that fails after it claimed some jobs (here: before the capped destinations’ part) still runs those jobs at once: each push is done at its first try', async () => {
  // The first claim's jobs are committed as this worker's. Were they dropped with the error, they
  // would wait out their lease (3 × 1 s + margin) and then count a second try.
  const b = await bench({ failpoints: 'outbox.claim_held=error*1', flags: { fulfillmentTimeoutMs: 1_000 } });
  let worker: OutboxWorker | undefined;
  try {
    const ids = await liveOrders(b, 3);
    worker = startPushWorker(b.server.deps)!;
    await until('every push done', async () => (await pushJobs(b)).every((j) => j.state === 'done'));
    assert.equal(b.server.logs.filter((l) => /claiming the jobs of capped or probed destinations failed/.test(String(l.msg))).length, 1, 'the failed part of the claim is logged once');
    for (const id of ids) {
      assert.equal((await jobOf(b, id)).attempts, 1, tries(b, id));
      assert.equal(b.sim.orders().filter((o) => o.external_ref === id).length, 1);
    }
  } finally {
    await worker?.stop();
    await b.close();
  }
});

test('failures on our side (an error before the request leaves) are not the platform’s: six in a row open no circuit, and each push still reaches the platform once', async () => {
  const failures = CIRCUIT_FAILURES_TO_OPEN + 1;
  const b = await bench({ failpoints: `push.before_request=error*${failures}` });
  const destination = platformDestination(b.shop.storeId);
  let worker: OutboxWorker | undefined;
  try {
    const ids = await liveOrders(b, failures);
    worker = startPushWorker(b.server.deps)!;
    await until('every push done', async () => (await pushJobs(b)).every((j) => j.state === 'done'));
    const ours = b.server.logs.filter((l) => /failed on our side/.test(String(l.msg)));
    assert.equal(ours.length, failures, 'each fail point logged once, as ours');
    for (const id of ids) {
      assert.equal(b.sim.orders().filter((o) => o.external_ref === id).length, 1);
      assert.equal((await jobOf(b, id)).attempts, 2);
    }
    assert.equal(await worker.circuits.isOpen(destination), false);
    assert.deepEqual(circuitClosings(b), [], 'the circuit never opened: no probe had to close it');
  } finally {
    await worker?.stop();
    await b.close();
  }
});
