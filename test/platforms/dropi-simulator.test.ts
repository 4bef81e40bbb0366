import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as v from 'valibot';
import { manualClock } from '../../src/clock.ts';
import { DROPI_KEY_HEADER, DropiCitySchema, DropiDepartmentSchema, DropiEnvelopeSchema, DropiOrderSchema, DropiProductSchema, DropiWebhookSchema, type DropiCreateOrder } from '../../src/platforms/dropi/contract.ts';
import { startDropiSimulator, type DropiSimOptions, type DropiSimulator } from '../../src/platforms/dropi/simulator.ts';
import { until } from '../helpers/wait.ts';

const KEY = 'dropi-test-key-alpha-000000000001';
const OTHER = 'dropi-test-key-beta-000000000002';
const ORDERS = '/integrations/orders/myorders';

/** A create body as Dropi's own plugin sends it; overrides may break it on purpose. */
const orderBody = (ref: string, overrides: Partial<Record<keyof DropiCreateOrder, unknown>> = {}): Record<string, unknown> => ({
  name: 'Ana',
  surname: 'Pérez Gómez',
  phone: '3001234567',
  dir: 'Calle 10 # 20-30, Chapinero',
  state: 'CUNDINAMARCA',
  city: 'Bogota',
  country: 'COLOMBIA',
  notes: null,
  rate_type: 'CON RECAUDO',
  payment_method_id: 1,
  type: 'FINAL_ORDER',
  status: 'PENDIENTE CONFIRMACION',
  total_order: 89900,
  products: [{ id: 21002, price: 89900, quantity: 1 }],
  calculate_costs_and_shiping: true,
  shop_order_id: ref,
  text_to_show_order_rotulo: 'Pedido #1001',
  ...overrides,
});

interface Envelope {
  isSuccess: boolean;
  message: string;
  status: number;
  objects?: any;
  count?: number;
}

async function withSim(options: DropiSimOptions, run: (sim: DropiSimulator) => Promise<void>): Promise<void> {
  const sim = await startDropiSimulator({ tokens: [KEY, OTHER], ...options });
  try {
    await run(sim);
  } finally {
    await sim.close();
  }
}

