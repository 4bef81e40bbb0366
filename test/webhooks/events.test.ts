// Issue 21 §4: what a seller's receiver gets for each thing that happens to an order — the event
// type, the order as it was in data.object, what the type adds (previous_status, reason,
// remote_id) — and only the types its endpoint subscribed to. Each test has its own store, endpoint
// and receiver on one server whose webhook worker runs.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { seedShop, type Shop } from '../helpers/fixtures.ts';
import { until } from '../helpers/wait.ts';
import { startReceiver, type Arrival, type Receiver } from '../helpers/webhook-receiver.ts';
import { startSimulator } from '../../src/platforms/generic/simulator.ts';
import { startPushWorker } from '../../src/use-cases/fulfillment/push-worker.use-case.ts';
import { ok, type V1Client } from '../api/v1/v1-kit.ts';
import { addEndpoint, cancelOrder, confirmOrder, liveOrder, openBench, sandboxOrder, storedEvents, verifies, waitFor, type Bench } from './webhook-kit.ts';

const EVENT_KEYS = ['created_at', 'data', 'id', 'livemode', 'object', 'store_id', 'type'];

describe('webhook events: types and content', () => {
  let bench: Bench;
  const receivers: Receiver[] = [];

  before(async () => {
    bench = await openBench();
  });
  after(async () => {
    await bench.close();
    for (const r of receivers) await r.close();
  });

  /** A store of its own with an endpoint on a receiver of its own that accepts everything. */
  async function station(eventTypes?: string[]): Promise<{ shop: Shop; v1: V1Client; receiver: Receiver; endpoint: { id: string; secret: string } }> {
    const shop = await seedShop(bench.server.deps);
    const v1 = bench.v1.as(shop.secretKey);
    const receiver = await startReceiver();
    receivers.push(receiver);
    const endpoint = await addEndpoint(v1, shop.storeId, receiver.url, eventTypes);
    return { shop, v1, receiver, endpoint };
  }

  /** Waits for `n` events of this order at the receiver; answers them in arrival order. */
  async function eventsOf(receiver: Receiver, orderId: string, n: number): Promise<Arrival[]> {
    return waitFor(`${n} events of order ${orderId}`, () => {
      const got = receiver.accepted().filter((a) => a.json?.data?.object?.id === orderId);
      return got.length >= n && got;
    });
  }

  test('order.created carries the order as created in data.object (status, buyer, totals, currency), signed, livemode true', async () => {
    const { shop, v1, receiver, endpoint } = await station();
    const orderId = await liveOrder(bench.server, shop, { nombre: 'Lucía Pérez', pack: '2x', quantity: 1, unit_price: 180000, total_price: 180000 });
    const [created] = await eventsOf(receiver, orderId, 1);
    const event = created!.json;
    assert.deepEqual(Object.keys(event).sort(), EVENT_KEYS);
    assert.deepEqual([event.object, event.type, event.livemode, event.store_id], ['event', 'order.created', true, shop.storeId]);
    assert.match(event.id, /^evt_[0-9a-f]{32}$/);
    assert.equal(created!.eventId, event.id);
    assert.equal(created!.eventType, 'order.created');
    assert.equal(String(created!.headers['user-agent']), 'codrail-webhooks/1');
    assert.ok(verifies(endpoint.secret, created!));

    const order = ok(await v1.get('/api/v1/orders/{order_id}', { params: { order_id: orderId } }));
    const o = event.data.object;
    assert.deepEqual([o.id, o.object, o.order_number, o.store_id, o.status, o.sandbox, o.needs_review], [orderId, 'order', order.order_number, shop.storeId, 'pending', false, false]);
    assert.deepEqual([o.buyer.nombre, o.buyer.telefono, o.buyer.telefono_e164, o.buyer.departamento, o.buyer.ciudad, o.buyer.direccion], ['Lucía Pérez', order.telefono, order.telefono_e164, 'Antioquia', 'Medellín', 'Calle 10 # 43-12']);
    assert.match(o.buyer.telefono_e164, /^\+573\d{9}$/);
    assert.deepEqual(o.city, { departamento_input: 'Antioquia', ciudad_input: 'Medellín', code: order.city_code, match: 'exact' });
    assert.deepEqual([o.pack, o.quantity, o.unit_price, o.total_price, o.currency], ['2x', 1, 180000, 180000, 'COP']);
    assert.deepEqual([o.total_price, o.currency], [order.total_price, order.currency], 'the totals the account API shows');
    assert.equal(o.created_at, event.created_at, 'the event happened when the order was created');
  });

  test('an order whose city is not matched is delivered as order.created then order.needs_review with the reason', async () => {
    const { shop, receiver } = await station();
    const orderId = await liveOrder(bench.server, shop, { departamento: 'Antioquia', ciudad: 'Ciudad Inventada' });
    const [created, review] = await eventsOf(receiver, orderId, 2);
    assert.deepEqual([created!.eventType, review!.eventType], ['order.created', 'order.needs_review']);
    assert.equal(review!.json.data.object.needs_review, true);
    assert.equal(review!.json.data.object.buyer.ciudad, 'Ciudad Inventada');
    assert.equal(typeof review!.json.data.reason, 'string', `a reason: ${JSON.stringify(review!.json.data)}`);
    assert.ok(review!.json.data.reason.length > 0);
  });

  test('a confirmed order is delivered as order.confirmed with previous_status pending and the order now confirmed', async () => {
    const { shop, v1, receiver } = await station();
    const orderId = await liveOrder(bench.server, shop);
    await confirmOrder(v1, orderId);
    const [, confirmed] = await eventsOf(receiver, orderId, 2);
    assert.equal(confirmed!.eventType, 'order.confirmed');
    assert.equal(confirmed!.json.data.previous_status, 'pending');
    assert.equal(confirmed!.json.data.object.status, 'confirmed');
  });

  test('status moves by hand become order.shipped and order.delivered with their previous status; processing sends nothing', async () => {
    const { shop, v1, receiver } = await station();
    const orderId = await liveOrder(bench.server, shop);
    for (const status of ['confirmed', 'processing', 'shipped', 'delivered']) ok(await v1.post('/api/v1/orders/{order_id}/status', { params: { order_id: orderId }, body: { status } }));
    const got = await eventsOf(receiver, orderId, 4);
    assert.deepEqual(
      got.map((a) => [a.eventType, a.json.data.previous_status ?? null, a.json.data.object.status]),
      [
        ['order.created', null, 'pending'],
        ['order.confirmed', 'pending', 'confirmed'],
        ['order.shipped', 'processing', 'shipped'],
        ['order.delivered', 'shipped', 'delivered'],
      ],
    );
    const stored = (await storedEvents(bench.server.deps)).filter((e) => e.order_id === orderId);
    assert.deepEqual(stored.map((e) => e.type), ['order.created', 'order.confirmed', 'order.shipped', 'order.delivered'], 'no event for processing');
  });

  test('a cancelled order is delivered as order.cancelled with the reason, the previous status and the order cancelled', async () => {
    const { shop, v1, receiver } = await station();
    const orderId = await liveOrder(bench.server, shop);
    await confirmOrder(v1, orderId);
    await cancelOrder(v1, orderId, 'unreachable');
    const got = await eventsOf(receiver, orderId, 3);
    const cancelled = got[2]!;
    assert.equal(cancelled.eventType, 'order.cancelled');
    assert.deepEqual([cancelled.json.data.reason, cancelled.json.data.previous_status], ['unreachable', 'confirmed']);
    assert.deepEqual([cancelled.json.data.object.status, cancelled.json.data.object.cancel_reason], ['cancelled', 'unreachable']);
  });

  test('a sandbox order is delivered with livemode false and the order marked sandbox', async () => {
    const { shop, receiver } = await station();
    const orderId = await sandboxOrder(bench.server, shop);
    const [created] = await eventsOf(receiver, orderId, 1);
    assert.deepEqual([created!.json.livemode, created!.json.data.object.sandbox], [false, true]);
  });

  test('an endpoint subscribed to order.confirmed and order.cancelled gets only those, while one subscribed to every type gets all', async () => {
    const { shop, v1, receiver: all } = await station();
    const some = await startReceiver();
    receivers.push(some);
    await addEndpoint(v1, shop.storeId, some.url, ['order.confirmed', 'order.cancelled']);
    const first = await liveOrder(bench.server, shop);
    const second = await liveOrder(bench.server, shop, { departamento: 'Antioquia', ciudad: 'Ciudad Inventada' });
    await confirmOrder(v1, first);
    await cancelOrder(v1, second);
    await eventsOf(all, first, 2);
    await eventsOf(all, second, 3);
    await until('the subscribed endpoint got its two events', () => some.accepted().length >= 2);
    assert.deepEqual(
      all.accepted().map((a) => [a.json.data.object.id, a.eventType]).sort(),
      [
        [first, 'order.confirmed'],
        [first, 'order.created'],
        [second, 'order.cancelled'],
        [second, 'order.created'],
        [second, 'order.needs_review'],
      ].sort(),
    );
    // The other endpoint got its last event already: anything of another type would have arrived here too.
    assert.deepEqual(
      some.accepted().map((a) => [a.json.data.object.id, a.eventType]).sort(),
      [
        [first, 'order.confirmed'],
        [second, 'order.cancelled'],
      ].sort(),
    );
  });

  test('a store without any webhook endpoint gets no webhook event written for its orders', async () => {
    const shop = await seedShop(bench.server.deps);
    const orderId = await liveOrder(bench.server, shop);
    await confirmOrder(bench.v1.as(shop.secretKey), orderId);
    assert.deepEqual((await storedEvents(bench.server.deps)).filter((e) => e.store_id === shop.storeId), []);
  });
});

