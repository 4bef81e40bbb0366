// codrail orders list --review and orders resolve-city (SPEC 6, 9) over orders created in-process
// through the real createOrder use-case for a Colombian shop. The in_flight and done job states
// belong to the fulfillment worker, so they are set with a direct SQL update on the file.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openSync } from '../helpers/sync-database.ts';
import { tempDbFile } from '../helpers/server.ts';
import { seedShop, orderBody, type Shop } from '../helpers/fixtures.ts';
import { cliFails, cliJson, readDb, withApp } from '../helpers/cli-expect.ts';
import { createOrder } from '../../src/use-cases/orders/create-order.use-case.ts';
import { manualClock } from '../../src/clock.ts';

const tmp = tempDbFile();
after(() => tmp.cleanup());

const clock = manualClock(Date.now() - 600_000);
let shop: Shop;
const ids = { matched: '', review: '', byNumber: '', sandbox: '' };
let byNumberOrderNumber = 0;

/** Places one order through the real use-case; a clock a second apart keeps "newest first" clear. */
async function place(key: 'liveKey' | 'testKey', over: Record<string, unknown>) {
  return withApp(
    tmp.file,
    async (app) => {
      clock.advance(1000);
      const { body } = await createOrder(app, { body: orderBody(shop, over), apiKey: shop[key], origin: 'https://shop.example.com', ip: '203.0.113.7' }, {});
      return body.data as { id: string; order_number: number; needs_review: boolean; sandbox: boolean };
    },
    { clock },
  );
}

const unmatchable = (nombre: string, telefono: string) => ({ nombre, telefono, departamento: 'Atlantis', ciudad: 'Gotham' });

/** What resolve-city may change: the order's row, its events and its fulfillment job. */
function orderState(id: string) {
  return readDb(tmp.file, (db) => ({
    order: db.prepare('SELECT * FROM orders WHERE id = ?').get(id),
    events: db.prepare('SELECT * FROM order_events WHERE order_id = ? ORDER BY created_at, id').all(id),
    job: db.prepare('SELECT * FROM fulfillment_jobs WHERE order_id = ?').get(id),
  }));
}

const orderRow = (id: string) =>
  readDb(
    tmp.file,
    (db) =>
      db.prepare('SELECT departamento, ciudad, departamento_input, ciudad_input, city_code, city_match, needs_review FROM orders WHERE id = ?').get(id) as Record<string, unknown>,
  );

const jobState = (id: string) => readDb(tmp.file, (db) => (db.prepare('SELECT state FROM fulfillment_jobs WHERE order_id = ?').get(id) as { state: string } | undefined)?.state);

function setJobState(orderId: string, state: 'in_flight' | 'done') {
  const db = openSync(tmp.file);
  try {
    assert.equal(db.prepare('UPDATE fulfillment_jobs SET state = ? WHERE order_id = ?').run(state, orderId).changes, 1);
  } finally {
    db.close();
  }
}

before(async () => {
  shop = await withApp(tmp.file, (app) => seedShop(app), { clock });
  const matched = await place('liveKey', {});
  const review = await place('liveKey', { ...unmatchable('Carlos Pérez', '3157654321'), pack: '2x', unit_price: 180000, total_price: 180000 });
  const byNumber = await place('liveKey', unmatchable('Elena Ríos', '3169998877'));
  const sandbox = await place('testKey', unmatchable('Beatriz Ruiz', '3109876543'));
  Object.assign(ids, { matched: matched.id, review: review.id, byNumber: byNumber.id, sandbox: sandbox.id });
  byNumberOrderNumber = byNumber.order_number;
});

test('order creation matches a known city and queues its job, and flags an unknown one for review with a held job', () => {
  assert.deepEqual(orderRow(ids.matched), {
    departamento: 'Antioquia',
    ciudad: 'Medellín',
    departamento_input: 'Antioquia',
    ciudad_input: 'Medellín',
    city_code: '05001',
    city_match: 'exact',
    needs_review: 0,
  });
  assert.equal(jobState(ids.matched), 'queued');
  const review = orderRow(ids.review);
  assert.equal(review.needs_review, 1);
  assert.equal(review.city_match, 'none');
  assert.equal(review.city_code, null);
  assert.equal(review.ciudad_input, 'Gotham');
  assert.equal(jobState(ids.review), 'held');
  assert.equal(jobState(ids.byNumber), 'held');
  assert.equal(orderRow(ids.sandbox).needs_review, 1);
  assert.equal(jobState(ids.sandbox), undefined, 'a sandbox order has no fulfillment job');
});

