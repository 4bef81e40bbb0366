// A store's own words on the buyer's page (issue 23 §2): `delivery_time` and `guarantee` are store
// settings (create_store, update_store; REST, MCP and CLI derived from one declaration) that the
// landing page's first screen shows in its trust line after "Pago contra entrega".
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openShop, addLanding, type Shop } from '../../helpers/fixtures.ts';
import type { TestServer } from '../../helpers/server.ts';
import { OPEN_LIMITS } from '../orders/order-kit.ts';
import { V1Client, failed, ok, storesNothing } from './v1-kit.ts';
import { STORE_TRUST_MAX } from '../../../src/limits.ts';

const STORES = '/api/v1/stores';
const STORE = '/api/v1/stores/{store_id}';

describe('a store’s delivery time and guarantee', () => {
  let server: TestServer;
  let shop: Shop;
  let v1: V1Client;
  let page = '';

  before(async () => {
    ({ server, shop } = await openShop(OPEN_LIMITS));
    v1 = await V1Client.open(server, shop.secretKey);
    const landing = await addLanding(server.deps, { product_id: shop.productId, slug: 'faja-confianza', publish: true });
    page = `${server.url}/l/${landing.slug}`;
  });
  after(() => server.close());

  const trustLine = async () => {
    const html = await (await fetch(page)).text();
    return [...(/<ul class="trust">(.*?)<\/ul>/.exec(html)?.[1] ?? '').matchAll(/<li>(?:<svg.*?<\/svg>)?(.*?)<\/li>/g)].map((m) => m[1]);
  };

  test('a new store takes both, get_store shows them, and a store without them answers null', async () => {
    const created = ok(await v1.post(STORES, { body: { name: 'Tienda con promesas', country: 'CO', delivery_time: ' Entrega en 24 horas en Bogotá ', guarantee: 'Garantía de 60 días' } }), 201);
    assert.equal(created.delivery_time, 'Entrega en 24 horas en Bogotá');
    assert.equal(created.guarantee, 'Garantía de 60 días');
    const plain = ok(await v1.get(STORE, { params: { store_id: shop.storeId } }));
    assert.deepEqual([plain.delivery_time, plain.guarantee], [null, null]);
  });

  test('update_store sets them, the page’s trust line shows them after cash on delivery, and "" removes one', async () => {
    assert.deepEqual(await trustLine(), ['Pago contra entrega'], 'cash on delivery is every store’s');
    const updated = ok(await v1.patch(STORE, { params: { store_id: shop.storeId }, body: { delivery_time: 'Entrega en 2 a 5 días hábiles', guarantee: 'Garantía de 30 días' } }));
    assert.deepEqual([updated.delivery_time, updated.guarantee], ['Entrega en 2 a 5 días hábiles', 'Garantía de 30 días']);
    assert.deepEqual(await trustLine(), ['Pago contra entrega', 'Entrega en 2 a 5 días hábiles', 'Garantía de 30 días']);
    const cleared = ok(await v1.patch(STORE, { params: { store_id: shop.storeId }, body: { guarantee: '' } }));
    assert.equal(cleared.guarantee, null);
    assert.deepEqual(await trustLine(), ['Pago contra entrega', 'Entrega en 2 a 5 días hábiles']);
  });

  test('a line longer than the limit, or with markup-breaking control characters, is refused on its field and changes nothing', async () => {
    const long = await storesNothing(server.deps, () => v1.patch(STORE, { params: { store_id: shop.storeId }, body: { delivery_time: 'x'.repeat(STORE_TRUST_MAX + 1) } }));
    failed(long, 400, ['delivery_time']);
    const control = await storesNothing(server.deps, () => v1.patch(STORE, { params: { store_id: shop.storeId }, body: { guarantee: 'Garantía\u0000 total' } }));
    failed(control, 400, ['guarantee']);
  });

  test('text that looks like markup is shown as text on the page', async () => {
    ok(await v1.patch(STORE, { params: { store_id: shop.storeId }, body: { guarantee: '<script>alert(1)</script> 30 días' } }));
    assert.deepEqual((await trustLine()).at(-1), '&lt;script&gt;alert(1)&lt;/script&gt; 30 días');
  });
});