/** One API call; `key: null` sends no key. The envelope is checked against the contract's. */
async function call(sim: DropiSimulator, method: string, path: string, o: { key?: string | null; body?: unknown; signal?: AbortSignal } = {}): Promise<{ status: number; body: Envelope; headers: Headers }> {
  const key = o.key === undefined ? KEY : o.key;
  const res = await fetch(`${sim.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(key === null ? {} : { [DROPI_KEY_HEADER]: key }) },
    ...(o.body === undefined ? {} : { body: JSON.stringify(o.body) }),
    ...(o.signal ? { signal: o.signal } : {}),
  });
  const body = (await res.json()) as Envelope;
  v.parse(DropiEnvelopeSchema, body);
  assert.equal(body.status, res.status, 'the envelope repeats the HTTP status');
  return { status: res.status, body, headers: res.headers };
}

const create = (sim: DropiSimulator, body: unknown, key: string = KEY) => call(sim, 'POST', ORDERS, { key, body });
const list = (sim: DropiSimulator, query: Record<string, string>, key: string = KEY) => call(sim, 'GET', `${ORDERS}?${new URLSearchParams(query)}`, { key });
const hashOf = (key: string) => createHash('sha256').update(key).digest('hex').slice(0, 16);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A webhook receiver that answers the given statuses in turn (then 200) and records every delivery. */
async function receiver(statuses: number[] = []) {
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(statuses.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/fulfillment/webhook/dropi/secret-path`;
  const close = () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
  return { url, received, close };
}

test('the Dropi simulator creates an order sent with Dropi exact strings and answers it in an isSuccess envelope', async () => {
  await withSim({}, async (sim) => {
    const first = await create(sim, orderBody('ord-1'));
    assert.equal(first.status, 200);
    assert.equal(first.body.isSuccess, true);
    assert.equal(first.body.message, 'Orden creada');
    const order = v.parse(DropiOrderSchema, first.body.objects);
    assert.equal(typeof order.id, 'number');
    assert.equal(order.status, 'PENDIENTE CONFIRMACION');
    assert.equal(order.shop_order_id, 'ord-1');
    assert.equal(first.body.objects.shipping_amount, 12000);

    const argelia = await create(sim, orderBody('ord-2', { state: 'CAUCA', city: 'ARGELIA (C)' }));
    const corregimiento = await create(sim, orderBody('ord-3', { state: 'ANTIOQUIA', city: 'Santa elena', products: [{ id: 21001, price: 89900, quantity: 1, variation_id: 31002 }] }));
    assert.deepEqual([argelia.status, corregimiento.status], [200, 200]);
    assert.ok(argelia.body.objects.id > order.id && corregimiento.body.objects.id > argelia.body.objects.id, 'ids increase');

    const stored = sim.orders();
    assert.deepEqual(
      stored.map((o) => [o.id, o.shop_order_id, o.state, o.city, o.status, o.create_calls, o.deleted]),
      [
        [order.id, 'ord-1', 'CUNDINAMARCA', 'Bogota', 'PENDIENTE CONFIRMACION', 1, false],
        [argelia.body.objects.id, 'ord-2', 'CAUCA', 'ARGELIA (C)', 'PENDIENTE CONFIRMACION', 1, false],
        [corregimiento.body.objects.id, 'ord-3', 'ANTIOQUIA', 'Santa elena', 'PENDIENTE CONFIRMACION', 1, false],
      ],
    );
    assert.equal(stored[0]!.account, hashOf(KEY));
    assert.ok(!JSON.stringify(stored).includes(KEY), 'the key is never stored in clear');
    assert.deepEqual(stored[2]!.products, [{ id: 21001, name: 'Faja colombiana reductora', price: 89900, quantity: 1, variation_id: 31002 }]);
  });
});

test('the Dropi simulator refuses a city whose case or accents differ from Dropi string, naming it and its department', async () => {
  await withSim({}, async (sim) => {
    for (const city of ['bogota', 'Bogotá', 'BOGOTA']) {
      const res = await create(sim, orderBody('ord-city', { city }));
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, { isSuccess: false, message: `La ciudad "${city}" no existe en CUNDINAMARCA`, status: 400 });
    }
    const homonym = await create(sim, orderBody('ord-city', { state: 'CAUCA', city: 'ARGELIA (A)' }));
    assert.equal(homonym.body.message, 'La ciudad "ARGELIA (A)" no existe en CAUCA');
    const department = await create(sim, orderBody('ord-city', { state: 'Cundinamarca' }));
    assert.equal(department.status, 400);
    assert.equal(department.body.message, 'El departamento "Cundinamarca" no existe');
    assert.deepEqual(sim.orders(), []);
  });
});

test('the Dropi simulator answers 400 naming the field, product or variation that is wrong, and creates nothing', async () => {
  await withSim({}, async (sim) => {
    const cases: [Record<string, unknown>, string][] = [
      [orderBody('bad', { phone: '+57 300 123 4567' }), 'El campo phone no es válido'],
      [orderBody('bad', { surname: undefined }), 'El campo surname es obligatorio'],
      [orderBody('bad', { calculate_costs_and_shiping: undefined }), 'El campo calculate_costs_and_shiping es obligatorio'],
      [orderBody('bad', { products: [{ id: 99999, price: 1000, quantity: 1 }] }), 'El producto 99999 no existe'],
      [orderBody('bad', { products: [{ id: 21002, price: 1000, quantity: 1, variation_id: 31001 }] }), 'La variación 31001 no pertenece al producto 21002'],
      [orderBody('bad', { state: 'VALLE DEL CAUCA', city: 'Calima' }), 'La ciudad "Calima" no tiene cobertura CON RECAUDO'],
    ];
    for (const [body, message] of cases) {
      const res = await create(sim, body);
      assert.deepEqual([res.status, res.body.isSuccess, res.body.message], [400, false, message]);
    }
    const prepaid = await create(sim, orderBody('prepaid', { state: 'VALLE DEL CAUCA', city: 'Calima', rate_type: 'SIN RECAUDO' }));
    assert.equal(prepaid.status, 200, 'a prepaid-only city takes prepaid orders');
    const notJson = await fetch(`${sim.url}${ORDERS}`, { method: 'POST', headers: { [DROPI_KEY_HEADER]: KEY }, body: '{not json' });
    assert.equal(notJson.status, 400);
    assert.equal(((await notJson.json()) as Envelope).isSuccess, false);
    assert.deepEqual(
      sim.orders().map((o) => o.shop_order_id),
      ['prepaid'],
    );
  });
});

