// Who may call the account API (SPEC 4.3; seed OAuth rule 2): a secret key as Bearer and nothing else.
// OAuth access tokens (valid only for /api/mcp), publishable keys, unknown, malformed and revoked
// keys are all 401 with the ErrorResponse and a Bearer challenge, and store nothing.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openShop, addKey, addStore, revokeKey, type Shop } from '../../helpers/fixtures.ts';
import type { TestServer } from '../../helpers/server.ts';
import { addUser, obtainTokens } from '../../helpers/oauth.ts';
import { call, connect } from '../../mcp/mcp-kit.ts';
import { OPEN_LIMITS } from '../orders/order-kit.ts';
import { UNKNOWN_SECRET, V1Client, failed, ok, rows, storesNothing, type V1Answer } from './v1-kit.ts';

const CHALLENGE = 'Bearer realm="codrail account API"';

describe('account API authentication', () => {
  let server: TestServer;
  let shop: Shop;
  let v1: V1Client;
  const storeBody = { name: 'Tienda nueva', country: 'CO' };

  before(async () => {
    ({ server, shop } = await openShop(OPEN_LIMITS));
    v1 = await V1Client.open(server, shop.secretKey);
  });
  after(() => server.close());

  /** A create and a read with this Authorization header: both 401 with the challenge, nothing stored. */
  async function refused(authorization: string | null): Promise<V1Answer> {
    const headers: Record<string, string> = authorization === null ? {} : { authorization };
    const create = await storesNothing(server.deps, () => v1.post('/api/v1/stores', { key: null, headers, body: storeBody }));
    failed(create, 401, []);
    assert.equal(create.headers.get('www-authenticate'), CHALLENGE);
    const read = await v1.get('/api/v1/stores/{store_id}', { key: null, headers, params: { store_id: shop.storeId } });
    failed(read, 401, []);
    assert.ok(!read.text.includes(shop.storeId), 'a refused read shows nothing of the store');
    return create;
  }

  test('a request without an Authorization header answers 401 naming the secret key and stores nothing', async () => {
    const answer = await refused(null);
    assert.match(answer.body.error, /secret key/);
  });

  test('an empty Authorization header answers 401 and stores nothing', async () => {
    await refused('');
  });

  test('an Authorization header that is not "Bearer <key>" answers 401 and stores nothing', async () => {
    await refused(`Basic ${Buffer.from(`user:${shop.secretKey}`).toString('base64')}`);
    await refused(`Bearer ${shop.secretKey} extra`);
  });

  test('a malformed key answers 401 and stores nothing', async () => {
    await refused('Bearer not-a-key');
    await refused(`Bearer ${shop.secretKey.slice(0, -1)}`);
    await refused(`Bearer ${shop.secretKey}x`);
  });

  test('a well-formed secret key that no account holds answers 401 and stores nothing', async () => {
    await refused(`Bearer ${UNKNOWN_SECRET}`);
  });

  test('a revoked secret key answers 401 and stores nothing, while the other secret keys keep working', async () => {
    const doomed = await addKey(server.deps, { store_id: shop.storeId, type: 'secret' });
    ok(await v1.get('/api/v1/account', { key: doomed.key }));
    await revokeKey(server.deps, doomed.id);
    await refused(`Bearer ${doomed.key}`);
    ok(await v1.get('/api/v1/account'));
  });

  test('a live and a test publishable key of the account answer 401 and store nothing', async () => {
    const answer = await refused(`Bearer ${shop.liveKey}`);
    assert.match(answer.body.error, /Publishable/i);
    await refused(`Bearer ${shop.testKey}`);
  });

  test('a publishable key in x-svc-api-key is no credential here: 401 and nothing stored', async () => {
    const answer = await storesNothing(server.deps, () => v1.post('/api/v1/stores', { key: null, headers: { 'x-svc-api-key': shop.liveKey }, body: storeBody }));
    failed(answer, 401, []);
  });

  test('an OAuth access token issued through the consent pages answers 401 on /api/v1, stores nothing, and still works on /api/mcp', async () => {
    const user = await addUser(server.deps, shop.accountId);
    const { tokens } = await obtainTokens(server.url, user);
    assert.match(tokens.access_token, /^svc_oauth_/);
    const answer = await refused(`Bearer ${tokens.access_token}`);
    assert.match(answer.body.error, /OAuth/);
    const client = await connect(server.url, tokens.access_token);
    try {
      const { isError, value } = await call(client, 'get_account');
      assert.equal(isError, false, 'the token itself is valid');
      assert.equal(value.account.id, shop.accountId);
    } finally {
      await client.close();
    }
  });

  test('a valid secret key reads its account with every scope and records when it was last used', async () => {
    const data = ok(await v1.get('/api/v1/account'));
    assert.equal(data.account.id, shop.accountId);
    assert.equal(data.credential, 'secret_key');
    assert.ok(data.granted_scopes.includes('stores:write'));
    assert.ok(data.stores.some((s: { id: string }) => s.id === shop.storeId));
    const [key] = await rows(server.deps, 'select last_used_at from api_keys where type = ? and account_id = ? and revoked_at is null order by created_at limit 1', 'secret', shop.accountId);
    assert.ok(key?.last_used_at, 'last_used_at is set');
  });

  test('the Bearer scheme name is case-insensitive', async () => {
    ok(await v1.get('/api/v1/account', { key: null, headers: { authorization: `bearer ${shop.secretKey}` } }));
  });

  test('a secret key acts on every store of its account, including stores created after the key', async () => {
    const created = ok(await v1.post('/api/v1/stores', { body: { name: 'Tienda MX', country: 'MX', domains: ['mx.example.com'] } }), 201);
    const [stored] = await rows(server.deps, 'select account_id, country, currency from stores where id = ?', created.id);
    assert.deepEqual(stored, { account_id: shop.accountId, country: 'MX', currency: 'MXN' });
    const byOperator = await addStore(server.deps, shop.accountId, { name: 'Tienda PE', country: 'PE' });
    for (const storeId of [created.id, byOperator.id]) {
      const product = ok(await v1.post('/api/v1/products', { body: { store_id: storeId, name: 'Faja', packs: [{ quantity: 1, price: 500 }] } }), 201);
      const [row] = await rows(server.deps, 'select store_id from products where id = ?', product.id);
      assert.equal(row?.store_id, storeId);
    }
    const listed = ok(await v1.get('/api/v1/stores'));
    assert.deepEqual(new Set(listed.items.map((s: { id: string }) => s.id)), new Set([shop.storeId, created.id, byOperator.id]));
  });

  test('a secret key issued for one store of the account acts on another store of the account', async () => {
    const other = await addStore(server.deps, shop.accountId, { name: 'Tienda CL', country: 'CL' });
    const otherKey = await addKey(server.deps, { store_id: other.id, type: 'secret' });
    const data = ok(await v1.get('/api/v1/stores/{store_id}', { key: otherKey.key, params: { store_id: shop.storeId } }));
    assert.equal(data.id, shop.storeId);
  });
});
