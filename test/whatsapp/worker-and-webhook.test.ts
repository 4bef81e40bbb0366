// The WhatsApp outbox end to end (issue 12; docs/whatsapp.md): the worker sends queued messages to the
// Cloud API simulator exactly once (retrying what was not accepted), fails those of a store without a
// phone-number id; the signed status webhook moves statuses forward only; Meta's GET handshake; the
// simulator's own behaviour; and how the Cloud API client classifies failures for the outbox.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { addProduct, addStore, assignNumber, type Shop } from '../helpers/fixtures.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { OPEN_LIMITS, eventsOf, nextPhone } from '../api/orders/order-kit.ts';
import { closeToolBench, ok, openToolBench, unchanged } from '../mcp/account-kit.ts';
import { buyer, type Structured } from '../mcp/mcp-kit.ts';
import { startWhatsappSim, type SimMessage, type WhatsappSim } from '../../src/whatsapp/simulator.ts';
import { CloudApiClient } from '../../src/whatsapp/cloud-api.ts';
import { OutboundClient } from '../../src/http/outbound/outbound-client.ts';
import { OutboundError } from '../../src/http/outbound/outbound-error.ts';
import { classifyFailure, type AttemptFailure } from '../../src/outbox/attempt-failure.ts';
import { startWhatsappWorker } from '../../src/use-cases/fulfillment/push-worker.use-case.ts';
import { Failpoints } from '../../src/failpoints.ts';
import { signHubWebhook, verifyHubWebhook } from '../../src/domain/webhook-signature.ts';
import { until, seeded } from '../helpers/wait.ts';
import { underSeed } from '../helpers/seed.ts';

const APP_SECRET = 'meta-app-secret-for-tests';
const VERIFY_TOKEN = 'verify-token-for-tests';
const PHONE_NUMBER_ID = '106540352242922';

/** What the simulator recorded, through its control endpoint. */
async function simMessages(sim: WhatsappSim): Promise<SimMessage[]> {
  const res = await fetch(`${sim.url}/_sim/messages`);
  assert.equal(res.status, 200);
  return (await res.json()) as SimMessage[];
}

/** Meta's status webhook envelope. */
const statusBody = (...statuses: { id: string; status: string; errors?: unknown[] }[]) =>
  JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [{ id: 'WABA-1', changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', statuses: statuses.map((s) => ({ timestamp: '1700000000', recipient_id: '573000000000', ...s })) } }] }],
  });

