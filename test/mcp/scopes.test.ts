// Scope enforcement on /api/mcp with real OAuth tokens (OAUTH.md decisions 9, 12; T2, T8, T9, T10):
// every token here was issued through the real sign-in and consent pages, with the user leaving ticked
// only some scopes. What a client sees (status, challenge, result) and what is stored.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SignJWT, decodeJwt, decodeProtectedHeader } from 'jose';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';
import { openShop, type Shop } from '../helpers/fixtures.ts';
import type { TestServer } from '../helpers/server.ts';
import { addUser, obtainTokens } from '../helpers/oauth.ts';
import { OPEN_LIMITS, counts, eventsOf, nextPhone, orderRow, storesNothing } from '../api/orders/order-kit.ts';
import { manualClock } from '../../src/clock.ts';
import { GRANTABLE_SCOPES } from '../../src/domain/oauth/scopes.ts';
import { listGrants, revokeGrant } from '../../src/use-cases/oauth/grants.use-case.ts';
import { INITIALIZE, buyer, call, connect, rawPost } from './mcp-kit.ts';

type User = { email: string; password: string };

const metadataUrl = (server: TestServer) => `${server.deps.config.baseUrl}/.well-known/oauth-protected-resource/api/mcp`;
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

const toolCall = (id: number, name: string, args: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

let idem = 0;
const orderArgs = (shop: Shop) => ({ store_id: shop.storeId, product_id: shop.productId, buyer: buyer({ telefono: nextPhone() }), idempotency_key: `scopes-${++idem}` });

/** 401 with the exact invalid_token challenge (RFC 6750 §3.1), read as the SDK reads it. */
async function expectInvalidToken(server: TestServer, res: Response) {
  assert.equal(res.status, 401);
  assert.equal(res.headers.get('www-authenticate'), `Bearer error="invalid_token", resource_metadata="${metadataUrl(server)}", scope="${GRANTABLE_SCOPES.join(' ')}"`);
  const parsed = extractWWWAuthenticateParams(res);
  assert.equal(parsed.error, 'invalid_token');
  assert.equal(parsed.resourceMetadataUrl?.href, metadataUrl(server));
  assert.equal(((await res.json()) as { error: string }).error, 'invalid_token');
}

describe('scopes of OAuth tokens on /api/mcp', () => {
  let server: TestServer;
  let shop: Shop;
  let user: User;
  before(async () => {
    ({ server, shop } = await openShop(OPEN_LIMITS));
    user = await addUser(server.deps, shop.accountId);
  });
  after(() => server.close());

  describe('a token granted only orders:read', () => {
    let token: string;
    let existing: string;
    before(async () => {
      const owner = await connect(server.url, shop.secretKey);
      existing = (await call(owner, 'create_order', orderArgs(shop))).value.id;
      await owner.close();
      const { tokens } = await obtainTokens(server.url, user, { grant: ['orders:read'] });
      assert.equal(tokens.scope, 'mcp:invoke orders:read', 'the server keeps mcp:invoke');
      token = tokens.access_token;
    });

    const insufficient = () => `Bearer error="insufficient_scope", scope="mcp:invoke orders:create orders:read", resource_metadata="${metadataUrl(server)}"`;

    test('lists the orders of the account', async () => {
      const client = await connect(server.url, token);
      try {
        const { isError, value } = await call(client, 'list_orders');
        assert.equal(isError, false);
        assert.ok(value.items.some((o: { id: string }) => o.id === existing));
      } finally {
        await client.close();
      }
    });

    test('calling create_order is 403 insufficient_scope naming granted plus missing scopes, and stores nothing', async () => {
      const res = await storesNothing(server.deps, () => rawPost(server.url, toolCall(1, 'create_order', orderArgs(shop)), auth(token)));
      assert.equal(res.status, 403);
      assert.equal(res.headers.get('www-authenticate'), insufficient());
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.match(res.headers.get('access-control-expose-headers') ?? '', /WWW-Authenticate/);
      const body = (await res.json()) as { error: string; error_description: string };
      assert.equal(body.error, 'insufficient_scope');
      assert.match(body.error_description, /orders:create/);
    });

    test('the SDK client without an auth provider sees the 403 as an error and nothing is stored', async () => {
      const client = await connect(server.url, token);
      try {
        const before_ = await counts(server.deps);
        await assert.rejects(
          client.callTool({ name: 'create_order', arguments: orderArgs(shop) }),
          (error: unknown) => error instanceof StreamableHTTPError && error.code === 403,
        );
        assert.deepEqual(await counts(server.deps), before_);
      } finally {
        await client.close();
      }
    });

    test('a create_order inside a JSON-RPC batch is refused the same way, the whole batch with it', async () => {
      const batch = [toolCall(1, 'list_orders'), toolCall(2, 'create_order', orderArgs(shop))];
      const res = await storesNothing(server.deps, () => rawPost(server.url, batch, auth(token)));
      assert.equal(res.status, 403);
      assert.equal(res.headers.get('www-authenticate'), insufficient());
      assert.equal(((await res.json()) as { error: string }).error, 'insufficient_scope');
    });

    test("the SDK's own header parser reads the 403 challenge", async () => {
      const res = await rawPost(server.url, toolCall(1, 'create_order', orderArgs(shop)), auth(token));
      const parsed = extractWWWAuthenticateParams(res);
      assert.equal(parsed.error, 'insufficient_scope');
      assert.equal(parsed.scope, 'mcp:invoke orders:create orders:read');
      assert.equal(parsed.resourceMetadataUrl?.href, metadataUrl(server));
    });

    test('get_account needs only mcp:invoke and reports exactly the granted scopes of an oauth credential', async () => {
      const client = await connect(server.url, token);
      try {
        const { isError, value } = await call(client, 'get_account');
        assert.equal(isError, false);
        assert.equal(value.account.id, shop.accountId);
        assert.equal(value.credential, 'oauth');
        assert.deepEqual(value.granted_scopes, ['mcp:invoke', 'orders:read']);
        assert.deepEqual(
          value.stores.map((s: { id: string }) => s.id),
          [shop.storeId],
        );
      } finally {
        await client.close();
      }
    });
  });

  test('a request without a token is parsed by the SDK as a 401 with the metadata URL, the scopes and no error', async () => {
    const res = await rawPost(server.url, INITIALIZE);
    assert.equal(res.status, 401);
    const parsed = extractWWWAuthenticateParams(res);
    assert.equal(parsed.error, undefined);
    assert.equal(parsed.scope, GRANTABLE_SCOPES.join(' '));
    assert.equal(parsed.resourceMetadataUrl?.href, metadataUrl(server));
  });

  test('create_order with a token holding orders:create stores the order with the event actor oauth:<client_id>', async () => {
    const { client: registered, tokens } = await obtainTokens(server.url, user, { grant: ['orders:create'] });
    assert.equal(tokens.scope, 'mcp:invoke orders:create');
    const client = await connect(server.url, tokens.access_token);
    try {
      const { isError, value } = await call(client, 'create_order', orderArgs(shop));
      assert.equal(isError, false, JSON.stringify(value));
      const row = await orderRow(server.deps, value.id);
      assert.equal(row.store_id, shop.storeId);
      const [event] = await eventsOf(server.deps, row.id);
      assert.equal(event!.type, 'order.created');
      assert.equal(event!.actor, `oauth:${registered.client_id}`);
      // Without orders:read, reading it back is refused.
      await assert.rejects(
        client.callTool({ name: 'get_order', arguments: { order_id: value.id } }),
        (error: unknown) => error instanceof StreamableHTTPError && error.code === 403,
      );
    } finally {
      await client.close();
    }
  });

  test('a token whose family the operator revoked is 401 invalid_token', async () => {
    const { client, tokens } = await obtainTokens(server.url, user, { grant: ['orders:read'] });
    assert.equal((await rawPost(server.url, INITIALIZE, auth(tokens.access_token))).status, 200);
    const [family] = await listGrants(server.deps, { clientId: client.client_id });
    await revokeGrant(server.deps, family!.id);
    await expectInvalidToken(server, await rawPost(server.url, INITIALIZE, auth(tokens.access_token)));
  });

  test('an access token is 401 invalid_token once its refresh token is revoked at /api/oauth/revoke', async () => {
    const { client, tokens } = await obtainTokens(server.url, user, { grant: ['orders:read'] });
    assert.equal((await rawPost(server.url, INITIALIZE, auth(tokens.access_token))).status, 200);
    const res = await fetch(`${server.url}/api/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: tokens.refresh_token, token_type_hint: 'refresh_token', client_id: client.client_id }),
    });
    assert.equal(res.status, 200);
    await expectInvalidToken(server, await rawPost(server.url, INITIALIZE, auth(tokens.access_token)));
  });

  test('a token only in the query string is 401 as if absent, without error=', async () => {
    const { tokens } = await obtainTokens(server.url, user, { grant: ['orders:read'] });
    const res = await rawPost(server.url, INITIALIZE, {}, `/api/mcp?access_token=${encodeURIComponent(tokens.access_token)}`);
    assert.equal(res.status, 401);
    assert.equal(res.headers.get('www-authenticate'), `Bearer resource_metadata="${metadataUrl(server)}", scope="${GRANTABLE_SCOPES.join(' ')}"`);
    assert.equal(extractWWWAuthenticateParams(res).error, undefined);
  });

  test('a secret key still has every scope: create_order works and the actor is the key', async () => {
    const client = await connect(server.url, shop.secretKey);
    try {
      const { isError, value } = await call(client, 'create_order', orderArgs(shop));
      assert.equal(isError, false, JSON.stringify(value));
      const [event] = await eventsOf(server.deps, value.id);
      assert.match(event!.actor, /^key:/);
      const account = await call(client, 'get_account');
      assert.equal(account.value.credential, 'secret_key');
      assert.deepEqual(account.value.granted_scopes, [...GRANTABLE_SCOPES]);
    } finally {
      await client.close();
    }
  });

  describe('a token from another server', () => {
    let other: TestServer;
    let ours: string;
    let theirs: string;
    before(async () => {
      const opened = await openShop();
      other = opened.server;
      const otherUser = await addUser(other.deps, opened.shop.accountId);
      theirs = (await obtainTokens(other.url, otherUser, { grant: ['orders:read'] })).tokens.access_token;
      ours = (await obtainTokens(server.url, user, { grant: ['orders:read'] })).tokens.access_token;
      assert.notEqual(other.url, server.url);
    });
    after(() => other.close());

    /** Re-signs the claims of one of our tokens, changing what `change` says. */
    async function resign(signer: TestServer, change: { aud?: string } = {}, kid?: string) {
      const claims = { ...decodeJwt(ours.slice('svc_oauth_'.length)), ...change };
      const { kid: signerKid, key } = await signer.deps.signingKeys.current();
      const signed = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: kid ?? signerKid })
        .sign(key);
      return `svc_oauth_${signed}`;
    }

    test("the other server's own token (its issuer, audience and key) is 401 invalid_token", async () => {
      assert.equal((await rawPost(other.url, INITIALIZE, auth(theirs))).status, 200, 'it works where it was issued');
      await expectInvalidToken(server, await rawPost(server.url, INITIALIZE, auth(theirs)));
    });

    test('our claims re-signed with our own key still work, so the refusals below are about the one change', async () => {
      assert.equal((await rawPost(server.url, INITIALIZE, auth(await resign(server)))).status, 200);
    });

    test("our claims signed by the other server's key under our key id are 401 invalid_token", async () => {
      const ourKid = decodeProtectedHeader(ours.slice('svc_oauth_'.length)).kid!;
      await expectInvalidToken(server, await rawPost(server.url, INITIALIZE, auth(await resign(other, {}, ourKid))));
      await expectInvalidToken(server, await rawPost(server.url, INITIALIZE, auth(await resign(other))));
    });

    test('our claims for the audience of the other server, signed with our key, are 401 invalid_token', async () => {
      await expectInvalidToken(server, await rawPost(server.url, INITIALIZE, auth(await resign(server, { aud: `${other.url}/api/mcp` }))));
    });
  });
});

describe('an expired OAuth access token', () => {
  const clock = manualClock(Date.now());
  let server: TestServer;
  let user: User;
  before(async () => {
    const opened = await openShop({}, { clock });
    server = opened.server;
    user = await addUser(server.deps, opened.shop.accountId);
  });
  after(() => server.close());

  test('works for its hour and is 401 invalid_token 3601 s after it was issued', async () => {
    const { tokens } = await obtainTokens(server.url, user, { grant: ['orders:read'] });
    clock.advance(3_599_000);
    assert.equal((await rawPost(server.url, INITIALIZE, auth(tokens.access_token))).status, 200);
    clock.advance(2_000);
    await expectInvalidToken(server, await rawPost(server.url, INITIALIZE, auth(tokens.access_token)));
  });
});
