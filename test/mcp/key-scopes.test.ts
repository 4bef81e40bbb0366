// Secret keys with scopes (issue 19 §2), like Stripe's restricted keys: a key made through an OAuth
// token carries at most the token's scopes and records the client and user behind it; /api/mcp,
// /api/v1 and POST /api/orders/create hold a key to its scopes exactly as a token; revoking the
// authorization revokes the keys made through it, at once. Every token here comes from the real
// sign-in and consent pages, every key is used over HTTP, and the operator's commands are the real CLI.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { addKey, openShop, orderBody, postOrder, revokeKey, seedShop, type Shop } from '../helpers/fixtures.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { Browser, addUser, obtainTokens } from '../helpers/oauth.ts';
import { cliJson } from '../helpers/cli-expect.ts';
import { OPEN_LIMITS, expectCreated, expectError, nextPhone, storesNothing as ordersNothing } from '../api/orders/order-kit.ts';
import { V1Client, failed, ok as v1Ok, storesNothing } from '../api/v1/v1-kit.ts';
import { manualClock } from '../../src/clock.ts';
import { joinScopes } from '../../src/domain/oauth/scopes.ts';
import { listGrants } from '../../src/use-cases/oauth/grants.use-case.ts';
import { INITIALIZE, connect, rawPost } from './mcp-kit.ts';
import { expectInsufficientScope, expectToolError, keyRow, ok } from './account-kit.ts';

const WRITE_STORES = ['mcp:invoke', 'stores:write'];

