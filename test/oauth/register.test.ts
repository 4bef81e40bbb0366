// Dynamic client registration (RFC 7591; OAUTH.md decisions 5–6, T22–T30): the bodies real
// clients send register; an arbitrary callback never does; answers are RFC 7591 JSON.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../helpers/server.ts';

const register = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${url}/api/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });

/** Registration bodies as the real clients send them (OAUTH.md "What real clients send", §4). */
const VENDOR_BODIES: Record<string, { body: Record<string, unknown>; kept: string[] }> = {
  'VS Code': {
    body: {
      client_name: 'Visual Studio Code',
      client_uri: 'https://code.visualstudio.com',
      grant_types: ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code'],
      response_types: ['code'],
      redirect_uris: ['https://insiders.vscode.dev/redirect', 'https://vscode.dev/redirect', 'http://127.0.0.1/', 'http://127.0.0.1:33418/'],
      scope: 'mcp:invoke orders:read',
      token_endpoint_auth_method: 'none',
      application_type: 'native',
    },
    kept: ['https://insiders.vscode.dev/redirect', 'https://vscode.dev/redirect', 'http://127.0.0.1/', 'http://127.0.0.1:33418/'],
  },
  'MCP Inspector': {
    body: { client_name: 'MCP Inspector', client_uri: 'https://github.com/modelcontextprotocol/inspector', redirect_uris: ['http://localhost:6274/oauth/callback', 'http://localhost:6274/oauth/callback/debug'], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] },
    kept: ['http://localhost:6274/oauth/callback', 'http://localhost:6274/oauth/callback/debug'],
  },
  Cursor: {
    body: { client_name: 'Cursor', redirect_uris: ['http://localhost:8787/callback', 'https://www.cursor.com/agents/mcp/oauth/callback', 'cursor://anysphere.cursor-mcp/oauth/callback'], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' },
    kept: ['http://localhost:8787/callback', 'https://www.cursor.com/agents/mcp/oauth/callback', 'cursor://anysphere.cursor-mcp/oauth/callback'],
  },
  Claude: {
    body: { client_name: 'Claude', redirect_uris: ['https://claude.ai/api/mcp/auth_callback'], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_post', scope: 'mcp:invoke' },
    kept: ['https://claude.ai/api/mcp/auth_callback'],
  },
  ChatGPT: {
    body: { client_name: 'ChatGPT', redirect_uris: ['https://chatgpt.com/connector_platform_oauth_redirect', 'https://chatgpt.com/connector/oauth/AbC123xyz'], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' },
    kept: ['https://chatgpt.com/connector_platform_oauth_redirect', 'https://chatgpt.com/connector/oauth/AbC123xyz'],
  },
  'mcp-remote': {
    body: { client_name: 'MCP CLI Proxy', redirect_uris: ['http://localhost:14512/oauth/callback'], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], software_id: '2e6dc280-f3c3-4e01-99a7-8181dbd1d23d', software_version: '0.1.29' },
    kept: ['http://localhost:14512/oauth/callback'],
  },
  'Claude Code': {
    body: { client_name: 'Claude Code', redirect_uris: ['http://localhost:53127/callback'], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' },
    kept: ['http://localhost:53127/callback'],
  },
};

const FOREIGN = [
  'http://evil.com/cb',
  'https://evil.example/callback',
  'https://claude.ai.evil/api/mcp/auth_callback',
  'https://evil@claude.ai/api/mcp/auth_callback',
  'https://claude.ai/api/mcp/auth_callback/x',
  'https://claude.ai/api/mcp/auth_callback?x=1',
  'https://claude.ai/api/mcp/auth_callback#x',
  'https://CLAUDE.ai/api/mcp/auth_callback',
  'https://chatgpt.com/connector/oauth/a/b',
  'https://chatgpt.com/connector/oauth/',
  'javascript:alert(1)',
  'data:text/html,hi',
  'http://192.168.1.5/callback',
  'http://127.0.0.1.evil:1/cb',
  'http://127.0.0.1:8080/other',
  'http://localhost:8080/callback?x=1',
  'http://user@127.0.0.1:8080/callback',
  'https://127.0.0.1:8080/callback',
  'http://127.0.0.1:8080/callback/../callback',
  'not a uri',
];

describe('POST /api/oauth/register', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ rateRegisterPerHour: 1000 });
  });
  after(() => server.close());

  for (const [name, { body, kept }] of Object.entries(VENDOR_BODIES)) {
    test(`the registration ${name} sends is accepted as a public client with its callbacks`, async () => {
      const res = await register(server.url, body);
      assert.equal(res.status, 201);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      const client = (await res.json()) as Record<string, unknown>;
      assert.match(client.client_id as string, /^mcp_[0-9A-Za-z]{32}$/);
      assert.equal(typeof client.client_id_issued_at, 'number');
      assert.deepEqual(client.redirect_uris, kept);
      assert.equal(client.token_endpoint_auth_method, 'none');
      assert.equal(client.client_secret, undefined);
      assert.deepEqual(client.grant_types, ['authorization_code', 'refresh_token']);
      assert.deepEqual(client.response_types, ['code']);
      assert.equal(client.client_name, body.client_name);
    });
  }

  test('an arbitrary or look-alike callback never registers, and nothing is stored', async () => {
    const before = (await server.deps.db.selectFrom('oauth_clients').select('id').execute()).length;
    for (const uri of FOREIGN) {
      const res = await register(server.url, { client_name: 'x', redirect_uris: [uri] });
      assert.equal(res.status, 400, uri);
      assert.deepEqual(await res.json(), { error: 'invalid_redirect_uri', error_description: 'No redirect URI is an allowed callback' }, uri);
    }
    assert.equal((await server.deps.db.selectFrom('oauth_clients').select('id').execute()).length, before);
  });

  test('a registration mixing allowed and foreign callbacks keeps only the allowed ones', async () => {
    const res = await register(server.url, { client_name: 'mixed', redirect_uris: ['https://evil.example/cb', 'http://127.0.0.1:9000/callback'] });
    assert.equal(res.status, 201);
    assert.deepEqual(((await res.json()) as { redirect_uris: string[] }).redirect_uris, ['http://127.0.0.1:9000/callback']);
  });

  test('two registrations in quick succession are independent clients', async () => {
    const [a, b] = await Promise.all([register(server.url, VENDOR_BODIES.Claude!.body), register(server.url, VENDOR_BODIES.Claude!.body)]);
    const ids = [((await a.json()) as { client_id: string }).client_id, ((await b.json()) as { client_id: string }).client_id];
    assert.notEqual(ids[0], ids[1]);
  });

  test('malformed bodies are OAuth errors in JSON, never 500', async () => {
    const cases: [unknown, Record<string, string>, number, string][] = [
      ['{not json', {}, 400, 'invalid_client_metadata'],
      [[], {}, 400, 'invalid_client_metadata'],
      [{}, {}, 400, 'invalid_redirect_uri'],
      [{ redirect_uris: 'http://127.0.0.1:1/callback' }, {}, 400, 'invalid_redirect_uri'],
      [{ redirect_uris: [] }, {}, 400, 'invalid_redirect_uri'],
      [{ redirect_uris: [42] }, {}, 400, 'invalid_redirect_uri'],
      [{ redirect_uris: ['http://127.0.0.1:1/callback'], grant_types: ['client_credentials'] }, {}, 400, 'invalid_client_metadata'],
      [{ redirect_uris: ['http://127.0.0.1:1/callback'], response_types: ['token'] }, {}, 400, 'invalid_client_metadata'],
      [{ redirect_uris: ['http://127.0.0.1:1/callback'], client_name: 42 }, {}, 400, 'invalid_client_metadata'],
      [{ redirect_uris: ['http://127.0.0.1:1/callback'] }, { 'content-type': 'text/plain' }, 400, 'invalid_client_metadata'],
    ];
    for (const [body, headers, status, error] of cases) {
      const res = await register(server.url, body, headers);
      assert.equal(res.status, status, JSON.stringify(body));
      assert.match(res.headers.get('content-type')!, /^application\/json/);
      assert.equal(((await res.json()) as { error: string }).error, error, JSON.stringify(body));
    }
    const huge = await register(server.url, { redirect_uris: ['http://127.0.0.1:1/callback'], client_name: 'x'.repeat(20_000) });
    assert.equal(huge.status, 413);
    assert.equal(((await huge.json()) as { error: string }).error, 'invalid_request');
  });

  test('a client_name or stored metadata holding a control character is invalid_client_metadata, and nothing is stored (issue 19 §3)', async () => {
    const before = (await server.deps.db.selectFrom('oauth_clients').select('id').execute()).length;
    const callback = ['http://127.0.0.1:1/callback'];
    for (const [field, value] of [
      ['client_name', 'Claude\u001b[2K\r\u001b[32m✓ verified\u001b[0m'],
      ['client_name', 'Claude\u0007'],
      ['client_name', 'Claude\u009b2K'],
      ['client_uri', 'https://claude.ai/\u001b[2K'],
      ['software_id', 'id\u0000'],
      ['software_version', '1.0\u001b'],
    ] as const) {
      const res = await register(server.url, { client_name: 'x', [field]: value, redirect_uris: callback });
      assert.equal(res.status, 400, `${field}=${JSON.stringify(value)}`);
      assert.match(res.headers.get('content-type')!, /^application\/json/);
      const body = (await res.json()) as { error: string; error_description: string };
      assert.equal(body.error, 'invalid_client_metadata');
      assert.equal(body.error_description, `Invalid client metadata: ${field} must not contain control characters`);
    }
    assert.equal((await server.deps.db.selectFrom('oauth_clients').select('id').execute()).length, before);
  });

  test('a client_name with bidi controls is stored and answered without them', async () => {
    const res = await register(server.url, { client_name: 'Claude \u202Edeifirev\u202C', redirect_uris: ['http://127.0.0.1:1/callback'] });
    assert.equal(res.status, 201);
    const client = (await res.json()) as { client_id: string; client_name: string };
    assert.equal(client.client_name, 'Claude deifirev');
    const row = await server.deps.db.selectFrom('oauth_clients').select('client_name').where('id', '=', client.client_id).executeTakeFirstOrThrow();
    assert.equal(row.client_name, 'Claude deifirev');
  });
});

describe('POST /api/oauth/register rate limit', () => {
  test('the 21st registration from one address within an hour is 429 with Retry-After, in JSON', async () => {
    const server = await startServer();
    try {
      for (let i = 0; i < 20; i++) assert.equal((await register(server.url, VENDOR_BODIES['Claude Code']!.body)).status, 201);
      const res = await register(server.url, VENDOR_BODIES['Claude Code']!.body);
      assert.equal(res.status, 429);
      assert.ok(Number(res.headers.get('retry-after')) > 0);
      assert.equal(((await res.json()) as { error: string }).error, 'temporarily_unavailable');
    } finally {
      await server.close();
    }
  });
});
