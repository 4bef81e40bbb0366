// Live answers of every /api/v1 operation against the served /openapi.json (SPEC 4.3, seed 9): each
// operation is called once on its happy path and on its main refusals, and every answer must be a
// status the document lists for that operation with a body matching the documented schema.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assignNumber, openShop, seedShop, type Shop } from '../../helpers/fixtures.ts';
import type { TestServer } from '../../helpers/server.ts';
import { HTTP_METHODS } from '../../helpers/openapi.ts';
import { buyer } from '../../mcp/mcp-kit.ts';
import { OPEN_LIMITS, nextPhone } from '../orders/order-kit.ts';
import { UNKNOWN_ID, V1Client, failed, ok, storesNothing, type CallOptions } from './v1-kit.ts';
import { startSimulator, type Simulator } from '../../../src/platforms/generic/simulator.ts';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { photo, startImageHost, type ImageHost } from '../../helpers/image-host.ts';

interface Step {
  op: string;
  method: string;
  path: string;
  options?: () => CallOptions;
  status?: number;
  /** Keeps ids from the answer for later steps. */
  then?: (data: any) => void;
}

describe('the account API answers as /openapi.json documents', () => {
  let server: TestServer;
  let shop: Shop;
  let v1: V1Client;
  let sim: Simulator;
  /** A merchant's webhook receiver on loopback (the server allows private addresses here). */
  let receiver: Server;
  let receiverUrl = '';
  /** The seller's image host, on loopback too, and an image file to upload. */
  let imageHost: ImageHost;
  let png: Buffer;
  const upload = () => ({ raw: png, headers: { 'content-type': 'image/png' } });
  /** operationId → [method, path template] of every /api/v1 operation in the document. */
  const documented = new Map<string, [string, string]>();

  before(async () => {
    // The fulfillment operations talk to a platform: the simulator, without a worker (tools push inline).
    sim = await startSimulator({});
    receiver = createServer((req, res) => req.resume().on('end', () => res.writeHead(204).end()));
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    imageHost = await startImageHost();
    imageHost.serve('/a.jpg', await photo({ width: 400, height: 300 }));
    png = await photo({ width: 300, height: 200, seed: 2, format: 'png' });
    ({ server, shop } = await openShop({ ...OPEN_LIMITS, fulfillmentUrl: sim.url }, { env: { CODRAIL_WEBHOOKS_ALLOW_PRIVATE: '1', CODRAIL_IMAGE_URLS_ALLOW_PRIVATE: '1' } }));
    await seedShop(server.deps);
    await assignNumber(server.deps, shop.accountId, '106540352242922');
    v1 = await V1Client.open(server, shop.secretKey);
    for (const [path, item] of Object.entries(v1.api.doc.paths))
      if (path.startsWith('/api/v1/')) for (const method of HTTP_METHODS) if (item[method]) documented.set(item[method].operationId!, [method.toUpperCase(), path]);
  });
  after(async () => {
    await server.close();
    await sim.close();
    await new Promise((resolve) => receiver.close(resolve));
    await imageHost.close();
  });

  const ids = { store: '', product: '', landing: '', key: '', order: '', message: '', endpoint: '', event: '' };

  // One happy call per operation, in an order where each finds what it needs.
  const steps: Step[] = [
    { op: 'get_account', method: 'GET', path: '/api/v1/account' },
    { op: 'list_countries', method: 'GET', path: '/api/v1/countries' },
    { op: 'list_regions', method: 'GET', path: '/api/v1/countries/{country}/regions', options: () => ({ params: { country: 'CO' } }) },
    { op: 'list_cities', method: 'GET', path: '/api/v1/cities', options: () => ({ query: { country: 'CO', limit: 3 } }) },
    { op: 'canonicalize_city', method: 'GET', path: '/api/v1/cities/canonicalize', options: () => ({ query: { country: 'CO', city: 'Medellin' } }) },
    { op: 'normalize_phone', method: 'GET', path: '/api/v1/phones/normalize', options: () => ({ query: { country: 'CO', phone: '3001234567' } }) },
    { op: 'create_store', method: 'POST', path: '/api/v1/stores', status: 201, options: () => ({ body: { name: 'Tienda', country: 'CO' } }), then: (d) => (ids.store = d.id) },
    { op: 'list_stores', method: 'GET', path: '/api/v1/stores', options: () => ({ query: { limit: 1 } }) },
    { op: 'get_store', method: 'GET', path: '/api/v1/stores/{store_id}', options: () => ({ params: { store_id: ids.store } }) },
    { op: 'update_store', method: 'PATCH', path: '/api/v1/stores/{store_id}', options: () => ({ params: { store_id: ids.store }, body: { support_phone: '3001234567' } }) },
    { op: 'add_store_domain', method: 'POST', path: '/api/v1/stores/{store_id}/domains', options: () => ({ params: { store_id: ids.store }, body: { domain: 'shop.example.com' } }) },
    {
      op: 'create_product',
      method: 'POST',
      path: '/api/v1/products',
      status: 201,
      options: () => ({ body: { store_id: ids.store, name: 'Faja', status: 'active', stock: 3, packs: [{ quantity: 1, price: 90000, compare_at_price: 120000, label: 'Oferta' }] } }),
      then: (d) => (ids.product = d.id),
    },
    { op: 'list_products', method: 'GET', path: '/api/v1/products', options: () => ({ query: { store_id: ids.store } }) },
    { op: 'get_product', method: 'GET', path: '/api/v1/products/{product_id}', options: () => ({ params: { product_id: ids.product } }) },
    { op: 'update_product', method: 'PATCH', path: '/api/v1/products/{product_id}', options: () => ({ params: { product_id: ids.product }, body: { images: [{ url: imageHost.url('/a.jpg') }] } }) },
    { op: 'add_product_image', method: 'POST', path: '/api/v1/products/{product_id}/images', options: () => ({ params: { product_id: ids.product }, query: { alt: 'Faja de lado' }, ...upload() }) },
    { op: 'rehost_product_images', method: 'POST', path: '/api/v1/product-images/rehost', options: () => ({ body: { store_id: ids.store } }) },
    { op: 'set_product_stock', method: 'PUT', path: '/api/v1/products/{product_id}/stock', options: () => ({ params: { product_id: ids.product }, body: { quantity: 4 } }) },
    { op: 'set_product_packs', method: 'PUT', path: '/api/v1/products/{product_id}/packs', options: () => ({ params: { product_id: ids.product }, body: { packs: [{ quantity: 1, price: 90000 }, { quantity: 2, price: 160000, min_price: 150000 }] } }) },
    { op: 'update_pack_prices', method: 'POST', path: '/api/v1/pack-prices', options: () => ({ body: { updates: [{ product_id: ids.product, quantity: 2, price: 165000 }] } }) },
    { op: 'set_price_floor', method: 'PUT', path: '/api/v1/products/{product_id}/price-floor', options: () => ({ params: { product_id: ids.product }, body: { min_unit_price: 50000 } }) },
    { op: 'quote_product_price', method: 'GET', path: '/api/v1/products/{product_id}/quote', options: () => ({ params: { product_id: ids.product }, query: { quantity: 4 } }) },
    { op: 'duplicate_product', method: 'POST', path: '/api/v1/products/{product_id}/duplicate', status: 201, options: () => ({ params: { product_id: ids.product }, body: { name: 'Faja 2' } }) },
    {
      op: 'create_landing_page',
      method: 'POST',
      path: '/api/v1/landing-pages',
      status: 201,
      options: () => ({ body: { product_id: ids.product, slug: 'doc-page', sections: [{ type: 'hero', heading: 'Faja' }], theme: { font: 'mono' } } }),
      then: (d) => (ids.landing = d.id),
    },
    { op: 'list_landing_pages', method: 'GET', path: '/api/v1/landing-pages', options: () => ({ query: { product_id: ids.product } }) },
    { op: 'get_landing_page', method: 'GET', path: '/api/v1/landing-pages/{landing_page_id}', options: () => ({ params: { landing_page_id: ids.landing } }) },
    { op: 'update_landing_page', method: 'PATCH', path: '/api/v1/landing-pages/{landing_page_id}', options: () => ({ params: { landing_page_id: ids.landing }, body: { seo_title: 'Faja' } }) },
    {
      op: 'set_landing_sections',
      method: 'PUT',
      path: '/api/v1/landing-pages/{landing_page_id}/sections',
      options: () => ({ params: { landing_page_id: ids.landing }, body: { sections: [{ type: 'benefits', items: [{ title: 'Cómoda' }] }] } }),
    },
    { op: 'publish_landing_page', method: 'POST', path: '/api/v1/landing-pages/{landing_page_id}/publish', options: () => ({ params: { landing_page_id: ids.landing } }) },
    {
      op: 'create_order',
      method: 'POST',
      path: '/api/v1/orders',
      status: 201,
      options: () => ({ body: { store_id: ids.store, product_id: ids.product, buyer: buyer({ telefono: nextPhone() }), idempotency_key: 'doc-1' } }),
      then: (d) => (ids.order = d.id),
    },
    { op: 'list_orders', method: 'GET', path: '/api/v1/orders', options: () => ({ query: { store_id: ids.store, status: ['pending'] } }) },
    { op: 'get_order', method: 'GET', path: '/api/v1/orders/{order_id}', options: () => ({ params: { order_id: ids.order } }) },
    { op: 'update_order_status', method: 'POST', path: '/api/v1/orders/{order_id}/status', options: () => ({ params: { order_id: ids.order }, body: { status: 'confirmed', note: 'Llamada: confirma' } }) },
    { op: 'update_order_buyer', method: 'PATCH', path: '/api/v1/orders/{order_id}/buyer', options: () => ({ params: { order_id: ids.order }, body: { referencia: 'Casa azul' } }) },
    { op: 'add_order_note', method: 'POST', path: '/api/v1/orders/{order_id}/notes', options: () => ({ params: { order_id: ids.order }, body: { text: 'Entregar en la tarde' } }) },
    { op: 'resolve_order_city', method: 'POST', path: '/api/v1/orders/{order_id}/city', options: () => ({ params: { order_id: ids.order }, body: { region: 'antioquia', city: 'medellin' } }) },
    { op: 'list_order_events', method: 'GET', path: '/api/v1/orders/{order_id}/events', options: () => ({ params: { order_id: ids.order }, query: { limit: 2 } }) },
    { op: 'get_fulfillment_connection', method: 'GET', path: '/api/v1/stores/{store_id}/fulfillment', options: () => ({ params: { store_id: ids.store } }) },
    { op: 'set_fulfillment_credentials', method: 'PUT', path: '/api/v1/stores/{store_id}/fulfillment', options: () => ({ params: { store_id: ids.store }, body: { api_token: 'doc-platform-token-0001' } }) },
    { op: 'test_fulfillment_connection', method: 'POST', path: '/api/v1/stores/{store_id}/fulfillment/test', options: () => ({ params: { store_id: ids.store } }) },
    { op: 'list_fulfillment_products', method: 'GET', path: '/api/v1/stores/{store_id}/fulfillment/products', options: () => ({ params: { store_id: ids.store }, query: { query: 'faja', limit: 5 } }) },
    { op: 'link_product_to_fulfillment', method: 'PUT', path: '/api/v1/products/{product_id}/fulfillment', options: () => ({ params: { product_id: ids.product }, body: { fulfillment_product_id: 'DP-1001', fulfillment_variant_id: 'DP-1001-V2' } }) },
    { op: 'push_confirmed_orders', method: 'POST', path: '/api/v1/stores/{store_id}/push-confirmed', options: () => ({ params: { store_id: ids.store }, body: { dry_run: true } }) },
    { op: 'push_order_to_fulfillment', method: 'POST', path: '/api/v1/orders/{order_id}/push', options: () => ({ params: { order_id: ids.order } }) },
    { op: 'list_push_jobs', method: 'GET', path: '/api/v1/fulfillment/jobs', options: () => ({ query: { store_id: ids.store, limit: 5 } }) },
    { op: 'replay_pushes', method: 'POST', path: '/api/v1/fulfillment/replay', options: () => ({ body: { order_id: ids.order } }) },
    { op: 'sync_fulfillment_status', method: 'POST', path: '/api/v1/stores/{store_id}/fulfillment/sync', options: () => ({ params: { store_id: ids.store }, body: {} }) },
    {
      op: 'create_webhook_endpoint',
      method: 'POST',
      path: '/api/v1/webhook-endpoints',
      status: 201,
      options: () => ({ body: { store_id: ids.store, url: receiverUrl, event_types: ['*'], description: 'ERP' } }),
      then: (d) => (ids.endpoint = d.id),
    },
    { op: 'list_webhook_endpoints', method: 'GET', path: '/api/v1/webhook-endpoints', options: () => ({ query: { store_id: ids.store } }) },
    { op: 'get_webhook_endpoint', method: 'GET', path: '/api/v1/webhook-endpoints/{endpoint_id}', options: () => ({ params: { endpoint_id: ids.endpoint } }) },
    { op: 'update_webhook_endpoint', method: 'PATCH', path: '/api/v1/webhook-endpoints/{endpoint_id}', options: () => ({ params: { endpoint_id: ids.endpoint }, body: { description: 'ERP principal' } }) },
    { op: 'test_webhook_endpoint', method: 'POST', path: '/api/v1/webhook-endpoints/{endpoint_id}/test', options: () => ({ params: { endpoint_id: ids.endpoint } }) },
    { op: 'rotate_webhook_secret', method: 'POST', path: '/api/v1/webhook-endpoints/{endpoint_id}/rotate-secret', options: () => ({ params: { endpoint_id: ids.endpoint }, body: { grace_minutes: 60 } }) },
    { op: 'get_whatsapp_settings', method: 'GET', path: '/api/v1/stores/{store_id}/whatsapp', options: () => ({ params: { store_id: ids.store } }) },
    { op: 'update_whatsapp_settings', method: 'PATCH', path: '/api/v1/stores/{store_id}/whatsapp', options: () => ({ params: { store_id: ids.store }, body: { enabled: true, phone_number_id: '106540352242922', events: { order_created: true }, templates: { order_created: 'Hola {nombre}: {total}' } } }) },
    { op: 'preview_whatsapp_message', method: 'GET', path: '/api/v1/orders/{order_id}/whatsapp-preview', options: () => ({ params: { order_id: ids.order }, query: { template: 'order_created' } }) },
    {
      op: 'send_whatsapp_message',
      method: 'POST',
      path: '/api/v1/orders/{order_id}/whatsapp',
      status: 201,
      options: () => ({ params: { order_id: ids.order }, body: { text: 'Hola {nombre}, ¿confirmas la dirección?', idempotency_key: 'doc-whatsapp-1' } }),
      then: (d) => (ids.message = d.id),
    },
    { op: 'list_whatsapp_messages', method: 'GET', path: '/api/v1/whatsapp/messages', options: () => ({ query: { order_id: ids.order, status: 'queued' } }) },
    { op: 'cancel_whatsapp_message', method: 'POST', path: '/api/v1/whatsapp/messages/{message_id}/cancel', options: () => ({ params: { message_id: ids.message } }) },
    { op: 'cancel_order', method: 'POST', path: '/api/v1/orders/{order_id}/cancel', options: () => ({ params: { order_id: ids.order }, body: { reason: 'buyer_declined', note: 'Ya no lo quiere' } }) },
    { op: 'list_webhook_events', method: 'GET', path: '/api/v1/webhook-events', options: () => ({ query: { store_id: ids.store, type: 'order.cancelled' } }), then: (d) => (ids.event = d.items[0].id) },
    { op: 'list_webhook_deliveries', method: 'GET', path: '/api/v1/webhook-endpoints/{endpoint_id}/deliveries', options: () => ({ params: { endpoint_id: ids.endpoint }, query: { limit: 5 } }) },
    { op: 'replay_webhook_events', method: 'POST', path: '/api/v1/webhook-events/replay', options: () => ({ body: { event_id: ids.event, endpoint_id: ids.endpoint } }) },
    { op: 'disable_webhook_endpoint', method: 'POST', path: '/api/v1/webhook-endpoints/{endpoint_id}/disable', options: () => ({ params: { endpoint_id: ids.endpoint } }) },
    { op: 'enable_webhook_endpoint', method: 'POST', path: '/api/v1/webhook-endpoints/{endpoint_id}/enable', options: () => ({ params: { endpoint_id: ids.endpoint } }) },
    { op: 'delete_webhook_endpoint', method: 'DELETE', path: '/api/v1/webhook-endpoints/{endpoint_id}', options: () => ({ params: { endpoint_id: ids.endpoint } }) },
    { op: 'unlink_product_from_fulfillment', method: 'DELETE', path: '/api/v1/products/{product_id}/fulfillment', options: () => ({ params: { product_id: ids.product } }) },
    { op: 'get_account_stats', method: 'GET', path: '/api/v1/account/stats', options: () => ({ query: { from: '2020-01-01', to: '2020-12-31', group_by: 'day' } }) },
    { op: 'list_price_floor_violations', method: 'GET', path: '/api/v1/price-floor-violations', options: () => ({ query: { store_id: ids.store } }) },
    { op: 'unpublish_landing_page', method: 'POST', path: '/api/v1/landing-pages/{landing_page_id}/unpublish', options: () => ({ params: { landing_page_id: ids.landing } }) },
    { op: 'delete_landing_page', method: 'DELETE', path: '/api/v1/landing-pages/{landing_page_id}', options: () => ({ params: { landing_page_id: ids.landing } }) },
    { op: 'archive_product', method: 'POST', path: '/api/v1/products/{product_id}/archive', options: () => ({ params: { product_id: ids.product } }) },
    { op: 'create_publishable_key', method: 'POST', path: '/api/v1/keys/publishable', status: 201, options: () => ({ body: { store_id: ids.store, mode: 'test' } }), then: (d) => (ids.key = d.id) },
    { op: 'create_secret_key', method: 'POST', path: '/api/v1/keys/secret', status: 201, options: () => ({ body: { store_id: ids.store } }) },
    { op: 'list_api_keys', method: 'GET', path: '/api/v1/keys', options: () => ({ query: { store_id: ids.store, include_revoked: true } }) },
    { op: 'update_api_key', method: 'PATCH', path: '/api/v1/keys/{key_id}', options: () => ({ params: { key_id: ids.key }, body: { allowed_domains: ['shop.example.com'] } }) },
    { op: 'revoke_api_key', method: 'POST', path: '/api/v1/keys/{key_id}/revoke', options: () => ({ params: { key_id: ids.key } }) },
    { op: 'add_blocked_value', method: 'POST', path: '/api/v1/stores/{store_id}/blocks', options: () => ({ params: { store_id: ids.store }, body: { kind: 'phone', value: '300 111 2233', reason: 'fraude' } }) },
    { op: 'list_blocked_values', method: 'GET', path: '/api/v1/stores/{store_id}/blocks', options: () => ({ params: { store_id: ids.store }, query: { kind: 'phone' } }) },
    { op: 'remove_blocked_value', method: 'DELETE', path: '/api/v1/stores/{store_id}/blocks/{kind}/{value}', options: () => ({ params: { store_id: ids.store, kind: 'phone', value: '+573001112233' } }) },
    { op: 'remove_store_domain', method: 'DELETE', path: '/api/v1/stores/{store_id}/domains/{domain}', options: () => ({ params: { store_id: ids.store, domain: 'shop.example.com' } }) },
    { op: 'archive_store', method: 'POST', path: '/api/v1/stores/{store_id}/archive', options: () => ({ params: { store_id: ids.store }, body: { reason: 'fin' } }) },
  ];

  test('the steps below name every /api/v1 operation of the document exactly once, by its method and path', () => {
    assert.deepEqual(steps.map((s) => s.op).sort(), [...documented.keys()].sort());
    for (const s of steps) assert.deepEqual(documented.get(s.op), [s.method, s.path], s.op);
  });

  // One merchant's journey through every operation, in order (each step uses the ids of the earlier
  // ones): a single test, so no test depends on another having run first.
  test('every /api/v1 operation, called in the order a merchant would, answers its documented status and response schema', async (t) => {
    for (const step of steps) {
      t.diagnostic(`${step.method} ${step.path} (${step.op})`);
      const data = ok(await v1.call(step.method, step.path, step.options?.()), step.status ?? 200);
      step.then?.(data);
    }
  });

  test('every /api/v1 operation without a credential answers the documented 401 and stores nothing', async () => {
    for (const [method, path] of documented.values()) {
      const params = Object.fromEntries([...path.matchAll(/\{(\w+)\}/g)].map((m) => [m[1]!, m[1] === 'country' ? 'CO' : m[1] === 'domain' ? 'shop.example.com' : UNKNOWN_ID]));
      const answer = await storesNothing(server.deps, () => v1.call(method, path, { key: null, params, ...(method !== 'GET' && method !== 'DELETE' && { body: {} }) }));
      failed(answer, 401, []);
    }
  });

  test('every /api/v1 operation with an id in its path answers the documented 404 for an unknown id and stores nothing', async () => {
    const bodies: Record<string, unknown> = {
      update_store: { name: 'x' },
      add_store_domain: { domain: 'a.example.com' },
      update_product: { name: 'x' },
      set_product_stock: { quantity: 1 },
      set_product_packs: { packs: [{ quantity: 1, price: 1 }] },
      set_price_floor: { min_unit_price: 1 },
      update_landing_page: { title: 'x' },
      set_landing_sections: { sections: [{ type: 'text' }] },
      update_api_key: { label: 'x' },
      update_order_status: { status: 'confirmed' },
      update_order_buyer: { nombre: 'Otra Persona' },
      add_order_note: { text: 'x' },
      resolve_order_city: { region: 'Antioquia', city: 'Medellín' },
      update_whatsapp_settings: { enabled: true },
      cancel_order: { reason: 'fraud' },
      set_fulfillment_credentials: { api_token: 'doc-platform-token-0002' },
      link_product_to_fulfillment: { fulfillment_product_id: 'DP-1002' },
      send_whatsapp_message: { text: 'Hola', idempotency_key: 'doc-404-key' },
      push_confirmed_orders: { dry_run: true },
      add_blocked_value: { kind: 'ip', value: '203.0.113.9' },
      update_webhook_endpoint: { description: 'x' },
    };
    const queries: Record<string, Record<string, number | string>> = { quote_product_price: { quantity: 1 }, preview_whatsapp_message: { template: 'order_created' } };
    let checked = 0;
    for (const [op, [method, path]] of documented) {
      const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).filter((n) => n.endsWith('_id'));
      if (names.length === 0) continue;
      const fixed: Record<string, string> = { domain: 'shop.example.com', kind: 'phone', value: '3001112233' };
      const params = Object.fromEntries([...path.matchAll(/\{(\w+)\}/g)].map((m) => [m[1]!, fixed[m[1]!] ?? UNKNOWN_ID]));
      const body = method === 'GET' || method === 'DELETE' ? {} : op === 'add_product_image' ? upload() : { body: bodies[op] ?? {} };
      const answer = await storesNothing(server.deps, () => v1.call(method, path, { params, ...body, ...(queries[op] && { query: queries[op] }) }));
      failed(answer, 404);
      checked++;
    }
    assert.ok(checked >= 20, `${checked} operations with an id`);
  });

  test('every /api/v1 operation with a JSON body answers the documented 415 for a text/plain body and stores nothing', async () => {
    let checked = 0;
    for (const [method, path] of documented.values()) {
      if (method === 'GET' || method === 'DELETE') continue;
      const params = Object.fromEntries([...path.matchAll(/\{(\w+)\}/g)].map((m) => [m[1]!, shop.storeId]));
      const answer = await storesNothing(server.deps, () => v1.call(method, path, { params, raw: '{}', headers: { 'content-type': 'text/plain' } }));
      failed(answer, 415);
      checked++;
    }
    assert.ok(checked >= 20);
  });

  test('every /api/v1 operation answers the documented 400 with details for a field it does not define, and stores nothing', async () => {
    for (const [op, [method, path]] of documented) {
      const params = Object.fromEntries([...path.matchAll(/\{(\w+)\}/g)].map((m) => [m[1]!, m[1] === 'country' ? 'CO' : m[1] === 'domain' ? 'shop.example.com' : shop.storeId]));
      // An upload's other fields are its query string.
      const extra = method === 'GET' || method === 'DELETE' ? { query: { zzz_unknown: 1 } } : op === 'add_product_image' ? { query: { zzz_unknown: 1 }, ...upload() } : { body: { zzz_unknown: 1 } };
      const answer = await storesNothing(server.deps, () => v1.call(method, path, { params, ...extra }));
      const body = failed(answer, 400);
      assert.ok(body.details?.some((d) => d.field === 'zzz_unknown'), `${method} ${path}: ${answer.text}`);
    }
  });
});
