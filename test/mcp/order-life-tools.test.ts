// The order's life after checkout through the SDK client (MCP-TOOLS.md §6.7 rows 38, 39, 41, 42;
// issue 12): status changes through the state machine, the store's push policy (on_confirm holds
// the push until confirmation), buyer corrections until the push, notes and the paged timeline, each
// change an event with its actor; and the same commands from the CLI.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { sql } from 'kysely';
import { seedShop, type Shop } from '../helpers/fixtures.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { cliFails, cliJson } from '../helpers/cli-expect.ts';
import { OPEN_LIMITS, eventsOf, jobsOf, nextPhone, orderRow, storesNothing } from '../api/orders/order-kit.ts';
import { buyer, call, connect } from './mcp-kit.ts';

describe('order life tools', () => {
  let server: TestServer;
  let shop: Shop;
  let other: Shop;
  let client: Client;
  let keySeq = 0;
  before(async () => {
    server = await startServer(OPEN_LIMITS);
    shop = await seedShop(server.deps);
    other = await seedShop(server.deps);
    client = await connect(server.url, shop.secretKey);
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  const create = async (s: Shop = shop, buyerOver: Record<string, unknown> = {}) => {
    const c = s === shop ? client : await connect(server.url, s.secretKey);
    const { value } = await call(c, 'create_order', { store_id: s.storeId, product_id: s.productId, buyer: buyer({ telefono: nextPhone(), ...buyerOver }), idempotency_key: `life-${++keySeq}` });
    if (c !== client) await c.close();
    return value.id as string;
  };
  const jobState = async (orderId: string) => (await jobsOf(server.deps, orderId))[0]?.state;
  const setPolicy = (policy: string) => call(client, 'update_store', { store_id: shop.storeId, push_policy: policy });

  describe('update_order_status', () => {
    test('confirming a pending order stores the status and an order.status_changed event with the key as actor and the note', async () => {
      const id = await create();
      const { isError, value } = await call(client, 'update_order_status', { order_id: id, status: 'confirmed', note: 'Llamada: confirma' });
      assert.equal(isError, false, JSON.stringify(value));
      assert.equal(value.status, 'confirmed');
      assert.equal((await orderRow(server.deps, id)).status, 'confirmed');
      const changed = (await eventsOf(server.deps, id)).find((e) => e.type === 'order.status_changed')!;
      assert.match(changed.actor, /^key:/);
      assert.deepEqual(JSON.parse(changed.data), { from: 'pending', to: 'confirmed', note: 'Llamada: confirma' });
    });

    test('a confirmed order goes back to pending while its push has not started, and not once pushed', async () => {
      const id = await create();
      await call(client, 'update_order_status', { order_id: id, status: 'confirmed' });
      assert.equal((await call(client, 'update_order_status', { order_id: id, status: 'pending' })).value.status, 'pending');
      await call(client, 'update_order_status', { order_id: id, status: 'confirmed' });
      await sql`UPDATE fulfillment_jobs SET state = 'done', remote_id = 'P-1' WHERE order_id = ${id}`.execute(server.deps.db);
      const refused = await storesNothing(server.deps, () => call(client, 'update_order_status', { order_id: id, status: 'pending' }));
      assert.equal(refused.value.error.code, 'invalid_state');
    });

    test('a move the state machine forbids is invalid_state, cancelling is refused by name, and nothing changes', async () => {
      const id = await create();
      const jump = await storesNothing(server.deps, () => call(client, 'update_order_status', { order_id: id, status: 'delivered' }));
      assert.equal(jump.value.error.code, 'invalid_state');
      assert.equal(jump.value.error.field, 'status');
      const cancel = await storesNothing(server.deps, () => call(client, 'update_order_status', { order_id: id, status: 'cancelled' }));
      assert.equal(cancel.value.error.code, 'invalid_input');
      assert.match(cancel.value.error.message, /cancel_order/);
    });

    test("another account's order is not_found exactly like an unknown one", async () => {
      const foreign = await create(other);
      const a = await storesNothing(server.deps, () => call(client, 'update_order_status', { order_id: foreign, status: 'confirmed' }));
      const b = await call(client, 'update_order_status', { order_id: '00000000-0000-4000-8000-000000000000', status: 'confirmed' });
      assert.deepEqual(a.value, b.value);
      assert.equal(a.value.error.code, 'not_found');
    });
  });

  describe('the push policy', () => {
    test('on_confirm holds a new order’s push until it is confirmed, back to pending holds it again, on_create releases the held ones', async () => {
      await setPolicy('on_confirm');
      const id = await create();
      assert.equal(await jobState(id), 'held');
      await call(client, 'update_order_status', { order_id: id, status: 'confirmed' });
      assert.equal(await jobState(id), 'queued');
      await call(client, 'update_order_status', { order_id: id, status: 'pending' });
      assert.equal(await jobState(id), 'held');
      const store = await setPolicy('on_create');
      assert.equal(store.value.push_policy, 'on_create');
      assert.equal(await jobState(id), 'queued');
    });

    test('switching to on_confirm holds pending orders not yet pushed and leaves confirmed ones queued', async () => {
      await setPolicy('on_create');
      const pending = await create();
      const confirmed = await create();
      await call(client, 'update_order_status', { order_id: confirmed, status: 'confirmed' });
      await setPolicy('on_confirm');
      assert.equal(await jobState(pending), 'held');
      assert.equal(await jobState(confirmed), 'queued');
      await setPolicy('on_create');
    });

    test('an order whose city awaits review stays held when confirmed on an on_confirm store', async () => {
      await setPolicy('on_confirm');
      const id = await create(shop, { departamento: 'Atlantida', ciudad: 'Zzyzx' });
      assert.equal((await orderRow(server.deps, id)).needs_review, 1);
      await call(client, 'update_order_status', { order_id: id, status: 'confirmed' });
      assert.equal(await jobState(id), 'held');
      await setPolicy('on_create');
    });
  });

  describe('update_order_buyer', () => {
    test('a correction is stored with an order.buyer_updated event listing what changed, and a new city is canonicalized', async () => {
      const id = await create();
      const { isError, value } = await call(client, 'update_order_buyer', { order_id: id, referencia: 'Casa azul, segundo piso', ciudad: 'envigado' });
      assert.equal(isError, false, JSON.stringify(value));
      const row = await orderRow(server.deps, id);
      assert.equal(row.referencia, 'Casa azul, segundo piso');
      assert.equal(row.ciudad, 'Envigado');
      assert.equal(row.ciudad_input, 'envigado');
      const updated = (await eventsOf(server.deps, id)).find((e) => e.type === 'order.buyer_updated')!;
      assert.deepEqual(Object.keys(JSON.parse(updated.data).changes).sort(), ['ciudad', 'referencia']);
    });

    test('a telefono that is not a number of the store’s country is invalid_input on telefono, and nothing changes', async () => {
      const id = await create();
      const r = await storesNothing(server.deps, () => call(client, 'update_order_buyer', { order_id: id, telefono: '123456' }));
      assert.equal(r.value.error.code, 'invalid_input');
      assert.equal(r.value.error.field, 'telefono');
    });

    test('once the order was pushed, a correction is invalid_state and nothing changes', async () => {
      const id = await create();
      await sql`UPDATE fulfillment_jobs SET state = 'done', remote_id = 'P-2' WHERE order_id = ${id}`.execute(server.deps.db);
      const r = await storesNothing(server.deps, () => call(client, 'update_order_buyer', { order_id: id, direccion: 'Otra dirección 123' }));
      assert.equal(r.value.error.code, 'invalid_state');
    });
  });

  describe('notes and the timeline', () => {
    test('add_order_note appends an order.note event and list_order_events pages the timeline oldest first', async () => {
      const id = await create();
      for (const text of ['uno', 'dos', 'tres']) assert.equal((await call(client, 'add_order_note', { order_id: id, text })).isError, false);
      const first = await call(client, 'list_order_events', { order_id: id, limit: 2 });
      assert.equal(first.value.items[0].type, 'order.created');
      assert.equal(first.value.has_more, true);
      const second = await call(client, 'list_order_events', { order_id: id, limit: 2, cursor: first.value.next_cursor });
      assert.deepEqual(second.value.items.map((e: { data: { text: string } }) => e.data.text), ['dos', 'tres']);
      assert.equal(second.value.has_more, false);
      const empty = await call(client, 'add_order_note', { order_id: id, text: '' });
      assert.equal(empty.value.error.field, 'text');
    });
  });

  describe('from the CLI', () => {
    test('orders set-status, note and events act as the operator with cli as the actor; another account’s order is not found with --account', async () => {
      const id = await create();
      const { json } = await cliJson(server.dbFile, ['orders', 'set-status', id, '--status', 'confirmed', '--note', 'por teléfono']);
      assert.equal(json.status, 'confirmed');
      await cliJson(server.dbFile, ['orders', 'note', id, '--text', 'entregar tarde']);
      const events = (await cliJson(server.dbFile, ['orders', 'events', id])).json as { type: string; actor: string }[];
      assert.deepEqual(events.slice(-2).map((e) => [e.type, e.actor]), [['order.status_changed', 'cli'], ['order.note', 'cli']]);
      const r = await cliFails(server.dbFile, ['orders', 'note', id, '--text', 'x', '--account', other.accountId], 1);
      assert.match(r.stderr, /Order not found/);
    });
  });
});
