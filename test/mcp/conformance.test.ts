// What third-party MCP checkers flag (issue 13 §3): malformed params are -32602 with a short message,
// an empty batch -32600, an unknown tool's message carries no doubled prefix through the SDK client,
// an extra argument names the field, and list limits are integers clamped to 1..100 (default 20).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { openShop, addProduct, type Shop } from '../helpers/fixtures.ts';
import type { TestServer } from '../helpers/server.ts';
import { OPEN_LIMITS } from '../api/orders/order-kit.ts';
import { call, connect, rawPost } from './mcp-kit.ts';

describe('MCP conformance', () => {
  let server: TestServer;
  let shop: Shop;
  let client: Client;
  const auth = () => ({ authorization: `Bearer ${shop.secretKey}` });
  before(async () => {
    ({ server, shop } = await openShop(OPEN_LIMITS));
    client = await connect(server.url, shop.secretKey);
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  test('malformed params of tools/call and initialize are -32602 with one short message, for the request id', async () => {
    for (const [body, pattern] of [
      [{ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { arguments: {} } }, /^Invalid params for tools\/call: params\.name: /],
      [{ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'get_account', arguments: 'x' } }, /^Invalid params for tools\/call: params\.arguments: /],
      [{ jsonrpc: '2.0', id: 9, method: 'initialize', params: { capabilities: {} } }, /^Invalid params for initialize: params\.protocolVersion: /],
    ] as const) {
      const res = await rawPost(server.url, body, auth());
      const answer = (await res.json()) as { id: number; error: { code: number; message: string } };
      assert.equal(answer.id, body.id);
      assert.equal(answer.error.code, -32602, JSON.stringify(answer));
      assert.match(answer.error.message, pattern);
      assert.ok(answer.error.message.length < 200, 'a short message, not a validator dump');
    }
  });

  test('an empty batch is -32600 Invalid Request', async () => {
    const res = await rawPost(server.url, [], auth());
    assert.equal(res.status, 400);
    const answer = (await res.json()) as { error: { code: number; message: string } };
    assert.equal(answer.error.code, -32600);
  });

  test('an unknown tool is -32602 "Unknown tool: x", with the prefix once through the SDK client', async () => {
    await assert.rejects(client.callTool({ name: 'no_such_tool', arguments: {} }), (error: unknown) => {
      assert.ok(error instanceof McpError);
      assert.equal(error.code, -32602);
      assert.equal(error.message, 'MCP error -32602: Unknown tool: no_such_tool');
      return true;
    });
  });

  test('an argument the tool does not define names the field, without the validator wording', async () => {
    const { isError, value } = await call(client, 'get_store', { store_id: shop.storeId, colour: 'red' });
    assert.equal(isError, true);
    assert.equal(value.error.field, 'colour');
    assert.equal(value.error.message, 'colour is not a known field');
    assert.doesNotMatch(JSON.stringify(value), /Expected never/);
  });

  test('limit is an integer in every list schema, clamped to 1..100 with 20 by default; 2.5 is refused', async () => {
    const { tools } = await client.listTools();
    const lists = tools.filter((t) => (t.inputSchema.properties as Record<string, { type?: string }> | undefined)?.limit);
    assert.ok(lists.length >= 10);
    for (const t of lists) assert.equal((t.inputSchema.properties as Record<string, { type: string }>).limit!.type, 'integer', t.name);
    for (let i = 0; i < 105; i++) await addProduct(server.deps, { store_id: shop.storeId, name: `P${i}`, packs: [{ quantity: 1, price: 1000 }] });
    const page = async (limit?: number) => (await call(client, 'list_products', { store_id: shop.storeId, ...(limit === undefined ? {} : { limit }) })).value;
    assert.equal((await page()).items.length, 20);
    assert.equal((await page(500)).items.length, 100);
    assert.equal((await page(0)).items.length, 1);
    assert.equal((await page(-3)).items.length, 1);
    const fraction = await call(client, 'list_products', { store_id: shop.storeId, limit: 2.5 });
    assert.equal(fraction.isError, true);
    assert.equal(fraction.value.error.field, 'limit');
  });
});
