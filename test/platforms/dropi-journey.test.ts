// Issue 22, as it will be judged: with the Dropi-dialect simulator failing 30% of requests, losing
// some answers, locking the key after bursts and expiring the token once, 200 orders of two stores
// (one on Dropi, one on the generic contract) each reach their platform exactly once; every Dropi
// order carries Dropi's exact city string and our id as shop_order_id; the expiry pauses the Dropi
// store (an event, a webhook, the connection's view) and new credentials resume it; the generic
// store's pushes never wait on Dropi. The real worker, the real simulators, over HTTP.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../helpers/server.ts';
import { seedShop, type Shop } from '../helpers/fixtures.ts';
import { seeded, until } from '../helpers/wait.ts';
import { startReceiver } from '../helpers/webhook-receiver.ts';
import { V1Client } from '../api/v1/v1-kit.ts';
import { addEndpoint, liveOrder, ALLOW_PRIVATE } from '../webhooks/webhook-kit.ts';
import { OPEN_LIMITS } from '../api/orders/order-kit.ts';
import { startDropiSimulator } from '../../src/platforms/dropi/simulator.ts';
import { startSimulator } from '../../src/platforms/generic/simulator.ts';
import { recordOperatorUrls, startPushWorker, startWebhookWorker } from '../../src/use-cases/fulfillment/push-worker.use-case.ts';
import { connectionView, linkProductToFulfillment, setFulfillmentCredentials } from '../../src/use-cases/fulfillment/connection.use-case.ts';
import { importPlatformCities } from '../../src/use-cases/geo/platform-cities.use-case.ts';
import { operatorAs } from '../../src/use-cases/caller.ts';
import { AppError } from '../../src/errors.ts';

const KEY = 'dropi-key-AAAA-first-0001';
const RENEWED = 'dropi-key-BBBB-renewed-02';
const GENERIC_TOKEN = 'generic-token-CCCC-0003';
const PER_STORE = 100;

/** Buyer's text → what Dropi must receive (its exact strings, found through the official code). */
const CITIES = [
  { departamento: 'Antioquia', ciudad: 'Medellín', state: 'ANTIOQUIA', city: 'Medellin' },
  { departamento: 'Antioquia', ciudad: 'Argelia', state: 'ANTIOQUIA', city: 'ARGELIA (A)' },
  { departamento: 'Bogotá', ciudad: 'Bogotá', state: 'CUNDINAMARCA', city: 'Bogota' },
  { departamento: 'Valle del Cauca', ciudad: 'Cali', state: 'VALLE DEL CAUCA', city: 'Cali' },
  { departamento: 'Norte de Santander', ciudad: 'Cúcuta', state: 'NORTE DE SANTANDER', city: 'Cucuta' },
  { departamento: 'Atlántico', ciudad: 'Barranquilla', state: 'ATLANTICO', city: 'Barranquilla' },
] as const;

