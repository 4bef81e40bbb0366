// Issue 20: `codrail serve` killed with SIGKILL at an exact step of a push, a cancel or a WhatsApp
// send — the fail point kills the real process right there, as a power cut would — then started
// again: exactly one platform order per order, one cancel request per cancelled order, and a message
// that may have reached the buyer is never sent again.
import { databaseEnv } from '../helpers/test-database.ts';
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { tempDbFile } from '../helpers/server.ts';
import { seedShop, orderBody, assignNumber } from '../helpers/fixtures.ts';
import { withApp, readDb } from '../helpers/cli-expect.ts';
import { spawnServe } from '../helpers/cli.ts';
import { nextPhone } from '../api/orders/order-kit.ts';
import { until } from '../helpers/wait.ts';
import { createOrder } from '../../src/use-cases/orders/create-order.use-case.ts';
import { cancelOrder } from '../../src/use-cases/orders/order-life.use-case.ts';
import { CancelOrderInput } from '../../src/use-cases/orders/order-life.schemas.ts';
import { operatorAs } from '../../src/use-cases/caller.ts';
import { parseWith } from '../../src/use-cases/validate.ts';
import { startSimulator, type Simulator } from '../../src/platforms/generic/simulator.ts';
import { startWhatsappSim } from '../../src/whatsapp/simulator.ts';
import { sendWhatsappMessage } from '../../src/use-cases/whatsapp/whatsapp-messages.use-case.ts';
import { updateWhatsappSettings } from '../../src/use-cases/whatsapp/whatsapp-settings.use-case.ts';
import { SendWhatsappMessageInput, UpdateWhatsappSettingsInput } from '../../src/use-cases/whatsapp/whatsapp.schemas.ts';
import { startWhatsappWorker } from '../../src/use-cases/fulfillment/push-worker.use-case.ts';
import { manualClock } from '../../src/clock.ts';
import { loadConfig } from '../../src/config.ts';

const files: ReturnType<typeof tempDbFile>[] = [];
after(() => files.forEach((f) => f.cleanup()));

const FLAGS = ['--log-level', 'warn', '--fulfillment-timeout-ms', '500', '--fulfillment-backoff-ms', '20', '--fulfillment-backoff-max-ms', '100'];

/** A database with one store and `n` live orders, each with its push job queued. */
async function database(n: number) {
  const tmp = tempDbFile();
  files.push(tmp);
  const made = await withApp(tmp.file, async (app) => {
    const shop = await seedShop(app);
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const { body } = await createOrder(app, { body: orderBody(shop, { telefono: nextPhone() }), apiKey: shop.liveKey, origin: 'https://shop.example.com', ip: `198.51.100.${i}` }, {});
      ids.push(body.data.id);
    }
    return { shop, ids };
  });
  return { file: tmp.file, ...made };
}

const jobRows = (file: string, action: string) => readDb(file, (d) => d.prepare('SELECT order_id, state, remote_id, unknown_outcome FROM fulfillment_jobs WHERE action = ?').all(action) as { order_id: string; state: string; remote_id: string | null; unknown_outcome: number }[]);

/** Runs serve until `done`, with the fail points given; a `kill` fail point ends it by itself. */
async function serveUntil(file: string, url: string, failpoints: string | undefined, done: () => boolean): Promise<'killed' | 'done'> {
  const serve = await spawnServe(file, [...FLAGS, '--fulfillment-url', url], 30_000, failpoints ? { CODRAIL_FAILPOINTS: failpoints } : {});
  const outcome = await Promise.race([serve.exited.then(() => 'killed' as const), until('the work to be done', done, 60_000).then(() => 'done' as const)]);
  if (outcome === 'done') {
    serve.child.kill('SIGTERM');
    await serve.exited;
  }
  return outcome;
}

function onePerOrder(sim: Simulator, ids: readonly string[], file: string): void {
  for (const id of ids) assert.equal(sim.orders().filter((o) => o.external_ref === id).length, 1, `order ${id}`);
  assert.equal(sim.orders().length, ids.length);
  for (const job of jobRows(file, 'push')) assert.deepEqual([job.state, job.unknown_outcome, job.remote_id], ['done', 0, sim.orders().find((o) => o.external_ref === job.order_id)!.id]);
}

