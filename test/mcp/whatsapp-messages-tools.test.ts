// WhatsApp messages to buyers through the SDK client (MCP-TOOLS.md §6.10 rows 60-62; issue 12;
// docs/whatsapp.md): send_whatsapp_message queues a template or a text under an idempotency key,
// list_whatsapp_messages pages them newest first with filters, cancel_whatsapp_message cancels a
// queued one; and the automatic messages an enabled store's order events queue, once per order and
// event, for live orders only. No worker runs here: every message stays in the outbox.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { addKey, addProduct, addStore, assignNumber, orderBody, postOrder, type Shop } from '../helpers/fixtures.ts';
import type { TestServer } from '../helpers/server.ts';
import { SHOP_ORIGIN, eventsOf, expectCreated, nextPhone } from '../api/orders/order-kit.ts';
import { buyer, connect, type Structured } from './mcp-kit.ts';
import { UNKNOWN_ID, closeToolBench, expectForeignLikeUnknown, expectInsufficientScope, expectToolError, ok, openToolBench, unchanged } from './account-kit.ts';

const PHONE_NUMBER_ID = '106540352242922';

describe('whatsapp message tools', () => {
  let server: TestServer, shop: Shop, other: Shop, client: Client, otherClient: Client;
  let tokens: { ordersRead: string; whatsappWrite: string };
  let storeB: string, productB: string;
  before(async () => {
    ({ server, shop, other, client, tokens } = await openToolBench({ ordersRead: ['orders:read'], whatsappWrite: ['whatsapp:write'] }));
    otherClient = await connect(server.url, other.secretKey);
    storeB = (await addStore(server.deps, shop.accountId, { name: 'Tienda B', country: 'CO', domains: ['b.example.com'] })).id;
    productB = (await addProduct(server.deps, { store_id: storeB, name: 'Reloj', packs: [{ quantity: 1, price: 120000 }] })).id;
    // Sends need the store's WhatsApp on with a number its account may send from (a number belongs to
    // one account: the other account has its own); no event is on, so orders queue nothing by themselves.
    await assignNumber(server.deps, shop.accountId, PHONE_NUMBER_ID);
    const otherNumber = await assignNumber(server.deps, other.accountId);
    for (const [c, storeId, number] of [[client, shop.storeId, PHONE_NUMBER_ID], [client, storeB, PHONE_NUMBER_ID], [otherClient, other.storeId, otherNumber]] as const)
      await ok(c, 'update_whatsapp_settings', { store_id: storeId, enabled: true, phone_number_id: number });
  });
  after(async () => {
    await otherClient.close();
    await closeToolBench({ server, client });
  });

  let seq = 0;
  const order = async (c: Client = client, storeId = shop.storeId, productId = shop.productId) =>
    (await ok(c, 'create_order', { store_id: storeId, product_id: productId, buyer: buyer({ telefono: nextPhone() }), idempotency_key: `wam-order-${++seq}` })).id as string;
  const key = () => `wam-key-${++seq}`;
  const send = (args: Record<string, unknown>, c: Client = client) => ok(c, 'send_whatsapp_message', { idempotency_key: key(), ...args });
  const messageRow = (id: string) => server.deps.db.selectFrom('whatsapp_messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const messagesOf = (orderId: string) => server.deps.db.selectFrom('whatsapp_messages').selectAll().where('order_id', '=', orderId).orderBy('created_at').orderBy('id').execute();
  const ids = (page: Structured) => (page.items as { id: string }[]).map((m) => m.id);

  describe('send_whatsapp_message', () => {
    test('a store with WhatsApp off, or without a phone_number_id, refuses sends with invalid_state and queues nothing', async () => {
      const storeId = (await addStore(server.deps, shop.accountId, { name: 'Sin WhatsApp', country: 'CO', domains: ['c.example.com'] })).id;
      const productId = (await addProduct(server.deps, { store_id: storeId, name: 'Gorra', packs: [{ quantity: 1, price: 50000 }] })).id;
      const id = await order(client, storeId, productId);
      const off = await expectToolError(server.deps, client, 'send_whatsapp_message', { order_id: id, text: 'Hola', idempotency_key: key() }, 'invalid_state', 'order_id');
      assert.match(off.message, /off/);
      assert.match(off.hint ?? '', /update_whatsapp_settings/);
      await ok(client, 'update_whatsapp_settings', { store_id: storeId, enabled: true });
      const noNumber = await expectToolError(server.deps, client, 'send_whatsapp_message', { order_id: id, text: 'Hola', idempotency_key: key() }, 'invalid_state', 'order_id');
      assert.match(noNumber.message, /phone_number_id/);
    });

    test('a text is filled from the order and queued: the answer, the row and a whatsapp.queued event with the key as actor', async () => {
      const id = await order();
      const value = await send({ order_id: id, text: 'Hola {nombre}, ¿confirmas la entrega en {ciudad}?', idempotency_key: 'text-key-0001' });
      assert.equal(value.order_id, id);
      assert.equal(value.store_id, shop.storeId);
      assert.equal(value.type, 'text');
      assert.equal(value.template, null);
      assert.equal(value.text, 'Hola Ana, ¿confirmas la entrega en Medellín?');
      assert.equal(value.event, null);
      assert.equal(value.status, 'queued');
      assert.equal(value.attempts, 0);
      assert.equal(value.replayed, false);
      assert.equal(value.wa_message_id, null);
      assert.match(value.to, /^\+573\d{9}$/);
      const row = await messageRow(value.id);
      assert.equal(row.order_id, id);
      assert.equal(row.to_e164, value.to);
      assert.equal(row.body, value.text);
      assert.equal(row.parameters, '[]');
      assert.equal(row.idempotency_key, 'text-key-0001');
      assert.equal(row.status, 'queued');
      assert.match(row.actor, /^key:/);
      const queued = (await eventsOf(server.deps, id)).filter((e) => e.type === 'whatsapp.queued');
      assert.equal(queued.length, 1);
      assert.equal(queued[0]!.actor, row.actor);
      assert.deepEqual(JSON.parse(queued[0]!.data), { message_id: value.id, type: 'text', template: null, event: null });
    });

    test("a template sends the store's text for that event with its placeholders' values as parameters, in order", async () => {
      const id = await order();
      const value = await send({ order_id: id, template: 'order_confirmed' });
      assert.equal(value.type, 'template');
      assert.equal(value.template, 'order_confirmed');
      assert.equal(value.event, null, 'sent by a tool, not by an order event');
      assert.equal(value.text, '¡Ana, tu pedido de Faja está confirmado! Pronto sale hacia Medellín.');
      assert.deepEqual(JSON.parse((await messageRow(value.id)).parameters), ['Ana', 'Faja', 'Medellín']);
    });

    test('both or neither of template and text, an unknown placeholder, a bad template or key is invalid_input on that field', async () => {
      const id = await order();
      await expectToolError(server.deps, client, 'send_whatsapp_message', { order_id: id, idempotency_key: key() }, 'invalid_input', 'template');
      await expectToolError(server.deps, client, 'send_whatsapp_message', { order_id: id, template: 'order_created', text: 'Hola', idempotency_key: key() }, 'invalid_input', 'template');
      const placeholder = await expectToolError(server.deps, client, 'send_whatsapp_message', { order_id: id, text: 'Paga {precio} a {nombre}', idempotency_key: key() }, 'invalid_input', 'text');
      assert.match(placeholder.message, /\{precio\}/);
      await expectToolError(server.deps, client, 'send_whatsapp_message', { order_id: id, text: '', idempotency_key: key() }, 'invalid_input', 'text');
      await expectToolError(server.deps, client, 'send_whatsapp_message', { order_id: id, template: 'order_cancelled', idempotency_key: key() }, 'invalid_input', 'template');
      await expectToolError(server.deps, client, 'send_whatsapp_message', { order_id: id, text: 'Hola' }, 'invalid_input', 'idempotency_key');
      await expectToolError(server.deps, client, 'send_whatsapp_message', { order_id: id, text: 'Hola', idempotency_key: 'short' }, 'invalid_input', 'idempotency_key');
      await expectToolError(server.deps, client, 'send_whatsapp_message', { order_id: 'nope', text: 'Hola', idempotency_key: key() }, 'invalid_input', 'order_id');
      assert.equal((await messagesOf(id)).length, 0);
    });

    test('the same idempotency_key and request replay the same message (replayed true, no new row); another text under it is conflict', async () => {
      const id = await order();
      const args = { order_id: id, text: 'Te llamamos mañana, {nombre}', idempotency_key: 'replay-key-0001' };
      const first = await ok(client, 'send_whatsapp_message', args);
      const again = await unchanged(server.deps, () => ok(client, 'send_whatsapp_message', args));
      assert.equal(again.replayed, true);
      assert.deepEqual({ ...again, replayed: false }, first);
      // The text is trimmed before it is compared, as it was before it was stored.
      assert.equal((await unchanged(server.deps, () => ok(client, 'send_whatsapp_message', { ...args, text: `  ${args.text} ` }))).id, first.id);
      const error = await expectToolError(server.deps, client, 'send_whatsapp_message', { ...args, text: 'Otro texto' }, 'conflict', 'idempotency_key');
      assert.ok(error.hint, 'the conflict says what to do');
      await expectToolError(server.deps, client, 'send_whatsapp_message', { order_id: id, template: 'order_created', idempotency_key: args.idempotency_key }, 'conflict', 'idempotency_key');
      await expectToolError(server.deps, client, 'send_whatsapp_message', { ...args, order_id: await order() }, 'conflict', 'idempotency_key');
      assert.equal((await messagesOf(id)).length, 1);
    });

    test('a token with only orders:read gets 403 insufficient_scope naming whatsapp:write, and nothing is queued', async () => {
      const id = await order();
      await expectInsufficientScope(server, tokens.ordersRead, ['mcp:invoke', 'orders:read'], 'send_whatsapp_message', { order_id: id, text: 'Hola', idempotency_key: key() }, 'whatsapp:write');
    });

    test("another account's order is not_found like an unknown one; a key used by another account is free here", async () => {
      const foreign = await order(otherClient, other.storeId, other.productId);
      await expectForeignLikeUnknown(server.deps, client, 'send_whatsapp_message', (id) => ({ order_id: id, text: 'Hola', idempotency_key: 'foreign-key-0001' }), foreign, 'order_id');
      await send({ order_id: foreign, text: 'Hola', idempotency_key: 'shared-key-0001' }, otherClient);
      const mine = await send({ order_id: await order(), text: 'Hola', idempotency_key: 'shared-key-0001' });
      assert.equal(mine.replayed, false);
    });
  });

  describe('list_whatsapp_messages', () => {
    let inB: string[] = [];
    let inA: string;
    let cancelled: string;
    before(async () => {
      const b1 = await order(client, storeB, productB);
      const b2 = await order(client, storeB, productB);
      inB = [];
      for (const [o, text] of [[b1, 'uno {nombre}'], [b1, 'dos'], [b2, 'tres'], [b2, 'cuatro']] as const) inB.push((await send({ order_id: o, text })).id);
      inA = (await send({ order_id: await order(), text: 'en A' })).id;
      cancelled = inB[1]!;
      await ok(client, 'cancel_whatsapp_message', { message_id: cancelled });
      await send({ order_id: await order(otherClient, other.storeId, other.productId), text: 'de otra cuenta' }, otherClient);
    });

    test("filters by store, order and status, newest first, and never shows another account's messages", async () => {
      const byStore = await unchanged(server.deps, () => ok(client, 'list_whatsapp_messages', { store_id: storeB }));
      assert.deepEqual(ids(byStore), [...inB].reverse());
      assert.equal(byStore.has_more, false);
      assert.equal(byStore.items[0].text, 'cuatro');
      const b1 = byStore.items.find((m: { id: string }) => m.id === inB[0])!;
      assert.equal(b1.text, 'uno Ana');
      const byOrder = await ok(client, 'list_whatsapp_messages', { order_id: b1.order_id });
      assert.deepEqual(ids(byOrder), [inB[1], inB[0]]);
      assert.deepEqual(ids(await ok(client, 'list_whatsapp_messages', { store_id: storeB, status: 'cancelled' })), [cancelled]);
      assert.deepEqual(ids(await ok(client, 'list_whatsapp_messages', { store_id: storeB, status: 'queued' })), [inB[3], inB[2], inB[0]]);
      assert.deepEqual(ids(await ok(client, 'list_whatsapp_messages', { store_id: storeB, status: 'sent' })), []);
      const all = await ok(client, 'list_whatsapp_messages', { limit: 100 });
      for (const id of [...inB, inA]) assert.ok(ids(all).includes(id));
      assert.ok(all.items.every((m: { store_id: string }) => m.store_id === shop.storeId || m.store_id === storeB), 'only this account');
    });

    test('pages with limit and next_cursor until has_more is false; a bad cursor is invalid_cursor, a bad status invalid_input', async () => {
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 10; page++) {
        const value = await ok(client, 'list_whatsapp_messages', { store_id: storeB, limit: 1, ...(cursor ? { cursor } : {}) });
        assert.equal(value.items.length, 1);
        seen.push(...ids(value));
        if (!value.has_more) {
          assert.equal(value.next_cursor, undefined);
          break;
        }
        cursor = value.next_cursor;
      }
      assert.deepEqual(seen, [...inB].reverse());
      const two = await ok(client, 'list_whatsapp_messages', { store_id: storeB, limit: 3 });
      assert.equal(two.has_more, true);
      assert.deepEqual(ids(await ok(client, 'list_whatsapp_messages', { store_id: storeB, cursor: two.next_cursor })), [inB[0]]);
      await expectToolError(server.deps, client, 'list_whatsapp_messages', { store_id: storeB, cursor: 'not a cursor!' }, 'invalid_cursor', 'cursor');
      await expectToolError(server.deps, client, 'list_whatsapp_messages', { cursor: Buffer.from('["x"]').toString('base64url') }, 'invalid_cursor', 'cursor');
      await expectToolError(server.deps, client, 'list_whatsapp_messages', { status: 'lost' }, 'invalid_input', 'status');
      await expectToolError(server.deps, client, 'list_whatsapp_messages', { store_id: 'b' }, 'invalid_input', 'store_id');
    });

    test('ids are case-insensitive: an upper-case store_id or order_id filters like the lower-case one (as list_orders does)', async () => {
      const byStore = await ok(client, 'list_whatsapp_messages', { store_id: storeB });
      assert.deepEqual(ids(await ok(client, 'list_whatsapp_messages', { store_id: storeB.toUpperCase() })), ids(byStore));
      const orderId = byStore.items[0].order_id as string;
      assert.deepEqual(ids(await ok(client, 'list_whatsapp_messages', { order_id: orderId.toUpperCase() })), ids(await ok(client, 'list_whatsapp_messages', { order_id: orderId })));
    });

    test('a token with only whatsapp:write gets 403 insufficient_scope naming orders:read', async () => {
      await expectInsufficientScope(server, tokens.whatsappWrite, ['mcp:invoke', 'whatsapp:write'], 'list_whatsapp_messages', { store_id: storeB }, 'orders:read');
    });

    test("another account's store or order is not_found like an unknown one", async () => {
      const foreignOrder = await order(otherClient, other.storeId, other.productId);
      await expectForeignLikeUnknown(server.deps, client, 'list_whatsapp_messages', (id) => ({ store_id: id }), other.storeId, 'store_id');
      await expectForeignLikeUnknown(server.deps, client, 'list_whatsapp_messages', (id) => ({ order_id: id }), foreignOrder, 'order_id');
    });
  });

  describe('cancel_whatsapp_message', () => {
    test('a queued message is cancelled with a whatsapp.cancelled event; cancelling again gives the same answer and changes nothing', async () => {
      const id = await order();
      const message = await send({ order_id: id, text: 'Hola {nombre}' });
      const value = await ok(client, 'cancel_whatsapp_message', { message_id: message.id });
      assert.equal(value.id, message.id);
      assert.equal(value.status, 'cancelled');
      assert.equal((await messageRow(message.id)).status, 'cancelled');
      const events = (await eventsOf(server.deps, id)).filter((e) => e.type === 'whatsapp.cancelled');
      assert.equal(events.length, 1);
      assert.match(events[0]!.actor, /^key:/);
      assert.deepEqual(JSON.parse(events[0]!.data), { message_id: message.id });
      assert.deepEqual(await unchanged(server.deps, () => ok(client, 'cancel_whatsapp_message', { message_id: message.id })), value);
    });

    test('ids are case-insensitive: an upper-case message id cancels the same message', async () => {
      const message = await send({ order_id: await order(), text: 'Hola' });
      const value = await ok(client, 'cancel_whatsapp_message', { message_id: message.id.toUpperCase() });
      assert.equal(value.id, message.id);
      assert.equal(value.status, 'cancelled');
    });

    test('a message already sent (or being sent) cannot be recalled: invalid_state on message_id, and nothing changes', async () => {
      const sent = await send({ order_id: await order(), text: 'Hola' });
      await sql`UPDATE whatsapp_messages SET status = 'sent', wa_message_id = 'wamid.TEST1', sent_at = updated_at WHERE id = ${sent.id}`.execute(server.deps.db);
      const error = await expectToolError(server.deps, client, 'cancel_whatsapp_message', { message_id: sent.id }, 'invalid_state', 'message_id');
      assert.match(error.message, /no longer queued/);
      assert.ok(error.hint, 'the error says where to look');
      const sending = await send({ order_id: await order(), text: 'Hola' });
      await sql`UPDATE whatsapp_messages SET status = 'sending' WHERE id = ${sending.id}`.execute(server.deps.db);
      await expectToolError(server.deps, client, 'cancel_whatsapp_message', { message_id: sending.id }, 'invalid_state', 'message_id');
      await expectToolError(server.deps, client, 'cancel_whatsapp_message', { message_id: 'x' }, 'invalid_input', 'message_id');
      await expectToolError(server.deps, client, 'cancel_whatsapp_message', {}, 'invalid_input', 'message_id');
    });

    test("a token with only orders:read gets 403; another account's message is not_found like an unknown one", async () => {
      const mine = await send({ order_id: await order(), text: 'Hola' });
      await expectInsufficientScope(server, tokens.ordersRead, ['mcp:invoke', 'orders:read'], 'cancel_whatsapp_message', { message_id: mine.id }, 'whatsapp:write');
      const foreign = await send({ order_id: await order(otherClient, other.storeId, other.productId), text: 'Hola' }, otherClient);
      await expectForeignLikeUnknown(server.deps, client, 'cancel_whatsapp_message', (id) => ({ message_id: id }), foreign.id, 'message_id');
      assert.equal((await messageRow(foreign.id)).status, 'queued');
      assert.equal((await messageRow(mine.id)).status, 'queued');
    });
  });

  describe('automatic messages', () => {
    const automatic = async (orderId: string) => (await messagesOf(orderId)).filter((m) => m.event !== null);
    /** A store of the account of its own, selling a Faja at 100000 from shop.example.com, with these WhatsApp settings: no other test's orders see them. */
    const storeWith = async (settings: Record<string, unknown>) => {
      const storeId = (await addStore(server.deps, shop.accountId, { name: 'Tienda automática', country: 'CO', domains: ['shop.example.com'] })).id;
      const productId = (await addProduct(server.deps, { store_id: storeId, name: 'Faja', packs: [{ quantity: 1, price: 100000 }] })).id;
      await ok(client, 'update_whatsapp_settings', { store_id: storeId, ...settings });
      return { storeId, productId };
    };
    const BOTH_ON = { enabled: true, phone_number_id: PHONE_NUMBER_ID, events: { order_created: true, order_confirmed: true } };

    test('an enabled store queues order_created on creation and order_confirmed on confirmation, each once per order', async () => {
      const { storeId, productId } = await storeWith(BOTH_ON);
      const id = await order(client, storeId, productId);
      const [created, ...rest] = await automatic(id);
      assert.equal(rest.length, 0);
      assert.equal(created!.type, 'template');
      assert.equal(created!.template, 'order_created');
      assert.equal(created!.event, 'order_created');
      assert.equal(created!.status, 'queued');
      assert.equal(created!.actor, 'system');
      assert.equal(created!.body, 'Hola Ana, recibimos tu pedido de Faja por $\u00a0100.000. Lo enviamos a Medellín y pagas al recibirlo.');
      assert.deepEqual(JSON.parse(created!.parameters), ['Ana', 'Faja', '$\u00a0100.000', 'Medellín']);

      await ok(client, 'update_order_status', { order_id: id, status: 'confirmed' });
      assert.deepEqual((await automatic(id)).map((m) => m.event), ['order_created', 'order_confirmed']);
      // Back to pending and confirmed again: the event repeats, the message does not.
      await ok(client, 'update_order_status', { order_id: id, status: 'pending' });
      await ok(client, 'update_order_status', { order_id: id, status: 'confirmed' });
      assert.deepEqual((await automatic(id)).map((m) => m.event), ['order_created', 'order_confirmed']);
      const queued = (await eventsOf(server.deps, id)).filter((e) => e.type === 'whatsapp.queued');
      assert.deepEqual(queued.map((e) => JSON.parse(e.data).event).sort(), ['order_confirmed', 'order_created']);
      const listed = await ok(client, 'list_whatsapp_messages', { order_id: id });
      assert.deepEqual(listed.items.map((m: { event: string }) => m.event), ['order_confirmed', 'order_created']);
    });

    test('an event switched off queues nothing, and a store with WhatsApp disabled queues nothing at all', async () => {
      const on = await storeWith(BOTH_ON);
      await ok(client, 'update_whatsapp_settings', { store_id: on.storeId, events: { order_confirmed: false } });
      const id = await order(client, on.storeId, on.productId);
      await ok(client, 'update_order_status', { order_id: id, status: 'confirmed' });
      assert.deepEqual((await automatic(id)).map((m) => m.event), ['order_created']);
      // A disabled store's settings may even switch events on.
      const off = await storeWith({ enabled: false, events: { order_created: true, order_confirmed: true } });
      const disabled = await order(client, off.storeId, off.productId);
      await ok(client, 'update_order_status', { order_id: disabled, status: 'confirmed' });
      assert.equal((await messagesOf(disabled)).length, 0);
    });

    test('a sandbox order (test key) of an enabled store queues nothing, on creation or confirmation', async () => {
      const store = await storeWith(BOTH_ON);
      const testKey = (await addKey(server.deps, { store_id: store.storeId, type: 'publishable', env: 'test' })).key;
      const res = await postOrder(server.url, orderBody(store, { telefono: nextPhone() }), { 'x-svc-api-key': testKey, origin: SHOP_ORIGIN });
      const created = await expectCreated(res);
      assert.equal(created.data.sandbox, true);
      await ok(client, 'update_order_status', { order_id: created.data.id, status: 'confirmed' });
      assert.equal((await messagesOf(created.data.id)).length, 0);
      assert.equal((await eventsOf(server.deps, created.data.id)).filter((e) => e.type.startsWith('whatsapp.')).length, 0);
      // A live order of the same store at the same moment does message its buyer.
      const live = await order(client, store.storeId, store.productId);
      assert.equal((await automatic(live)).length, 1);
    });
  });

  test('an unknown message id is not_found on message_id', async () => {
    await expectToolError(server.deps, client, 'cancel_whatsapp_message', { message_id: UNKNOWN_ID }, 'not_found', 'message_id');
  });
});
