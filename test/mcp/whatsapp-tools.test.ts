// WhatsApp settings and previews through the SDK client and the CLI (MCP-TOOLS.md §6.10 rows
// 57-59; issue 12): defaults until a store writes its own, partial updates, the catalog's
// placeholders only, previews filled from the order without queuing anything.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { addProduct, addStore, type Shop } from '../helpers/fixtures.ts';
import type { TestServer } from '../helpers/server.ts';
import { cliJson } from '../helpers/cli-expect.ts';
import { nextPhone } from '../api/orders/order-kit.ts';
import { DEFAULT_TEMPLATES } from '../../src/domain/whatsapp-template.ts';
import { buyer, call, connect } from './mcp-kit.ts';
import { closeToolBench, expectForeignLikeUnknown, expectInsufficientScope, expectToolError, ok, openToolBench, unchanged } from './account-kit.ts';

describe('whatsapp tools', () => {
  let server: TestServer, shop: Shop, other: Shop, client: Client;
  let tokens: { storesRead: string };
  before(async () => ({ server, shop, other, client, tokens } = await openToolBench({ storesRead: ['stores:read'] })));
  after(() => closeToolBench({ server, client }));

  const stored = (storeId: string) => server.deps.db.selectFrom('whatsapp_settings').selectAll().where('store_id', '=', storeId).executeTakeFirst();
  let seq = 0;
  const order = async (s: { storeId: string; productId: string } = shop) =>
    (await ok(client, 'create_order', { store_id: s.storeId, product_id: s.productId, pack: '2x', buyer: buyer({ nombre: 'Ana María Gómez', telefono: nextPhone() }), idempotency_key: `wa-${++seq}` })).id as string;
  /** A store of the account of its own with the seeded Faja's packs, for a test that reads or writes its settings. */
  const newStore = async () => {
    const storeId = (await addStore(server.deps, shop.accountId, { name: 'Tienda', country: 'CO' })).id;
    const packs = [{ quantity: 1, price: 100000 }, { quantity: 2, price: 180000 }, { quantity: 3, price: 240000 }];
    return { storeId, productId: (await addProduct(server.deps, { store_id: storeId, name: 'Faja', packs })).id };
  };

  test('get_whatsapp_settings of a store never configured is off, every event off, the default Spanish templates, and stores nothing', async () => {
    const { storeId } = await newStore();
    const value = await unchanged(server.deps, () => ok(client, 'get_whatsapp_settings', { store_id: storeId }));
    assert.equal(value.enabled, false);
    assert.deepEqual(value.events, { order_created: false, order_confirmed: false, order_shipped: false, order_delivered: false });
    assert.deepEqual(value.templates, DEFAULT_TEMPLATES);
    assert.deepEqual(value.placeholders, ['{nombre}', '{producto}', '{total}', '{ciudad}', '{direccion}', '{tracking}']);
  });

  test('update_whatsapp_settings stores what it is given, keeps what it is not, and normalizes the sender to E.164', async () => {
    const { storeId } = await newStore();
    await ok(client, 'update_whatsapp_settings', { store_id: storeId, enabled: true, sender_number: '300 123 4567', events: { order_created: true }, templates: { order_created: 'Hola {nombre}, tu pedido de {producto}: {total}.' } });
    const value = await ok(client, 'update_whatsapp_settings', { store_id: storeId, events: { order_shipped: true } });
    assert.equal(value.enabled, true);
    assert.equal(value.sender_number, '+573001234567');
    assert.deepEqual(value.events, { order_created: true, order_confirmed: false, order_shipped: true, order_delivered: false });
    assert.equal(value.templates.order_created, 'Hola {nombre}, tu pedido de {producto}: {total}.');
    assert.equal(value.templates.order_shipped, DEFAULT_TEMPLATES.order_shipped);
    const row = (await stored(storeId))!;
    assert.equal(row.enabled, 1);
    assert.deepEqual(JSON.parse(row.templates), { order_created: 'Hola {nombre}, tu pedido de {producto}: {total}.' });
  });

  test('a template with an unknown placeholder, an unknown template key or a bad sender is invalid_input and nothing changes', async () => {
    await expectToolError(server.deps, client, 'update_whatsapp_settings', { store_id: shop.storeId, templates: { order_created: 'Hola {nombre}, paga {precio}' } }, 'invalid_input', 'templates.order_created');
    await expectToolError(server.deps, client, 'update_whatsapp_settings', { store_id: shop.storeId, templates: { order_cancelled: 'x' } }, 'invalid_input', 'templates.order_cancelled');
    await expectToolError(server.deps, client, 'update_whatsapp_settings', { store_id: shop.storeId, sender_number: '12' }, 'invalid_input', 'sender_number');
  });

  test('a token with only stores:read reads the settings but gets 403 on update_whatsapp_settings, and nothing is stored', async () => {
    const reader = await connect(server.url, tokens.storesRead);
    try {
      assert.equal((await call(reader, 'get_whatsapp_settings', { store_id: shop.storeId })).isError, false);
    } finally {
      await reader.close();
    }
    await expectInsufficientScope(server, tokens.storesRead, ['mcp:invoke', 'stores:read'], 'update_whatsapp_settings', { store_id: shop.storeId, enabled: false }, 'whatsapp:write');
  });

  test('preview_whatsapp_message fills a store template or a text from the order and queues nothing', async () => {
    const store = await newStore();
    await ok(client, 'update_whatsapp_settings', { store_id: store.storeId, templates: { order_created: 'Hola {nombre}, tu pedido de {producto}: {total}.' } });
    const id = await order(store);
    const preview = await unchanged(server.deps, () => ok(client, 'preview_whatsapp_message', { order_id: id, template: 'order_created' }));
    assert.equal(preview.text, 'Hola Ana, tu pedido de Faja (2 unidades): $\u00a0180.000.');
    assert.match(preview.to, /^\+573/);
    const text = await ok(client, 'preview_whatsapp_message', { order_id: id, text: 'Va para {ciudad}, guía {tracking}' });
    assert.equal(text.text, 'Va para Medellín, guía pendiente');
    assert.equal(text.template, null);
  });

  test('a preview with both or neither of template and text, or an unknown placeholder, is invalid_input', async () => {
    const id = await order();
    await expectToolError(server.deps, client, 'preview_whatsapp_message', { order_id: id }, 'invalid_input', 'template');
    await expectToolError(server.deps, client, 'preview_whatsapp_message', { order_id: id, template: 'order_created', text: 'x' }, 'invalid_input', 'template');
    await expectToolError(server.deps, client, 'preview_whatsapp_message', { order_id: id, text: '{precio}' }, 'invalid_input', 'text');
  });

  test("another account's store and order are not_found like unknown ids", async () => {
    await expectForeignLikeUnknown(server.deps, client, 'get_whatsapp_settings', (id) => ({ store_id: id }), other.storeId, 'store_id');
    await expectForeignLikeUnknown(server.deps, client, 'update_whatsapp_settings', (id) => ({ store_id: id, enabled: true }), other.storeId, 'store_id');
  });

  test('codrail whatsapp settings update and preview give the same answers from the CLI', async () => {
    const store = await newStore();
    const { json } = await cliJson(server.dbFile, ['whatsapp', 'settings', 'update', store.storeId, '--enabled', '--templates', '{"order_confirmed":"Confirmado, {nombre}"}']);
    assert.equal(json.templates.order_confirmed, 'Confirmado, {nombre}');
    const id = await order(store);
    const preview = await cliJson(server.dbFile, ['whatsapp', 'preview', id, '--template', 'order_confirmed']);
    assert.equal(preview.json.text, 'Confirmado, Ana');
  });
});
