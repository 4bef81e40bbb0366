// POST /api/orders/create, SPEC 4.1 step 11: the stored order, its number, first event and outbox job,
// sandbox orders, and city canonicalization (SPEC 6).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { orderBody, postOrder, seedShop, type Shop } from '../../helpers/fixtures.ts';
import { manualClock } from '../../../src/clock.ts';
import { OPEN_LIMITS, SHOP_ORIGIN, counts, eventsOf, expectCreated, expectError, jobsOf, liveHeaders, nextPhone, orderRow, ordersOf } from './order-kit.ts';

const NOW = '2030-03-04T05:06:07.890Z';
const clock = manualClock(NOW);
let server: TestServer;

before(async () => {
  server = await startServer(OPEN_LIMITS, { clock });
});
after(() => server.close());

const live = (shop: Shop, over: Record<string, unknown> = {}) =>
  postOrder(server.url, orderBody(shop, { telefono: nextPhone(), ...over }), liveHeaders(shop));

describe('the created order', () => {
  let shop: Shop;
  before(async () => {
    shop = await seedShop(server.deps);
  });

  test('a live order answers 200 pending with its number and is stored with one event and one queued job', async () => {
    const before = await counts(server.deps);
    const res = await live(shop, {
      nombre: '  María José  ',
      barrio: 'Laureles',
      referencia: 'Portón azul',
      quantity: 2,
      unit_price: 99500.25,
      total_price: 199000.5,
    });
    const created = await expectCreated(res);
    assert.deepEqual(Object.keys(created).sort(), ['data', 'success']);
    assert.equal(created.data.order_number, 1001);
    assert.equal(created.data.created_at, NOW);
    assert.equal(created.data.sandbox, false);
    assert.equal(created.data.needs_review, false);
    assert.equal(created.data.total_price, 199000.5);
    assert.equal(created.data.currency, 'COP');

    const row = await orderRow(server.deps, created.data.id);
    assert.equal(row.store_id, shop.storeId);
    assert.equal(row.product_id, shop.productId);
    assert.equal(row.api_key_id, shop.liveKeyId);
    assert.equal(row.status, 'pending');
    assert.equal(row.order_number, 1001);
    assert.equal(row.nombre, 'María José');
    assert.equal(row.barrio, 'Laureles');
    assert.equal(row.referencia, 'Portón azul');
    assert.equal(row.quantity, 2);
    assert.equal(row.unit_price_minor, 9_950_025);
    assert.equal(row.total_price_minor, 19_900_050);
    assert.equal(row.currency, 'COP');
    assert.equal(row.client_ip, '127.0.0.1');
    assert.equal(row.created_at, NOW);

    const events = await eventsOf(server.deps, row.id);
    assert.equal(events.length, 1);
    assert.equal(events[0]!.type, 'order.created');
    assert.equal(events[0]!.actor, `key:${shop.liveKeyId}`);
    const jobs = await jobsOf(server.deps, row.id);
    assert.equal(jobs.length, 1);
    assert.equal(jobs[0]!.state, 'queued');
    assert.equal(jobs[0]!.attempts, 0);

    const after = await counts(server.deps);
    assert.deepEqual(after, {
      orders: before.orders + 1,
      order_events: before.order_events + 1,
      fulfillment_jobs: before.fulfillment_jobs + 1,
      idempotency_records: before.idempotency_records,
    });
  });

  test('order numbers follow 1001, 1002, 1003 in one store and start again at 1001 in another', async () => {
    const s = await seedShop(server.deps);
    const numbers: number[] = [];
    for (let i = 0; i < 3; i++) numbers.push((await expectCreated(await live(s))).data.order_number);
    assert.deepEqual(numbers, [1001, 1002, 1003]);
    const t = await seedShop(server.deps);
    assert.equal((await expectCreated(await live(t))).data.order_number, 1001);
    assert.equal((await expectCreated(await live(s))).data.order_number, 1004);
  });

  test('refused attempts do not consume order numbers', async () => {
    const s = await seedShop(server.deps);
    assert.equal((await expectCreated(await live(s))).data.order_number, 1001);
    await expectError(await live(s, { unit_price: 1, total_price: 1 }), 400, { fields: ['total_price'] });
    await expectError(await live(s, { website: 'bot' }), 400, { error: 'Order rejected' });
    await expectError(await live(s, { nombre: 'x' }), 400, { fields: ['nombre'] });
    assert.equal((await expectCreated(await live(s))).data.order_number, 1002);
  });

  test('concurrent orders of one store get distinct, gapless numbers', async () => {
    const s = await seedShop(server.deps);
    const answers = await Promise.all(Array.from({ length: 8 }, () => live(s)));
    const numbers = (await Promise.all(answers.map(expectCreated))).map((b) => b.data.order_number).sort((a, b) => a - b);
    assert.deepEqual(numbers, [1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008]);
    assert.deepEqual(
      (await ordersOf(server.deps, s.storeId)).map((o) => o.order_number),
      numbers,
    );
  });

  test('a test-key order is sandbox: true, has its event and no fulfillment job', async () => {
    const res = await postOrder(server.url, orderBody(shop, { telefono: nextPhone() }), { 'x-svc-api-key': shop.testKey, origin: SHOP_ORIGIN });
    const created = await expectCreated(res);
    assert.equal(created.data.sandbox, true);
    const row = await orderRow(server.deps, created.data.id);
    assert.equal(row.sandbox, 1);
    assert.equal(row.status, 'pending');
    assert.equal((await eventsOf(server.deps, row.id)).length, 1);
    assert.deepEqual(await jobsOf(server.deps, row.id), []);
  });

  test('a mode-1 landing order is live with exactly one queued job', async () => {
    const { store_id: _s, product_id: _p, ...rest } = orderBody(shop, { telefono: nextPhone() });
    const created = await expectCreated(await postOrder(server.url, { landing_page_id: shop.landingId, ...rest }));
    assert.equal(created.data.sandbox, false);
    assert.deepEqual((await jobsOf(server.deps, created.data.id)).map((j) => j.state), ['queued']);
  });
});

