// create_order's landing_page_id and notes (issue 24 §7; MCP-TOOLS.md row 37) through the real SDK
// client: the page a phone sale came from is recorded on the order, and the first internal note is
// an order.note event written with the order, both in its transaction and part of its idempotency.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { addLanding, addProduct, seedShop, type Shop } from '../helpers/fixtures.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { OPEN_LIMITS, eventsOf, nextPhone, orderRow, storesNothing } from '../api/orders/order-kit.ts';
import { buyer, call, connect } from './mcp-kit.ts';

describe('create_order with landing_page_id and notes', () => {
  let server: TestServer;
  let shop: Shop;
  let other: Shop;
  let client: Client;
  let otherProductLanding = '';
  let keySeq = 0;

  before(async () => {
    server = await startServer(OPEN_LIMITS);
    shop = await seedShop(server.deps);
    other = await seedShop(server.deps);
    const product = await addProduct(server.deps, { store_id: shop.storeId, name: 'Crema', packs: [{ quantity: 1, price: 50000 }] });
    otherProductLanding = (await addLanding(server.deps, { product_id: product.id, slug: 'crema-fields' })).id;
    client = await connect(server.url, shop.secretKey);
  });
  after(async () => {
    await client?.close();
    await server?.close();
  });

  const create = (over: Record<string, unknown> = {}, key = `fields-${++keySeq}`) =>
    call(client, 'create_order', { store_id: shop.storeId, product_id: shop.productId, buyer: buyer({ telefono: nextPhone() }), idempotency_key: key, ...over });

  test('the landing page is recorded on the order and the note is its second event, by the same actor', async () => {
    const { isError, value } = await create({ landing_page_id: shop.landingId, notes: 'Llamada entrante: pide entrega en la tarde.' });
    assert.equal(isError, false, JSON.stringify(value));
    const row = await orderRow(server.deps, value.id);
    assert.equal(row.landing_page_id, shop.landingId);
    const events = await eventsOf(server.deps, value.id);
    assert.deepEqual(events.map((e) => e.type), ['order.created', 'order.note']);
    assert.deepEqual(JSON.parse(events[1]!.data), { text: 'Llamada entrante: pide entrega en la tarde.' });
    assert.equal(events[1]!.actor, events[0]!.actor);
    assert.equal(events[1]!.created_at, events[0]!.created_at);
  });

  test('a retry with the same key and note answers the same order; the same key with another note is refused', async () => {
    const args = { buyer: buyer({ telefono: nextPhone() }), notes: 'Primera nota' };
    const first = await create(args, 'fields-retry');
    const again = await create(args, 'fields-retry');
    assert.equal(again.value.id, first.value.id);
    assert.equal(again.value.replayed, true);
    assert.equal((await eventsOf(server.deps, first.value.id)).filter((e) => e.type === 'order.note').length, 1, 'one note, not two');
    const changed = await storesNothing(server.deps, () => create({ ...args, notes: 'Otra nota' }, 'fields-retry'));
    assert.equal(changed.isError, true);
    assert.equal(changed.value.error.code, 'conflict');
    assert.equal(changed.value.error.field, 'idempotency_key');
  });

  test('a landing page of another product, or of another account, is refused on landing_page_id and stores nothing', async () => {
    for (const landing of [otherProductLanding, other.landingId]) {
      const { isError, value } = await storesNothing(server.deps, () => create({ landing_page_id: landing }));
      assert.equal(isError, true);
      assert.equal(value.error.code, 'invalid_input');
      assert.equal(value.error.field, 'landing_page_id');
    }
  });

  test('a note over 1,000 characters is refused on notes', async () => {
    const { isError, value } = await storesNothing(server.deps, () => create({ notes: 'x'.repeat(1001) }));
    assert.equal(isError, true);
    assert.equal(value.error.field, 'notes');
  });
});