describe('webhook events from the fulfillment push', () => {
  test('a pushed order is delivered as order.pushed with the platform order id as remote_id; the platform’s status confirms nothing, a person’s confirmation does', async () => {
    const platform = await startSimulator({});
    const bench = await openBench({ flags: { fulfillmentUrl: platform.url, fulfillmentBackoffMs: 10 } });
    const pushes = startPushWorker(bench.server.deps)!;
    const receiver = await startReceiver();
    try {
      const { shop, v1, server } = bench;
      await addEndpoint(v1, shop.storeId, receiver.url);
      const orderId = await liveOrder(server, shop);
      const [, pushed] = await waitFor('two events at the receiver', () => {
        const got = receiver.accepted();
        return got.length >= 2 && got;
      });
      const remote = platform.orders().find((o) => o.external_ref === orderId);
      assert.ok(remote, 'the platform holds the order');
      assert.equal(pushed!.json.data.object.id, orderId);
      assert.equal(pushed!.json.data.remote_id, remote.id);
      // The platform's PENDIENTE is recorded, and the order is still pending: had the push confirmed
      // it, this confirmation would be refused as a move from confirmed to confirmed.
      const order = ok(await v1.get('/api/v1/orders/{order_id}', { params: { order_id: orderId } }));
      assert.deepEqual([order.status, order.fulfillment_status], ['pending', remote.status]);
      ok(await v1.post('/api/v1/orders/{order_id}/status', { params: { order_id: orderId }, body: { status: 'confirmed', note: 'Llamada: confirma' } }));
      const [, , confirmed] = await waitFor('the confirmation at the receiver', () => {
        const got = receiver.accepted();
        return got.length >= 3 && got;
      });
      assert.deepEqual(receiver.accepted().map((a) => a.eventType), ['order.created', 'order.pushed', 'order.confirmed']);
      assert.equal(confirmed!.json.data.previous_status, 'pending');
    } finally {
      await pushes.stop();
      await bench.close();
      await receiver.close();
      await platform.close();
    }
  });
});
