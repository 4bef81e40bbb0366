// Issue 21 §2, as it was measured: "after a 75 s platform outage, 5 of 40 pushes were still
// undelivered 150 s after the platform came back". The same run, literally: 40 live orders, the
// platform's connections dropped for 75 s, the first retry after 50 ms (the default 10-minute cap),
// then the platform back. Every push must reach it within 15 s of its return, none twice. Before the
// circuits, each push's backoff had grown through the outage and it waited that out; now a probe
// finds the platform back (probes go at most 5 s apart) and releases every waiting push at once.
// The test takes the outage's 75 s of wall time by design: it is the figure the issue names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../helpers/server.ts';
import { orderBody, postOrder, seedShop } from '../helpers/fixtures.ts';
import { startFlakyProxy } from '../helpers/flaky-proxy.ts';
import { until } from '../helpers/wait.ts';
import { OPEN_LIMITS, expectCreated, liveHeaders, nextPhone } from '../api/orders/order-kit.ts';
import { startSimulator } from '../../src/platforms/generic/simulator.ts';
import { startPushWorker } from '../../src/use-cases/fulfillment/push-worker.use-case.ts';
import { platformDestination } from '../../src/platforms/connections.ts';

const OUTAGE_MS = 75_000;
const RECOVERY_MS = 15_000;
const ORDERS = 40;

test('after a 75 s outage with dropped connections and the first retry after 50 ms, all 40 pushes reach the platform within 15 s of its return, each once', async (t) => {
  const sim = await startSimulator({});
  const proxy = await startFlakyProxy(sim.url);
  const server = await startServer({ ...OPEN_LIMITS, fulfillmentUrl: proxy.url, fulfillmentBackoffMs: 50 });
  let worker: ReturnType<typeof startPushWorker> | undefined;
  try {
    const shop = await seedShop(server.deps);
    const ids: string[] = [];
    for (let i = 0; i < ORDERS; i++) ids.push((await expectCreated(await postOrder(server.url, orderBody(shop, { telefono: nextPhone() }), liveHeaders(shop)))).data.id);

    proxy.behave(() => 'drop');
    worker = startPushWorker(server.deps)!;
    const outageStarted = Date.now();
    await until('the circuit to open', () => worker!.circuits.isOpen(platformDestination(shop.storeId)));
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS - (Date.now() - outageStarted)));
    assert.equal(sim.orders().length, 0, 'nothing reached the platform during the outage');
    assert.ok(proxy.dropped() > 0, 'the outage dropped connections');
    const droppedDuringOutage = proxy.dropped();

    proxy.behave(() => 'forward');
    const returnedAt = Date.now();
    const doneAt = await until(
      'every push done',
      async () => {
        const done = await server.deps.db.selectFrom('fulfillment_jobs').select('id').where('action', '=', 'push').where('state', '=', 'done').execute();
        return done.length === ORDERS && Date.now();
      },
      RECOVERY_MS * 4,
    );
    const recovery = (doneAt as number) - returnedAt;
    t.diagnostic(`recovered ${recovery} ms after the platform's return; ${droppedDuringOutage} requests dropped during the outage`);
    assert.ok(recovery <= RECOVERY_MS, `every push reached the platform ${recovery} ms after its return (at most ${RECOVERY_MS})`);
    // The open circuit spared the platform: a probe at a time, not every push retrying every few hundred ms.
    assert.ok(droppedDuringOutage < ORDERS * 4, `${droppedDuringOutage} requests during a 75 s outage for ${ORDERS} pushes`);

    const counts = new Map<string, number>();
    for (const o of sim.orders()) counts.set(o.external_ref, (counts.get(o.external_ref) ?? 0) + 1);
    assert.deepEqual(ids.filter((id) => counts.get(id) !== 1), [], 'each order reached the platform exactly once');
    assert.equal(sim.orders().length, ORDERS, 'nothing else reached it');
  } finally {
    await worker?.stop();
    await server.close();
    await proxy.close();
    await sim.close();
  }
});