const postWebhook = (url: string, body: string, signature?: string) =>
  fetch(`${url}/api/whatsapp/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', ...(signature ? { 'x-hub-signature-256': signature } : {}) }, body });

describe('the WhatsApp worker, the status webhook and the simulator', () => {
  let server: TestServer, shop: Shop, client: Client;
  let storeB: string, productB: string;
  // One Cloud API for every test that stores wamids (its ids are unique only within one simulator):
  // its status webhooks reach codrail, by hand only.
  let cloud: WhatsappSim;
  before(async () => {
    ({ server, shop, client } = await openToolBench({}, {}, { CODRAIL_WHATSAPP_APP_SECRET: APP_SECRET, CODRAIL_WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN }));
    cloud = await startWhatsappSim({ webhookUrl: `${server.url}/api/whatsapp/webhook`, appSecret: APP_SECRET, autoStatuses: false });
    // WhatsApp on with a number the operator assigned to the account, and no event switched on: only the messages a test sends are queued.
    await assignNumber(server.deps, shop.accountId, PHONE_NUMBER_ID);
    await ok(client, 'update_whatsapp_settings', { store_id: shop.storeId, enabled: true, phone_number_id: PHONE_NUMBER_ID });
    storeB = (await addStore(server.deps, shop.accountId, { name: 'Sin WhatsApp', country: 'CO', domains: ['b.example.com'] })).id;
    productB = (await addProduct(server.deps, { store_id: storeB, name: 'Reloj', packs: [{ quantity: 1, price: 120000 }] })).id;
    await ok(client, 'update_whatsapp_settings', { store_id: storeB, enabled: true, phone_number_id: PHONE_NUMBER_ID });
  });
  after(async () => {
    await cloud.close();
    await closeToolBench({ server, client });
  });

  let seq = 0;
  const order = async (storeId = shop.storeId, productId = shop.productId) =>
    (await ok(client, 'create_order', { store_id: storeId, product_id: productId, buyer: buyer({ telefono: nextPhone() }), idempotency_key: `waw-${++seq}` })).id as string;
  const send = async (args: Record<string, unknown>) => ok(client, 'send_whatsapp_message', { idempotency_key: `waw-key-${++seq}`, ...args });
  const row = (id: string) => server.deps.db.selectFrom('whatsapp_messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const queuedCount = async () => (await server.deps.db.selectFrom('whatsapp_messages').select('id').where('status', 'in', ['queued', 'sending']).execute()).length;

  /** Runs the outbox worker against `sim` while `act` runs; every message it started is settled when it returns. */
  async function withWorker<T>(sim: WhatsappSim, act: () => Promise<T>): Promise<T> {
    const worker = startWhatsappWorker({ ...server.deps, config: { ...server.deps.config, whatsappUrl: sim.url } })!;
    try {
      return await act();
    } finally {
      await worker.stop();
    }
  }
  /** Queued messages sent through a simulator without webhook: each ends `sent` with its wamid. */
  async function sentMessages(n: number): Promise<{ id: string; wamid: string; orderId: string }[]> {
    const queued: Structured[] = [];
    for (let i = 0; i < n; i++) queued.push(await send({ order_id: await order(), text: `Hola {nombre} ${i}` }));
    const wamidOf = async (id: string) => until('sent', async () => ((r) => (r.status === 'sent' ? r.wa_message_id : null))(await row(id)));
    return withWorker(cloud, () => Promise.all(queued.map(async (m) => ({ id: m.id as string, orderId: m.order_id as string, wamid: (await wamidOf(m.id))! }))));
  }
  const receivedBy = async (to: string) => (await simMessages(cloud)).filter((m) => m.to === to.slice(1));

  describe('the outbox worker', () => {
    test('a queued text is sent once from the store’s phone-number id; the row is sent with its wamid and a whatsapp.sent event', async () => {
      const message = await send({ order_id: await order(), text: 'Hola {nombre}, tu pedido va para {ciudad}' });
      await withWorker(cloud, async () => {
        await until('sent', async () => (await row(message.id)).status === 'sent');
        // A later message sent by the same worker: it claimed again after this one was sent, and did
        // not take this one again (stopping then waits for whatever it had in flight).
        const later = await send({ order_id: await order(), text: 'Mensaje posterior' });
        await until('the later message sent', async () => (await row(later.id)).status === 'sent');
      });
      const [received, ...more] = await receivedBy(message.to);
      assert.equal(more.length, 0, 'exactly one message reached the Cloud API');
      assert.deepEqual(
        { to: received!.to, type: received!.type, text: received!.text, status: received!.status, phone_number_id: received!.phone_number_id },
        { to: message.to.slice(1), type: 'text', text: 'Hola Ana, tu pedido va para Medellín', status: 'accepted', phone_number_id: PHONE_NUMBER_ID },
      );
      assert.match(received!.id, /^wamid\./);
      const stored = await row(message.id);
      assert.equal(stored.wa_message_id, received!.id);
      assert.equal(stored.attempts, 1);
      assert.equal(stored.last_error, null);
      assert.ok(stored.sent_at);
      const sent = (await eventsOf(server.deps, message.order_id)).filter((e) => e.type === 'whatsapp.sent');
      assert.equal(sent.length, 1);
      assert.deepEqual(JSON.parse(sent[0]!.data), { message_id: message.id, wa_message_id: received!.id, attempts: 1 });
      const listed = await ok(client, 'list_whatsapp_messages', { order_id: message.order_id });
      assert.equal(listed.items[0].status, 'sent');
      assert.equal(listed.items[0].wa_message_id, received!.id);
    });

    test("a template message arrives as type template named after the event, language es, with the placeholders' values as body parameters", async () => {
      const message = await send({ order_id: await order(), template: 'order_created' });
      await withWorker(cloud, () => until('sent', async () => (await row(message.id)).status === 'sent'));
      const [received, ...more] = await receivedBy(message.to);
      assert.equal(more.length, 0);
      assert.equal(received!.type, 'template');
      assert.equal(received!.text, undefined);
      assert.deepEqual(received!.template, { name: 'order_created', language: 'es', parameters: ['Ana', 'Faja', '$\u00a0100.000', 'Medellín'], buttons: [] });
    });

    test('a queued message whose store lost its phone_number_id fails with a clear last_error and nothing is sent', async () => {
      const message = await send({ order_id: await order(storeB, productB), text: 'Hola {nombre}' });
      await ok(client, 'update_whatsapp_settings', { store_id: storeB, phone_number_id: '' });
      await withWorker(cloud, () => until('failed', async () => (await row(message.id)).status === 'failed'));
      const stored = await row(message.id);
      assert.match(stored.last_error ?? '', /phone_number_id/);
      assert.match(stored.last_error ?? '', /update_whatsapp_settings/);
      assert.equal(stored.wa_message_id, null);
      assert.equal(stored.attempts, 1);
      assert.deepEqual(await receivedBy(message.to), []);
      const failed = (await eventsOf(server.deps, message.order_id)).filter((e) => e.type === 'whatsapp.failed');
      assert.deepEqual(failed.map((e) => JSON.parse(e.data)), [{ message_id: message.id, error: 'the store has no WhatsApp phone_number_id (update_whatsapp_settings)', attempts: 1 }]);
      assert.equal((await ok(client, 'list_whatsapp_messages', { order_id: message.order_id })).items[0].last_error, stored.last_error);
    });
  });

  describe('the signed status webhook', () => {
    let first: { id: string; wamid: string; orderId: string };
    let second: { id: string; wamid: string; orderId: string };
    before(async () => ([first, second] = (await sentMessages(2)) as [typeof first, typeof second]));

    const signed = (body: string) => postWebhook(server.url, body, signHubWebhook(APP_SECRET, body));

    test('sent → delivered → read with a valid signature, each a whatsapp.<status> event; a late sent or delivered changes nothing', async () => {
      const delivered = await signed(statusBody({ id: first.wamid, status: 'delivered' }));
      assert.equal(delivered.status, 200);
      assert.deepEqual(await delivered.json(), { success: true, data: { statuses: 1, applied: 1 } });
      const afterDelivered = await row(first.id);
      assert.equal(afterDelivered.status, 'delivered');
      assert.ok(afterDelivered.delivered_at);
      const late = await unchanged(server.deps, () => signed(statusBody({ id: first.wamid, status: 'sent' })));
      assert.deepEqual(await late.json(), { success: true, data: { statuses: 1, applied: 0 } });
      assert.equal((await signed(statusBody({ id: first.wamid, status: 'read' }))).status, 200);
      const read = await row(first.id);
      assert.equal(read.status, 'read');
      assert.ok(read.read_at);
      assert.equal(read.delivered_at, afterDelivered.delivered_at, 'delivered_at is kept');
      for (const status of ['delivered', 'sent', 'read', 'failed']) await unchanged(server.deps, () => signed(statusBody({ id: first.wamid, status })));
      const events = (await eventsOf(server.deps, first.orderId)).filter((e) => e.type.startsWith('whatsapp.'));
      assert.deepEqual(events.map((e) => [e.type, e.actor]), [['whatsapp.queued', events[0]!.actor], ['whatsapp.sent', 'system'], ['whatsapp.delivered', 'whatsapp'], ['whatsapp.read', 'whatsapp']]);
    });

    test('reports that overtake the send (Meta reports before the worker recorded the id, maybe to another instance) are kept and applied when it records it, in order', async () => {
      // A Cloud API that reports sent and delivered as soon as it accepts, and a worker that takes
      // 1.5 s between the answer and its record: both reports reach codrail before the message id does.
      const eager = await startWhatsappSim({ webhookUrl: `${server.url}/api/whatsapp/webhook`, appSecret: APP_SECRET, autoStatuses: true });
      try {
        const message = await send({ order_id: await order(), text: 'Hola {nombre}, te escribe la tienda' });
        const worker = startWhatsappWorker({ ...server.deps, failpoints: new Failpoints('whatsapp.after_answer=delay:1500*1'), config: { ...server.deps.config, whatsappUrl: eager.url } })!;
        try {
          const reported = await until('both reports reached codrail', async () => ((m) => (m?.status === 'delivered' ? m : undefined))((await simMessages(eager))[0]));
          assert.equal((await row(message.id)).wa_message_id, null, 'the reports came before the record');
          await until('the message delivered', async () => (await row(message.id)).status === 'delivered');
          const stored = await row(message.id);
          assert.equal(stored.wa_message_id, reported!.id);
          assert.ok(stored.delivered_at);
        } finally {
          await worker.stop();
        }
        const events = (await eventsOf(server.deps, message.order_id)).filter((e) => e.type.startsWith('whatsapp.'));
        assert.deepEqual(events.map((e) => e.type), ['whatsapp.queued', 'whatsapp.sent', 'whatsapp.delivered']);
        const wamid = (await row(message.id)).wa_message_id;
        const left = await server.deps.db.selectFrom('whatsapp_early_statuses').selectAll().where('wa_message_id', '=', wamid!).execute();
        assert.deepEqual(left, [], 'applied, then forgotten');
      } finally {
        await eager.close();
      }
    });

    test('a failed report with errors fails a sent message with the reason; other statuses are ignored, an unknown id changes no message', async () => {
      const res = await signed(statusBody({ id: second.wamid, status: 'failed', errors: [{ code: 131026, title: 'Message undeliverable' }] }, { id: 'wamid.UNKNOWN', status: 'delivered' }, { id: second.wamid, status: 'deleted' }));
      assert.deepEqual(await res.json(), { success: true, data: { statuses: 3, applied: 1 } });
      const failed = await row(second.id);
      assert.equal(failed.status, 'failed');
      assert.equal(failed.last_error, 'Message undeliverable (code 131026)');
      await unchanged(server.deps, () => signed(statusBody({ id: second.wamid, status: 'delivered' })));
    });

    test('a wrong, missing or malformed signature, or a body changed after signing, is 401 and nothing changes', async () => {
      const body = statusBody({ id: second.wamid, status: 'read' });
      const signatures = [signHubWebhook('another-secret', body), undefined, 'sha256=zz', signHubWebhook(APP_SECRET, body).replace('sha256=', 'sha1='), signHubWebhook(APP_SECRET, `${body} `)];
      for (const signature of signatures) {
        const res = await unchanged(server.deps, () => postWebhook(server.url, body, signature));
        assert.equal(res.status, 401, String(signature));
        const answer = (await res.json()) as { success: boolean; error: string };
        assert.equal(answer.success, false);
        assert.match(answer.error, /X-Hub-Signature-256/);
      }
    });

    test('a signed body that is not JSON is 400; JSON that is not a WhatsApp payload is 400 too', async () => {
      for (const body of ['not json {', '{"entry": "nope"}']) {
        const res = await unchanged(server.deps, () => postWebhook(server.url, body, signHubWebhook(APP_SECRET, body)));
        assert.equal(res.status, 400, body);
        assert.equal(((await res.json()) as { success: boolean }).success, false);
      }
    });

    test('the GET handshake echoes hub.challenge as text/plain for the verify token; a wrong token or mode is 403', async () => {
      const url = (q: Record<string, string>) => `${server.url}/api/whatsapp/webhook?${new URLSearchParams(q)}`;
      const res = await fetch(url({ 'hub.mode': 'subscribe', 'hub.verify_token': VERIFY_TOKEN, 'hub.challenge': '1158201444' }));
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
      assert.equal(await res.text(), '1158201444');
      assert.equal((await fetch(url({ 'hub.mode': 'subscribe', 'hub.verify_token': 'wrong', 'hub.challenge': '1' }))).status, 403);
      assert.equal((await fetch(url({ 'hub.mode': 'unsubscribe', 'hub.verify_token': VERIFY_TOKEN, 'hub.challenge': '1' }))).status, 403);
      assert.equal((await fetch(url({ 'hub.challenge': '1' }))).status, 403);
    });

    test('a server without CODRAIL_WHATSAPP_APP_SECRET (or verify token) answers 503 and stores nothing', async () => {
      const bare = await startServer(OPEN_LIMITS);
      try {
        const body = statusBody({ id: first.wamid, status: 'read' });
        const res = await unchanged(bare.deps, () => postWebhook(bare.url, body, signHubWebhook(APP_SECRET, body)));
        assert.equal(res.status, 503);
        assert.match(((await res.json()) as { error: string }).error, /CODRAIL_WHATSAPP_APP_SECRET/);
        const handshake = await fetch(`${bare.url}/api/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=x&hub.challenge=1`);
        assert.equal(handshake.status, 503);
      } finally {
        await bare.close();
      }
    });
  });

  describe('the simulator', () => {
    test('its hand-reported statuses (POST /_sim/messages/{id}/status) reach codrail signed with the app secret', async () => {
      const [message] = await sentMessages(1);
      const report = (id: string, body: string) => fetch(`${cloud.url}/_sim/messages/${encodeURIComponent(id)}/status`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      // The answer comes once the webhook was delivered.
      const delivered = await report(message!.wamid, '{"status":"delivered"}');
      assert.equal(delivered.status, 200);
      assert.equal(((await delivered.json()) as SimMessage).status, 'delivered');
      assert.equal((await row(message!.id)).status, 'delivered');
      assert.equal((await report(message!.wamid, '{"status":"read"}')).status, 200);
      assert.equal((await row(message!.id)).status, 'read');
      assert.equal((await simMessages(cloud)).find((m) => m.id === message!.wamid)!.status, 'read');
      const bad = await report(message!.wamid, '{"status":"lost"}');
      assert.equal(bad.status, 400);
      assert.match(((await bad.json()) as { error: string }).error, /status must be one of/);
      assert.equal((await report('wamid.NONE', '{"status":"read"}')).status, 404);
      assert.equal((await row(message!.id)).status, 'read');
    });

    test('each delivery carries X-Hub-Signature-256 over its raw body in Meta’s envelope', async () => {
      const deliveries: { headers: IncomingHttpHeaders; body: string }[] = [];
      const hook = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => (deliveries.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') }), res.writeHead(200).end()));
      });
      await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
      const sim = await startWhatsappSim({ webhookUrl: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`, appSecret: APP_SECRET });
      try {
        const send = await fetch(`${sim.url}/v21.0/${PHONE_NUMBER_ID}/messages`, { method: 'POST', body: JSON.stringify({ messaging_product: 'whatsapp', to: '573001234567', type: 'text', text: { body: 'Hola' } }) });
        const { messages } = (await send.json()) as { messages: { id: string }[] };
        // Automatic statuses: sent, then delivered; then one by hand.
        await until('two deliveries', () => deliveries.length === 2);
        await sim.report(messages[0]!.id, 'read');
        assert.equal(deliveries.length, 3);
        const statuses = deliveries.map(({ headers, body }) => {
          assert.equal(verifyHubWebhook(APP_SECRET, body, headers['x-hub-signature-256'] as string), true);
          assert.equal(verifyHubWebhook('another-secret', body, headers['x-hub-signature-256'] as string), false);
          const parsed = JSON.parse(body);
          assert.equal(parsed.object, 'whatsapp_business_account');
          const status = parsed.entry[0].changes[0].value.statuses[0];
          assert.equal(status.id, messages[0]!.id);
          assert.equal(status.recipient_id, '573001234567');
          return status.status;
        });
        assert.deepEqual(statuses, ['sent', 'delivered', 'read']);
      } finally {
        await sim.close();
        await new Promise((r) => hook.close(r));
      }
    });

    test('wamids are unique like the Cloud API’s: a restarted simulator does not reuse ids codrail may already hold', async () => {
      const body = JSON.stringify({ messaging_product: 'whatsapp', to: '573001234567', type: 'text', text: { body: 'Hola' } });
      const ids: string[] = [];
      for (let i = 0; i < 2; i++) {
        const sim = await startWhatsappSim();
        try {
          const res = await fetch(`${sim.url}/${PHONE_NUMBER_ID}/messages`, { method: 'POST', body });
          ids.push(((await res.json()) as { messages: { id: string }[] }).messages[0]!.id);
        } finally {
          await sim.close();
        }
      }
      assert.notEqual(ids[0], ids[1], `both simulators answered ${ids[0]}: a status webhook for the new message would reach the old one`);
    });

    test('injected 500s accept nothing; a bad body is a Graph-style 400; a wrong bearer token 401', async () => {
      const post = (sim: WhatsappSim, body: string, headers: Record<string, string> = {}) => fetch(`${sim.url}/${PHONE_NUMBER_ID}/messages`, { method: 'POST', headers, body });
      const valid = JSON.stringify({ messaging_product: 'whatsapp', to: '573001234567', type: 'text', text: { body: 'Hola' } });
      const failing = await startWhatsappSim({ failRate: 1 });
      const strict = await startWhatsappSim({ token: 'cloud-token' });
      try {
        for (let i = 0; i < 3; i++) {
          const res = await post(failing, valid);
          assert.equal(res.status, 500);
          const { error } = (await res.json()) as { error: { message: string; type: string; code: number } };
          assert.equal(error.type, 'OAuthException');
          assert.equal(error.code, 2);
        }
        assert.deepEqual(await simMessages(failing), []);
        for (const [body, message] of [
          ['{}', /messaging_product/],
          ['not json', /not valid JSON/],
          [JSON.stringify({ messaging_product: 'whatsapp', to: '+57 300', type: 'text', text: { body: 'x' } }), /to must be/],
          [JSON.stringify({ messaging_product: 'whatsapp', to: '573001234567', type: 'image' }), /type must be/],
          [JSON.stringify({ messaging_product: 'whatsapp', to: '573001234567', type: 'template', template: { language: { code: 'es' } } }), /template\.name/],
        ] as const) {
          const res = await post(strict, body, { authorization: 'Bearer cloud-token' });
          assert.equal(res.status, 400, body);
          const { error } = (await res.json()) as { error: { message: string; type: string; code: number } };
          assert.match(error.message, /^\(#100\) /);
          assert.match(error.message, message);
          assert.equal(error.code, 100);
          assert.equal(error.type, 'OAuthException');
        }
        const refused = await post(strict, valid, { authorization: 'Bearer wrong' });
        assert.equal(refused.status, 401);
        assert.equal(((await refused.json()) as { error: { code: number } }).error.code, 190);
        assert.deepEqual(await simMessages(strict), []);
        assert.equal((await post(strict, valid, { authorization: 'Bearer cloud-token' })).status, 200);
        assert.equal((await simMessages(strict)).length, 1);
      } finally {
        await failing.close();
        await strict.close();
      }
    });
  });

  describe('under injected failures', () => {
    // The attempts asserted are those of seed 9's draws, so this test keeps its seed; a failure names it.
    test('with half the sends failing (500, seeded), every message still arrives exactly once, after retries', () => underSeed(9, async () => {
      // Seed 9 fails the 1st and 3rd send and accepts the next four: two messages are retried once.
      const sim = await startWhatsappSim({ failRate: 0.5, random: seeded(9) });
      try {
        const queued: Structured[] = [];
        for (let i = 0; i < 4; i++) queued.push(await send({ order_id: await order(), text: `Mensaje ${i} para {nombre}` }));
        assert.equal(await queuedCount(), 4, 'only this test’s messages are due');
        await withWorker(sim, () => until('all sent', async () => (await Promise.all(queued.map((m) => row(m.id)))).every((r) => r.status === 'sent')));
        const received = await simMessages(sim);
        assert.deepEqual(received.map((m) => m.to).sort(), queued.map((m) => m.to.slice(1)).sort(), 'each buyer got one message');
        const rows = await Promise.all(queued.map((m) => row(m.id)));
        assert.deepEqual(rows.map((r) => r.attempts).sort(), [1, 1, 2, 2]);
        for (const r of rows) {
          assert.equal(r.last_error, null, 'a sent message keeps no error');
          assert.equal(received.filter((m) => m.id === r.wa_message_id).length, 1);
        }
      } finally {
        await sim.close();
      }
    }));
  });

  describe('the Cloud API client', () => {
    const text = { type: 'text', to: '+573001234567', text: 'Hola' } as const;
    const outbound = new OutboundClient();
    after(() => outbound.close());
    /** The failure as the outbox reads it (the one classification of every destination). */
    const failure = async (promise: Promise<unknown>): Promise<AttemptFailure> => {
      try {
        await promise;
      } catch (error) {
        assert.ok(error instanceof OutboundError, String(error));
        return classifyFailure(error);
      }
      assert.fail('the send should fail');
    };

    test('an accepted send resolves with the wamid; 5xx, 429 and a refused connection are retry (Retry-After kept), 400 permanent, a timeout unknown', async () => {
      const sim = await startWhatsappSim({ token: 'cloud-token' });
      const failing = await startWhatsappSim({ failRate: 1 });
      const slow = await startWhatsappSim({ latencyMs: 500 });
      const busy = createServer((_req, res) => res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '7' }).end('{"error":{"message":"Too many messages","code":130429}}'));
      await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
      const clientFor = (url: string, timeoutMs = 2_000, token: string | undefined = 'cloud-token') => new CloudApiClient({ url, token, timeoutMs, outbound });
      try {
        const wamid = await clientFor(sim.url).send(PHONE_NUMBER_ID, text);
        assert.equal((await simMessages(sim))[0]!.id, wamid);

        const fiveHundred = await failure(clientFor(failing.url).send(PHONE_NUMBER_ID, text));
        assert.equal(fiveHundred.kind, 'retry');
        assert.match(fiveHundred.message, /HTTP 500 .*\(code 2\)/);

        const tooMany = await failure(clientFor(`http://127.0.0.1:${(busy.address() as AddressInfo).port}`).send(PHONE_NUMBER_ID, text));
        assert.equal(tooMany.kind, 'retry');
        assert.equal(tooMany.retryAfterMs, 7_000);
        assert.match(tooMany.message, /HTTP 429 Too many messages \(code 130429\)/);

        const unauthorized = await failure(clientFor(sim.url, 2_000, 'wrong').send(PHONE_NUMBER_ID, text));
        assert.equal(unauthorized.kind, 'retry', 'auth failures were not accepted: retried');

        const badRequest = await failure(clientFor(sim.url).send(PHONE_NUMBER_ID, { ...text, to: '12' }));
        assert.equal(badRequest.kind, 'permanent');
        assert.match(badRequest.message, /HTTP 400 \(#100\) to must be/);
        assert.equal((await simMessages(sim)).length, 1, 'neither was accepted');

        const timeout = await failure(clientFor(slow.url, 100).send(PHONE_NUMBER_ID, text));
        assert.equal(timeout.kind, 'unknown');
        assert.match(timeout.message, /no answer within 100 ms/);
        assert.equal((await simMessages(slow)).length, 1, 'the lost answer’s message was accepted: resending would duplicate it');

        const refused = await failure(clientFor('http://127.0.0.1:9').send(PHONE_NUMBER_ID, text));
        assert.equal(refused.kind, 'retry', 'a refused connection never reached the Cloud API: nothing was sent, so it is tried again (issue 19 §1)');
        assert.ok(!refused.message.includes('cloud-token'), 'the token is never in an error');
      } finally {
        await Promise.all([sim.close(), failing.close(), slow.close(), new Promise((r) => busy.close(r))]);
      }
    });
  });
});
