// The store block list over REST and the CLI (issue 13 §5): entries normalized as order creation
// matches them, an order from a blocked phone or IP refused, removal lifts it; other accounts' stores
// are not_found; the list is not an MCP tool (the catalog stays at 62).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openShop, orderBody, postOrder, seedShop, type Shop } from '../../helpers/fixtures.ts';
import type { TestServer } from '../../helpers/server.ts';
import { cliFails, cliJson } from '../../helpers/cli-expect.ts';
import { OPEN_LIMITS, liveHeaders, nextPhone } from '../orders/order-kit.ts';
import { call, connect } from '../../mcp/mcp-kit.ts';
import { V1Client, failed, ok } from './v1-kit.ts';

describe('the block list', () => {
  let server: TestServer;
  let shop: Shop;
  let other: Shop;
  let v1: V1Client;
  before(async () => {
    ({ server, shop } = await openShop(OPEN_LIMITS));
    other = await seedShop(server.deps);
    v1 = await V1Client.open(server, shop.secretKey);
  });
  after(() => server.close());

  test('a blocked phone (any spelling) refuses the order; removing it lets the next one in', async () => {
    const phone = nextPhone();
    const added = ok(await v1.call('POST', '/api/v1/stores/{store_id}/blocks', { params: { store_id: shop.storeId }, body: { kind: 'phone', value: phone, reason: 'pedidos falsos' } }));
    assert.deepEqual(added.items.map((b: { kind: string; value: string }) => [b.kind, b.value]), [['phone', `+57${phone}`]]);
    ok(await v1.call('POST', '/api/v1/stores/{store_id}/blocks', { params: { store_id: shop.storeId }, body: { kind: 'phone', value: `+57 ${phone}` } }));
    assert.equal(ok(await v1.call('GET', '/api/v1/stores/{store_id}/blocks', { params: { store_id: shop.storeId } })).items.length, 1, 'adding it again changes nothing');
    const refused = await postOrder(server.url, orderBody(shop, { telefono: phone }), liveHeaders(shop));
    assert.equal(refused.status, 400);
    ok(await v1.call('DELETE', '/api/v1/stores/{store_id}/blocks/{kind}/{value}', { params: { store_id: shop.storeId, kind: 'phone', value: phone } }));
    assert.equal((await postOrder(server.url, orderBody(shop, { telefono: phone }), liveHeaders(shop))).status, 200);
  });

  test('bad values are field errors; another account’s store is 404; the list is not an MCP tool', async () => {
    const bad = failed(await v1.call('POST', '/api/v1/stores/{store_id}/blocks', { params: { store_id: shop.storeId }, body: { kind: 'ip', value: '999.1.1.1' } }), 400);
    assert.equal(bad.details?.[0]?.field, 'value');
    failed(await v1.call('GET', '/api/v1/stores/{store_id}/blocks', { params: { store_id: other.storeId } }), 404);
    const client = await connect(server.url, shop.secretKey);
    const { tools } = await client.listTools();
    assert.equal(tools.length, 62);
    assert.ok(!tools.some((t) => t.name.includes('blocked')));
    const unknown = await call(client, 'list_blocked_values', { store_id: shop.storeId }).catch((e: Error) => e);
    assert.ok(unknown instanceof Error && /Unknown tool: list_blocked_values/.test(unknown.message));
    await client.close();
  });

  test('the CLI adds, lists and removes entries; an IPv4-mapped address is stored as the IPv4 one', async () => {
    const db = server.dbFile;
    const { json } = await cliJson(db, ['stores', 'block', 'add', shop.storeId, 'ip', '::ffff:203.0.113.7', '--reason', 'bot']);
    assert.ok(json.some((b: { value: string }) => b.value === '203.0.113.7'), 'the CLI prints the list as an array');
    const listed = await cliJson(db, ['stores', 'block', 'list', shop.storeId, '--kind', 'ip']);
    assert.deepEqual(listed.json.map((b: { value: string }) => b.value), ['203.0.113.7']);
    await cliJson(db, ['stores', 'block', 'remove', shop.storeId, 'ip', '203.0.113.7']);
    assert.deepEqual((await cliJson(db, ['stores', 'block', 'list', shop.storeId, '--kind', 'ip'])).json, []);
    await cliFails(db, ['stores', 'block', 'list', other.storeId, '--account', shop.accountId], 1);
  });
});
