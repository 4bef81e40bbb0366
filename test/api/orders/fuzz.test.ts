// Property-based fuzzing of the order input (SPEC 15): whatever the body, the answer is a
// documented status in the documented shape, a 500 never happens, and a refusal stores nothing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcRun } from '../../helpers/seed.ts';
import type { TestServer } from '../../helpers/server.ts';
import { openShop, orderBody, postOrder, type Shop } from '../../helpers/fixtures.ts';

let server: TestServer;
let shop: Shop;

before(async () => ({ server, shop } = await openShop({ rateIpPerMin: 1_000_000, rateKeyPerMin: 1_000_000, ratePhonePerHour: 1_000_000 })));
after(() => server.close());

const countOrders = async () =>
  Number((await server.deps.db.selectFrom('orders').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

const FIELDS = [
  'nombre',
  'telefono',
  'departamento',
  'ciudad',
  'direccion',
  'barrio',
  'referencia',
  'codigo_postal',
  'pack',
  'quantity',
  'unit_price',
  'total_price',
  'store_id',
  'product_id',
  'landing_page_id',
  'website',
] as const;

const value = fc.oneof(
  fc.string({ maxLength: 400 }),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.object({ maxDepth: 1 }),
);

test('order creation with fuzzed fields answers a documented status and stores nothing when it refuses', async () => {
  await fc.assert(
    fc.asyncProperty(fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 4 }), async (patch) => {
      const before = await countOrders();
      const res = await postOrder(server.url, orderBody(shop, patch), { 'x-svc-api-key': shop.testKey, origin: 'http://localhost' });
      const body = (await res.json()) as { success: boolean; error?: unknown; details?: unknown };
      assert.ok([200, 400, 401, 403].includes(res.status), `unexpected status ${res.status}: ${JSON.stringify(body)}`);
      const after = await countOrders();
      if (res.status === 200) {
        assert.equal(body.success, true);
        assert.ok(after - before <= 1);
      } else {
        assert.equal(body.success, false);
        assert.equal(typeof body.error, 'string');
        if (body.details !== undefined) assert.ok(Array.isArray(body.details));
        assert.equal(after, before);
      }
    }),
    fcRun(301, { numRuns: 150 }),
  );
});

test('order creation with a fuzzed raw body never answers 500', async () => {
  await fc.assert(
    fc.asyncProperty(fc.oneof(fc.string({ maxLength: 200 }), fc.json()), async (raw) => {
      const res = await postOrder(server.url, raw, { 'x-svc-api-key': shop.testKey, origin: 'http://localhost' });
      const body = (await res.json()) as { success: boolean };
      assert.ok(res.status < 500, `status ${res.status}`);
      if (res.status !== 200) assert.equal(body.success, false);
    }),
    fcRun(302, { numRuns: 100 }),
  );
});
