// The Dropi module (src/platforms/dropi) against the Dropi-dialect simulator over real HTTP (issue
// 22 §2, §3): the create body as Dropi's own plugin sends it, a look-up by shop_order_id through the
// order list, cancel by status, the catalog, the pace of one key, an expired token told apart, and
// every status string of DROPI.md mapped to a documented state.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { OutboundClient } from '../../src/http/outbound/outbound-client.ts';
import { OutboundError } from '../../src/http/outbound/outbound-error.ts';
import { dropi, DROPI_STATUSES, dropiOrder } from '../../src/platforms/dropi/dropi.ts';
import { startDropiSimulator, type DropiSimulator } from '../../src/platforms/dropi/simulator.ts';
import type { PlatformSession, PushOrder } from '../../src/platforms/platform.ts';
import { ORDER_STATUSES } from '../../src/domain/order-status.ts';

const KEY = 'dropi-key-0001-abcdefgh';
const OTHER = 'dropi-key-0002-ijklmnop';

const order = (id: string, over: Partial<PushOrder> = {}): PushOrder => ({
  id,
  order_number: 1042,
  created_at: new Date().toISOString(),
  country: 'CO',
  currency: 'COP',
  nombre: 'Ana María Gómez Pérez',
  telefono_e164: '+573001234567',
  departamento: 'ANTIOQUIA',
  ciudad: 'Medellin',
  city_code: '05001',
  direccion: 'Calle 10 # 43-12',
  barrio: 'El Poblado',
  colonia: null,
  distrito: null,
  codigo_postal: null,
  referencia: 'Portería',
  total_price_minor: 18_000_000,
  product: { name: 'Faja', sku: 'FAJA-01', pack: '2x', quantity: 1, pack_units: 2, unit_price_minor: 18_000_000, platform_ref: '21002', variant_ref: null },
  ...over,
});