describe('secret keys made through an OAuth token granted mcp:invoke stores:write', () => {
  let server: TestServer, shop: Shop, owner: Client, api: V1Client;
  let user: { email: string; password: string; id: string };
  let browser: Browser;

  before(async () => {
    server = await startServer(OPEN_LIMITS);
    shop = await seedShop(server.deps);
    owner = await connect(server.url, shop.secretKey);
    api = await V1Client.open(server, shop.secretKey);
    const signIn = await addUser(server.deps, shop.accountId);
    const row = await server.deps.db.selectFrom('users').select('id').where('email', '=', signIn.email).executeTakeFirstOrThrow();
    user = { ...signIn, id: row.id };
    browser = new Browser(server.url);
  });
  after(async () => {
    await owner.close();
    await server.close();
  });

  /** One authorization through the consent pages, the user leaving ticked only `scopes`. */
  async function authorize(scopes = ['stores:write']) {
    const { client, tokens } = await obtainTokens(server.url, user, { browser, grant: scopes });
    assert.equal(tokens.scope, joinScopes(['mcp:invoke', ...scopes]));
    const [family] = await listGrants(server.deps, { clientId: client.client_id });
    assert.ok(family);
    return { clientId: client.client_id, tokens, familyId: family.id };
  }

  /** create_secret_key through the SDK client holding this access token. */
  async function mint(token: string, args: Record<string, unknown> = {}) {
    const assistant = await connect(server.url, token);
    try {
      return await ok(assistant, 'create_secret_key', { store_id: shop.storeId, ...args });
    } finally {
      await assistant.close();
    }
  }

  /** The key works on both account surfaces: /api/v1 reads the account, /api/mcp initializes. */
  async function expectWorking(key: string) {
    v1Ok(await api.as(key).get('/api/v1/account'));
    assert.equal((await rawPost(server.url, INITIALIZE, { authorization: `Bearer ${key}` })).status, 200);
  }

  /** The key is refused on both: 401 from /api/v1 and 401 invalid_token from /api/mcp. */
  async function expectRevoked(key: string) {
    failed(await api.as(key).get('/api/v1/account'), 401, []);
    const mcp = await rawPost(server.url, INITIALIZE, { authorization: `Bearer ${key}` });
    assert.equal(mcp.status, 401);
    assert.equal(((await mcp.json()) as { error: string }).error, 'invalid_token');
  }

  test('create_secret_key through the token makes a key with exactly the token scopes that records the client and the user', async () => {
    const { tokens, clientId, familyId } = await authorize();
    const created = await mint(tokens.access_token, { label: 'from the assistant' });
    assert.match(created.key, /^svc_live_secret_[0-9A-Za-z]{40}$/);
    assert.deepEqual(created.scopes, WRITE_STORES);
    const origin = { via: 'oauth', key_id: null, client_id: clientId, client_name: 'Test client', user_id: user.id, user_email: user.email };
    assert.deepEqual(created.created_by, origin);
    const row = await keyRow(server.deps, created.id);
    assert.equal(row.scopes, 'mcp:invoke stores:write');
    assert.equal(row.created_via, 'oauth');
    assert.equal(row.created_by_key, null);
    assert.equal(row.oauth_client_id, clientId);
    assert.equal(row.oauth_user_id, user.id);
    assert.equal(row.oauth_family_id, familyId);
    // The account's owner sees where it came from.
    const listed = (await ok(owner, 'list_api_keys', { type: 'secret', limit: 100 })).items.find((k: { id: string }) => k.id === created.id);
    assert.deepEqual(listed.scopes, WRITE_STORES);
    assert.deepEqual(listed.created_by, origin);
  });

  test('that key is 403 insufficient_scope on /api/mcp for a tool needing orders:read and 403 on GET /api/v1/orders, and works within its scopes', async () => {
    const { key } = await mint((await authorize()).tokens.access_token);
    await expectInsufficientScope(server, key, WRITE_STORES, 'list_orders', {}, 'orders:read');
    const refused = failed(await storesNothing(server.deps, () => api.as(key).get('/api/v1/orders')), 403, []);
    assert.equal(refused.error, 'This key lacks the scope orders:read');
    failed(await api.as(key).get('/api/v1/stores'), 403, []);
    assert.deepEqual(v1Ok(await api.as(key).get('/api/v1/account')).granted_scopes, WRITE_STORES);
    const holder = await connect(server.url, key);
    try {
      const account = await ok(holder, 'get_account');
      assert.equal(account.credential, 'secret_key');
      assert.deepEqual(account.granted_scopes, WRITE_STORES);
      await ok(holder, 'add_store_domain', { store_id: shop.storeId, domain: 'keys.example.com' });
    } finally {
      await holder.close();
    }
  });

  test('asking create_secret_key through the token for orders:read is refused on scopes and stores no key; unknown scope names are invalid_input', async () => {
    const { tokens } = await authorize();
    const assistant = await connect(server.url, tokens.access_token);
    try {
      const beyond = await expectToolError(server.deps, assistant, 'create_secret_key', { store_id: shop.storeId, scopes: ['orders:read'] }, 'insufficient_scope', 'scopes');
      assert.match(beyond.message, /orders:read/);
      await expectToolError(server.deps, assistant, 'create_secret_key', { store_id: shop.storeId, scopes: ['stores:write', 'orders:read'] }, 'insufficient_scope', 'scopes');
      await expectToolError(server.deps, assistant, 'create_secret_key', { store_id: shop.storeId, scopes: ['orders:reed'] }, 'invalid_input', 'scopes.0');
      await expectToolError(server.deps, assistant, 'create_secret_key', { store_id: shop.storeId, scopes: ['ai:generate'] }, 'invalid_input', 'scopes.0');
      await expectToolError(server.deps, assistant, 'create_secret_key', { store_id: shop.storeId, scopes: [] }, 'invalid_input', 'scopes');
      // Narrower than the token is fine.
      assert.deepEqual((await ok(assistant, 'create_secret_key', { store_id: shop.storeId, scopes: ['stores:write'] })).scopes, ['stores:write']);
    } finally {
      await assistant.close();
    }
  });

  test('a restricted secret key cannot create a broader key on /api/v1 (403 on scopes, nothing stored); the key it creates records it and its authorization', async () => {
    const parent = await mint((await authorize()).tokens.access_token);
    const broader = failed(await storesNothing(server.deps, () => api.as(parent.key).post('/api/v1/keys/secret', { body: { store_id: shop.storeId, scopes: ['orders:read'] } })), 403, ['scopes']);
    assert.match(broader.error, /orders:read/);
    failed(await storesNothing(server.deps, () => api.as(parent.key).post('/api/v1/keys/secret', { body: { store_id: shop.storeId, scopes: ['mcp:invoke', 'stores:write', 'whatsapp:write'] } })), 403, ['scopes']);
    const child = v1Ok(await api.as(parent.key).post('/api/v1/keys/secret', { body: { store_id: shop.storeId } }), 201);
    assert.deepEqual(child.scopes, WRITE_STORES);
    assert.deepEqual(child.created_by, { ...parent.created_by, via: 'secret_key', key_id: parent.id });
    const row = await keyRow(server.deps, child.id);
    assert.equal(row.created_via, 'secret_key');
    assert.equal(row.created_by_key, parent.id);
    assert.equal(row.oauth_family_id, (await keyRow(server.deps, parent.id)).oauth_family_id);
  });

  test('without orders:create a secret key cannot create an order on POST /api/orders/create (403, nothing stored), nor its token a publishable key', async () => {
    const { tokens } = await authorize();
    const { key } = await mint(tokens.access_token);
    const refused = await ordersNothing(server.deps, () => postOrder(server.url, orderBody(shop, { telefono: nextPhone() }), { authorization: `Bearer ${key}` }));
    await expectError(refused, 403, { error: 'This key lacks the scope orders:create' });
    // A publishable key creates orders: a token that may not create orders does not make one.
    const assistant = await connect(server.url, tokens.access_token);
    try {
      const error = await expectToolError(server.deps, assistant, 'create_publishable_key', { store_id: shop.storeId }, 'insufficient_scope');
      assert.match(error.message, /orders:create/);
    } finally {
      await assistant.close();
    }
    // A key that holds orders:create (and nothing else) creates orders.
    const orderer = await addKey(server.deps, { store_id: shop.storeId, type: 'secret', scopes: ['orders:create'] });
    await expectCreated(await postOrder(server.url, orderBody(shop, { telefono: nextPhone() }), { authorization: `Bearer ${orderer.key}` }));
  });

  test('a secret key without mcp:invoke is refused by /api/mcp with 403 insufficient_scope and works on /api/v1 within its scopes', async () => {
    const reader = await addKey(server.deps, { store_id: shop.storeId, type: 'secret', scopes: ['orders:read'] });
    assert.deepEqual(reader.scopes, ['orders:read']);
    const res = await rawPost(server.url, INITIALIZE, { authorization: `Bearer ${reader.key}` });
    assert.equal(res.status, 403);
    assert.equal(res.headers.get('www-authenticate'), `Bearer error="insufficient_scope", scope="mcp:invoke orders:read", resource_metadata="${server.deps.config.baseUrl}/.well-known/oauth-protected-resource/api/mcp"`);
    assert.equal(((await res.json()) as { error: string }).error, 'insufficient_scope');
    v1Ok(await api.as(reader.key).get('/api/v1/orders'));
    failed(await api.as(reader.key).post('/api/v1/stores', { body: { name: 'Tienda', country: 'CO' } }), 403, []);
  });

  test("the operator's `oauth tokens revoke` makes the keys of that authorization 401 at once on /api/v1 and /api/mcp, keys made by those keys included", async () => {
    const { tokens, familyId } = await authorize();
    const made = await mint(tokens.access_token);
    const child = v1Ok(await api.as(made.key).post('/api/v1/keys/secret', { body: { store_id: shop.storeId } }), 201);
    const bystander = await addKey(server.deps, { store_id: shop.storeId, type: 'secret' });
    for (const key of [made.key, child.key, bystander.key]) await expectWorking(key);
    const { json } = await cliJson(server.dbFile, ['oauth', 'tokens', 'revoke', familyId]);
    assert.ok(json.revoked_at);
    for (const key of [made.key, child.key]) await expectRevoked(key);
    for (const id of [made.id, child.id]) assert.equal((await keyRow(server.deps, id)).revoked_at, json.revoked_at, 'revoked with the family, in its transaction');
    await expectWorking(bystander.key);
    await expectWorking(shop.secretKey);
    const listed = (await ok(owner, 'list_api_keys', { include_revoked: true, limit: 100 })).items.find((k: { id: string }) => k.id === made.id);
    assert.equal(listed.active, false);
  });

  test('RFC 7009 revocation of the refresh token makes the keys of that authorization 401 at once', async () => {
    const { tokens, clientId } = await authorize();
    const made = await mint(tokens.access_token);
    await expectWorking(made.key);
    const res = await fetch(`${server.url}/api/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: tokens.refresh_token, client_id: clientId }),
    });
    assert.equal(res.status, 200);
    await expectRevoked(made.key);
  });

  test('a reused refresh token and a revoked OAuth client revoke the keys of their authorizations too', async () => {
    const refresh = (clientId: string, token: string) =>
      fetch(`${server.url}/api/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token, client_id: clientId }),
      });
    const reused = await authorize();
    const first = await mint(reused.tokens.access_token);
    assert.equal((await refresh(reused.clientId, reused.tokens.refresh_token)).status, 200);
    await expectWorking(first.key);
    const replay = await refresh(reused.clientId, reused.tokens.refresh_token);
    assert.equal(replay.status, 400);
    assert.equal(((await replay.json()) as { error: string }).error, 'invalid_grant');
    await expectRevoked(first.key);

    const revoked = await authorize();
    const second = await mint(revoked.tokens.access_token);
    await expectWorking(second.key);
    await cliJson(server.dbFile, ['oauth', 'clients', 'revoke', revoked.clientId]);
    await expectRevoked(second.key);
  });

  test('a key made by a secret key is not revoked with its creator, and records it', async () => {
    const creator = await addKey(server.deps, { store_id: shop.storeId, type: 'secret' });
    const made = v1Ok(await api.as(creator.key).post('/api/v1/keys/secret', { body: { store_id: shop.storeId, scopes: ['orders:read'] } }), 201);
    assert.deepEqual(made.created_by, { via: 'secret_key', key_id: creator.id, client_id: null, client_name: null, user_id: null, user_email: null });
    await revokeKey(server.deps, creator.id);
    failed(await api.as(creator.key).get('/api/v1/orders'), 401, []);
    v1Ok(await api.as(made.key).get('/api/v1/orders'));
  });
});

describe('a secret key made through an OAuth authorization that then expires', () => {
  const clock = manualClock(Date.now());
  let server: TestServer;
  let shop: Shop;
  before(async () => ({ server, shop } = await openShop(OPEN_LIMITS, { clock })));
  after(() => server.close());

  test('keeps working after the authorization expires: only a revocation ends it', async () => {
    const user = await addUser(server.deps, shop.accountId);
    const { tokens } = await obtainTokens(server.url, user, { grant: ['stores:write'] });
    const assistant = await connect(server.url, tokens.access_token);
    let key: string;
    try {
      ({ key } = await ok(assistant, 'create_secret_key', { store_id: shop.storeId }));
    } finally {
      await assistant.close();
    }
    // Past the family's 90-day absolute lifetime: the token is dead, the key is not.
    clock.advance(91 * 24 * 3_600_000);
    assert.equal((await rawPost(server.url, INITIALIZE, { authorization: `Bearer ${tokens.access_token}` })).status, 401);
    assert.equal((await rawPost(server.url, INITIALIZE, { authorization: `Bearer ${key}` })).status, 200);
    const api = await V1Client.open(server, key);
    v1Ok(await api.get('/api/v1/account'));
  });
});