test('orders list --review lists only the orders whose city needs review, newest first', async () => {
  const { json } = await cliJson(tmp.file, ['orders', 'list', '--review']);
  assert.deepEqual(
    json.map((o: { id: string }) => o.id),
    [ids.sandbox, ids.byNumber, ids.review],
  );
  assert.ok(json.every((o: { needs_review: boolean }) => o.needs_review === true));
});

test('orders resolve-city with a city that is not in the region fails with exit 2, suggests the close one and changes nothing', async () => {
  const before = orderState(ids.review);
  const typo = await cliFails(tmp.file, ['orders', 'resolve-city', ids.review, '--region', 'Antioquia', '--city', 'Medelin'], 2);
  assert.match(typo.stderr, /No city "Medelin" in region "Antioquia"/);
  assert.match(typo.stderr, /did you mean "Medellín" in "Antioquia"/);
  const wrongRegion = await cliFails(tmp.file, ['orders', 'resolve-city', ids.review, '--region', 'Quindío', '--city', 'Medellín'], 2);
  assert.match(wrongRegion.stderr, /No city "Medellín" in region "Quindío"/);
  await cliFails(tmp.file, ['orders', 'resolve-city', ids.review, '--region', 'Atlantis', '--city', 'Gotham'], 2);
  assert.deepEqual(orderState(ids.review), before);
});

test('orders resolve-city of an ambiguous name suggests both candidates', async () => {
  const before = orderState(ids.review);
  const r = await cliFails(tmp.file, ['orders', 'resolve-city', ids.review, '--region', 'Caldas', '--city', 'Armenia'], 2);
  assert.match(r.stderr, /"Armenia" in "Antioquia"/);
  assert.match(r.stderr, /"Armenia" in "Quindío"/);
  assert.deepEqual(orderState(ids.review), before);
});

test('orders resolve-city sets the catalog spelling and code, keeps the buyer text, records the event and queues the held job', async () => {
  const before = orderState(ids.review);
  const { json } = await cliJson(tmp.file, ['orders', 'resolve-city', ids.review, '--region', 'antioquia', '--city', 'medellin']);
  assert.equal(json.id, ids.review);
  assert.equal(json.departamento, 'Antioquia');
  assert.equal(json.ciudad, 'Medellín');
  assert.equal(json.needs_review, false);
  assert.equal(json.fulfillment.state, 'queued');
  assert.deepEqual(
    json.events.map((e: { type: string }) => e.type),
    ['order.created', 'order.city_resolved'],
  );

  assert.deepEqual(orderRow(ids.review), {
    departamento: 'Antioquia',
    ciudad: 'Medellín',
    departamento_input: 'Atlantis',
    ciudad_input: 'Gotham',
    city_code: '05001',
    city_match: 'manual',
    needs_review: 0,
  });
  const after = orderState(ids.review);
  const job = after.job as { state: string; next_attempt_at: string; updated_at: string };
  assert.equal(job.state, 'queued');
  assert.equal(job.next_attempt_at, job.updated_at);
  assert.ok(job.updated_at > (before.job as { updated_at: string }).updated_at, 'the job is due from the moment it is released');

  assert.equal(after.events.length, before.events.length + 1);
  const event = after.events.find((e) => (e as { type: string }).type === 'order.city_resolved') as Record<string, string>;
  assert.equal(event.actor, 'cli');
  assert.equal(event.store_id, shop.storeId);
  assert.deepEqual(JSON.parse(event.data!), {
    from: { departamento: 'Atlantis', ciudad: 'Gotham', city_code: null, city_match: 'none' },
    to: { departamento: 'Antioquia', ciudad: 'Medellín', city_code: '05001' },
    input: { departamento: 'Atlantis', ciudad: 'Gotham' },
    released: true,
  });
});