test('the Dropi simulator, like Dropi, makes a second order for a repeated shop_order_id and counts both create calls', async () => {
  await withSim({}, async (sim) => {
    const a = await create(sim, orderBody('dup'));
    const b = await create(sim, orderBody('dup'));
    assert.deepEqual([a.status, b.status], [200, 200]);
    assert.notEqual(a.body.objects.id, b.body.objects.id);
    assert.deepEqual(
      sim.orders().map((o) => [o.id, o.shop_order_id, o.create_calls]),
      [
        [a.body.objects.id, 'dup', 2],
        [b.body.objects.id, 'dup', 2],
      ],
    );
    const { body } = await list(sim, {});
    assert.equal(body.count, 2);
  });
});

test('the Dropi simulator lists a key own orders created within [from, untill], by id, paged by start and result_number', async () => {
  const clock = manualClock('2025-03-01T12:00:00Z');
  await withSim({ clock }, async (sim) => {
    const ids: number[] = [];
    for (const [i, day] of ['03-01', '03-01', '03-02', '03-02', '03-02', '03-03'].entries()) {
      clock.set(new Date(`2025-${day}T23:59:00Z`));
      ids.push((await create(sim, orderBody(`ord-${i}`))).body.objects.id);
    }
    await create(sim, orderBody('someone-else'), OTHER);

    const second = await list(sim, { from: '2025-03-02', untill: '2025-03-02', filter_date_by: 'FECHA DE CREADO' });
    assert.equal(second.status, 200);
    assert.equal(second.body.count, 3);
    assert.deepEqual(
      second.body.objects.map((o: { id: number }) => o.id),
      ids.slice(2, 5),
    );
    v.parse(v.array(DropiOrderSchema), second.body.objects);

    const window = { from: '2025-03-01', untill: '2025-03-03', filter_date_by: 'FECHA DE CREADO' };
    const page = await list(sim, { ...window, result_number: '2', start: '2' });
    assert.equal(page.body.count, 6);
    assert.deepEqual(
      page.body.objects.map((o: { id: number }) => o.id),
      ids.slice(2, 4),
    );
    const last = await list(sim, { ...window, result_number: '4', start: '4' });
    assert.deepEqual(
      last.body.objects.map((o: { id: number }) => o.id),
      ids.slice(4),
    );
    assert.equal((await list(sim, { from: '2025-03-04' })).body.count, 0);
    assert.equal((await list(sim, { untill: '2025-03-01' })).body.count, 2);
    assert.equal((await list(sim, {})).body.count, 6, 'no window: every order of the key');
    assert.equal((await list(sim, {}, OTHER)).body.count, 1, 'each key sees only its own orders');
    const bad = await list(sim, { from: '01/03/2025' });
    assert.deepEqual([bad.status, bad.body.isSuccess], [400, false]);
  });
});

test('the Dropi simulator gets an order by id, cancels it by PUT, again idempotently, and refuses to cancel once in transit', async () => {
  await withSim({}, async (sim) => {
    const a = (await create(sim, orderBody('a'))).body.objects.id as number;
    const b = (await create(sim, orderBody('b'))).body.objects.id as number;
    const c = (await create(sim, orderBody('c'))).body.objects.id as number;
    const got = await call(sim, 'GET', `${ORDERS}/${a}`);
    assert.deepEqual([got.status, got.body.objects.id, got.body.objects.shop_order_id], [200, a, 'a']);
    const foreign = await call(sim, 'GET', `${ORDERS}/${a}`, { key: OTHER });
    assert.deepEqual(foreign.body, { isSuccess: false, message: 'Orden no encontrada', status: 404 });

    const wrong = await call(sim, 'PUT', `${ORDERS}/${a}`, { body: { status: 'ENTREGADO' } });
    assert.deepEqual([wrong.status, wrong.body.isSuccess], [400, false]);
    const cancel = await call(sim, 'PUT', `${ORDERS}/${a}`, { body: { status: 'CANCELADO' } });
    assert.deepEqual([cancel.status, cancel.body.isSuccess, cancel.body.objects.status], [200, true, 'CANCELADO']);
    const again = await call(sim, 'PUT', `${ORDERS}/${a}`, { body: { status: 'CANCELADO' } });
    assert.deepEqual([again.status, again.body.objects.status], [200, 'CANCELADO']);

    await sim.advance(b, 'GUIA_GENERADA');
    const labelled = await call(sim, 'PUT', `${ORDERS}/${b}`, { body: { status: 'CANCELADO' } });
    assert.deepEqual([labelled.status, labelled.body.objects.status], [200, 'CANCELADO'], 'a label can still be voided');

    await sim.advance(c, 'EN TRANSITO', '240000009999');
    const late = await call(sim, 'PUT', `${ORDERS}/${c}`, { body: { status: 'CANCELADO' } });
    assert.deepEqual(late.body, { isSuccess: false, message: `La orden ${c} está en estado EN TRANSITO y ya no se puede cancelar`, status: 400 });
    assert.deepEqual(
      sim.orders().map((o) => [o.shop_order_id, o.status, o.shipping_guide === null]),
      [
        ['a', 'CANCELADO', true],
        ['b', 'CANCELADO', false],
        ['c', 'EN TRANSITO', false],
      ],
    );
  });
});

