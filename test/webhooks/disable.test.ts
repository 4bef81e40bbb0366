// Issue 21 §6: an endpoint whose deliveries have all failed for days (WEBHOOK_DISABLE_AFTER_MS) is
// disabled — with a reason, its waiting deliveries cancelled, an order event
// `webhook.endpoint_disabled` without an order, and a warn log line — and new events no longer go
// to it. The server's clock is a test clock moved over days between the failures; a delivery's
// next try is due only once the clock passes its backoff, so each move lets exactly the due tries go.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { manualClock } from '../../src/clock.ts';
import { WEBHOOK_DISABLE_AFTER_MS } from '../../src/limits.ts';
import { seedShop } from '../helpers/fixtures.ts';
import { until } from '../helpers/wait.ts';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.ts';
import { ok } from '../api/v1/v1-kit.ts';
import { addEndpoint, confirmOrder, liveOrder, openBench, storedDeliveries, storedEvents, type Bench } from './webhook-kit.ts';

const DAY = 86_400_000;

describe('an endpoint failing for days', () => {
  const clock = manualClock(Date.now());
  let bench: Bench;
  const receivers: Receiver[] = [];

  before(async () => {
    bench = await openBench({ clock, flags: { webhookBackoffMs: 10 } });
  });
  after(async () => {
    await bench.close();
    for (const r of receivers) await r.close();
  });

  test('an endpoint whose deliveries fail for more than 5 days is disabled with a reason, its waiting deliveries cancelled, an order event without an order and a warn log line', async () => {
    const shop = await seedShop(bench.server.deps);
    const v1 = bench.v1.as(shop.secretKey);
    const receiver = await startReceiver(() => ({ status: 500 }));
    receivers.push(receiver);
    const endpoint = await addEndpoint(v1, shop.storeId, receiver.url);
    const tries = (n: number) => until(`${n} tries at the receiver`, () => receiver.arrivals().length >= n);
    const get = async () => ok(await v1.get('/api/v1/webhook-endpoints/{endpoint_id}', { params: { endpoint_id: endpoint.id } }));

    const start = clock.now();
    const orderId = await liveOrder(bench.server, shop);
    await tries(1);
    const settled = () => until('no delivery in flight', async () => (await storedDeliveries(bench.server.deps, endpoint.id)).every((d) => d.state !== 'in_flight'));
    await settled();
    // The order's confirmation waits behind its creation, which keeps failing.
    await confirmOrder(v1, orderId);
    const failingSince = (await get()).failing_since;
    assert.equal(failingSince, start.toISOString(), 'failing since its first failure');
    assert.equal((await get()).status, 'enabled');

    // Two days later it fails again: not failing for long enough yet.
    clock.advance(2 * DAY);
    await tries(2);
    await settled();
    assert.deepEqual([(await get()).status, (await get()).failing_since], ['enabled', failingSince]);

    // Past five days since the first failure, the next failure disables it.
    clock.set(new Date(start.getTime() + WEBHOOK_DISABLE_AFTER_MS + 60_000));
    await until('the endpoint disabled', async () => (await get()).status === 'disabled');
    await settled();
    assert.equal(receiver.arrivals().length, 3, 'one try on each move of the clock');
    const now = await get();
    assert.equal(now.disabled_at, clock.now().toISOString());
    assert.match(now.disabled_reason, /failed/);
    assert.ok(now.disabled_reason.includes(failingSince), `the reason says since when: ${now.disabled_reason}`);

    // Nothing waits for it any more: the confirmation that waited behind the creation is cancelled.
    const events = new Map((await storedEvents(bench.server.deps)).map((e) => [e.id, e]));
    const deliveries = await storedDeliveries(bench.server.deps, endpoint.id);
    assert.deepEqual(
      deliveries.map((d) => [events.get(d.event_id)!.type, d.state]),
      [
        ['order.created', 'dead'],
        ['order.confirmed', 'cancelled'],
      ],
    );
    assert.match(deliveries[1]!.last_error ?? '', /disabled/);

    const recorded = (await sql<{ order_id: string | null; actor: string; data: string }>`select order_id, actor, data from order_events where type = 'webhook.endpoint_disabled' and store_id = ${shop.storeId}`.execute(bench.server.deps.db)).rows;
    assert.equal(recorded.length, 1, 'one webhook.endpoint_disabled event');
    assert.deepEqual([recorded[0]!.order_id, recorded[0]!.actor], [null, 'system']);
    const data = JSON.parse(recorded[0]!.data);
    assert.deepEqual([data.endpoint_id, data.url, data.failing_since], [endpoint.id, receiver.url, failingSince]);

    const line = bench.server.logs.find((l) => l.endpointId === endpoint.id && /disabled/.test(String(l.msg)));
    assert.ok(line, 'a log line says it was disabled');
    assert.equal(line.level, 40, 'at warn level');

    // A later order's event is written (the store still has the endpoint) but not sent to it.
    const later = await liveOrder(bench.server, shop);
    const laterEvents = (await storedEvents(bench.server.deps)).filter((e) => e.order_id === later);
    assert.deepEqual(laterEvents.map((e) => e.type), ['order.created']);
    assert.ok(!(await storedDeliveries(bench.server.deps, endpoint.id)).some((d) => d.event_id === laterEvents[0]!.id), 'no delivery to the disabled endpoint');
  });

  test('an endpoint that answers again within 5 days is not disabled: a success clears failing_since', async () => {
    const shop = await seedShop(bench.server.deps);
    const v1 = bench.v1.as(shop.secretKey);
    const receiver = await startReceiver(() => ({ status: 503 }));
    receivers.push(receiver);
    const endpoint = await addEndpoint(v1, shop.storeId, receiver.url);
    const get = async () => ok(await v1.get('/api/v1/webhook-endpoints/{endpoint_id}', { params: { endpoint_id: endpoint.id } }));
    const start = clock.now();

    await liveOrder(bench.server, shop);
    await until('the endpoint marked failing', async () => (await get()).failing_since);
    clock.advance(4 * DAY);
    receiver.decide = () => ({ status: 200 });
    await until('the retry delivered', async () => (await get()).last_success_at);
    assert.deepEqual([(await get()).failing_since, (await get()).status], [null, 'enabled']);

    // Two days later (six since the first failure) a failure starts a new count: still enabled.
    clock.set(new Date(start.getTime() + 6 * DAY));
    receiver.decide = () => ({ status: 503 });
    await liveOrder(bench.server, shop);
    await until('the endpoint marked failing again', async () => (await get()).failing_since);
    const now = await get();
    assert.deepEqual([now.status, now.failing_since], ['enabled', clock.now().toISOString()]);
  });

  test('an endpoint disabled by hand has its waiting deliveries cancelled, and once enabled again receives new events', async () => {
    const shop = await seedShop(bench.server.deps);
    const v1 = bench.v1.as(shop.secretKey);
    const receiver = await startReceiver(() => ({ status: 500 }));
    receivers.push(receiver);
    const endpoint = await addEndpoint(v1, shop.storeId, receiver.url);
    const params = { endpoint_id: endpoint.id };

    await liveOrder(bench.server, shop);
    await until('a failed try', async () => (await storedDeliveries(bench.server.deps, endpoint.id)).some((d) => d.state === 'failed'));
    const disabled = ok(await v1.post('/api/v1/webhook-endpoints/{endpoint_id}/disable', { params }));
    assert.equal(disabled.status, 'disabled');
    assert.match(disabled.disabled_reason, /^disabled by /);
    assert.deepEqual((await storedDeliveries(bench.server.deps, endpoint.id)).map((d) => d.state), ['cancelled']);

    const enabled = ok(await v1.post('/api/v1/webhook-endpoints/{endpoint_id}/enable', { params }));
    assert.deepEqual([enabled.status, enabled.disabled_reason, enabled.disabled_at, enabled.failing_since], ['enabled', null, null, null]);
    receiver.decide = () => ({ status: 200 });
    const orderId = await liveOrder(bench.server, shop);
    await until('the new event delivered', () => receiver.accepted().some((a) => a.json.data.object.id === orderId));
    // The receiver has it; the worker records the answer just after (the delivery is in flight until then).
    await until('the delivery settled', async () => (await storedDeliveries(bench.server.deps, endpoint.id)).every((d) => d.state !== 'in_flight'));
    assert.deepEqual((await storedDeliveries(bench.server.deps, endpoint.id)).map((d) => d.state), ['cancelled', 'delivered'], 'the cancelled one is not sent again by itself');
  });
});
