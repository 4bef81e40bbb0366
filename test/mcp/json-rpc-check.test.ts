// Request strings never index plain objects (issue 19 §5): a JSON-RPC method or a tool name that
// names a member of Object.prototype is an unknown method or tool, never a 500.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { openShop, type Shop } from '../helpers/fixtures.ts';
import type { TestServer } from '../helpers/server.ts';
import { rawPost } from './mcp-kit.ts';

const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];

describe('/api/mcp with method and tool names of Object.prototype', () => {
  let server: TestServer;
  let shop: Shop;
  before(async () => {
    ({ server, shop } = await openShop());
  });
  after(() => server.close());

  const post = (body: unknown) => rawPost(server.url, body, { authorization: `Bearer ${shop.secretKey}` });
  /** Error lines logged since `from` (a log length taken at the start of a test). */
  const errorsLogged = (from: number) => server.logs.slice(from).filter((l) => (l.level as number) >= 50);

  test('each name as a method answers JSON-RPC -32601 Method not found, alone and in a batch', async () => {
    const from = server.logs.length;
    for (const [i, method] of PROTOTYPE_NAMES.entries()) {
      const res = await post({ jsonrpc: '2.0', id: i + 1, method, params: {} });
      assert.equal(res.status, 200, method);
      const body = (await res.json()) as { id: number; error: { code: number } };
      assert.equal(body.id, i + 1, method);
      assert.equal(body.error.code, ErrorCode.MethodNotFound, method);
    }
    const batch = await post(PROTOTYPE_NAMES.map((method, i) => ({ jsonrpc: '2.0', id: i + 1, method })));
    assert.equal(batch.status, 200);
    const answers = (await batch.json()) as { error: { code: number } }[];
    assert.deepEqual(
      answers.map((a) => a.error.code),
      PROTOTYPE_NAMES.map(() => ErrorCode.MethodNotFound),
    );
    assert.deepEqual(errorsLogged(from), []);
  });

  test('each name as a tool name of tools/call is the unknown-tool error', async () => {
    const from = server.logs.length;
    for (const [i, name] of PROTOTYPE_NAMES.entries()) {
      const res = await post({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name, arguments: {} } });
      assert.equal(res.status, 200, name);
      const body = (await res.json()) as { error: { code: number; message: string } };
      assert.equal(body.error.code, ErrorCode.InvalidParams, name);
      assert.equal(body.error.message, `Unknown tool: ${name}`);
    }
    assert.deepEqual(errorsLogged(from), []);
  });
});