test('the Dropi simulator answers 404 for an order the seller deleted, lists it no more and refuses to cancel it', async () => {
  await withSim({}, async (sim) => {
    const a = (await create(sim, orderBody('a'))).body.objects.id as number;
    const b = (await create(sim, orderBody('b'))).body.objects.id as number;
    sim.deleteOrder(a);
    assert.deepEqual((await call(sim, 'GET', `${ORDERS}/${a}`)).body, { isSuccess: false, message: 'Orden no encontrada', status: 404 });
    assert.equal((await call(sim, 'PUT', `${ORDERS}/${a}`, { body: { status: 'CANCELADO' } })).status, 404);
    const listed = await list(sim, {});
    assert.deepEqual([listed.body.count, listed.body.objects.map((o: { id: number }) => o.id)], [1, [b]]);

    const viaControl = await fetch(`${sim.url}/_sim/orders/${b}`, { method: 'DELETE' });
    assert.equal(viaControl.status, 200);
    assert.equal((await list(sim, {})).body.count, 0);
    assert.deepEqual(
      sim.orders().map((o) => [o.id, o.deleted]),
      [
        [a, true],
        [b, true],
      ],
    );
    assert.throws(() => sim.deleteOrder(a), /no encontrada/);
  });
});

test('the Dropi simulator lists departments, and a department cities with their DANE codes, hiding prepaid-only cities under CON RECAUDO', async () => {
  await withSim({}, async (sim) => {
    const { body } = await call(sim, 'GET', '/integrations/department');
    const departments = v.parse(v.array(DropiDepartmentSchema), body.objects);
    const names = departments.map((d) => d.name);
    for (const name of ['CUNDINAMARCA', 'ANTIOQUIA', 'VALLE DEL CAUCA', 'CAUCA', 'ATLANTICO', 'SANTANDER', 'NORTE DE SANTANDER']) assert.ok(names.includes(name), name);
    const idOf = (name: string) => departments.find((d) => d.name === name)!.id;

    const cities = async (department_id: unknown, rate_type: string) => {
      const res = await call(sim, 'POST', '/integrations/trajectory/bycity', { body: { department_id, rate_type } });
      return v.parse(v.array(DropiCitySchema), res.body.objects);
    };
    const antioquia = await cities(idOf('ANTIOQUIA'), 'CON RECAUDO');
    const medellin = antioquia.find((c) => c.name === 'Medellin');
    assert.deepEqual(Object.keys(medellin ?? {}), ['id', 'name', 'cod_dane']);
    assert.equal(medellin?.cod_dane, '5001000');
    assert.ok(antioquia.some((c) => c.name === 'ARGELIA (A)') && antioquia.some((c) => c.name === 'Santa elena' && c.cod_dane === null));
    assert.ok((await cities(idOf('CUNDINAMARCA'), 'CON RECAUDO')).some((c) => c.name === 'Bogota' && c.cod_dane === '11001000'));

    const valleCod = (await cities(idOf('VALLE DEL CAUCA'), 'CON RECAUDO')).map((c) => c.name);
    const vallePrepaid = (await cities(String(idOf('VALLE DEL CAUCA')), 'SIN RECAUDO')).map((c) => c.name);
    assert.ok(!valleCod.includes('Calima') && vallePrepaid.includes('Calima') && valleCod.includes('ARGELIA (V)'));

    const unknown = await call(sim, 'POST', '/integrations/trajectory/bycity', { body: { department_id: 999, rate_type: 'CON RECAUDO' } });
    assert.deepEqual(unknown.body, { isSuccess: false, message: 'El departamento 999 no existe', status: 400 });
    const badRate = await call(sim, 'POST', '/integrations/trajectory/bycity', { body: { department_id: idOf('CAUCA'), rate_type: 'CONTRAENTREGA' } });
    assert.deepEqual([badRate.status, badRate.body.message], [400, 'El campo rate_type no es válido']);
  });
});

