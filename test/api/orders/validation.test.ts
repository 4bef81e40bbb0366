// POST /api/orders/create, SPEC 4.1 steps 1 (body), 6 (field validation, seed 2.1 / 8) and 7 (country rules).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestServer } from '../../helpers/server.ts';
import { openShop, orderBody, postOrder, seedShop, type Shop } from '../../helpers/fixtures.ts';
import { MAX_BODY_BYTES } from '../../../src/limits.ts';
import {
  OPEN_LIMITS,
  counts,
  expectCreated,
  expectError,
  liveHeaders,
  nextPhone,
  orderRow,
  rawPost,
  storesNothing,
  wordsOfLength,
} from './order-kit.ts';

let server: TestServer;
let shop: Shop;

before(async () => ({ server, shop } = await openShop(OPEN_LIMITS)));
after(() => server.close());

/** A valid body with a fresh phone, so each accepted case creates its own order. */
const body = (over: Record<string, unknown> = {}) => orderBody(shop, { telefono: nextPhone(), ...over });
const post = (b: unknown, headers: Record<string, string> = {}) => postOrder(server.url, b, liveHeaders(shop, headers));

describe('step 1: the request body', () => {
  test('a body that is not valid JSON is a 400 and stores nothing', async () => {
    await storesNothing(server.deps, async () => {
      await expectError(await post('{"nombre": "Ana", '), 400, { fields: [] });
    });
  });

  for (const [label, text] of [
    ['a JSON array', '[]'],
    ['an array holding an order', JSON.stringify([{ nombre: 'Ana' }])],
    ['a JSON string', '"hola"'],
    ['JSON null', 'null'],
    ['a JSON number', '42'],
    ['JSON true', 'true'],
    ['an empty body', ''],
  ] as const) {
    test(`${label} as the body is a 400 and stores nothing`, async () => {
      await storesNothing(server.deps, async () => {
        await expectError(await post(text), 400);
      });
    });
  }

  test('a text/plain body is a 415 even when it holds valid JSON, and stores nothing', async () => {
    await storesNothing(server.deps, async () => {
      const res = await postOrder(server.url, body(), liveHeaders(shop, { 'content-type': 'text/plain' }));
      await expectError(res, 415);
    });
  });

  test('a form-encoded body is a 415', async () => {
    const res = await postOrder(server.url, 'nombre=Ana', liveHeaders(shop, { 'content-type': 'application/x-www-form-urlencoded' }));
    await expectError(res, 415);
  });

  test('a body without any Content-Type is a 415 and stores nothing', async () => {
    await storesNothing(server.deps, async () => {
      const answer = await rawPost(server.url, { headers: liveHeaders(shop), chunks: [Buffer.from(JSON.stringify(body()))] });
      assert.equal(answer.status, 415);
      const parsed = JSON.parse(answer.body) as { success: boolean; error: string };
      assert.equal(parsed.success, false);
      assert.equal(typeof parsed.error, 'string');
      assert.ok(answer.headers['x-request-id']);
    });
  });

  test('application/json with a charset parameter is accepted', async () => {
    const res = await postOrder(server.url, body(), liveHeaders(shop, { 'content-type': 'application/json; charset=utf-8' }));
    await expectCreated(res);
  });

  test('a body of exactly 64 KiB is accepted', async () => {
    const base = JSON.stringify({ ...body(), padding: '' });
    const padded = base.replace('"padding":""', `"padding":"${'x'.repeat(MAX_BODY_BYTES - Buffer.byteLength(base))}"`);
    assert.equal(Buffer.byteLength(padded), MAX_BODY_BYTES);
    await expectCreated(await post(padded));
  });

  test('a body one byte over 64 KiB is a 413 and stores nothing', async () => {
    const base = JSON.stringify({ ...body(), padding: '' });
    const padded = base.replace('"padding":""', `"padding":"${'x'.repeat(MAX_BODY_BYTES + 1 - Buffer.byteLength(base))}"`);
    assert.equal(Buffer.byteLength(padded), MAX_BODY_BYTES + 1);
    await storesNothing(server.deps, async () => {
      await expectError(await post(padded), 413);
    });
  });

  test('a chunked body without Content-Length that grows past 64 KiB is a 413 and stores nothing', async () => {
    await storesNothing(server.deps, async () => {
      const chunk = Buffer.alloc(16 * 1024, 'x');
      const answer = await rawPost(server.url, {
        headers: { ...liveHeaders(shop), 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        chunks: [Buffer.from('{"padding":"'), chunk, chunk, chunk, chunk, chunk, Buffer.from('"}')],
      });
      assert.equal(answer.status, 413);
      const parsed = JSON.parse(answer.body) as { success: boolean; error: string };
      assert.equal(parsed.success, false);
      assert.equal(typeof parsed.error, 'string');
    });
  });
});

describe('step 6: field validation', () => {
  test('a body with only the ids names every missing required field, one details item each', async () => {
    await storesNothing(server.deps, async () => {
      const res = await post({ store_id: shop.storeId, product_id: shop.productId });
      await expectError(res, 400, { fields: ['nombre', 'telefono', 'departamento', 'ciudad', 'direccion', 'unit_price', 'total_price'] });
    });
  });

  test('three bad fields give exactly three details items, one per field', async () => {
    const res = await post(body({ nombre: 7, quantity: 11.5, barrio: 'b'.repeat(101) }));
    await expectError(res, 400, { fields: ['nombre', 'quantity', 'barrio'] });
  });

  // Each limit of seed section 8, exactly at its boundary. `ok` values must also pass steps 7–9.
  const boundaries: { field: string; ok: unknown[]; bad: unknown[] }[] = [
    { field: 'nombre', ok: [wordsOfLength(2), wordsOfLength(100)], bad: [wordsOfLength(1), wordsOfLength(101), ''] },
    { field: 'departamento', ok: [wordsOfLength(2), wordsOfLength(50)], bad: [wordsOfLength(1), wordsOfLength(51)] },
    { field: 'ciudad', ok: [wordsOfLength(2), wordsOfLength(100)], bad: [wordsOfLength(1), wordsOfLength(101)] },
    { field: 'direccion', ok: ['Cl 12', wordsOfLength(300)], bad: ['Cl 1', wordsOfLength(301)] },
    { field: 'barrio', ok: [wordsOfLength(100), ''], bad: [wordsOfLength(101)] },
    { field: 'distrito', ok: [wordsOfLength(100)], bad: [wordsOfLength(101)] },
    { field: 'colonia', ok: [wordsOfLength(100)], bad: [wordsOfLength(101)] },
    { field: 'referencia', ok: [wordsOfLength(300)], bad: [wordsOfLength(301)] },
    { field: 'codigo_postal', ok: ['1'.repeat(15)], bad: ['1'.repeat(16)] },
    // 20 characters, and still a valid Colombian number once parsed; 21 is refused on length alone.
    { field: 'telefono', ok: ['+57 (300) 123 - 4567'], bad: ['+57  (300) 123 - 4567', '12345'] },
  ];

  for (const { field, ok, bad } of boundaries) {
    for (const value of ok) {
      const shown = typeof value === 'string' ? `length ${value.length}` : JSON.stringify(value);
      test(`${field} of ${shown} is accepted and stored trimmed`, async () => {
        const created = await expectCreated(await post(body({ [field]: value })));
        const row = await orderRow(server.deps, created.data.id);
        const stored = (row as unknown as Record<string, unknown>)[field === 'departamento' || field === 'ciudad' ? `${field}_input` : field];
        assert.equal(stored, value === '' ? null : value);
      });
    }
    for (const value of bad) {
      const shown = typeof value === 'string' ? `length ${value.length}` : JSON.stringify(value);
      test(`${field} of ${shown} is a 400 naming only ${field} and stores nothing`, async () => {
        await storesNothing(server.deps, async () => {
          await expectError(await post(body({ [field]: value })), 400, { fields: [field] });
        });
      });
    }
  }

  test('telefono of 6 characters passes the length check and 5 does not (PY store, where 6 digits is a possible number)', async () => {
    const py = await seedShop(server.deps, { country: 'PY', currency: 'PYG' });
    const headers = liveHeaders(py);
    const six = await expectCreated(await postOrder(server.url, orderBody(py, { telefono: '212345' }), headers));
    assert.equal((await orderRow(server.deps, six.data.id)).telefono_e164, '+595212345');
    const bad = await expectError(await postOrder(server.url, orderBody(py, { telefono: '21234' }), headers), 400, { fields: ['telefono'] });
    assert.match(bad.details![0]!.message, /at least 6/);
  });

  test('telefono of 6 characters that is not a Colombian number fails the country rule, not the length rule', async () => {
    const res = await expectError(await post(body({ telefono: '300123' })), 400, { fields: ['telefono'] });
    assert.doesNotMatch(res.details![0]!.message, /at least/);
  });

  test('strings are trimmed before the length check: "  a  " as nombre is a 400', async () => {
    await storesNothing(server.deps, async () => {
      await expectError(await post(body({ nombre: '  a  ' })), 400, { fields: ['nombre'] });
    });
  });

  test('a direccion of 4 characters padded with spaces is a 400', async () => {
    await expectError(await post(body({ direccion: '   Cl 1   ' })), 400, { fields: ['direccion'] });
  });

  test('a nombre of 100 characters plus surrounding spaces is accepted and stored without them', async () => {
    const name = wordsOfLength(100);
    const created = await expectCreated(await post(body({ nombre: `   ${name}   ` })));
    assert.equal((await orderRow(server.deps, created.data.id)).nombre, name);
  });

  for (const [q, ok] of [
    [1, true],
    [10, true],
    [0, false],
    [11, false],
    [-1, false],
    [1.5, false],
    ['2', false],
    [null, false],
  ] as const) {
    test(`quantity ${JSON.stringify(q)} is ${ok ? 'accepted' : 'a 400 naming quantity'}`, async () => {
      const n = typeof q === 'number' && Number.isInteger(q) && q > 0 ? q : 1;
      const res = await post(body({ quantity: q, unit_price: 100000, total_price: 100000 * n }));
      if (ok) assert.equal((await orderRow(server.deps, (await expectCreated(res)).data.id)).quantity, q);
      else await expectError(res, 400, { fields: ['quantity'] });
    });
  }

  test('quantity defaults to 1 and pack to 1x when absent', async () => {
    const { quantity: _q, pack: _p, ...rest } = body();
    const created = await expectCreated(await post(rest));
    const row = await orderRow(server.deps, created.data.id);
    assert.equal(row.quantity, 1);
    assert.equal(row.pack, '1x');
    assert.equal(row.pack_units, 1);
  });

  test('a number as nombre is a 400 naming nombre', async () => {
    await expectError(await post(body({ nombre: 12345 })), 400, { fields: ['nombre'] });
  });

  test('a string as total_price is a 400 naming total_price', async () => {
    await storesNothing(server.deps, async () => {
      await expectError(await post(body({ total_price: '100000' })), 400, { fields: ['total_price'] });
    });
  });

  test('a string as unit_price and an object as ciudad give two details items', async () => {
    await expectError(await post(body({ unit_price: '1', ciudad: { name: 'Medellín' } })), 400, { fields: ['unit_price', 'ciudad'] });
  });

  test('a total_price with three decimals is a 400 naming total_price', async () => {
    await storesNothing(server.deps, async () => {
      await expectError(await post(body({ total_price: 100000.001 })), 400, { fields: ['total_price'] });
    });
  });

  test('a unit_price with three decimals is a 400 naming unit_price', async () => {
    await expectError(await post(body({ unit_price: 99999.999 })), 400, { fields: ['unit_price'] });
  });

  test('prices with two decimals are accepted and stored in minor units', async () => {
    const created = await expectCreated(await post(body({ unit_price: 100000.25, total_price: 100000.25 })));
    assert.equal(created.data.total_price, 100000.25);
    const row = await orderRow(server.deps, created.data.id);
    assert.equal(row.total_price_minor, 10000025);
    assert.equal(row.unit_price_minor, 10000025);
  });

  test('a negative total_price is a 400 naming total_price', async () => {
    await expectError(await post(body({ total_price: -1 })), 400, { fields: ['total_price'] });
  });

  test('unknown fields are ignored and the order is created', async () => {
    const created = await expectCreated(await post(body({ color: 'rojo', utm: { source: 'ig' }, extra: [1, 2] })));
    assert.equal((await orderRow(server.deps, created.data.id)).nombre, 'Ana Gómez');
  });

  test('unknown fields named like server-owned ones cannot set them', async () => {
    const created = await expectCreated(
      await post(body({ id: '00000000-0000-4000-8000-000000000000', status: 'delivered', sandbox: true, needs_review: true, order_number: 1, currency: 'USD', api_key_id: null })),
    );
    assert.notEqual(created.data.id, '00000000-0000-4000-8000-000000000000');
    const row = await orderRow(server.deps, created.data.id);
    assert.equal(row.status, 'pending');
    assert.equal(row.sandbox, 0);
    assert.equal(row.needs_review, 0);
    assert.ok(row.order_number >= 1001);
    assert.equal(row.currency, 'COP');
    assert.equal(row.api_key_id, shop.liveKeyId);
  });

  test('optional fields sent as null are accepted and stored as null', async () => {
    const created = await expectCreated(await post(body({ barrio: null, referencia: null, codigo_postal: null })));
    const row = await orderRow(server.deps, created.data.id);
    assert.equal(row.barrio, null);
    assert.equal(row.referencia, null);
    assert.equal(row.codigo_postal, null);
  });
});

describe('step 7: country rules', () => {
  let mx: Shop;
  before(async () => {
    mx = await seedShop(server.deps, { country: 'MX', currency: 'MXN' });
  });
  const mxBody = (over: Record<string, unknown> = {}) =>
    orderBody(mx, { telefono: '55 1234 5678', departamento: 'Ciudad de México', ciudad: 'Benito Juárez', colonia: 'Del Valle', ...over });

  test('an MX order without codigo_postal is a 400 naming codigo_postal and stores nothing', async () => {
    await storesNothing(server.deps, async () => {
      await expectError(await postOrder(server.url, mxBody(), liveHeaders(mx)), 400, { fields: ['codigo_postal'] });
    });
  });

  test('an MX order with an empty codigo_postal is a 400 naming codigo_postal', async () => {
    await expectError(await postOrder(server.url, mxBody({ codigo_postal: '   ' }), liveHeaders(mx)), 400, { fields: ['codigo_postal'] });
  });

  test('an MX order with codigo_postal is created in MXN with the phone stored as E.164', async () => {
    const created = await expectCreated(await postOrder(server.url, mxBody({ codigo_postal: '03100' }), liveHeaders(mx)));
    assert.equal(created.data.currency, 'MXN');
    const row = await orderRow(server.deps, created.data.id);
    assert.equal(row.codigo_postal, '03100');
    assert.equal(row.telefono_e164, '+525512345678');
  });

  test('field validation runs before country rules: a bad nombre in an MX order without codigo_postal names only nombre', async () => {
    await expectError(await postOrder(server.url, mxBody({ nombre: 'A' }), liveHeaders(mx)), 400, { fields: ['nombre'] });
  });

  test('an ES store also requires codigo_postal', async () => {
    const es = await seedShop(server.deps, { country: 'ES', currency: 'EUR' });
    await expectError(await postOrder(server.url, orderBody(es, { telefono: '612 345 678' }), liveHeaders(es)), 400, { fields: ['codigo_postal'] });
    await expectCreated(await postOrder(server.url, orderBody(es, { telefono: '612 345 678', codigo_postal: '28013' }), liveHeaders(es)));
  });

  test('an AR order without codigo_postal is accepted', async () => {
    const ar = await seedShop(server.deps, { country: 'AR', currency: 'ARS' });
    await expectCreated(await postOrder(server.url, orderBody(ar, { telefono: '11 2345 6789' }), liveHeaders(ar)));
  });

  test('a phone that is not possible in Colombia is a 400 naming telefono and stores nothing', async () => {
    await storesNothing(server.deps, async () => {
      await expectError(await post(body({ telefono: '123456789' })), 400, { fields: ['telefono'] });
    });
  });

  test('a Mexican number in a Colombian store is a 400 naming telefono', async () => {
    await expectError(await post(body({ telefono: '+52 55 1234 5678' })), 400, { fields: ['telefono'] });
  });

  test('a Colombian phone is stored as E.164 beside the text as submitted', async () => {
    const before = await counts(server.deps);
    const created = await expectCreated(await post(body({ telefono: '  300 765 4321 ' })));
    const row = await orderRow(server.deps, created.data.id);
    assert.equal(row.telefono_e164, '+573007654321');
    assert.equal(row.telefono, '300 765 4321');
    assert.equal((await counts(server.deps)).orders, before.orders + 1);
  });
});
