// Issue 21: `codrail serve` killed with SIGKILL while deliveries are in flight — a power cut in the
// middle of POSTs the receiver has not answered yet — then started again: no event is lost. A
// delivery cut off mid-flight is sent again once its lease runs out (at least once; the receiver
// deduplicates by Codrail-Event-Id).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { tempDbFile } from '../helpers/server.ts';
import { orderBody, seedShop } from '../helpers/fixtures.ts';
import { cliJson, readDb, withApp } from '../helpers/cli-expect.ts';
import { spawnServe } from '../helpers/cli.ts';
import { until } from '../helpers/wait.ts';
import { startReceiver } from '../helpers/webhook-receiver.ts';
import { nextPhone } from '../api/orders/order-kit.ts';
import { createOrder } from '../../src/use-cases/orders/create-order.use-case.ts';
import { ALLOW_PRIVATE, byEvent, verifies } from './webhook-kit.ts';

const files: ReturnType<typeof tempDbFile>[] = [];
after(() => files.forEach((f) => f.cleanup()));

const ORDERS = 12;
// A short deadline keeps the lease of a cut-off delivery short (twice the deadline and a second).
const FLAGS = ['--log-level', 'warn', '--webhook-backoff-ms', '10', '--webhook-timeout-ms', '1000'];

const deliveryRows = (file: string) =>
  readDb(file, (d) => d.prepare('SELECT event_id, state, attempts, unknown_outcome FROM webhook_deliveries ORDER BY event_seq').all() as { event_id: string; state: string; attempts: number; unknown_outcome: number }[]);
const eventIds = (file: string) => readDb(file, (d) => (d.prepare('SELECT id FROM webhook_events ORDER BY seq').all() as { id: string }[]).map((r) => r.id));

test('serve killed with SIGKILL while webhook deliveries are in flight, then started again, delivers every event: none is lost, the cut-off ones are sent again', async () => {
  const receiver = await startReceiver();
  const tmp = tempDbFile();
  files.push(tmp);
  try {
    const shop = await withApp(tmp.file, (app) => seedShop(app));
    const { json: endpoint } = await cliJson(tmp.file, ['webhooks', 'add', shop.storeId, '--url', receiver.url], { env: ALLOW_PRIVATE });
    await withApp(tmp.file, async (app) => {
      for (let i = 0; i < ORDERS; i++) await createOrder(app, { body: orderBody(shop, { telefono: nextPhone() }), apiKey: shop.liveKey, origin: 'https://shop.example.com', ip: `198.51.100.${i}` }, {});
    });
    const events = eventIds(tmp.file);
    assert.equal(events.length, ORDERS);

    // The first few are answered at once; then the receiver holds every answer, so the process
    // dies with POSTs sent and unanswered.
    receiver.decide = (a) => (a.n < 3 ? { status: 200 } : { status: 200, holdMs: 60_000 });
    const first = await spawnServe(tmp.file, FLAGS, 30_000, ALLOW_PRIVATE);
    await until('deliveries in flight at the receiver', () => receiver.holding() >= 2);
    first.child.kill('SIGKILL');
    await first.exited;
    const cutOff = receiver.arrivals().filter((a) => a.answer.holdMs).map((a) => a.eventId);
    const atKill = deliveryRows(tmp.file);
    assert.ok(atKill.some((d) => d.state === 'delivered'), 'some were delivered before the kill');
    for (const id of cutOff) assert.equal(atKill.find((d) => d.event_id === id)?.state, 'in_flight', `${id} was in flight at the kill`);

    // Started again, with a receiver that answers at once.
    receiver.decide = () => ({ status: 200 });
    const second = await spawnServe(tmp.file, FLAGS, 30_000, ALLOW_PRIVATE);
    try {
      await until('every delivery delivered after the restart', () => deliveryRows(tmp.file).every((d) => d.state === 'delivered'), 60_000);
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }

    const accepted = byEvent(receiver.accepted().filter((a) => !a.answer.holdMs));
    assert.deepEqual([...accepted.keys()].sort(), [...events].sort(), 'every event answered 200 to a live sender');
    for (const id of cutOff) assert.ok(byEvent(receiver.arrivals()).get(id)!.length >= 2, `${id}, cut off by the kill, arrived again`);
    for (const a of receiver.arrivals()) assert.ok(verifies(endpoint.secret, a), `copy ${a.n} of ${a.eventId} is signed with the endpoint's secret`);
    for (const d of deliveryRows(tmp.file)) assert.equal(d.unknown_outcome, 0, `${d.event_id}: a delivered delivery keeps no unknown outcome`);
  } finally {
    await receiver.close();
  }
});