describe('the Dropi module against the Dropi simulator', () => {
  let sim: DropiSimulator;
  let session: PlatformSession;
  const outbound = new OutboundClient();
  const open = (token: string, intervalMs = 0, timeoutMs = 2_000) => dropi.open({ url: sim.url, token, timeoutMs, outbound, addresses: 'any', intervalMs });

  before(async () => {
    sim = await startDropiSimulator({ tokens: [KEY, OTHER] });
    session = open(KEY);
  });
  after(() => sim.close());

  test('a create sends what Dropi wants: names split, national digits, exact strings, CON RECAUDO, total_order, shop_order_id, our number on the label', async () => {
    const placed = await session.create(order('ord-create-1'));
    assert.match(placed.id, /^\d+$/);
    assert.equal(placed.reference, 'ord-create-1');
    assert.equal(placed.status, 'PENDIENTE CONFIRMACION');
    const stored = sim.orders().find((o) => String(o.id) === placed.id)!;
    assert.equal(stored.name, 'Ana');
    assert.equal(stored.surname, 'María Gómez Pérez');
    assert.equal(stored.phone, '3001234567');
    assert.equal(stored.state, 'ANTIOQUIA');
    assert.equal(stored.city, 'Medellin');
    assert.equal(stored.total_order, 180_000);
    assert.equal(stored.shop_order_id, 'ord-create-1');
    assert.equal(stored.text_to_show_order_rotulo, 'Pedido #1042');
    const [line] = stored.products as { id: number; price: number; quantity: number }[];
    assert.deepEqual({ id: line!.id, price: line!.price, quantity: line!.quantity }, { id: 21002, price: 90_000, quantity: 2 }, 'two units of the linked product at half the pack price each');
  });

  test("Dropi's refusal is a permanent failure carrying its message verbatim, and nothing is created", async () => {
    const before = sim.orders().length;
    const error = await session.create(order('ord-wrong-city', { ciudad: 'Medellín' })).then(
      () => assert.fail('created'),
      (e: unknown) => e as OutboundError,
    );
    assert.ok(error instanceof OutboundError);
    assert.equal(error.status, 400);
    assert.equal(error.retryable, false);
    assert.equal(error.mayHaveActed, false);
    assert.match(error.message, /Medellín/);
    assert.equal(sim.orders().length, before);
  });

  test('an unlinked product is refused before any request: Dropi ships its own products only', async () => {
    const before = sim.stats(KEY).requests;
    assert.throws(() => dropiOrder(order('ord-unlinked', { product: { ...order('x').product, platform_ref: null } })), /not linked to a Dropi product/);
    assert.equal(sim.stats(KEY).requests, before);
  });

  test('a look-up finds every order carrying our id as shop_order_id, and only the key’s own', async () => {
    await session.create(order('ord-twice'));
    await session.create(order('ord-twice'));
    await open(OTHER).create(order('ord-twice'));
    const found = await session.findByRef({ id: 'ord-twice', created_at: new Date().toISOString() });
    assert.equal(found.length, 2, 'Dropi has no idempotency: two creates are two orders, both found');
    assert.deepEqual(await session.findByRef({ id: 'ord-never', created_at: new Date().toISOString() }), []);
  });

  test('cancel sets CANCELADO, twice changes nothing, and a deleted order is a 404', async () => {
    const placed = await session.create(order('ord-cancel'));
    assert.equal((await session.cancel(placed.id)).status, 'CANCELADO');
    assert.equal((await session.cancel(placed.id)).status, 'CANCELADO');
    assert.equal((await session.get(placed.id)).status, dropi.cancelled);
    const gone = await session.create(order('ord-deleted'));
    sim.deleteOrder(Number(gone.id));
    await assert.rejects(session.get(gone.id), (e: unknown) => e instanceof OutboundError && e.status === 404);
  });

  test('departments and cash-on-delivery cities come spelled as Dropi spells them; products page through the catalog', async () => {
    const departments = await session.departments();
    const antioquia = departments.find((d) => d.name === 'ANTIOQUIA')!;
    const cities = (await session.cities(antioquia)).map((c) => c.name);
    assert.ok(cities.includes('Medellin') && cities.includes('ARGELIA (A)'), cities.join(', '));
    const page = await session.products(undefined, 1, 5);
    assert.equal(page.products.length, 5);
    assert.equal(page.has_more, true);
    const faja = await session.product(page.products[0]!.id);
    assert.equal(faja.id, page.products[0]!.id);
  });

  test('one key is called one request at a time, whoever calls (the gap itself: test/http/outbound/pacer.test.ts)', async () => {
    const paced = await startDropiSimulator({ tokens: [KEY] });
    try {
      const s = dropi.open({ url: paced.url, token: KEY, timeoutMs: 2_000, outbound, addresses: 'any', intervalMs: 60 });
      await Promise.all([s.departments(), s.departments(), s.products(undefined, 1, 5), s.departments()]);
      const stats = paced.stats(KEY);
      assert.equal(stats.requests, 4);
      assert.equal(stats.maxInFlight, 1);
    } finally {
      await paced.close();
    }
  });

  test('an expired token is told apart from other failures: it pauses the connection, a 500 does not', async () => {
    const expiring = await startDropiSimulator({ tokens: [KEY], failRate: 0 });
    try {
      const s = dropi.open({ url: expiring.url, token: KEY, timeoutMs: 2_000, outbound, addresses: 'any' });
      expiring.expireToken(KEY);
      const error = await s.departments().then(
        () => assert.fail('answered'),
        (e: unknown) => e,
      );
      assert.ok(dropi.expired(error as OutboundError), String(error));
      assert.equal((error as OutboundError).retryable, true, 'retryable: the job waits, paused, for new credentials');
      assert.match(String((error as Error).message), /Token is Expired/);
      assert.equal(dropi.expired(new OutboundError('status', 'Dropi: HTTP 500', { status: 500 })), false);
      assert.equal(dropi.expired(new OutboundError('status', 'Dropi: HTTP 429: Too Many Attempts.', { status: 429 })), false);
    } finally {
      await expiring.close();
    }
  });
});

test('every status string of DROPI.md maps to a documented state; an unknown one is unknown and moves nothing', () => {
  const fromDoc = [
    'PENDIENTE', 'GUIA_GENERADA', 'EN_RUTA', 'ENTREGADO', 'DEVOLUCION', 'CANCELADO', 'NO_EFECTIVO', 'PENDIENTE CONFIRMACION',
    'EN TRANSITO', 'EN REPARTO', 'EN CAMINO', 'ZONA DE ENTREGA', 'INTENTO DE ENTREGA', 'RECLAME EN OFICINA', 'NOVEDAD', 'CON NOVEDAD',
    'REPORTADO ENTREGADO', 'DEVUELTO', 'RECHAZADO', 'ANULADA', 'GUIA_ANULADA', 'CANCELADO POR TRANSPORTADORA',
  ];
  for (const raw of fromDoc) {
    const m = dropi.status(raw);
    assert.equal(m.known, true, raw);
    assert.ok(m.to === undefined || ORDER_STATUSES.includes(m.to), raw);
  }
  // Terminal strings and their feminine forms land on terminal states.
  for (const [raw, to] of [['ENTREGADO', 'delivered'], ['Entregada', 'delivered'], ['CANCELADO', 'cancelled'], ['cancelada', 'cancelled'], ['DEVOLUCION', 'returned'], ['Devolución', 'returned'], ['DEVUELTO', 'returned'], ['devuelta', 'returned']] as const)
    assert.equal(dropi.status(raw).to, to, raw);
  assert.deepEqual(dropi.status('EN BODEGA DEL MARCIANO'), { to: undefined, known: false });
  assert.ok(Object.keys(DROPI_STATUSES).length >= fromDoc.length - 4);
});
