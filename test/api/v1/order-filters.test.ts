// list_orders filters (issue 24 §7; MCP-TOOLS.md row 35): fulfillment_state, created_from and
// created_to (days in each store's timezone), departamento, product_id and sandbox, through REST and the MCP
// tool derived from the same declaration; each returns exactly the matching orders of the account.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { sql } from 'kysely';
import { addProduct, orderBody, postOrder, seedShop, type Shop } from '../../helpers/fixtures.ts';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { manualClock } from '../../../src/clock.ts';
import { OPEN_LIMITS, SHOP_ORIGIN, nextPhone } from '../orders/order-kit.ts';
import { call, connect } from '../../mcp/mcp-kit.ts';
import { V1Client, failed, ok } from './v1-kit.ts';

const ORDERS = '/api/v1/orders';

describe('list_orders filters', () => {
  const clock = manualClock('2026-03-10T15:00:00.000Z');
  let server: TestServer;
  let shop: Shop;
  let v1: V1Client;
  let client: Client;
  let otherProduct = '';
  /** name → order id */
  const ids: Record<string, string> = {};

  const place = async (name: string, at: string, over: Record<string, unknown> = {}) => {
    clock.set(new Date(at));
    const res = await postOrder(server.url, orderBody(shop, { telefono: nextPhone(), ...over }), { authorization: `Bearer ${shop.secretKey}` });
    assert.equal(res.status, 200, await res.clone().text());
    ids[name] = ((await res.json()) as { data: { id: string } }).data.id;
  };
  /** The push job's state as the worker leaves it (no worker runs here: the test sets the outcome). */
  const pushState = (name: string, state: 'done' | 'failed' | 'dead') =>
    sql`UPDATE fulfillment_jobs SET state = ${state} WHERE order_id = ${ids[name]} AND action = 'push'`.execute(server.deps.db);

  before(async () => {
    server = await startServer(OPEN_LIMITS, { clock });
    shop = await seedShop(server.deps); // CO: America/Bogota, UTC-5
    const product = await addProduct(server.deps, { store_id: shop.storeId, name: 'Crema', status: 'active', packs: [{ quantity: 1, price: 50000 }] });
    otherProduct = product.id;
    // Bogotá days: 03-09 ends at 03-10T05:00Z.
    await place('late9th', '2026-03-10T04:30:00.000Z', { departamento: 'Antioquia', ciudad: 'Medellín' });
    await place('early10th', '2026-03-10T05:30:00.000Z', { departamento: 'Valle del Cauca', ciudad: 'Cali' });
    await place('pushed', '2026-03-11T12:00:00.000Z', { departamento: 'Antioquia', ciudad: 'Envigado' });
    await place('failed', '2026-03-12T12:00:00.000Z', { product_id: otherProduct, departamento: 'Atlántico', ciudad: 'Barranquilla' });
    await place('dead', '2026-03-12T13:00:00.000Z', { departamento: 'Antioquia', ciudad: 'Bello' });
    clock.set(new Date('2026-03-13T12:00:00.000Z'));
    const sandbox = await postOrder(server.url, orderBody(shop, { telefono: nextPhone(), departamento: 'Cundinamarca', ciudad: 'Soacha' }), { 'x-svc-api-key': shop.testKey, origin: SHOP_ORIGIN });
    assert.equal(sandbox.status, 200, await sandbox.clone().text());
    ids.sandbox = ((await sandbox.json()) as { data: { id: string } }).data.id;
    await pushState('pushed', 'done');
    await pushState('failed', 'failed');
    await pushState('dead', 'dead');
    // Another account's orders never show.
    const other = await seedShop(server.deps);
    clock.set(new Date('2026-03-10T12:00:00.000Z'));
    await postOrder(server.url, orderBody(other, { telefono: nextPhone(), departamento: 'Antioquia', ciudad: 'Medellín' }), { authorization: `Bearer ${other.secretKey}` });
    v1 = await V1Client.open(server, shop.secretKey);
    client = await connect(server.url, shop.secretKey);
  });
  after(async () => {
    await client?.close();
    await server?.close();
  });

  const named = (items: { id: string }[]) => items.map((o) => Object.entries(ids).find(([, id]) => id === o.id)?.[0] ?? o.id).sort();
  const rest = async (query: Record<string, string>) => named(ok(await v1.get(ORDERS, { query: { store_id: shop.storeId, ...query } })).items);
  const mcp = async (args: Record<string, unknown>) => {
    const { isError, value } = await call(client, 'list_orders', { store_id: shop.storeId, ...args });
    assert.equal(isError, false, JSON.stringify(value));
    return named(value.items);
  };

  for (const [title, query, expected] of [
    ['fulfillment_state pushed', { fulfillment_state: 'pushed' }, ['pushed']],
    ['fulfillment_state push_failed (failed and dead)', { fulfillment_state: 'push_failed' }, ['dead', 'failed']],
    ['fulfillment_state not_pushed (a sandbox order is never pushed)', { fulfillment_state: 'not_pushed' }, ['early10th', 'late9th', 'sandbox']],
    ['created_from and created_to, days in Bogotá', { created_from: '2026-03-10', created_to: '2026-03-11' }, ['early10th', 'pushed']],
    ['created_to alone includes its whole day', { created_to: '2026-03-09' }, ['late9th']],
    ['departamento, case aside', { departamento: 'antioquia' }, ['dead', 'late9th', 'pushed']],
    ['product_id', { product_id: '' }, ['failed']],
    ['several at once', { departamento: 'Antioquia', fulfillment_state: 'push_failed' }, ['dead']],
    ['sandbox true: only test-key orders', { sandbox: 'true' }, ['sandbox']],
    ['sandbox false, from a day', { sandbox: 'false', created_from: '2026-03-12' }, ['dead', 'failed']],
  ] as const)
    test(`${title}: REST and MCP return exactly the matching orders`, async () => {
      const q: Record<string, string> = { ...query };
      if ('product_id' in q) q.product_id = otherProduct;
      assert.deepEqual(await rest(q), [...expected].sort());
      // JSON arguments carry booleans where the query string carries true/false.
      assert.deepEqual(await mcp(Object.fromEntries(Object.entries(q).map(([k, v]) => [k, v === 'true' ? true : v === 'false' ? false : v]))), [...expected].sort());
    });

  test('a period that ends before it starts, a date that is no date and another account’s product are refused on their field', async () => {
    failed(await v1.get(ORDERS, { query: { created_from: '2026-03-12', created_to: '2026-03-10' } }), 400, ['created_to']);
    failed(await v1.get(ORDERS, { query: { created_from: '10/03/2026' } }), 400, ['created_from']);
    failed(await v1.get(ORDERS, { query: { fulfillment_state: 'shipped' } }), 400, ['fulfillment_state']);
    const other = await seedShop(server.deps);
    failed(await v1.get(ORDERS, { query: { product_id: other.productId } }), 404, ['product_id']);
  });
});
