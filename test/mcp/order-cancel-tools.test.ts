// cancel_order through the SDK client (MCP-TOOLS.md §6.7; issue 12): an order that never reached the
// platform is cancelled with its push; one that did gets a cancel job in the fulfillment outbox, which
// the worker runs against the simulator (a platform that refuses, because the parcel left, ends the
// job dead). Cancelling again changes nothing; shipped and delivered orders cannot be cancelled.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Shop } from '../helpers/fixtures.ts';
import type { TestServer } from '../helpers/server.ts';
import { startSimulator, type Simulator } from '../../src/platforms/generic/simulator.ts';
import { startPushWorker } from '../../src/use-cases/fulfillment/push-worker.use-case.ts';
import { eventsOf, jobsOf, nextPhone, orderRow } from '../api/orders/order-kit.ts';
import { buyer, connect } from './mcp-kit.ts';
import { closeToolBench, expectForeignLikeUnknown, expectInsufficientScope, expectToolError, ok, openToolBench, unchanged } from './account-kit.ts';
import { until } from '../helpers/wait.ts';


describe('cancel_order', () => {
  let sim: Simulator;
  let server: TestServer, shop: Shop, other: Shop, client: Client;
  let tokens: { ordersRead: string };
  before(async () => {
    sim = await startSimulator({});
    ({ server, shop, other, client, tokens } = await openToolBench({ ordersRead: ['orders:read'] }, { fulfillmentUrl: sim.url, fulfillmentBackoffMs: 10 }));
  });
  after(async () => {
    await closeToolBench({ server, client });
    await sim.close();
  });

  let seq = 0;
  const create = async (c: Client = client, s: Shop = shop) =>
    (await ok(c, 'create_order', { store_id: s.storeId, product_id: s.productId, buyer: buyer({ telefono: nextPhone() }), idempotency_key: `cancel-${++seq}` })).id as string;
  const setStatus = (id: string, status: string) => ok(client, 'update_order_status', { order_id: id, status });
  const cancelEvents = async (id: string) => (await eventsOf(server.deps, id)).filter((e) => e.type === 'order.cancelled');
  const jobOf = async (id: string, action: 'push' | 'cancel') => (await jobsOf(server.deps, id)).find((j) => j.action === action);

  /** A confirmed order pushed to the simulator by the tool; its platform order id. */
  const pushed = async () => {
    const id = await create();
    await setStatus(id, 'confirmed');
    const push = await ok(client, 'push_order_to_fulfillment', { order_id: id });
    assert.equal(push.pushed, true, JSON.stringify(push));
    assert.equal((await jobOf(id, 'push'))!.state, 'done');
    return { id, remoteId: push.remote_id as string };
  };

  describe('an order that never reached the platform', () => {
    test('a pending order is cancelled with its reason, an order.cancelled event with the key as actor, and its unstarted push cancelled too', async () => {
      const id = await create();
      assert.equal((await jobOf(id, 'push'))!.state, 'queued');
      const value = await ok(client, 'cancel_order', { order_id: id, reason: 'buyer_declined', note: 'No contesta y pidió cancelar' });
      assert.equal(value.id, id);
      assert.equal(value.status, 'cancelled');
      assert.equal(value.cancel_reason, 'buyer_declined');
      assert.equal(value.fulfillment.state, 'cancelled');
      assert.equal(value.fulfillment.cancel, null, 'no platform cancellation');
      const row = await orderRow(server.deps, id);
      assert.equal(row.status, 'cancelled');
      assert.equal(row.cancel_reason, 'buyer_declined');
      const [cancelled, ...more] = await cancelEvents(id);
      assert.equal(more.length, 0);
      assert.match(cancelled!.actor, /^key:/);
      assert.deepEqual(JSON.parse(cancelled!.data), { from: 'pending', reason: 'buyer_declined', note: 'No contesta y pidió cancelar', platform_cancel: 'not_needed' });
      const jobs = await jobsOf(server.deps, id);
      assert.deepEqual(jobs.map((j) => [j.action, j.state]), [['push', 'cancelled']], 'the push is cancelled and no cancel job exists');
      assert.ok(value.events.some((e: { type: string }) => e.type === 'order.cancelled'), 'the answer shows the event');
    });

    test('confirmed and processing orders can be cancelled too, each with the status it left in the event', async () => {
      const confirmed = await create();
      await setStatus(confirmed, 'confirmed');
      const processing = await create();
      await setStatus(processing, 'processing');
      for (const [id, from] of [[confirmed, 'confirmed'], [processing, 'processing']] as const) {
        const value = await ok(client, 'cancel_order', { order_id: id, reason: 'duplicate' });
        assert.equal(value.status, 'cancelled');
        const data = JSON.parse((await cancelEvents(id))[0]!.data);
        assert.equal(data.from, from);
        assert.equal(data.note, null);
        assert.equal(data.platform_cancel, 'not_needed');
      }
    });

    test('cancelling a cancelled order changes nothing: the same answer, no new event, the first reason kept', async () => {
      const id = await create();
      const first = await ok(client, 'cancel_order', { order_id: id, reason: 'unreachable' });
      const again = await unchanged(server.deps, () => ok(client, 'cancel_order', { order_id: id, reason: 'fraud', note: 'otra razón' }));
      assert.deepEqual(again, first);
      assert.equal(again.cancel_reason, 'unreachable');
      assert.equal((await cancelEvents(id)).length, 1);
    });

    test('a shipped or a delivered order is invalid_state on order_id, and nothing changes', async () => {
      const shipped = await create();
      await setStatus(shipped, 'shipped');
      const error = await expectToolError(server.deps, client, 'cancel_order', { order_id: shipped, reason: 'buyer_declined' }, 'invalid_state', 'order_id');
      assert.match(error.message, /shipped/);
      const delivered = await create();
      await setStatus(delivered, 'shipped');
      await setStatus(delivered, 'delivered');
      await expectToolError(server.deps, client, 'cancel_order', { order_id: delivered, reason: 'other' }, 'invalid_state', 'order_id');
      assert.equal((await orderRow(server.deps, delivered)).status, 'delivered');
    });

    test('an unknown or missing reason, an empty note, a bad order_id or an unknown field is invalid_input on that field', async () => {
      const id = await create();
      const bad = await expectToolError(server.deps, client, 'cancel_order', { order_id: id, reason: 'changed_mind' }, 'invalid_input', 'reason');
      assert.match(bad.message, /buyer_declined/, 'the message lists the reasons');
      await expectToolError(server.deps, client, 'cancel_order', { order_id: id }, 'invalid_input', 'reason');
      await expectToolError(server.deps, client, 'cancel_order', { order_id: id, reason: 42 }, 'invalid_input', 'reason');
      await expectToolError(server.deps, client, 'cancel_order', { order_id: id, reason: 'other', note: '   ' }, 'invalid_input', 'note');
      await expectToolError(server.deps, client, 'cancel_order', { order_id: 'not-a-uuid', reason: 'other' }, 'invalid_input', 'order_id');
      await expectToolError(server.deps, client, 'cancel_order', { order_id: id, reason: 'other', refund: true }, 'invalid_input', 'refund');
      assert.equal((await orderRow(server.deps, id)).status, 'pending');
    });

    test('a token with only orders:read gets 403 insufficient_scope naming orders:write, and nothing changes', async () => {
      const id = await create();
      await expectInsufficientScope(server, tokens.ordersRead, ['mcp:invoke', 'orders:read'], 'cancel_order', { order_id: id, reason: 'other' }, 'orders:write');
      assert.equal((await orderRow(server.deps, id)).status, 'pending');
    });

    test("another account's order is not_found exactly like an unknown one, and stays as it was", async () => {
      const otherClient = await connect(server.url, other.secretKey);
      try {
        const foreign = await create(otherClient, other);
        await expectForeignLikeUnknown(server.deps, client, 'cancel_order', (id) => ({ order_id: id, reason: 'fraud' }), foreign, 'order_id');
        assert.equal((await orderRow(server.deps, foreign)).status, 'pending');
      } finally {
        await otherClient.close();
      }
    });
  });

  describe('an order at the platform, through the worker and the simulator', () => {
    test('a pushed order gets a queued cancel job; the worker cancels the platform order and the job is done with a fulfillment.cancelled event', async () => {
      const { id, remoteId } = await pushed();
      const value = await ok(client, 'cancel_order', { order_id: id, reason: 'buyer_declined' });
      assert.equal(value.status, 'cancelled');
      assert.equal(value.fulfillment.state, 'done', 'the push stays done');
      assert.equal(value.fulfillment.cancel.state, 'queued');
      const cancel = (await jobOf(id, 'cancel'))!;
      assert.equal(cancel.state, 'queued');
      assert.equal(cancel.remote_id, remoteId);
      assert.equal(JSON.parse((await cancelEvents(id))[0]!.data).platform_cancel, 'queued');
      // Cancelling again adds no second cancel job.
      await unchanged(server.deps, () => ok(client, 'cancel_order', { order_id: id, reason: 'other' }));
      assert.equal(sim.orders().find((o) => o.id === remoteId)!.cancellation, null, 'nothing reaches the platform before the worker runs');

      const worker = startPushWorker(server.deps)!;
      try {
        await until('the cancel job done', async () => (await jobOf(id, 'cancel'))!.state === 'done');
      } finally {
        await worker.stop();
      }
      const platform = sim.orders().find((o) => o.id === remoteId)!;
      assert.equal(platform.cancellation?.status, 'cancelled');
      assert.equal(platform.cancellation?.calls, 1);
      assert.equal(platform.status, 'CANCELADO');
      assert.equal(sim.orders().filter((o) => o.external_ref === id).length, 1);
      const done = (await eventsOf(server.deps, id)).filter((e) => e.type === 'fulfillment.cancelled');
      assert.equal(done.length, 1);
      assert.equal(done[0]!.actor, 'system');
      assert.deepEqual(JSON.parse(done[0]!.data).remote_ids, [remoteId]);
      const after = await ok(client, 'get_order', { order_id: id });
      assert.equal(after.status, 'cancelled');
      assert.equal(after.fulfillment.cancel.state, 'done');
      assert.equal(after.fulfillment_status, 'CANCELADO');
    });

    test('a platform order already EN_TRANSITO refuses the cancellation (409): the cancel job ends dead with a fulfillment.cancel_dead event', async () => {
      const { id, remoteId } = await pushed();
      // No webhook configured: the platform's move does not reach codrail, so the order stays confirmed.
      await sim.advance(remoteId, 'EN_TRANSITO');
      assert.equal((await orderRow(server.deps, id)).status, 'confirmed');
      const value = await ok(client, 'cancel_order', { order_id: id, reason: 'buyer_declined' });
      assert.equal(value.status, 'cancelled');
      assert.equal(value.fulfillment.cancel.state, 'queued');

      const worker = startPushWorker(server.deps)!;
      try {
        await until('the cancel job dead', async () => (await jobOf(id, 'cancel'))!.state === 'dead');
      } finally {
        await worker.stop();
      }
      const cancel = (await jobOf(id, 'cancel'))!;
      assert.equal(cancel.attempts, 1, 'a refusal is permanent: not retried');
      assert.match(cancel.last_error ?? '', /409/);
      const dead = (await eventsOf(server.deps, id)).filter((e) => e.type === 'fulfillment.cancel_dead');
      assert.equal(dead.length, 1);
      assert.equal(dead[0]!.actor, 'system');
      assert.match(JSON.parse(dead[0]!.data).error, /409/);
      assert.equal((await eventsOf(server.deps, id)).filter((e) => e.type === 'fulfillment.cancelled').length, 0);
      const platform = sim.orders().find((o) => o.id === remoteId)!;
      assert.equal(platform.status, 'EN_TRANSITO');
      assert.equal(platform.cancellation, null);
      assert.equal((await ok(client, 'get_order', { order_id: id })).fulfillment.cancel.state, 'dead');
    });
  });
});
