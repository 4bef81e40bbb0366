// The token and revocation endpoints (seed §5 rules 2–4; OAUTH.md decisions 8–11, 17;
// T42–T59): single-use codes, PKCE, binding, refresh rotation and reuse detection, revocation.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { manualClock } from '../../src/clock.ts';
import { openShop } from '../helpers/fixtures.ts';
import type { TestServer } from '../helpers/server.ts';
import { Browser, addUser, authorizeUrl, obtainTokens, pkcePair, registerLoopbackClient } from '../helpers/oauth.ts';

const form = (url: string, path: string, body: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(body) });

describe('POST /api/oauth/token and /api/oauth/revoke', () => {
  let server: TestServer;
  let user: { email: string; password: string };
  const clock = manualClock('2026-11-23T12:00:00Z');
  let browser: Browser;

  before(async () => {
    const opened = await openShop({ rateRegisterPerHour: 1000 }, { clock });
    server = opened.server;
    user = await addUser(server.deps, opened.shop.accountId);
    browser = new Browser(server.url);
  });
  after(() => server.close());

  /** A fresh code for a fresh client, through the real pages. */
  async function code(opts: { scope?: string } = {}) {
    const client = await registerLoopbackClient(server.url);
    const { verifier, challenge } = pkcePair();
    const redirectUri = 'http://127.0.0.1:7777/callback';
    const callback = await browser.authorize(
      authorizeUrl(server.url, { response_type: 'code', client_id: client.client_id, redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: 'S256', state: 's', scope: opts.scope }),
      user,
    );
    return { client, verifier, redirectUri, code: callback.searchParams.get('code')! };
  }
  const redeem = (c: Awaited<ReturnType<typeof code>>, over: Record<string, string | undefined> = {}) => {
    const body: Record<string, string> = {};
    for (const [k, v] of Object.entries({ grant_type: 'authorization_code', code: c.code, code_verifier: c.verifier, redirect_uri: c.redirectUri, client_id: c.client.client_id, ...over })) if (v !== undefined) body[k] = v;
    return form(server.url, '/api/oauth/token', body);
  };
  const mcpStatus = async (token: string) =>
    (await fetch(`${server.url}/api/mcp`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) })).status;
  const errorOf = async (res: Response) => {
    assert.match(res.headers.get('content-type')!, /^application\/json/);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    return ((await res.json()) as { error: string }).error;
  };

  test('a code is exchanged once for a Bearer access token of one hour, a refresh token and the granted scope', async () => {
    const c = await code({ scope: 'orders:read' });
    const res = await redeem(c, { resource: `${server.url}/api/mcp` });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    const body = (await res.json()) as Record<string, unknown>;
    assert.deepEqual(Object.keys(body).sort(), ['access_token', 'expires_in', 'refresh_token', 'scope', 'token_type']);
    assert.match(body.access_token as string, /^svc_oauth_[\w-]+\.[\w-]+\.[\w-]+$/);
    assert.match(body.refresh_token as string, /^svc_refresh_[0-9A-Za-z]{48}$/);
    assert.equal(body.token_type, 'Bearer');
    assert.equal(body.expires_in, 3600);
    assert.equal(body.scope, 'mcp:invoke orders:read');
    const claims = JSON.parse(Buffer.from((body.access_token as string).slice(10).split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    assert.equal(claims.iss, server.url);
    assert.equal(claims.aud, `${server.url}/api/mcp`);
    assert.equal(claims.client_id, c.client.client_id);
    assert.equal((claims.exp as number) - (claims.iat as number), 3600);
    // Secrets at rest are hashes only.
    const stored = JSON.stringify(await server.deps.db.selectFrom('oauth_refresh_tokens').selectAll().execute()) + JSON.stringify(await server.deps.db.selectFrom('oauth_codes').selectAll().execute());
    assert.ok(!stored.includes(body.refresh_token as string));
    assert.ok(!stored.includes(c.code));
  });

  test('a replayed code is invalid_grant and revokes the tokens issued from it', async () => {
    const c = await code();
    const first = (await (await redeem(c)).json()) as { access_token: string; refresh_token: string };
    assert.equal(await mcpStatus(first.access_token), 200);
    const replay = await redeem(c);
    assert.equal(replay.status, 400);
    assert.deepEqual(await replay.json(), { error: 'invalid_grant' });
    assert.equal(await mcpStatus(first.access_token), 401);
    assert.equal(await errorOf(await form(server.url, '/api/oauth/token', { grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: c.client.client_id })), 'invalid_grant');
  });

  test('two concurrent redemptions of one code: one is answered tokens, and the replay that lost revokes them (RFC 6749 §4.1.2)', async () => {
    const c = await code();
    const answers = await Promise.all([redeem(c), redeem(c), redeem(c)]);
    assert.deepEqual(answers.map((r) => r.status).sort(), [200, 400, 400]);
    // A code redeemed twice has leaked: the cautious reading of §4.1.2 revokes what it issued, the
    // winner's tokens included (a legitimate client never redeems a code twice).
    const winner = (await answers.find((r) => r.status === 200)!.json()) as { access_token: string; refresh_token: string };
    assert.equal(await mcpStatus(winner.access_token), 401);
    assert.equal(await errorOf(await form(server.url, '/api/oauth/token', { grant_type: 'refresh_token', refresh_token: winner.refresh_token, client_id: c.client.client_id })), 'invalid_grant');
  });

  test('a code expires after 60 seconds', async () => {
    const c = await code();
    clock.advance(61_000);
    assert.equal(await errorOf(await redeem(c)), 'invalid_grant');
  });

  test('a wrong or missing verifier, another client, another redirect URI or another resource fail without detail', async () => {
    const other = await registerLoopbackClient(server.url);
    const cases: [Record<string, string | undefined>, number, string][] = [
      [{ code_verifier: pkcePair().verifier }, 400, 'invalid_grant'],
      [{ code_verifier: 'short' }, 400, 'invalid_grant'],
      [{ client_id: other.client_id }, 400, 'invalid_grant'],
      [{ redirect_uri: 'http://127.0.0.1:7778/callback' }, 400, 'invalid_grant'],
      [{ resource: 'https://other.example/api/mcp' }, 400, 'invalid_target'],
      [{ code: 'not-a-code' }, 400, 'invalid_grant'],
      [{ code_verifier: undefined }, 400, 'invalid_request'],
      [{ client_id: 'mcp_nobody' }, 401, 'invalid_client'],
      [{ client_id: undefined }, 401, 'invalid_client'],
      [{ grant_type: 'client_credentials' }, 400, 'unsupported_grant_type'],
      [{ grant_type: 'password' }, 400, 'unsupported_grant_type'],
      [{ grant_type: undefined }, 400, 'invalid_request'],
    ];
    for (const [over, status, error] of cases) {
      const res = await redeem(await code(), over);
      assert.equal(res.status, status, JSON.stringify(over));
      assert.equal(await errorOf(res), error, JSON.stringify(over));
    }
  });

  test('the token endpoint accepts only form bodies and refuses duplicated parameters', async () => {
    const c = await code();
    const json = await fetch(`${server.url}/api/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ grant_type: 'authorization_code', code: c.code }) });
    assert.equal(json.status, 400);
    assert.equal(await errorOf(json), 'invalid_request');
    const dup = await fetch(`${server.url}/api/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=authorization_code&code=${c.code}&code=${c.code}&client_id=${c.client.client_id}`,
    });
    assert.equal(await errorOf(dup), 'invalid_request');
  });

  test('refresh rotates the refresh token; reusing a rotated one revokes the whole family', async () => {
    const { client, tokens } = await obtainTokens(server.url, user, { browser });
    const refresh = (rt: string, over: Record<string, string> = {}) => form(server.url, '/api/oauth/token', { grant_type: 'refresh_token', refresh_token: rt, client_id: client.client_id, ...over });
    const second = (await (await refresh(tokens.refresh_token)).json()) as typeof tokens;
    assert.notEqual(second.refresh_token, tokens.refresh_token);
    assert.equal(await mcpStatus(second.access_token), 200);
    const reuse = await refresh(tokens.refresh_token);
    assert.equal(reuse.status, 400);
    assert.equal(await errorOf(reuse), 'invalid_grant');
    // The family is dead: the current refresh token and both access tokens.
    assert.equal(await errorOf(await refresh(second.refresh_token)), 'invalid_grant');
    assert.equal(await mcpStatus(second.access_token), 401);
    assert.equal(await mcpStatus(tokens.access_token), 401);
  });

  test('two parallel refreshes with one token: one wins and the reuse revokes the family (no grace window)', async () => {
    const { client, tokens } = await obtainTokens(server.url, user, { browser });
    const answers = await Promise.all([0, 1].map(() => form(server.url, '/api/oauth/token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: client.client_id })));
    assert.deepEqual(answers.map((r) => r.status).sort(), [200, 400]);
    const winner = (await answers.find((r) => r.status === 200)!.json()) as typeof tokens;
    assert.equal(await mcpStatus(winner.access_token), 401);
  });

  test('a refresh is bound to its client, scope and resource', async () => {
    const { client, tokens } = await obtainTokens(server.url, user, { scope: 'orders:read products:read', browser });
    const other = await registerLoopbackClient(server.url);
    const refresh = (over: Record<string, string>) => form(server.url, '/api/oauth/token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: client.client_id, ...over });
    assert.equal(await errorOf(await refresh({ client_id: other.client_id })), 'invalid_grant');
    assert.equal(await errorOf(await refresh({ scope: 'mcp:invoke orders:read orders:write' })), 'invalid_scope');
    assert.equal(await errorOf(await refresh({ resource: 'https://other.example/api/mcp' })), 'invalid_target');
    const narrower = await refresh({ scope: 'mcp:invoke orders:read', resource: `${server.url}/api/mcp` });
    assert.equal(narrower.status, 200);
    const body = (await narrower.json()) as typeof tokens;
    assert.equal(body.scope, 'mcp:invoke orders:read');
    // The rotated token still carries the whole grant.
    const again = (await (await form(server.url, '/api/oauth/token', { grant_type: 'refresh_token', refresh_token: body.refresh_token, client_id: client.client_id })).json()) as typeof tokens;
    assert.equal(again.scope, 'mcp:invoke orders:read products:read');
  });

  test('refresh tokens die after 30 idle days and 90 days in all; access tokens after one hour', async () => {
    const first = await obtainTokens(server.url, user, { browser });
    clock.advance(3_601_000);
    assert.equal(await mcpStatus(first.tokens.access_token), 401);
    clock.advance(30 * 86_400_000);
    assert.equal(await errorOf(await form(server.url, '/api/oauth/token', { grant_type: 'refresh_token', refresh_token: first.tokens.refresh_token, client_id: first.client.client_id })), 'invalid_grant');

    const second = await obtainTokens(server.url, user, { browser });
    let rt = second.tokens.refresh_token;
    for (let day = 0; day < 95; day += 20) {
      clock.advance(20 * 86_400_000);
      const res = await form(server.url, '/api/oauth/token', { grant_type: 'refresh_token', refresh_token: rt, client_id: second.client.client_id });
      if (day + 20 < 90) {
        assert.equal(res.status, 200, `day ${day + 20}`);
        rt = ((await res.json()) as { refresh_token: string }).refresh_token;
      } else assert.equal(await errorOf(res), 'invalid_grant', `day ${day + 20}`);
    }
  });

  test('revocation answers 200 for known and unknown tokens; a refresh token kills its family, an access token only itself', async () => {
    const a = await obtainTokens(server.url, user, { browser });
    const revoke = (token: string, clientId = a.client.client_id) => form(server.url, '/api/oauth/revoke', { token, client_id: clientId });
    const missing = await form(server.url, '/api/oauth/revoke', { client_id: a.client.client_id });
    assert.equal(missing.status, 400);
    assert.equal(await errorOf(missing), 'invalid_request');
    assert.equal((await revoke('svc_refresh_unknown')).status, 200);
    assert.equal((await revoke('garbage')).status, 200);

    // Another client's token is answered 200 and left alone.
    const b = await obtainTokens(server.url, user, { browser });
    assert.equal((await revoke(b.tokens.refresh_token)).status, 200);
    assert.equal(await mcpStatus(b.tokens.access_token), 200);

    const refreshed = (await (await form(server.url, '/api/oauth/token', { grant_type: 'refresh_token', refresh_token: a.tokens.refresh_token, client_id: a.client.client_id })).json()) as typeof a.tokens;
    assert.equal((await revoke(refreshed.access_token)).status, 200);
    assert.equal(await mcpStatus(refreshed.access_token), 401);
    // Revoking an access token leaves the grant: the refresh token still works.
    const next = await form(server.url, '/api/oauth/token', { grant_type: 'refresh_token', refresh_token: refreshed.refresh_token, client_id: a.client.client_id });
    assert.equal(next.status, 200);
    const latest = (await next.json()) as typeof a.tokens;
    assert.equal((await revoke(latest.refresh_token)).status, 200);
    assert.equal(await mcpStatus(latest.access_token), 401);
    assert.equal(await errorOf(await form(server.url, '/api/oauth/token', { grant_type: 'refresh_token', refresh_token: latest.refresh_token, client_id: a.client.client_id })), 'invalid_grant');
  });
});