test('the Dropi simulator pages its products by keywords on name or SKU, and returns one by id or 404', async () => {
  await withSim({}, async (sim) => {
    const index = (body: unknown) => call(sim, 'POST', '/integrations/products/index', { body });
    const all = await index({ pageSize: 5, startData: 0 });
    assert.equal(all.body.count, 12);
    assert.equal(all.body.objects.length, 5);
    const rest = await index({ pageSize: 5, startData: 10 });
    assert.equal(rest.body.objects.length, 2);
    v.parse(v.array(DropiProductSchema), all.body.objects);

    const byName = await index({ pageSize: 10, startData: 0, keywords: 'FAJA' });
    assert.deepEqual([byName.body.count, byName.body.objects[0].name], [1, 'Faja colombiana reductora']);
    const bySku = await index({ pageSize: 10, startData: 0, keywords: 'smart-w8' });
    assert.deepEqual(
      bySku.body.objects.map((p: { sku: string; variations: { name: string }[] }) => [p.sku, p.variations.map((x) => x.name)]),
      [['SMART-W8', ['Negro', 'Rosa']]],
    );

    const one = await call(sim, 'GET', `/integrations/products/v2/${byName.body.objects[0].id}`);
    assert.deepEqual([one.status, one.body.objects.name, one.body.objects.variations.length], [200, 'Faja colombiana reductora', 4]);
    const missing = await call(sim, 'GET', '/integrations/products/v2/424242');
    assert.deepEqual(missing.body, { isSuccess: false, message: 'Producto no encontrado', status: 404 });
  });
});

test('the Dropi simulator answers 401 Access denied without a key or with one it does not know, but not on its control plane', async () => {
  await withSim({}, async (sim) => {
    const denied = { isSuccess: false, message: 'Access denied', status: 401 };
    assert.deepEqual((await call(sim, 'GET', '/integrations/department', { key: null })).body, denied);
    assert.deepEqual((await call(sim, 'GET', '/integrations/department', { key: '' })).body, denied);
    assert.deepEqual((await call(sim, 'GET', '/integrations/department', { key: 'someone-else-entirely' })).body, denied);
    assert.deepEqual((await create(sim, orderBody('x'), 'nope')).body, denied);
    assert.deepEqual((await call(sim, 'GET', '/integrations/nothing-here')).body, { isSuccess: false, message: 'Not Found', status: 404 });
    const control = await fetch(`${sim.url}/_sim/orders`);
    assert.deepEqual([control.status, await control.json()], [200, []]);
  });
  const open = await startDropiSimulator();
  try {
    assert.equal((await call(open, 'GET', '/integrations/department', { key: 'any-key-at-all' })).status, 200, 'without tokens any key is accepted');
    assert.equal((await call(open, 'GET', '/integrations/department', { key: null })).status, 401);
  } finally {
    await open.close();
  }
});

test('the Dropi simulator expires a key after expireAfter requests, or when told, with 401 Token is Expired, and other keys go on', async () => {
  const third = 'dropi-test-key-gamma-000000000003';
  await withSim({ tokens: [KEY, OTHER, third], expireAfter: { token: KEY, requests: 2 } }, async (sim) => {
    const expired = { isSuccess: false, message: 'Token is Expired', status: 401 };
    const departments = (key: string) => call(sim, 'GET', '/integrations/department', { key });
    assert.deepEqual([(await departments(KEY)).status, (await departments(KEY)).status], [200, 200]);
    assert.deepEqual((await departments(KEY)).body, expired);
    assert.deepEqual((await departments(KEY)).body, expired, 'for good');
    assert.equal((await departments(OTHER)).status, 200);
    assert.deepEqual([sim.stats(KEY).expired, sim.stats(OTHER).expired], [true, false]);

    sim.expireToken(OTHER);
    assert.deepEqual((await departments(OTHER)).body, expired);

    const control = await fetch(`${sim.url}/_sim/tokens/expire`, { method: 'POST', body: JSON.stringify({ token: third }) });
    const text = await control.text();
    assert.equal(control.status, 200);
    assert.ok(!text.includes(third), 'the control plane never echoes the key');
    assert.deepEqual((await departments(third)).body, expired);
  });
});

