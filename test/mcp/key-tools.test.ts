// API key tools through the real SDK client (MCP-TOOLS.md §6.3 rows 10-14; SPEC 5): keys shown
// once and stored as hashes, publishable keys bound to store domains, secret keys acting on every
// store of the account, revocation; tenancy and the 403 of a token without the scope.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { addKey, orderBody, postOrder, revokeKey, seedShop, type Shop } from '../helpers/fixtures.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { OPEN_LIMITS, SHOP_ORIGIN, expectCreated, expectError, nextPhone, orderRow } from '../api/orders/order-kit.ts';
import { hashKey } from '../../src/domain/keys.ts';
import { GRANTABLE_SCOPES } from '../../src/domain/oauth/scopes.ts';
import { INITIALIZE, connect, rawPost } from './mcp-kit.ts';
import { expectForeignLikeUnknown, expectInsufficientScope, expectSdkForbidden, expectToolError, keyRow, ok, scopedTokens, snapshot, storeRow , openToolBench, closeToolBench } from './account-kit.ts';

const STORES_READ = ['mcp:invoke', 'stores:read'];
const PRODUCTS_READ = ['mcp:invoke', 'products:read'];

describe('key tools', () => {
  let server: TestServer, shop: Shop, other: Shop, client: Client;
  let tokens: { storesRead: string; productsRead: string };
  before(async () => ({ server, shop, other, client, tokens } = await openToolBench({ storesRead: ['stores:read'], productsRead: ['products:read'] })));
  after(() => closeToolBench({ server, client }));

  const liveKeysOf = async (accountId: string) =>
    (
      await server.deps.db
        .selectFrom('api_keys')
        .select('id')
        .where('account_id', '=', accountId)
        .where('revoked_at', 'is', null)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute()
    ).map((k) => k.id);

  /** A mode-2 order of the seeded shop with a publishable key from an origin. */
  const orderWith = (key: string, origin: string, over: Record<string, unknown> = {}) => postOrder(server.url, orderBody(shop, { telefono: nextPhone(), ...over }), { 'x-svc-api-key': key, origin });

  describe('list_api_keys', () => {
    test('list_api_keys lists the live keys of the account masked, never a key or its hash', async () => {
      const { items, has_more } = await ok(client, 'list_api_keys', {});
      assert.equal(has_more, false);
      assert.deepEqual(items.map((k: { id: string }) => k.id), await liveKeysOf(shop.accountId));
      const text = JSON.stringify(items);
      for (const key of [shop.liveKey, shop.testKey, shop.secretKey]) {
        assert.ok(!text.includes(key), 'no full key');
        assert.ok(!text.includes(hashKey(key)), 'no hash');
      }
      const live = items.find((k: { id: string }) => k.id === shop.liveKeyId);
      const row = await keyRow(server.deps, shop.liveKeyId);
      assert.deepEqual(live, {
        id: row.id,
        store_id: shop.storeId,
        type: 'publishable',
        mode: 'live',
        label: null,
        masked: `svc_live_pub_…${shop.liveKey.slice(-4)}`,
        prefix: row.prefix,
        allowed_domains: [],
        follows_store_domains: true,
        allowed_products: [],
        active: true,
        created_at: row.created_at,
        last_used_at: null,
        revoked_at: null,
        replaced_by: null,
        scopes: null,
        created_by: { via: 'operator', key_id: null, client_id: null, client_name: null, user_id: null, user_email: null },
      });
      assert.ok(!items.some((k: { store_id: string }) => k.store_id === other.storeId));
    });

    test('list_api_keys filters by store, type and mode, and shows revoked keys only when asked', async () => {
      const secret = await ok(client, 'list_api_keys', { type: 'secret' });
      assert.ok(secret.items.length > 0 && secret.items.every((k: { type: string }) => k.type === 'secret'));
      const test_ = await ok(client, 'list_api_keys', { store_id: shop.storeId, mode: 'test' });
      assert.ok(test_.items.length > 0 && test_.items.every((k: { mode: string; type: string }) => k.mode === 'test' && k.type === 'publishable'));
      const doomed = await addKey(server.deps, { store_id: shop.storeId, type: 'publishable', env: 'live', label: 'doomed' });
      await revokeKey(server.deps, doomed.id);
      const live = await ok(client, 'list_api_keys', { limit: 100 });
      assert.ok(!live.items.some((k: { id: string }) => k.id === doomed.id));
      const all = await ok(client, 'list_api_keys', { include_revoked: true, limit: 100 });
      const revoked = all.items.find((k: { id: string }) => k.id === doomed.id);
      assert.equal(revoked.active, false);
      assert.equal(revoked.revoked_at, (await keyRow(server.deps, doomed.id)).revoked_at);
    });

    test('list_api_keys refuses an unknown type or mode and a bad cursor', async () => {
      await expectToolError(server.deps, client, 'list_api_keys', { type: 'both' }, 'invalid_input', 'type');
      await expectToolError(server.deps, client, 'list_api_keys', { mode: 'prod' }, 'invalid_input', 'mode');
      await expectToolError(server.deps, client, 'list_api_keys', { cursor: 'WyJ4Il0' }, 'invalid_cursor', 'cursor');
    });

    test("list_api_keys of another account's store answers not_found exactly like an unknown store", async () => {
      await expectForeignLikeUnknown(server.deps, client, 'list_api_keys', (id) => ({ store_id: id }), other.storeId, 'store_id');
    });

    test('list_api_keys with a token without stores:read is 403; with stores:read it lists', async () => {
      await expectInsufficientScope(server, tokens.productsRead, PRODUCTS_READ, 'list_api_keys', {}, 'stores:read');
      const reader = await connect(server.url, tokens.storesRead);
      try {
        assert.deepEqual((await ok(reader, 'list_api_keys', { limit: 100 })).items.map((k: { id: string }) => k.id), await liveKeysOf(shop.accountId));
      } finally {
        await reader.close();
      }
    });
  });

  describe('create_publishable_key', () => {
    test('create_publishable_key shows the key once and stores only its hash, with its domains, products and label', async () => {
      const value = await ok(client, 'create_publishable_key', { store_id: shop.storeId, mode: 'test', allowed_domains: ['Shop.Example.com'], allowed_products: [shop.productId], label: ' checkout ' });
      assert.match(value.key, /^svc_test_pub_[0-9A-Za-z]{32}$/);
      assert.equal(value.type, 'publishable');
      assert.equal(value.mode, 'test');
      assert.equal(value.label, 'checkout');
      assert.equal(value.masked, `svc_test_pub_…${value.key.slice(-4)}`);
      assert.deepEqual(value.allowed_domains, ['shop.example.com']);
      assert.equal(value.follows_store_domains, false);
      assert.deepEqual(value.allowed_products, [shop.productId]);
      assert.equal(value.active, true);
      const row = await keyRow(server.deps, value.id);
      assert.equal(row.account_id, shop.accountId);
      assert.equal(row.store_id, shop.storeId);
      assert.equal(row.type, 'publishable');
      assert.equal(row.env, 'test');
      assert.equal(row.hash, hashKey(value.key));
      assert.equal(row.last4, value.key.slice(-4));
      assert.equal(row.label, 'checkout');
      assert.equal(row.allowed_domains, '["shop.example.com"]');
      assert.equal(row.inherit_domains, 0);
      assert.equal(row.allowed_products, JSON.stringify([shop.productId]));
      assert.ok(!JSON.stringify(await snapshot(server.deps)).includes(value.key), 'the key itself is stored nowhere');
      // It works where it was told to, as a sandbox key, and nowhere else.
      const created = await expectCreated(await orderWith(value.key, SHOP_ORIGIN));
      assert.equal(created.data.sandbox, true);
      await expectError(await orderWith(value.key, 'https://pay.brand.example'), 403);
      const listed = await ok(client, 'list_api_keys', { limit: 100 });
      assert.ok(!JSON.stringify(listed).includes(value.key));
    });

    test('create_publishable_key without allowed_domains follows the store domains, live by default', async () => {
      const value = await ok(client, 'create_publishable_key', { store_id: shop.storeId });
      assert.match(value.key, /^svc_live_pub_/);
      assert.equal(value.follows_store_domains, true);
      assert.deepEqual(value.allowed_domains, []);
      assert.equal((await keyRow(server.deps, value.id)).inherit_domains, 1);
      const created = await expectCreated(await orderWith(value.key, 'https://pay.brand.example'));
      assert.equal(created.data.sandbox, false);
      assert.equal((await orderRow(server.deps, created.data.id)).api_key_id, value.id);
    });

    test('create_publishable_key accepts a host under a store wildcard but refuses a domain that is not a store domain', async () => {
      const narrow = await ok(client, 'create_publishable_key', { store_id: shop.storeId, allowed_domains: ['pay.brand.example', '*.eu.brand.example'] });
      assert.deepEqual(narrow.allowed_domains, ['pay.brand.example', '*.eu.brand.example']);
      const evil = await expectToolError(server.deps, client, 'create_publishable_key', { store_id: shop.storeId, allowed_domains: ['evil.example'] }, 'invalid_input', 'allowed_domains.0');
      assert.match(evil.hint ?? '', /add_store_domain/);
      // *.brand.example covers its subdomains, not brand.example itself.
      await expectToolError(server.deps, client, 'create_publishable_key', { store_id: shop.storeId, allowed_domains: ['shop.example.com', 'brand.example'] }, 'invalid_input', 'allowed_domains.1');
    });

    test('create_publishable_key refuses a product of another account or store, and bad arguments, storing nothing', async () => {
      await expectToolError(server.deps, client, 'create_publishable_key', { store_id: shop.storeId, allowed_products: [other.productId] }, 'invalid_input', 'allowed_products.0');
      await expectToolError(server.deps, client, 'create_publishable_key', { store_id: shop.storeId, mode: 'prod' }, 'invalid_input', 'mode');
      await expectToolError(server.deps, client, 'create_publishable_key', { store_id: shop.storeId, allowed_domains: [] }, 'invalid_input', 'allowed_domains');
      await expectToolError(server.deps, client, 'create_publishable_key', { store_id: shop.storeId, allowed_domains: ['https://shop.example.com/'] }, 'invalid_input', 'allowed_domains.0');
      await expectToolError(server.deps, client, 'create_publishable_key', { store_id: shop.storeId, type: 'secret' }, 'invalid_input');
    });

    test("create_publishable_key for another account's store answers not_found exactly like an unknown store", async () => {
      await expectForeignLikeUnknown(server.deps, client, 'create_publishable_key', (id) => ({ store_id: id }), other.storeId, 'store_id');
    });

    test('create_publishable_key with a token holding stores:read only is 403 and stores nothing', async () => {
      await expectInsufficientScope(server, tokens.storesRead, STORES_READ, 'create_publishable_key', { store_id: shop.storeId }, 'stores:write');
      const reader = await connect(server.url, tokens.storesRead);
      try {
        await expectSdkForbidden(server.deps, reader, 'create_publishable_key', { store_id: shop.storeId });
      } finally {
        await reader.close();
      }
    });
  });

  describe('create_secret_key', () => {
    test('create_secret_key shows a live secret key once and stores only its hash', async () => {
      const value = await ok(client, 'create_secret_key', { store_id: shop.storeId, label: 'backend' });
      assert.match(value.key, /^svc_live_secret_[0-9A-Za-z]{40}$/);
      assert.equal(value.type, 'secret');
      assert.equal(value.mode, 'live');
      assert.equal(value.masked, `svc_live_secret_…${value.key.slice(-4)}`);
      const row = await keyRow(server.deps, value.id);
      assert.equal(row.type, 'secret');
      assert.equal(row.env, 'live');
      assert.equal(row.account_id, shop.accountId);
      assert.equal(row.hash, hashKey(value.key));
      assert.equal(row.label, 'backend');
      // Made by the account's key with every scope: every scope, and that key as its maker.
      assert.deepEqual(value.scopes, [...GRANTABLE_SCOPES]);
      assert.equal(row.scopes, GRANTABLE_SCOPES.join(' '));
      assert.equal(value.created_by.via, 'secret_key');
      assert.equal(row.created_by_key, value.created_by.key_id);
      assert.ok(!JSON.stringify(await snapshot(server.deps)).includes(value.key));
      const holder = await connect(server.url, value.key);
      try {
        const account = await ok(holder, 'get_account');
        assert.equal(account.account.id, shop.accountId);
        assert.equal(account.credential, 'secret_key');
        assert.ok(!account.granted_scopes.includes('ai:generate'));
      } finally {
        await holder.close();
      }
    });

    test('a secret key acts on every store of its account, including stores created after it', async () => {
      const { key, id } = await ok(client, 'create_secret_key', { store_id: shop.storeId });
      const holder = await connect(server.url, key);
      try {
        const later = await ok(holder, 'create_store', { name: 'Later', country: 'CO' });
        assert.equal((await storeRow(server.deps, later.id)).account_id, shop.accountId);
        const product = await ok(holder, 'create_product', { store_id: later.id, name: 'Later product', status: 'active', packs: [{ quantity: 1, price: 60000 }] });
        assert.equal((await ok(holder, 'get_store', { store_id: later.id })).counts.products, 1);
        const created = await expectCreated(
          await postOrder(server.url, orderBody({ storeId: later.id, productId: product.id }, { telefono: nextPhone(), unit_price: 60000, total_price: 60000 }), { authorization: `Bearer ${key}` }),
        );
        const row = await orderRow(server.deps, created.data.id);
        assert.equal(row.store_id, later.id);
        assert.equal(row.api_key_id, id);
        // But never a store of another account.
        await expectError(await postOrder(server.url, orderBody(other, { telefono: nextPhone() }), { authorization: `Bearer ${key}` }), 403);
      } finally {
        await holder.close();
      }
    });

    test('create_secret_key refuses test mode and an over-long label, storing nothing', async () => {
      await expectToolError(server.deps, client, 'create_secret_key', { store_id: shop.storeId, mode: 'test' }, 'invalid_input', 'mode');
      await expectToolError(server.deps, client, 'create_secret_key', { store_id: shop.storeId, label: 'x'.repeat(101) }, 'invalid_input', 'label');
      await expectToolError(server.deps, client, 'create_secret_key', { store_id: shop.storeId, allowed_domains: ['shop.example.com'] }, 'invalid_input');
    });

    test("create_secret_key for another account's store answers not_found exactly like an unknown store", async () => {
      await expectForeignLikeUnknown(server.deps, client, 'create_secret_key', (id) => ({ store_id: id }), other.storeId, 'store_id');
    });

    test('create_secret_key with a token holding stores:read only is 403 and stores nothing', async () => {
      await expectInsufficientScope(server, tokens.storesRead, STORES_READ, 'create_secret_key', { store_id: shop.storeId }, 'stores:write');
    });
  });

  describe('update_api_key', () => {
    test('update_api_key renames a key and changes, then clears, its own domains and products', async () => {
      const key = await addKey(server.deps, { store_id: shop.storeId, type: 'publishable', env: 'live' });
      await expectCreated(await orderWith(key.key, 'https://pay.brand.example'));

      const restricted = await ok(client, 'update_api_key', { key_id: key.id, label: 'landing', allowed_domains: ['shop.example.com'], allowed_products: [shop.productId] });
      assert.equal(restricted.label, 'landing');
      assert.deepEqual(restricted.allowed_domains, ['shop.example.com']);
      assert.equal(restricted.follows_store_domains, false);
      let row = await keyRow(server.deps, key.id);
      assert.equal(row.label, 'landing');
      assert.equal(row.allowed_domains, '["shop.example.com"]');
      assert.equal(row.inherit_domains, 0);
      assert.equal(row.allowed_products, JSON.stringify([shop.productId]));
      assert.equal(row.hash, hashKey(key.key), 'the key itself does not change');
      await expectError(await orderWith(key.key, 'https://pay.brand.example'), 403);
      await expectCreated(await orderWith(key.key, SHOP_ORIGIN));

      const following = await ok(client, 'update_api_key', { key_id: key.id, follow_store_domains: true, allowed_products: [], label: '' });
      assert.equal(following.follows_store_domains, true);
      assert.equal(following.label, null);
      row = await keyRow(server.deps, key.id);
      assert.equal(row.inherit_domains, 1);
      assert.equal(row.allowed_domains, '[]');
      assert.equal(row.allowed_products, '[]');
      assert.equal(row.label, null);
      await expectCreated(await orderWith(key.key, 'https://pay.brand.example'));
    });

    test('update_api_key renames a secret key but refuses to restrict it, changing nothing', async () => {
      const secret = await addKey(server.deps, { store_id: shop.storeId, type: 'secret' });
      const renamed = await ok(client, 'update_api_key', { key_id: secret.id, label: 'cron' });
      assert.equal(renamed.label, 'cron');
      assert.equal((await keyRow(server.deps, secret.id)).label, 'cron');
      await expectToolError(server.deps, client, 'update_api_key', { key_id: secret.id, allowed_domains: ['shop.example.com'] }, 'invalid_input', 'key_id');
      await expectToolError(server.deps, client, 'update_api_key', { key_id: secret.id, label: 'x', follow_store_domains: true }, 'invalid_input', 'key_id');
    });

    test('update_api_key refuses a domain outside the store, contradictory domain settings and a bad id, changing nothing', async () => {
      await expectToolError(server.deps, client, 'update_api_key', { key_id: shop.liveKeyId, allowed_domains: ['evil.example'] }, 'invalid_input', 'allowed_domains.0');
      await expectToolError(server.deps, client, 'update_api_key', { key_id: shop.liveKeyId, allowed_domains: ['shop.example.com'], follow_store_domains: true }, 'invalid_input', 'follow_store_domains');
      await expectToolError(server.deps, client, 'update_api_key', { key_id: shop.liveKeyId, allowed_products: [other.productId] }, 'invalid_input', 'allowed_products.0');
      await expectToolError(server.deps, client, 'update_api_key', { key_id: 'svc_live_pub_x' }, 'invalid_input', 'key_id');
      await expectToolError(server.deps, client, 'update_api_key', { key_id: shop.liveKeyId, label: 'x'.repeat(101) }, 'invalid_input', 'label');
    });

    test("update_api_key of another account's key answers not_found exactly like an unknown key, with a hint", async () => {
      const error = await expectForeignLikeUnknown(server.deps, client, 'update_api_key', (id) => ({ key_id: id, label: 'mine now' }), other.liveKeyId, 'key_id');
      assert.match(error.hint ?? '', /list_api_keys/);
      assert.equal((await keyRow(server.deps, other.liveKeyId)).label, null);
    });

    test('update_api_key with a token holding stores:read only is 403 and changes nothing', async () => {
      await expectInsufficientScope(server, tokens.storesRead, STORES_READ, 'update_api_key', { key_id: shop.liveKeyId, label: 'x' }, 'stores:write');
    });
  });

  describe('revoke_api_key', () => {
    test('revoke_api_key revokes a publishable key at once: its next order is 401, and it leaves the listing', async () => {
      const key = await addKey(server.deps, { store_id: shop.storeId, type: 'publishable', env: 'live' });
      await expectCreated(await orderWith(key.key, SHOP_ORIGIN));
      const value = await ok(client, 'revoke_api_key', { key_id: key.id });
      assert.equal(value.active, false);
      assert.ok(value.revoked_at);
      assert.equal((await keyRow(server.deps, key.id)).revoked_at, value.revoked_at);
      await expectError(await orderWith(key.key, SHOP_ORIGIN), 401);
      assert.ok(!(await ok(client, 'list_api_keys', { limit: 100 })).items.some((k: { id: string }) => k.id === key.id));
    });

    test('revoke_api_key of a revoked key is a conflict on key_id and changes nothing', async () => {
      const key = await addKey(server.deps, { store_id: shop.storeId, type: 'publishable', env: 'test' });
      await ok(client, 'revoke_api_key', { key_id: key.id });
      await expectToolError(server.deps, client, 'revoke_api_key', { key_id: key.id }, 'conflict', 'key_id');
    });

    test('a secret key revoked with revoke_api_key is refused by /api/mcp with 401', async () => {
      const { key, id } = await ok(client, 'create_secret_key', { store_id: shop.storeId });
      assert.equal((await rawPost(server.url, INITIALIZE, { authorization: `Bearer ${key}` })).status, 200);
      await ok(client, 'revoke_api_key', { key_id: id });
      assert.equal((await rawPost(server.url, INITIALIZE, { authorization: `Bearer ${key}` })).status, 401);
    });

    test('revoke_api_key refuses a key_id that is not a UUID', async () => {
      await expectToolError(server.deps, client, 'revoke_api_key', { key_id: shop.liveKey }, 'invalid_input', 'key_id');
    });

    test("revoke_api_key of another account's key answers not_found exactly like an unknown key and revokes nothing", async () => {
      await expectForeignLikeUnknown(server.deps, client, 'revoke_api_key', (id) => ({ key_id: id }), other.liveKeyId, 'key_id');
      assert.equal((await keyRow(server.deps, other.liveKeyId)).revoked_at, null);
      await expectCreated(await postOrder(server.url, orderBody(other, { telefono: nextPhone() }), { 'x-svc-api-key': other.liveKey, origin: SHOP_ORIGIN }));
    });

    test('revoke_api_key with a token holding stores:read only is 403 and revokes nothing', async () => {
      await expectInsufficientScope(server, tokens.storesRead, STORES_READ, 'revoke_api_key', { key_id: shop.liveKeyId }, 'stores:write');
      const reader = await connect(server.url, tokens.storesRead);
      try {
        await expectSdkForbidden(server.deps, reader, 'revoke_api_key', { key_id: shop.liveKeyId });
      } finally {
        await reader.close();
      }
      assert.equal((await keyRow(server.deps, shop.liveKeyId)).revoked_at, null);
    });
  });
});