test('orders resolve-city by order number resolves that order and releases its job', async () => {
  const { json } = await cliJson(tmp.file, ['orders', 'resolve-city', String(byNumberOrderNumber), '--region', 'VALLE DEL CAUCA', '--city', 'Palmira']);
  assert.equal(json.id, ids.byNumber);
  assert.deepEqual(orderRow(ids.byNumber), {
    departamento: 'Valle del Cauca',
    ciudad: 'Palmira',
    departamento_input: 'Atlantis',
    ciudad_input: 'Gotham',
    city_code: '76520',
    city_match: 'manual',
    needs_review: 0,
  });
  assert.equal(jobState(ids.byNumber), 'queued');
});

test('orders resolve-city of a sandbox order works without a fulfillment job and records that nothing was released', async () => {
  const { json } = await cliJson(tmp.file, ['orders', 'resolve-city', ids.sandbox, '--region', 'Quindío', '--city', 'Armenia']);
  assert.equal(json.fulfillment, null);
  assert.equal(json.needs_review, false);
  assert.deepEqual(orderRow(ids.sandbox), {
    departamento: 'Quindío',
    ciudad: 'Armenia',
    departamento_input: 'Atlantis',
    ciudad_input: 'Gotham',
    city_code: '63001',
    city_match: 'manual',
    needs_review: 0,
  });
  const event = orderState(ids.sandbox).events.find((e) => (e as { type: string }).type === 'order.city_resolved') as { data: string };
  assert.equal(JSON.parse(event.data).released, false);
  assert.equal(jobState(ids.sandbox), undefined);
});

test('orders list --review is empty once every flagged order is resolved', async () => {
  // A database of its own, so that every flagged order is the one this test places and resolves.
  const own = tempDbFile();
  try {
    const flagged = await withApp(own.file, async (app) => {
      const s = await seedShop(app);
      const { body } = await createOrder(app, { body: orderBody(s, unmatchable('Diana Mora', '3112223344')), apiKey: s.liveKey, origin: 'https://shop.example.com', ip: '203.0.113.8' }, {});
      return body.data as { id: string; needs_review: boolean };
    });
    assert.equal(flagged.needs_review, true);
    assert.deepEqual((await cliJson(own.file, ['orders', 'list', '--review'])).json.map((o: { id: string }) => o.id), [flagged.id]);
    await cliJson(own.file, ['orders', 'resolve-city', flagged.id, '--region', 'Antioquia', '--city', 'Medellín']);
    const { json } = await cliJson(own.file, ['orders', 'list', '--review']);
    assert.deepEqual(json, []);
  } finally {
    own.cleanup();
  }
});

test('orders resolve-city of an order whose job is in flight or done fails with exit 1 and changes nothing', async () => {
  for (const state of ['in_flight', 'done'] as const) {
    const order = await place('liveKey', unmatchable(`Pushed ${state}`, state === 'done' ? '3001110000' : '3002220000'));
    assert.equal(order.needs_review, true);
    setJobState(order.id, state);
    const before = orderState(order.id);
    const r = await cliFails(tmp.file, ['orders', 'resolve-city', order.id, '--region', 'Antioquia', '--city', 'Medellín'], 1);
    assert.match(r.stderr, /already sent to the fulfillment platform/);
    assert.deepEqual(orderState(order.id), before, state);
  }
});

test('orders resolve-city of an unknown order fails with exit 1, and of a malformed id with exit 2', async () => {
  const number = await cliFails(tmp.file, ['orders', 'resolve-city', '9999', '--region', 'Antioquia', '--city', 'Medellín'], 1);
  assert.match(number.stderr, /not found/);
  await cliFails(tmp.file, ['orders', 'resolve-city', '0190a0b0-0000-7000-8000-000000000000', '--region', 'Antioquia', '--city', 'Medellín'], 1);
  await cliFails(tmp.file, ['orders', 'resolve-city', 'order-one', '--region', 'Antioquia', '--city', 'Medellín'], 2);
});