/** A setup call through a platform that fails 30% of requests: tried again while the failure is the platform's. */
async function despiteFailures<T>(fn: () => Promise<T>): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await fn();
    } catch (error) {
      if (i > 40 || !(error instanceof AppError) || (error.code !== 'fulfillment_error' && error.code !== 'invalid_input')) throw error;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

test('200 orders of a Dropi store and a generic store, through failures, lockouts and one token expiry: each reaches its platform once, in Dropi’s words', async () => {
  const dropiSim = await startDropiSimulator({
    tokens: [KEY, RENEWED],
    // The renewed key is the same Dropi account: it sees (and must find) what the expired one created.
    accounts: [[KEY, RENEWED]],
    failRate: 0.3,
    lostAnswerRate: 0.05,
    // Held past the 1 s request timeout below: a lost answer, looked up by reference on the next try.
    lateMs: 1_500,
    // codrail's own pace (25 ms here) stays under it; the seller's other tool bursts over it below.
    lockout: { max: 10, windowMs: 200, lockMs: 1_500 },
    expireAfter: { token: KEY, requests: 150 },
    random: seeded(22),
  });
  const genericSim = await startSimulator({ tokens: [GENERIC_TOKEN] });
  const receiver = await startReceiver();
  const server = await startServer(
    { ...OPEN_LIMITS, fulfillmentUrl: genericSim.url, dropiUrl: dropiSim.url, dropiIntervalMs: 25, fulfillmentBackoffMs: 20, fulfillmentBackoffMaxMs: 300, fulfillmentTimeoutMs: 1_000 },
    { env: { ...ALLOW_PRIVATE, CODRAIL_FULFILLMENT_TOKEN: GENERIC_TOKEN } },
  );
  const workers: { stop(): Promise<void> }[] = [];
  try {
    const deps = server.deps;
    await recordOperatorUrls(deps);
    const dropiShop: Shop = await seedShop(deps);
    const genericShop: Shop = await seedShop(deps);
    const as = operatorAs(dropiShop.accountId);

    // The seller connects the store to Dropi, pulls Dropi's cities, links the product to a Dropi product.
    const connected = await despiteFailures(() => setFulfillmentCredentials(deps, as, { store_id: dropiShop.storeId, api_token: KEY, platform: 'dropi' }));
    assert.equal(connected.platform_name, 'dropi');
    assert.match(connected.webhook_url!, /\/api\/fulfillment\/hooks\/[0-9A-Za-z]{32}$/);
    const imported = await despiteFailures(() => importPlatformCities(deps, dropiShop.storeId));
    assert.ok(imported.cities >= 20 && imported.with_code >= 18, JSON.stringify(imported));
    await despiteFailures(() => linkProductToFulfillment(deps, as, { product_id: dropiShop.productId, fulfillment_product_id: '21002' }));
    // The seller hears about a paused connection on its own systems.
    const v1 = await V1Client.open(server, dropiShop.secretKey);
    await addEndpoint(v1, dropiShop.storeId, receiver.url, ['fulfillment.connection_paused', 'fulfillment.connection_resumed']);
    workers.push(startWebhookWorker(deps), startPushWorker(deps));

    const dropiOrders: { id: string; expect: (typeof CITIES)[number] }[] = [];
    const genericOrders: string[] = [];
    for (let i = 0; i < PER_STORE; i++) {
      const c = CITIES[i % CITIES.length]!;
      dropiOrders.push({ id: await liveOrder(server, dropiShop, { departamento: c.departamento, ciudad: c.ciudad }), expect: c });
      genericOrders.push(await liveOrder(server, genericShop));
    }
    // The seller's other tool bursts on the same key: Dropi locks it ("Too Many Attempts") for a while.
    // Twelve requests at once, inside Dropi's 200 ms window: on a machine busy with other test files
    // they may not all land inside it (CI once saw no lockout), so the tool bursts again until one does.
    for (let burst = 0; burst < 20 && dropiSim.stats(KEY).lockouts === 0; burst++)
      await Promise.all(Array.from({ length: 12 }, () => fetch(`${dropiSim.url}/integrations/department`, { headers: { 'dropi-integration-key': KEY } }).then((r) => r.body?.cancel())));
    assert.equal(dropiSim.stats(KEY).lockouts, 1, 'the burst locked the key');
    const jobsOf = async (storeId: string) =>
      deps.db.selectFrom('fulfillment_jobs as j').innerJoin('orders as o', 'o.id', 'j.order_id').select(['j.order_id', 'j.state', 'j.attempts', 'j.remote_id']).where('o.store_id', '=', storeId).where('j.action', '=', 'push').execute();

    // The token expires midway: the Dropi store pauses, and says so.
    const paused = await until(
      'the Dropi connection paused',
      async () => {
        const view = await connectionView(deps, dropiShop.storeId);
        return view.paused;
      },
      120_000,
    );
    assert.match(paused!.reason, /Token is Expired/);
    // The generic store's pushes do not wait on Dropi: every one is done while Dropi is paused, each at its first try.
    await until('every generic order pushed', async () => (await jobsOf(genericShop.storeId)).every((j) => j.state === 'done'), 60_000);
    assert.ok((await connectionView(deps, dropiShop.storeId)).paused, 'still paused: nothing of Dropi was needed');
    const retried = (await jobsOf(genericShop.storeId)).filter((j) => j.attempts !== 1).map((j) => j.order_id);
    // A failure names what the retried pushes' tries logged, to tell their cause next time.
    // And the worker's own warnings and errors about no one order (a failed claim, say).
    const line = (l: Record<string, unknown>) => `${String(l.msg)} ${JSON.stringify(l.error ?? l.err ?? '')}`;
    assert.deepEqual(
      retried,
      [],
      `generic pushes tried more than once:\n${server.logs.filter((l) => retried.includes(String(l.orderId))).map(line).join('\n')}\nwarnings and errors about no one order:\n${server.logs.filter((l) => l.orderId === undefined && Number(l.level) >= 40).slice(0, 20).map(line).join('\n')}`,
    );
    const pausedEvents = await deps.db.selectFrom('order_events').selectAll().where('store_id', '=', dropiShop.storeId).where('type', '=', 'fulfillment.paused').execute();
    assert.equal(pausedEvents.length, 1, 'one pause, one event');
    await until('the paused webhook delivered', () => receiver.arrivals().some((a) => (a.json as { type?: string }).type === 'fulfillment.connection_paused'));
    // While paused, nothing of the store is tried: the expired key is not hammered.
    const whilePaused = dropiSim.stats(KEY).requests;
    await new Promise((r) => setTimeout(r, 300));
    assert.ok(dropiSim.stats(KEY).requests - whilePaused <= 1, 'no tries while paused (at most one already on its way)');

    // New credentials resume the pushes by themselves.
    const resumed = await despiteFailures(() => setFulfillmentCredentials(deps, as, { store_id: dropiShop.storeId, api_token: RENEWED }));
    assert.equal(resumed.paused, null);
    assert.equal(resumed.webhook_url, connected.webhook_url, 'the receiver path registered with Dropi stays');
    await until('every Dropi order pushed', async () => (await jobsOf(dropiShop.storeId)).every((j) => j.state === 'done'), 180_000);
    await until('the resumed webhook delivered', () => receiver.arrivals().some((a) => (a.json as { type?: string }).type === 'fulfillment.connection_resumed'));

    // Exactly once, in Dropi's words.
    const atDropi = dropiSim.orders().filter((o) => !o.deleted);
    for (const { id, expect } of dropiOrders) {
      const mine = atDropi.filter((o) => o.shop_order_id === id);
      assert.equal(mine.length, 1, `order ${id}: ${mine.length} Dropi orders`);
      assert.equal(mine[0]!.state, expect.state);
      assert.equal(mine[0]!.city, expect.city);
    }
    assert.equal(atDropi.length, PER_STORE, 'no Dropi order without a codrail order');
    const atGeneric = genericSim.orders();
    for (const id of genericOrders) assert.equal(atGeneric.filter((o) => o.external_ref === id).length, 1, `generic order ${id}`);
    assert.equal(atGeneric.length, PER_STORE);
    // Dropi was called one request at a time per key; it locked the key, and the look-ups after lost answers found what was created.
    assert.equal(dropiSim.stats(KEY).maxInFlight, 1);
    assert.equal(dropiSim.stats(RENEWED).maxInFlight, 1);
    assert.ok(dropiSim.stats(KEY).lockouts >= 1);
  } finally {
    for (const w of workers.reverse()) await w.stop();
    await server.close();
    await receiver.close();
    await genericSim.close();
    await dropiSim.close();
  }
});
