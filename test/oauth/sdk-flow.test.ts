// OAUTH.md T48, T57, T60 and the acceptance: the MCP TypeScript SDK client connects from
// scratch (discovery → registration → consent → token → tools) against a running `codrail serve`,
// refreshes, and is locked out after revocation. The server is the real binary, the account and user
// come from the real CLI, the consent happens on the real pages, and the client is the SDK's own.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError, auth, extractWWWAuthenticateParams, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { runCli, spawnServe } from '../helpers/cli.ts';
import { tempDbFile } from '../helpers/server.ts';
import { Browser, PASSWORD } from '../helpers/oauth.ts';
import { GRANTABLE_SCOPES } from '../../src/domain/oauth/scopes.ts';
import { OPERATIONS } from '../../src/use-cases/operations/index.ts';

type Invalidated = 'all' | 'client' | 'tokens' | 'verifier' | 'discovery';

/** One HTTP request the SDK made: method, path, status, and what matters of the body. */
interface Fetched {
  method: string;
  url: URL;
  status: number;
  grantType?: string | null;
  requestJson?: Record<string, unknown>;
  errorBody?: string;
}

/** A fetch that records every request the SDK makes, in order. */
function recordingFetch() {
  const log: Fetched[] = [];
  const fetchFn: FetchLike = async (input, init) => {
    const res = await fetch(input, init);
    const body = init?.body;
    const entry: Fetched = { method: init?.method ?? 'GET', url: new URL(String(input)), status: res.status };
    if (body instanceof URLSearchParams) entry.grantType = body.get('grant_type');
    if (typeof body === 'string' && entry.url.pathname === '/api/oauth/register') entry.requestJson = JSON.parse(body) as Record<string, unknown>;
    if (!res.ok) entry.errorBody = await res.clone().text();
    log.push(entry);
    return res;
  };
  return { log, fetchFn, paths: () => log.map((f) => `${f.method} ${f.url.pathname}`) };
}

/**
 * The client application's side of OAuth, in memory: what a real MCP host keeps. Its "user agent" is
 * a Browser with a cookie jar that signs in and allows on our pages, and it captures the code from the
 * loopback callback the server redirects to.
 */
class TestProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  stored: OAuthTokens | undefined;
  verifier: string | undefined;
  lastState: string | undefined;
  code: string | undefined;
  readonly authorizationUrls: URL[] = [];
  readonly callbacks: URL[] = [];
  readonly invalidated: Invalidated[] = [];
  readonly browser: Browser;

  constructor(
    readonly base: string,
    readonly user: { email: string; password: string },
    readonly port = 8090,
  ) {
    this.browser = new Browser(base);
  }

  get redirectUrl(): string {
    return `http://127.0.0.1:${this.port}/callback`;
  }

  /** What the SDK's example client sends (OAUTH.md 3.1), secret method included. */
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'SDK example client',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_post',
    };
  }

  state(): string {
    this.lastState = randomBytes(16).toString('base64url');
    return this.lastState;
  }

  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.stored;
  }
  saveTokens(tokens: OAuthTokens) {
    this.stored = tokens;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier(): string {
    if (!this.verifier) throw new Error('no code verifier saved');
    return this.verifier;
  }

  async redirectToAuthorization(url: URL) {
    this.authorizationUrls.push(url);
    const callback = await this.browser.authorize(url.href, this.user);
    this.callbacks.push(callback);
    assert.equal(`${callback.origin}${callback.pathname}`, this.redirectUrl, 'the server redirects to the registered loopback callback');
    assert.equal(callback.searchParams.get('state'), this.lastState, 'state comes back verbatim');
    assert.equal(callback.searchParams.get('iss'), this.base, 'the response names its issuer (RFC 9207)');
    this.code = callback.searchParams.get('code') ?? undefined;
  }

  /** Really forgets what it is told to (the SDK relies on it, T57). */
  invalidateCredentials(scope: Invalidated) {
    this.invalidated.push(scope);
    if (scope === 'all' || scope === 'client') this.client = undefined;
    if (scope === 'all' || scope === 'tokens') this.stored = undefined;
    if (scope === 'all' || scope === 'verifier') this.verifier = undefined;
  }

  /** Takes the captured code, so a test cannot redeem it twice by accident. */
  takeCode(): string {
    const code = this.code;
    if (!code) throw new Error('no authorization code captured');
    this.code = undefined;
    return code;
  }
}