for (const step of ['push.before_request', 'push.after_answer', 'push.during_record'] as const)
  test(`serve killed at ${step} and started again: exactly one platform order per order`, async () => {
    const sim = await startSimulator({ port: 0 });
    try {
      const db = await database(5);
      assert.equal(await serveUntil(db.file, sim.url, `${step}=kill*1`, () => false), 'killed');
      const before = sim.orders().length;
      assert.ok(step === 'push.before_request' ? before === 0 : before >= 1, `killed at ${step} with ${before} platform orders`);
      assert.equal(await serveUntil(db.file, sim.url, undefined, () => jobRows(db.file, 'push').every((j) => j.state === 'done')), 'done');
      onePerOrder(sim, db.ids, db.file);
    } finally {
      await sim.close();
    }
  });

test('serve killed between the platform cancelling and codrail recording it, started again: one cancel request per order', async () => {
  const sim = await startSimulator({ port: 0 });
  try {
    const db = await database(3);
    await serveUntil(db.file, sim.url, undefined, () => jobRows(db.file, 'push').every((j) => j.state === 'done'));
    await withApp(db.file, async (app) => {
      for (const id of db.ids) await cancelOrder(app, operatorAs(db.shop.accountId), parseWith(CancelOrderInput, { order_id: id, reason: 'buyer_declined' }));
    });
    assert.equal(await serveUntil(db.file, sim.url, 'cancel.after_answer=kill*1', () => false), 'killed');
    assert.equal(await serveUntil(db.file, sim.url, undefined, () => jobRows(db.file, 'cancel').every((j) => j.state === 'done')), 'done');
    for (const o of sim.orders()) assert.deepEqual([o.status, o.cancellation?.calls], ['CANCELADO', 1], o.external_ref);
    const statuses = readDb(db.file, (d) => d.prepare('SELECT status FROM orders').all() as { status: string }[]);
    assert.deepEqual(statuses.map((s) => s.status), ['cancelled', 'cancelled', 'cancelled']);
  } finally {
    await sim.close();
  }
});

test('serve killed after the Cloud API accepted a message and before codrail recorded it: the message is failed as possibly delivered, never sent again', async () => {
  const cloud = await startWhatsappSim({});
  try {
    const db = await database(1);
    const message = await withApp(db.file, async (app) => {
      const number = await assignNumber(app, db.shop.accountId);
      await updateWhatsappSettings(app, operatorAs(db.shop.accountId), parseWith(UpdateWhatsappSettingsInput, { store_id: db.shop.storeId, enabled: true, phone_number_id: number }));
      return sendWhatsappMessage(app, operatorAs(db.shop.accountId), parseWith(SendWhatsappMessageInput, { order_id: db.ids[0], text: 'Hola {nombre}', idempotency_key: 'kill-after-accept' }));
    });
    const serve = await spawnServe(db.file, ['--log-level', 'warn', '--whatsapp-url', cloud.url], 30_000, { CODRAIL_FAILPOINTS: 'whatsapp.after_answer=kill*1' });
    await serve.exited;
    assert.equal(cloud.messages().length, 1, 'the Cloud API accepted it before the kill');
    const row = () => readDb(db.file, (d) => d.prepare('SELECT status, last_error FROM whatsapp_messages WHERE id = ?').get(message.id) as { status: string; last_error: string | null });
    assert.equal(row().status, 'sending');
    // Started again, once the interrupted send's lease has run out (a clock moved past it).
    const clock = manualClock(Date.now() + 60_000);
    await withApp(
      db.file,
      async (app) => {
        const worker = startWhatsappWorker({ ...app, config: loadConfig({ db: db.file, whatsappUrl: cloud.url }, databaseEnv()) })!;
        try {
          await until('the interrupted message to be settled', () => row().status !== 'sending');
        } finally {
          await worker.stop();
        }
      },
      { clock },
    );
    assert.equal(row().status, 'failed');
    assert.match(row().last_error ?? '', /may have reached the buyer/);
    assert.equal(cloud.messages().length, 1, 'never sent twice');
  } finally {
    await cloud.close();
  }
});

test('the fail points refuse a spelling they do not know, so a test cannot pass by arming nothing', async () => {
  const { loadConfig: load } = await import('../../src/config.ts');
  assert.throws(() => load({}, { CODRAIL_FAILPOINTS: 'push.after_anwser=kill' }), /not a fail point/);
  assert.throws(() => load({}, { CODRAIL_FAILPOINTS: 'push.after_answer=explode' }), /not name=error\|kill\|delay/);
  assert.equal(load({}, { CODRAIL_FAILPOINTS: 'push.after_answer=kill*1,cancel.during_record=delay:10' }).failpoints, 'push.after_answer=kill*1,cancel.during_record=delay:10');
});
