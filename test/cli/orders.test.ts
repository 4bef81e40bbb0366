// codrail orders list|show|search (SPEC 9) over orders created in-process through the real
// createOrder use-case on the same database file.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { tempDbFile } from '../helpers/server.ts';
import { seedShop, orderBody, type Shop } from '../helpers/fixtures.ts';
import { cliFails, cliJson, withApp } from '../helpers/cli-expect.ts';
import { createOrder } from '../../src/use-cases/orders/create-order.use-case.ts';
import { manualClock } from '../../src/clock.ts';

const tmp = tempDbFile();
after(() => tmp.cleanup());

/** Order ids by name; numbers are per store from 1001. */
const ids: Record<'live' | 'sandbox' | 'review' | 'other', string> = { live: '', sandbox: '', review: '', other: '' };
let shop: Shop;
let otherShop: Shop;

before(async () => {
  // A clock that moves a second between orders keeps "newest first" unambiguous.
  const clock = manualClock(Date.now() - 60_000);
  await withApp(
    tmp.file,
    async (app) => {
      shop = await seedShop(app);
      otherShop = await seedShop(app);
      const place = async (s: Shop, key: string, origin: string, over: Record<string, unknown>) => {
        clock.advance(1000);
        const { body } = await createOrder(app, { body: orderBody(s, over), apiKey: key, origin, ip: '203.0.113.7' }, {});
        return body.data;
      };
      const live = await place(shop, shop.liveKey, 'https://shop.example.com', {});
      const sandbox = await place(shop, shop.testKey, 'http://localhost:5173', { nombre: 'Beatriz_Ruiz', telefono: '3109876543', departamento: 'Valle del Cauca', ciudad: 'Palmira' });
      const review = await place(shop, shop.liveKey, 'https://www.brand.example', { nombre: 'Carlos Pérez', telefono: '3157654321', departamento: 'Atlantis', ciudad: 'Gotham', pack: '2x', unit_price: 180000, total_price: 180000 });
      const other = await place(otherShop, otherShop.liveKey, 'https://shop.example.com', { nombre: 'Diana López', telefono: '3201112233' });
      assert.deepEqual([live.order_number, sandbox.order_number, review.order_number, other.order_number], [1001, 1002, 1003, 1001]);
      assert.deepEqual([live.sandbox, sandbox.sandbox, review.needs_review], [false, true, true]);
      Object.assign(ids, { live: live.id, sandbox: sandbox.id, review: review.id, other: other.id });
    },
    { clock },
  );
});

test('orders list prints every order as a JSON array, newest first, with money in major units', async () => {
  const { json } = await cliJson(tmp.file, ['orders', 'list']);
  assert.deepEqual(
    json.map((o: { id: string }) => o.id),
    [ids.other, ids.review, ids.sandbox, ids.live],
  );
  const live = json[3];
  assert.equal(live.order_number, 1001);
  assert.equal(live.store_id, shop.storeId);
  assert.equal(live.status, 'pending');
  assert.equal(live.total_price, 100000);
  assert.equal(live.unit_price, 100000);
  assert.equal(live.currency, 'COP');
  assert.equal(live.sandbox, false);
  assert.equal(live.needs_review, false);
  assert.equal(live.telefono_e164, '+573001234567');
  assert.equal(live.total_price_minor, undefined);
});

test('orders list --sandbox prints only the orders made with a test key', async () => {
  const { json } = await cliJson(tmp.file, ['orders', 'list', '--sandbox']);
  assert.deepEqual(
    json.map((o: { id: string; sandbox: boolean }) => [o.id, o.sandbox]),
    [[ids.sandbox, true]],
  );
});

test('orders list --status filters by status', async () => {
  const pending = (await cliJson(tmp.file, ['orders', 'list', '--status', 'pending', '--store', shop.storeId])).json;
  assert.deepEqual(pending.map((o: { id: string }) => o.id), [ids.review, ids.sandbox, ids.live]);
  const cancelled = (await cliJson(tmp.file, ['orders', 'list', '--status', 'cancelled'])).json;
  assert.deepEqual(cancelled, []);
});

test('orders list --limit 1 prints only the newest order', async () => {
  const { json } = await cliJson(tmp.file, ['orders', 'list', '--limit', '1']);
  assert.deepEqual(json.map((o: { id: string }) => o.id), [ids.other]);
});

test('orders list --review prints only the orders whose city needs review', async () => {
  const { json } = await cliJson(tmp.file, ['orders', 'list', '--review']);
  assert.deepEqual(json.map((o: { id: string }) => o.id), [ids.review]);
});

test('orders list with an unknown status or a limit that is not a number is a usage error with exit 2', async () => {
  await cliFails(tmp.file, ['orders', 'list', '--status', 'lost'], 2);
  await cliFails(tmp.file, ['orders', 'list', '--limit', 'ten'], 2);
});

test('orders show by number with --store prints the order, its creation event and its queued fulfillment job', async () => {
  const { json } = await cliJson(tmp.file, ['orders', 'show', '1001', '--store', shop.storeId]);
  assert.equal(json.id, ids.live);
  assert.equal(json.order_number, 1001);
  assert.equal(json.ciudad, 'Medellín');
  assert.equal(json.city_match, 'exact');
  assert.equal(json.events.length, 1);
  assert.equal(json.events[0].type, 'order.created');
  assert.equal(json.events[0].actor, `key:${shop.liveKeyId}`);
  assert.equal(json.events[0].data.sandbox, false);
  assert.deepEqual(json.fulfillment, { state: 'queued', attempts: 0, next_attempt_at: json.fulfillment.next_attempt_at, last_error: null, remote_id: null, cancel: null });
});

test('orders show of a number that two stores share, without --store, fails with exit 2 saying how to name the one meant', async () => {
  const r = await cliFails(tmp.file, ['orders', 'show', '1001'], 2);
  assert.match(r.stderr, /1001 is an order number of 2 stores: give the order id/);
});

test('orders show by id prints a flagged order with the buyer text, its event and a held fulfillment job', async () => {
  const { json } = await cliJson(tmp.file, ['orders', 'show', ids.review.toUpperCase()]);
  assert.equal(json.id, ids.review);
  assert.equal(json.needs_review, true);
  assert.equal(json.departamento, 'Atlantis');
  assert.equal(json.ciudad_input, 'Gotham');
  assert.equal(json.total_price, 180000);
  assert.deepEqual(json.events.map((e: { type: string }) => e.type), ['order.created']);
  assert.equal(json.fulfillment.state, 'held');
});

test('orders show of a sandbox order shows no fulfillment job', async () => {
  const { json } = await cliJson(tmp.file, ['orders', 'show', ids.sandbox]);
  assert.equal(json.sandbox, true);
  assert.equal(json.fulfillment, null);
  assert.equal(json.events[0].data.sandbox, true);
});

test('orders show of an unknown order fails with exit 1 and of a malformed id with exit 2', async () => {
  const missing = await cliFails(tmp.file, ['orders', 'show', '9999'], 1);
  assert.match(missing.stderr, /not found/);
  await cliFails(tmp.file, ['orders', 'show', 'order-one'], 2);
});

test('orders search finds orders by buyer name in any case, underscores included, and by phone', async () => {
  const byName = (await cliJson(tmp.file, ['orders', 'search', 'beatriz_ruiz'])).json;
  assert.deepEqual(byName.map((o: { id: string }) => o.id), [ids.sandbox]);
  const byPhone = (await cliJson(tmp.file, ['orders', 'search', '315 765 4321'])).json;
  assert.deepEqual(byPhone.map((o: { id: string }) => o.id), [ids.review]);
});