test('the Dropi simulator locks one key after a burst with 429 Too Many Attempts, not extended by requests during the lock, other keys unaffected', async () => {
  const lockMs = 400;
  await withSim({ lockout: { max: 3, windowMs: 10_000, lockMs } }, async (sim) => {
    const departments = (key: string = KEY) => call(sim, 'GET', '/integrations/department', { key });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await departments()).status);
    const locked = await departments();
    statuses.push(locked.status);
    assert.deepEqual(statuses, [200, 200, 200, 429]);
    assert.deepEqual(locked.body, { isSuccess: false, message: 'Too Many Attempts.', status: 429 });
    assert.equal(locked.headers.get('retry-after'), null);
    assert.equal((await departments(OTHER)).status, 200, 'another key is not locked');
    assert.deepEqual(sim.stats(KEY).lockouts, 1);

    await sleep(lockMs / 2);
    assert.equal((await departments()).status, 429, 'still locked, and this request does not extend the lock');
    await sleep(lockMs / 2 + 150);
    // Only requests let through count towards the next burst: three pass again, the fourth locks.
    const after: number[] = [];
    for (let i = 0; i < 4; i++) after.push((await departments()).status);
    assert.deepEqual(after, [200, 200, 200, 429]);
    assert.deepEqual([sim.stats(KEY).lockouts, sim.stats(KEY).requests, sim.stats(OTHER).lockouts], [2, 9, 0]);
  });
});

test('the Dropi simulator with failRate answers 500 in an envelope, after counting the create call, and never fails its control plane', async () => {
  const draws = [0, 0.99];
  await withSim({ failRate: 0.5, random: () => draws.shift() ?? 0.99 }, async (sim) => {
    const failed = await create(sim, orderBody('retry-me'));
    assert.deepEqual(failed.body, { isSuccess: false, message: 'Internal Server Error', status: 500 });
    assert.deepEqual(sim.orders(), []);
    const retried = await create(sim, orderBody('retry-me'));
    assert.equal(retried.status, 200);
    assert.deepEqual(
      sim.orders().map((o) => [o.shop_order_id, o.create_calls]),
      [['retry-me', 2]],
    );
  });
  await withSim({ failRate: 1 }, async (sim) => {
    assert.equal((await call(sim, 'GET', '/integrations/department')).status, 500);
    assert.equal((await fetch(`${sim.url}/_sim/orders`)).status, 200);
  });
});

test('the Dropi simulator with lostAnswerRate 1 creates the order but holds its answer: a client that gave up does not know', async () => {
  await withSim({ lostAnswerRate: 1, lateMs: 1000 }, async (sim) => {
    await assert.rejects(call(sim, 'POST', ORDERS, { body: orderBody('lost'), signal: AbortSignal.timeout(150) }), { name: 'TimeoutError' });
    assert.deepEqual(
      sim.orders().map((o) => [o.shop_order_id, o.status, o.create_calls]),
      [['lost', 'PENDIENTE CONFIRMACION', 1]],
    );
    assert.equal((await list(sim, {})).body.count, 1, 'the order is there for the look-up');
  });
  await withSim({ lostAnswerRate: 1, lateMs: 300 }, async (sim) => {
    let answered = false;
    const pending = create(sim, orderBody('patient')).then((res) => ((answered = true), res));
    await until('the order to exist', () => sim.orders().length === 1);
    assert.equal(answered, false, 'the order exists before its answer comes');
    const res = await pending;
    assert.deepEqual([res.status, res.body.objects.shop_order_id], [200, 'patient']);
  });
});

test('the Dropi simulator stats show two requests of a key in flight at once, and the least gap between request starts', async () => {
  await withSim({ latencyMs: 150 }, async (sim) => {
    assert.deepEqual(sim.stats(KEY), { requests: 0, maxInFlight: 0, minGapMs: null, lockouts: 0, expired: false });
    await call(sim, 'GET', '/integrations/department');
    assert.deepEqual([sim.stats(KEY).requests, sim.stats(KEY).maxInFlight, sim.stats(KEY).minGapMs], [1, 1, null]);
    await Promise.all([call(sim, 'GET', '/integrations/department'), call(sim, 'GET', '/integrations/department')]);
    const concurrent = sim.stats(KEY);
    assert.deepEqual([concurrent.requests, concurrent.maxInFlight], [3, 2]);
    assert.ok(concurrent.minGapMs !== null && concurrent.minGapMs >= 0);

    await call(sim, 'GET', '/integrations/department', { key: OTHER });
    await sleep(100);
    await call(sim, 'GET', '/integrations/department', { key: OTHER });
    const paced = sim.stats(OTHER);
    assert.equal(paced.maxInFlight, 1);
    assert.ok(paced.minGapMs !== null && paced.minGapMs >= 100, `a gap of ${paced.minGapMs} ms`);
  });
});

