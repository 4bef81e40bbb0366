// /api/mcp at the HTTP layer (OAUTH.md T1-T3, T9, T13, T14; MCP-TOOLS.md protocol decisions): who
// gets in, the exact challenges, CORS, the stateless transport's methods, JSON-RPC errors.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { addKey, openShop, revokeKey, type Shop } from '../helpers/fixtures.ts';
import { TOOL_COUNT } from '../../src/mcp/tools/tool-catalog.ts';
import type { TestServer } from '../helpers/server.ts';
import { GRANTABLE_SCOPES } from '../../src/domain/oauth/scopes.ts';
import { INITIALIZE, connect, rawPost } from './mcp-kit.ts';

describe('/api/mcp', () => {
  let server: TestServer;
  let shop: Shop;
  before(async () => {
    ({ server, shop } = await openShop({}, { env: { CODRAIL_MCP_ALLOWED_ORIGINS: 'https://claude.ai, https://inspector.example' } }));
  });
  after(() => server.close());

  const metadata = () => `${server.deps.config.baseUrl}/.well-known/oauth-protected-resource/api/mcp`;
  const scope = GRANTABLE_SCOPES.join(' ');

  async function expect401(res: Response, error: 'unauthorized' | 'invalid_token') {
    assert.equal(res.status, 401);
    const challenge = res.headers.get('www-authenticate');
    if (error === 'unauthorized') assert.equal(challenge, `Bearer resource_metadata="${metadata()}", scope="${scope}"`);
    else assert.equal(challenge, `Bearer error="invalid_token", resource_metadata="${metadata()}", scope="${scope}"`);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.match(res.headers.get('access-control-expose-headers') ?? '', /WWW-Authenticate/);
    const body = (await res.json()) as { error: string; error_description: string };
    assert.equal(body.error, error);
    assert.equal(typeof body.error_description, 'string');
  }

  test('a request without a token is 401 with one Bearer challenge naming the metadata and scopes, and no error', async () => {
    await expect401(await rawPost(server.url, INITIALIZE), 'unauthorized');
  });

  test('the 401 challenge asks for neither ai:generate nor offline_access', async () => {
    const res = await rawPost(server.url, INITIALIZE);
    assert.doesNotMatch(res.headers.get('www-authenticate')!, /ai:generate|offline_access/);
  });

  test('a garbage token, a publishable key and a revoked secret key are 401 invalid_token', async () => {
    await expect401(await rawPost(server.url, INITIALIZE, { authorization: 'Bearer not-a-key' }), 'invalid_token');
    await expect401(await rawPost(server.url, INITIALIZE, { authorization: `Bearer ${shop.liveKey}` }), 'invalid_token');
    const secret = await addKey(server.deps, { store_id: shop.storeId, type: 'secret' });
    assert.equal((await rawPost(server.url, INITIALIZE, { authorization: `Bearer ${secret.key}` })).status, 200);
    await revokeKey(server.deps, secret.id);
    await expect401(await rawPost(server.url, INITIALIZE, { authorization: `Bearer ${secret.key}` }), 'invalid_token');
  });

  test('a token in the query string only is refused as if absent', async () => {
    await expect401(await rawPost(server.url, INITIALIZE, {}, `/api/mcp?access_token=${encodeURIComponent(shop.secretKey)}`), 'unauthorized');
  });

  test('a non-Bearer scheme is 401 invalid_token', async () => {
    await expect401(await rawPost(server.url, INITIALIZE, { authorization: `Basic ${shop.secretKey}` }), 'invalid_token');
  });

  test('the Bearer scheme is case-insensitive', async () => {
    const res = await rawPost(server.url, INITIALIZE, { authorization: `bearer ${shop.secretKey}` });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { result: { serverInfo: { name: string } } };
    assert.equal(body.result.serverInfo.name, 'codrail');
  });

  test('a stateless answer carries CORS headers and no session id', async () => {
    const res = await rawPost(server.url, INITIALIZE, { authorization: `Bearer ${shop.secretKey}`, origin: 'https://claude.ai' });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('access-control-allow-origin'), 'https://claude.ai', 'an allowed browser origin is echoed');
    assert.equal(res.headers.get('vary'), 'Origin');
    assert.match(res.headers.get('access-control-expose-headers') ?? '', /Mcp-Session-Id/);
    assert.equal(res.headers.get('mcp-session-id'), null);
    assert.match(res.headers.get('content-type') ?? '', /application\/json/);
  });

  test('DNS-rebinding protection: a foreign Origin is 403 before anything runs, on every method; loopback and the base URL pass', async () => {
    for (const method of ['POST', 'OPTIONS', 'GET']) {
      const res = await fetch(`${server.url}/api/mcp`, {
        method,
        headers: { origin: 'http://evil.example', host: 'evil.example', authorization: `Bearer ${shop.secretKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        ...(method === 'POST' ? { body: JSON.stringify(INITIALIZE) } : {}),
      });
      assert.equal(res.status, 403, method);
      assert.equal(res.headers.get('vary'), 'Origin');
      assert.equal(res.headers.get('access-control-allow-origin'), null);
      const body = (await res.json()) as { error: { code: number; message: string } };
      assert.equal(body.error.code, -32000);
      assert.match(body.error.message, /Origin http:\/\/evil\.example is not allowed/);
    }
    for (const origin of ['http://localhost:6274', 'http://127.0.0.1:5173', new URL(server.deps.config.baseUrl).origin]) {
      const res = await rawPost(server.url, INITIALIZE, { authorization: `Bearer ${shop.secretKey}`, origin });
      assert.equal(res.status, 200, origin);
      assert.equal(res.headers.get('access-control-allow-origin'), origin);
    }
    const noOrigin = await rawPost(server.url, INITIALIZE, { authorization: `Bearer ${shop.secretKey}` });
    assert.equal(noOrigin.status, 200, 'a client that is not a browser sends no Origin');
    assert.equal(noOrigin.headers.get('access-control-allow-origin'), '*');
  });

  test('the preflight answers 204 for an allowed origin without a token, with the methods a 405 allows', async () => {
    const res = await fetch(`${server.url}/api/mcp`, {
      method: 'OPTIONS',
      headers: { origin: 'https://inspector.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type, mcp-protocol-version' },
    });
    assert.equal(res.status, 204);
    assert.equal(res.headers.get('access-control-allow-origin'), 'https://inspector.example');
    assert.equal(res.headers.get('access-control-allow-methods'), 'POST, OPTIONS', 'the same methods as the Allow header of a 405');
    const allowed = res.headers.get('access-control-allow-headers') ?? '';
    for (const h of ['authorization', 'content-type', 'mcp-protocol-version', 'mcp-session-id', 'last-event-id']) assert.match(allowed, new RegExp(h));
    assert.match(res.headers.get('access-control-allow-methods') ?? '', /POST/);
    assert.equal(res.headers.get('access-control-expose-headers'), 'WWW-Authenticate, Mcp-Session-Id');
  });

  test('GET and DELETE are 405 with an Allow header and CORS headers', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${server.url}/api/mcp`, { method, headers: { authorization: `Bearer ${shop.secretKey}` } });
      assert.equal(res.status, 405, method);
      assert.equal(res.headers.get('allow'), 'POST, OPTIONS');
      assert.equal(res.headers.get('access-control-allow-origin'), '*');
      await res.body?.cancel();
    }
  });

  test('a body that is not JSON is a JSON-RPC parse error, after authentication', async () => {
    const res = await fetch(`${server.url}/api/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${shop.secretKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{nope',
    });
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as { error: { code: number } }).error.code, -32700);
  });

  test('a body over 64 KiB is 413', async () => {
    const res = await rawPost(server.url, { ...INITIALIZE, padding: 'x'.repeat(70_000) }, { authorization: `Bearer ${shop.secretKey}` });
    assert.equal(res.status, 413);
  });

  test('an unknown tool is a JSON-RPC -32602 error', async () => {
    const client = await connect(server.url, shop.secretKey);
    try {
      await assert.rejects(client.callTool({ name: 'delete_everything', arguments: {} }), (error: unknown) => {
        assert.ok(error instanceof McpError);
        assert.equal(error.code, ErrorCode.InvalidParams);
        assert.match(error.message, /Unknown tool: delete_everything/);
        return true;
      });
    } finally {
      await client.close();
    }
  });

  test('the SDK client connects with a secret key and lists tools', async () => {
    const client = await connect(server.url, shop.secretKey);
    try {
      assert.equal((await client.listTools()).tools.length, TOOL_COUNT);
    } finally {
      await client.close();
    }
  });
});