describe('city canonicalization', () => {
  test('a CO order with "antioquia" / "MEDELLIN" is stored as Antioquia / Medellín with the buyer text kept', async () => {
    const shop = await seedShop(server.deps);
    const created = await expectCreated(await live(shop, { departamento: 'antioquia', ciudad: 'MEDELLIN' }));
    assert.equal(created.data.departamento, 'Antioquia');
    assert.equal(created.data.ciudad, 'Medellín');
    assert.equal(created.data.needs_review, false);
    const row = await orderRow(server.deps, created.data.id);
    assert.equal(row.departamento, 'Antioquia');
    assert.equal(row.ciudad, 'Medellín');
    assert.equal(row.departamento_input, 'antioquia');
    assert.equal(row.ciudad_input, 'MEDELLIN');
    assert.equal(row.city_code, '05001');
    assert.equal(row.needs_review, 0);
    assert.deepEqual((await jobsOf(server.deps, row.id)).map((j) => j.state), ['queued']);
  });

  test('a CO city given with surrounding spaces keeps the trimmed text as input', async () => {
    const shop = await seedShop(server.deps);
    const created = await expectCreated(await live(shop, { departamento: '  Antioquia ', ciudad: ' medellín  ' }));
    const row = await orderRow(server.deps, created.data.id);
    assert.equal(row.ciudad, 'Medellín');
    assert.equal(row.ciudad_input, 'medellín');
    assert.equal(row.departamento_input, 'Antioquia');
  });

  test('a CO order with an unknown city is still created, flagged needs_review, with its job held', async () => {
    const shop = await seedShop(server.deps);
    const created = await expectCreated(await live(shop, { departamento: 'Antioquia', ciudad: 'Ciudad Inventada' }));
    assert.equal(created.data.needs_review, true);
    assert.equal(created.data.ciudad, 'Ciudad Inventada');
    const row = await orderRow(server.deps, created.data.id);
    assert.equal(row.needs_review, 1);
    assert.equal(row.ciudad, 'Ciudad Inventada');
    assert.equal(row.ciudad_input, 'Ciudad Inventada');
    assert.equal(row.city_code, null);
    assert.deepEqual((await jobsOf(server.deps, row.id)).map((j) => j.state), ['held']);
  });

  test('a CO order with an alias, a typo and a wrong region is stored with the catalog entry it names', async () => {
    const shop = await seedShop(server.deps);
    for (const [departamento, ciudad, region, city, method] of [
      ['Valle', 'Cali', 'Valle del Cauca', 'Santiago de Cali', 'alias'],
      ['Meta', 'Vilavisencio', 'Meta', 'Villavicencio', 'fuzzy'],
      ['Cundinamarca', 'Medellin', 'Antioquia', 'Medellín', 'unique_city'],
    ] as const) {
      const created = await expectCreated(await live(shop, { telefono: nextPhone(), departamento, ciudad }));
      assert.equal(`${created.data.ciudad} / ${created.data.departamento}`, `${city} / ${region}`);
      assert.equal(created.data.needs_review, false);
      const row = await orderRow(server.deps, created.data.id);
      assert.equal(row.city_match, method);
      assert.equal(row.ciudad_input, ciudad);
      assert.deepEqual((await jobsOf(server.deps, row.id)).map((j) => j.state), ['queued']);
    }
  });

  test('a CO order whose city is in two regions and no region decides is flagged with the candidates in its event', async () => {
    const shop = await seedShop(server.deps);
    const created = await expectCreated(await live(shop, { telefono: nextPhone(), departamento: 'Colombia', ciudad: 'Armenia' }));
    assert.equal(created.data.needs_review, true);
    assert.equal(created.data.ciudad, 'Armenia');
    const row = await orderRow(server.deps, created.data.id);
    assert.equal(row.city_match, 'none');
    assert.equal(row.city_code, null);
    assert.deepEqual((await jobsOf(server.deps, row.id)).map((j) => j.state), ['held']);
    const [event] = await eventsOf(server.deps, row.id);
    const city = (JSON.parse(event!.data) as { city: { confident: boolean; reason: string; candidates: { region: string; city: string }[] } }).city;
    assert.equal(city.confident, false);
    assert.match(city.reason, /Several regions/);
    assert.deepEqual(city.candidates.map((c) => `${c.city} / ${c.region}`).sort(), ['Armenia / Antioquia', 'Armenia / Quindío']);
  });

  test('a sandbox order with an unknown city is flagged but still gets no job', async () => {
    const shop = await seedShop(server.deps);
    const res = await postOrder(server.url, orderBody(shop, { telefono: nextPhone(), ciudad: 'Ciudad Inventada' }), {
      'x-svc-api-key': shop.testKey,
      origin: SHOP_ORIGIN,
    });
    const created = await expectCreated(res);
    assert.equal(created.data.needs_review, true);
    assert.deepEqual(await jobsOf(server.deps, created.data.id), []);
  });

  test('an AR order keeps the region and city as given (trimmed) and is not flagged', async () => {
    const shop = await seedShop(server.deps, { country: 'AR', currency: 'ARS' });
    const created = await expectCreated(
      await live(shop, { telefono: '11 2345 6789', departamento: '  buenos aires ', ciudad: 'PALERMO chico ' }),
    );
    assert.equal(created.data.departamento, 'buenos aires');
    assert.equal(created.data.ciudad, 'PALERMO chico');
    assert.equal(created.data.needs_review, false);
    assert.equal(created.data.currency, 'ARS');
    const row = await orderRow(server.deps, created.data.id);
    assert.equal(row.departamento, 'buenos aires');
    assert.equal(row.ciudad, 'PALERMO chico');
    assert.equal(row.city_match, 'not_applicable');
    assert.equal(row.city_code, null);
    assert.deepEqual((await jobsOf(server.deps, row.id)).map((j) => j.state), ['queued']);
  });
});