test('the Dropi simulator posts an unsigned status webhook when advanced, retries a failed delivery, and gives up on a dead receiver', async () => {
  const hook = await receiver([500]);
  try {
    await withSim({ webhookUrl: hook.url }, async (sim) => {
      const id = (await create(sim, orderBody('hooked'))).body.objects.id as number;
      await sim.advance(id, 'GUIA_GENERADA');
      assert.equal(hook.received.length, 2, 'the first delivery failed (500) and was retried before advance resolved');
      const guide = sim.orders()[0]!.shipping_guide;
      assert.ok(guide);
      const body = JSON.parse(hook.received[1]!.body) as unknown;
      assert.deepEqual(body, { id, status: 'GUIA_GENERADA', shop_order_id: 'hooked', shipping_guide: guide, shipping_company: 'INTERRAPIDISIMO', sticker: null, notes: null });
      v.parse(DropiWebhookSchema, body);
      assert.equal(hook.received[1]!.headers['content-type'], 'application/json');
      assert.deepEqual(
        Object.keys(hook.received[1]!.headers).filter((h) => /signature|hmac|dropi/i.test(h)),
        [],
        'unsigned, no key',
      );

      const control = await fetch(`${sim.url}/_sim/orders/${id}/status`, { method: 'POST', body: JSON.stringify({ status: 'EN TRANSITO', shipping_guide: '240099990000' }) });
      assert.equal(control.status, 200);
      await until('the control-plane webhook', () => hook.received.length === 3);
      assert.deepEqual(
        [JSON.parse(hook.received[2]!.body).status, JSON.parse(hook.received[2]!.body).shipping_guide],
        ['EN TRANSITO', '240099990000'],
      );
    });
  } finally {
    await hook.close();
  }
  const dead = await receiver();
  await dead.close();
  const lines: string[] = [];
  await withSim({ webhookUrl: dead.url, log: (line) => lines.push(line) }, async (sim) => {
    const id = (await create(sim, orderBody('nobody-listens'))).body.objects.id as number;
    await sim.advance(id, 'ENTREGADO');
    assert.equal(sim.orders()[0]!.status, 'ENTREGADO');
    assert.equal(lines.filter((l) => l.startsWith(`webhook ${id} ENTREGADO failed`)).length, 4);
  });
});

test('the Dropi simulator logs one line per request without ever writing a key in clear', async () => {
  const lines: string[] = [];
  await withSim({ log: (line) => lines.push(line) }, async (sim) => {
    await create(sim, orderBody('logged'));
    await call(sim, 'GET', '/integrations/department', { key: 'wrong-key' });
  });
  assert.ok(lines.some((l) => l.startsWith('POST /integrations/orders/myorders → 200')));
  assert.ok(lines.some((l) => l.includes(hashOf(KEY)) && l.includes(KEY.slice(-4))));
  assert.ok(lines.some((l) => l.startsWith('GET /integrations/department → 401') && l.includes(hashOf('wrong-key'))));
  for (const line of lines) for (const key of [KEY, 'wrong-key']) assert.ok(!line.includes(key), line);
});

// The late answer would come in 24 days: close() resolving at all is what proves it did not wait for
// it, and this file's process exiting proves nothing else was left running.
test('the Dropi simulator closes without waiting for a held answer, and that request fails', async () => {
  const sim = await startDropiSimulator({ lostAnswerRate: 1, lateMs: 2 ** 31 - 1 });
  const pending = fetch(`${sim.url}${ORDERS}`, { method: 'POST', headers: { [DROPI_KEY_HEADER]: KEY }, body: JSON.stringify(orderBody('held')) });
  await until('the order to be held', () => sim.orders().length === 1);
  await sim.close();
  await assert.rejects(pending);
  assert.deepEqual(
    sim.orders().map((o) => o.shop_order_id),
    ['held'],
  );
});