describe('the MCP SDK client against codrail serve', () => {
  const tmp = tempDbFile();
  let child: ChildProcess;
  let base: string;
  let mcpUrl: URL;
  let accountId: string;
  const user = { email: `owner-${randomBytes(4).toString('hex')}@example.com`, password: PASSWORD };

  const cli = async (args: string[], input?: string) => {
    const r = await runCli(['--json', ...args], { db: tmp.file, ...(input !== undefined ? { input } : {}) });
    assert.equal(r.code, 0, `codrail ${args.join(' ')} failed: ${r.stderr}`);
    return r.json as any;
  };

  before(async () => {
    const serve = await spawnServe(tmp.file, ['--log-level', 'warn']);
    child = serve.child;
    base = serve.base;
    mcpUrl = new URL(`${base}/api/mcp`);
    accountId = (await cli(['accounts', 'create', '--name', 'SDK account'])).id;
    const created = await cli(['users', 'create', '--account', accountId, '--email', user.email, '--password-stdin'], `${user.password}\n`);
    assert.equal(created.email, user.email);
  });

  after(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    tmp.cleanup();
  });

  const transportFor = (provider: TestProvider, fetchFn: FetchLike) => new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider, fetch: fetchFn });

  /** The whole first connection, as a host application does it: connect, authorize, finish, reconnect. */
  async function connectFromScratch(port = 8090) {
    const provider = new TestProvider(base, user, port);
    const rec = recordingFetch();
    const first = new Client({ name: 'sdk-flow', version: '1.0.0' });
    const transport = transportFor(provider, rec.fetchFn);
    await assert.rejects(first.connect(transport), UnauthorizedError);
    await transport.finishAuth(provider.takeCode());
    const client = new Client({ name: 'sdk-flow', version: '1.0.0' });
    await client.connect(transportFor(provider, rec.fetchFn));
    return { provider, rec, client };
  }

  const callTool = async (client: Client, name: string, args: Record<string, unknown> = {}) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    assert.notEqual(result.isError, true, JSON.stringify(result.content));
    return result.structuredContent as Record<string, any>;
  };

  /** A raw tools/list with a given access token, as any client would send it. */
  const rawList = (token: string) =>
    fetch(mcpUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });

  test('connects from scratch: metadata discovery, registration, consent in the browser, token, then the tools', async () => {
    const { provider, rec, client } = await connectFromScratch();
    try {
      const tokenAt = rec.paths().indexOf('POST /api/oauth/token');
      assert.deepEqual(rec.paths().slice(0, tokenAt + 1), [
        'POST /api/mcp',
        'GET /.well-known/oauth-protected-resource/api/mcp',
        'GET /.well-known/oauth-authorization-server',
        'POST /api/oauth/register',
        // finishAuth discovers again (this provider caches no discovery state), then redeems the code.
        'GET /.well-known/oauth-protected-resource/api/mcp',
        'GET /.well-known/oauth-authorization-server',
        'POST /api/oauth/token',
      ]);
      assert.equal(rec.log[0]!.status, 401);
      assert.ok(rec.log.every((f) => f.url.origin === base), 'every request goes to the one server');
      assert.deepEqual(
        rec.log.slice(1, tokenAt + 1).map((f) => f.status),
        [200, 200, 201, 200, 200, 200],
      );
      assert.equal(rec.log[tokenAt]!.grantType, 'authorization_code');

      // Registration: the SDK asks for client_secret_post; a public client gets 'none' and no secret.
      const register = rec.log.find((f) => f.url.pathname === '/api/oauth/register')!;
      assert.equal(register.requestJson!.token_endpoint_auth_method, 'client_secret_post');
      const client_ = provider.client as Record<string, unknown>;
      assert.match(String(client_.client_id), /^mcp_/);
      assert.equal(client_.token_endpoint_auth_method, 'none');
      assert.equal(client_.client_secret, undefined);
      assert.deepEqual(client_.redirect_uris, [provider.redirectUrl]);

      // The authorization request carries everything a 2025-06-18 server needs.
      assert.equal(provider.authorizationUrls.length, 1);
      const authorize = provider.authorizationUrls[0]!;
      assert.equal(`${authorize.origin}${authorize.pathname}`, `${base}/api/oauth/authorize`);
      const q = authorize.searchParams;
      for (const name of ['response_type', 'client_id', 'code_challenge', 'code_challenge_method', 'redirect_uri', 'state', 'scope', 'resource'])
        assert.ok(q.has(name), `authorize URL carries ${name}`);
      assert.equal(q.get('response_type'), 'code');
      assert.equal(q.get('client_id'), client_.client_id);
      assert.equal(q.get('code_challenge_method'), 'S256');
      assert.match(q.get('code_challenge')!, /^[A-Za-z0-9_-]{43}$/);
      assert.equal(q.get('redirect_uri'), provider.redirectUrl);
      assert.equal(q.get('state'), provider.lastState);
      assert.equal(q.get('scope'), GRANTABLE_SCOPES.join(' '), 'the scope comes from the 401 challenge');
      assert.equal(q.get('resource'), `${base}/api/mcp`);

      const tokens = provider.stored!;
      assert.match(tokens.access_token, /^svc_oauth_/);
      assert.equal(tokens.token_type.toLowerCase(), 'bearer');
      assert.equal(tokens.expires_in, 3600);
      assert.ok(tokens.refresh_token);
      assert.equal(tokens.scope, GRANTABLE_SCOPES.join(' '));

      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name), OPERATIONS.filter((o) => o.mcp !== false).map((o) => o.name));
      assert.ok(tools.some((t) => t.name === 'create_product') && tools.some((t) => t.name === 'publish_landing_page'));

      const account = await callTool(client, 'get_account');
      assert.deepEqual(account.account, { id: accountId, name: 'SDK account' });
      assert.equal(account.credential, 'oauth');
      assert.deepEqual(account.granted_scopes, tokens.scope!.split(' '));
      assert.deepEqual(provider.invalidated, []);
    } finally {
      await client.close();
    }
  });

  test('with an unusable access token and a live refresh token, auth() renews both through a refresh_token grant', async () => {
    const { provider, rec, client } = await connectFromScratch();
    try {
      const before_ = provider.stored!;
      provider.stored = { ...before_, access_token: 'svc_oauth_expired.garbage.token' };
      const from = rec.log.length;

      assert.equal(await auth(provider, { serverUrl: mcpUrl, fetchFn: rec.fetchFn }), 'AUTHORIZED');
      const token = rec.log.slice(from).filter((f) => f.url.pathname === '/api/oauth/token');
      assert.deepEqual(
        token.map((f) => [f.grantType, f.status]),
        [['refresh_token', 200]],
      );
      assert.equal(provider.authorizationUrls.length, 1, 'no new trip to the browser');
      const after_ = provider.stored!;
      assert.match(after_.access_token, /^svc_oauth_/);
      assert.notEqual(after_.access_token, before_.access_token);
      assert.notEqual(after_.refresh_token, before_.refresh_token, 'the refresh token rotates');
      assert.equal(after_.scope, before_.scope);
      assert.equal((await rawList(after_.access_token)).status, 200);

      // The connected client now presents the new token.
      assert.equal((await callTool(client, 'get_account')).credential, 'oauth');
      assert.deepEqual(provider.invalidated, []);
    } finally {
      await client.close();
    }
  });

  test('a connected client whose access token is refused refreshes by itself and the call goes through', async () => {
    const { provider, rec, client } = await connectFromScratch();
    try {
      provider.stored = { ...provider.stored!, access_token: 'svc_oauth_garbage' };
      const from = rec.log.length;
      assert.equal((await callTool(client, 'get_account')).account.id, accountId);
      // (The transport's optional GET stream, answered 405 by this stateless server, is left out.)
      const seen = rec.log.slice(from).filter((f) => f.method === 'POST');
      assert.deepEqual(
        seen.map((f) => [f.url.pathname, f.grantType ?? null, f.status]),
        [
          ['/api/mcp', null, 401],
          ['/api/oauth/token', 'refresh_token', 200],
          ['/api/mcp', null, 200],
        ],
      );
    } finally {
      await client.close();
    }
  });

  test('revoking the token family with the CLI locks the client out, and auth() forgets the tokens and asks the user again', async () => {
    const { provider, rec, client } = await connectFromScratch();
    await client.close();
    const clientId = String(provider.client!.client_id);
    const old = provider.stored!;

    // A second client holding the same access token as a fixed header, as a host without OAuth would.
    const fixed = new Client({ name: 'fixed-token', version: '1.0.0' });
    await fixed.connect(new StreamableHTTPClientTransport(mcpUrl, { requestInit: { headers: { Authorization: `Bearer ${old.access_token}` } } }));

    const families = (await cli(['oauth', 'tokens', 'list', '--client', clientId])) as { id: string; state: string; email: string; account_id: string }[];
    assert.equal(families.length, 1);
    assert.equal(families[0]!.state, 'active');
    assert.equal(families[0]!.email, user.email);
    assert.equal(families[0]!.account_id, accountId);
    const revoked = await cli(['oauth', 'tokens', 'revoke', families[0]!.id]);
    assert.ok(revoked.revoked_at);

    try {
      await assert.rejects(
        fixed.callTool({ name: 'get_account', arguments: {} }),
        (error: unknown) => error instanceof StreamableHTTPError && error.code === 401 && /invalid_token/.test(error.message),
      );
    } finally {
      await fixed.close();
    }
    const refused = await rawList(old.access_token);
    assert.equal(refused.status, 401);
    assert.equal(extractWWWAuthenticateParams(refused).error, 'invalid_token');

    const from = rec.log.length;
    assert.equal(await auth(provider, { serverUrl: mcpUrl, fetchFn: rec.fetchFn }), 'REDIRECT');
    const refresh = rec.log.slice(from).find((f) => f.grantType === 'refresh_token')!;
    assert.equal(refresh.status, 400);
    assert.equal(JSON.parse(refresh.errorBody!).error, 'invalid_grant');
    assert.deepEqual(provider.invalidated, ['tokens']);
    assert.equal(provider.stored, undefined, 'the dead tokens are gone');
    assert.equal(provider.client!.client_id, clientId, 'the registration is kept');
    assert.ok(!rec.paths().slice(from).includes('POST /api/oauth/register'));
    assert.equal(provider.authorizationUrls.length, 2, 'the user is sent to the consent page again');

    // The user allows again: a new family, and the client works.
    const transport = transportFor(provider, rec.fetchFn);
    await transport.finishAuth(provider.takeCode());
    assert.notEqual(provider.stored!.access_token, old.access_token);
    const again = new Client({ name: 'sdk-flow', version: '1.0.0' });
    await again.connect(transportFor(provider, rec.fetchFn));
    try {
      assert.equal((await callTool(again, 'get_account')).account.id, accountId);
    } finally {
      await again.close();
    }
    const active = (await cli(['oauth', 'tokens', 'list', '--client', clientId])) as { id: string }[];
    assert.equal(active.length, 1);
    assert.notEqual(active[0]!.id, families[0]!.id);
  });

  test('revoking the client with the CLI makes the token endpoint answer 401 invalid_client, and auth() forgets everything and registers again', async () => {
    const { provider, rec, client } = await connectFromScratch(8091);
    await client.close();
    const oldClientId = String(provider.client!.client_id);
    const old = provider.stored!;

    const revoked = await cli(['oauth', 'clients', 'revoke', oldClientId]);
    assert.equal(revoked.client_id, oldClientId);
    assert.ok(revoked.revoked_at);
    const refused = await rawList(old.access_token);
    assert.equal(refused.status, 401);
    assert.equal(extractWWWAuthenticateParams(refused).error, 'invalid_token');

    const from = rec.log.length;
    assert.equal(await auth(provider, { serverUrl: mcpUrl, fetchFn: rec.fetchFn }), 'REDIRECT');
    const seen = rec.log.slice(from);
    const refresh = seen.find((f) => f.grantType === 'refresh_token')!;
    assert.equal(refresh.status, 401);
    assert.equal(JSON.parse(refresh.errorBody!).error, 'invalid_client');
    assert.deepEqual(provider.invalidated, ['all']);
    const registerAt = seen.findIndex((f) => f.url.pathname === '/api/oauth/register');
    assert.ok(registerAt > seen.indexOf(refresh), 'registers again after the 401');
    assert.equal(seen[registerAt]!.status, 201);
    const newClientId = String(provider.client!.client_id);
    assert.notEqual(newClientId, oldClientId);
    assert.equal(provider.authorizationUrls.at(-1)!.searchParams.get('client_id'), newClientId);

    const transport = transportFor(provider, rec.fetchFn);
    await transport.finishAuth(provider.takeCode());
    const again = new Client({ name: 'sdk-flow', version: '1.0.0' });
    await again.connect(transportFor(provider, rec.fetchFn));
    try {
      assert.equal((await callTool(again, 'get_account')).credential, 'oauth');
    } finally {
      await again.close();
    }
    const clients = (await cli(['oauth', 'clients', 'list'])) as { client_id: string; revoked_at: string | null }[];
    assert.ok(clients.find((c) => c.client_id === oldClientId)!.revoked_at);
    assert.equal(clients.find((c) => c.client_id === newClientId)!.revoked_at, null);
  });
});
