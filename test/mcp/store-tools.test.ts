// Store and domain tools through the real SDK client (MCP-TOOLS.md §6.2 rows 3-7, §6.3 rows 8-9):
// what the assistant sees, what is stored, tenancy, and the 403 of a token without the scope.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { addKey, addLanding, addProduct, addStore, orderBody, postOrder, seedShop, type Shop } from '../helpers/fixtures.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { OPEN_LIMITS, SHOP_ORIGIN, expectCreated, expectError, nextPhone } from '../api/orders/order-kit.ts';
import { MAX_STORE_DOMAINS } from '../../src/limits.ts';
import { writeTransaction } from '../../src/db/transaction.ts';
import { takeOrderNumber } from '../../src/db/queries/stores.queries.ts';
import { normalizePhone } from '../../src/domain/phone.ts';
import { call, connect } from './mcp-kit.ts';
import {
  expectForeignLikeUnknown,
  expectInsufficientScope,
  expectSdkForbidden,
  expectToolError,
  keyRow,
  landingRow,
  ok,
  scopedTokens,
  storeRow,
  unchanged,
  openToolBench,
  closeToolBench,
} from './account-kit.ts';

const STORES_READ = ['mcp:invoke', 'stores:read'];
const PRODUCTS_READ = ['mcp:invoke', 'products:read'];

describe('store tools', () => {
  let server: TestServer, shop: Shop, other: Shop, client: Client;
  let tokens: { storesRead: string; productsRead: string };
  before(async () => ({ server, shop, other, client, tokens } = await openToolBench({ storesRead: ['stores:read'], productsRead: ['products:read'] })));
  after(() => closeToolBench({ server, client }));

  /** A store of the shop's account made by the operator, with an active product. */
  async function auxStore(input: Record<string, unknown> = {}) {
    const store = await addStore(server.deps, shop.accountId, { name: 'Aux', country: 'CO', domains: ['aux.example.com'], ...input });
    const product = await addProduct(server.deps, { store_id: store.id, name: 'Aux product', packs: [{ quantity: 1, price: 50000 }] });
    return { storeId: store.id, productId: product.id };
  }

  const storeIdsOf = async (accountId: string) =>
    (await server.deps.db.selectFrom('stores').select('id').where('account_id', '=', accountId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute()).map((r) => r.id);

  describe('list_stores', () => {
    test('list_stores pages newest first through exactly the stores of the account', async () => {
      await auxStore();
      await auxStore({ country: 'MX' });
      const stored = await storeIdsOf(shop.accountId);
      assert.ok(stored.length >= 3);
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await ok(client, 'list_stores', { limit: 2, ...(cursor ? { cursor } : {}) });
        assert.ok(page.items.length <= 2);
        assert.equal(page.has_more, page.next_cursor !== undefined);
        seen.push(...page.items.map((s: { id: string }) => s.id));
        cursor = page.next_cursor;
      } while (cursor);
      assert.deepEqual(seen, stored);
      assert.ok(!seen.includes(other.storeId));
    });

    test('list_stores summarizes each store as stored and filters by country and status', async () => {
      const { items } = await ok(client, 'list_stores', { country: 'co', limit: 100 });
      assert.ok(items.length > 0 && items.every((s: { country: string }) => s.country === 'CO'));
      const seeded = items.find((s: { id: string }) => s.id === shop.storeId);
      const row = await storeRow(server.deps, shop.storeId);
      assert.deepEqual(seeded, {
        id: row.id,
        name: row.name,
        country: 'CO',
        currency: 'COP',
        timezone: 'America/Bogota',
        status: 'active',
        domains: JSON.parse(row.allowed_domains),
        created_at: row.created_at,
      });
      // An archived store of the account, so that the status filter has something to keep and something to leave out.
      const closed = await auxStore();
      await ok(client, 'archive_store', { store_id: closed.storeId, reason: 'closed' });
      const archivedIds = (
        await server.deps.db.selectFrom('stores').select('id').where('account_id', '=', shop.accountId).where('archived_at', 'is not', null).orderBy('created_at', 'desc').orderBy('id', 'desc').execute()
      ).map((r) => r.id);
      assert.ok(archivedIds.includes(closed.storeId));
      const archived = await ok(client, 'list_stores', { status: 'archived', limit: 100 });
      assert.deepEqual(archived.items.map((s: { id: string }) => s.id), archivedIds);
      assert.ok(archived.items.every((s: { status: string }) => s.status === 'archived'));
      const active = await ok(client, 'list_stores', { status: 'active', limit: 100 });
      assert.ok(active.items.length > 0 && active.items.every((s: { status: string }) => s.status === 'active'));
      assert.ok(active.items.some((s: { id: string }) => s.id === shop.storeId));
      assert.ok(!active.items.some((s: { id: string }) => s.id === closed.storeId), 'the archived store is not listed as active');
    });

    test('list_stores refuses an unknown status, an unknown country and a bad cursor', async () => {
      await expectToolError(server.deps, client, 'list_stores', { status: 'closed' }, 'invalid_input', 'status');
      await expectToolError(server.deps, client, 'list_stores', { country: 'ZZ' }, 'invalid_input', 'country');
      await expectToolError(server.deps, client, 'list_stores', { cursor: 'not-a-cursor' }, 'invalid_cursor', 'cursor');
    });

    test('list_stores with a token without stores:read is 403 insufficient_scope; with stores:read it lists', async () => {
      await expectInsufficientScope(server, tokens.productsRead, PRODUCTS_READ, 'list_stores', {}, 'stores:read');
      const reader = await connect(server.url, tokens.storesRead);
      try {
        const { items } = await ok(reader, 'list_stores', { limit: 100 });
        assert.deepEqual(items.map((s: { id: string }) => s.id), await storeIdsOf(shop.accountId));
      } finally {
        await reader.close();
      }
    });
  });

  describe('get_store', () => {
    test('get_store returns the stored store with its counts and no fulfillment secret', async () => {
      const value = await ok(client, 'get_store', { store_id: shop.storeId });
      const row = await storeRow(server.deps, shop.storeId);
      assert.equal(value.id, shop.storeId);
      assert.equal(value.account_id, shop.accountId);
      assert.deepEqual(value.domains, ['shop.example.com', '*.brand.example']);
      assert.deepEqual(value.domains, JSON.parse(row.allowed_domains));
      assert.equal(value.max_discount_pct, row.max_discount_pct);
      assert.equal(value.archived_at, null);
      assert.deepEqual(value.counts, { products: 1, landing_pages: 1, published_landing_pages: 1, active_keys: 3, orders: 0 });
      assert.deepEqual(value.fulfillment, { connected: false, source: 'none', credential: null });
    });

    test('get_store accepts an upper-case store id', async () => {
      const value = await ok(client, 'get_store', { store_id: shop.storeId.toUpperCase() });
      assert.equal(value.id, shop.storeId);
    });

    test('get_store refuses a store_id that is not a UUID', async () => {
      await expectToolError(server.deps, client, 'get_store', { store_id: 'tienda' }, 'invalid_input', 'store_id');
    });

    test("get_store of another account's store answers not_found exactly like an unknown id", async () => {
      const error = await expectForeignLikeUnknown(server.deps, client, 'get_store', (id) => ({ store_id: id }), other.storeId, 'store_id');
      assert.match(error.hint ?? '', /list_stores|get_account/);
    });

    test('get_store with a token without stores:read is 403, through the SDK client too', async () => {
      await expectInsufficientScope(server, tokens.productsRead, PRODUCTS_READ, 'get_store', { store_id: shop.storeId }, 'stores:read');
      const reader = await connect(server.url, tokens.productsRead);
      try {
        await expectSdkForbidden(server.deps, reader, 'get_store', { store_id: shop.storeId });
      } finally {
        await reader.close();
      }
    });
  });

  describe('create_store', () => {
    test('create_store stores a store in the caller account with the currency and timezone of its country', async () => {
      const value = await ok(client, 'create_store', { name: '  Tienda MX ', country: 'mx', domains: ['Shop.Example.MX', 'shop.example.mx'], support_phone: '55 1234 5678', order_prefix: 'td-' });
      assert.equal(value.name, 'Tienda MX');
      assert.equal(value.country, 'MX');
      assert.equal(value.currency, 'MXN');
      assert.equal(value.timezone, 'America/Mexico_City');
      assert.equal(value.account_id, shop.accountId);
      assert.equal(value.status, 'active');
      assert.deepEqual(value.domains, ['shop.example.mx']);
      assert.equal(value.support_phone, '+525512345678');
      assert.equal(value.order_prefix, 'TD-');
      assert.deepEqual(value.counts, { products: 0, landing_pages: 0, published_landing_pages: 0, active_keys: 0, orders: 0 });
      const row = await storeRow(server.deps, value.id);
      assert.equal(row.account_id, shop.accountId);
      assert.equal(row.name, 'Tienda MX');
      assert.equal(row.country, 'MX');
      assert.equal(row.currency, 'MXN');
      assert.equal(row.timezone, 'America/Mexico_City');
      assert.equal(row.allowed_domains, '["shop.example.mx"]');
      assert.equal(row.support_phone, '+525512345678');
      assert.equal(row.order_prefix, 'TD-');
      assert.equal(row.max_discount_pct, 30);
      assert.equal(await writeTransaction(server.deps.db, (tx) => takeOrderNumber(tx, value.id)), 1001, 'its first order is number 1001');
      assert.equal(row.archived_at, null);
      assert.ok((await storeIdsOf(shop.accountId)).includes(value.id));
      assert.ok(!(await storeIdsOf(other.accountId)).includes(value.id));
    });

    test('create_store keeps an explicit currency, timezone and max discount', async () => {
      const value = await ok(client, 'create_store', { name: 'Tienda EC', country: 'EC', currency: 'usd', timezone: 'America/Bogota', max_discount_pct: 10 });
      const row = await storeRow(server.deps, value.id);
      assert.equal(row.currency, 'USD');
      assert.equal(row.timezone, 'America/Bogota');
      assert.equal(row.max_discount_pct, 10);
      assert.equal(row.allowed_domains, '[]');
    });

    test('create_store refuses bad arguments, naming the field, and stores nothing', async () => {
      await expectToolError(server.deps, client, 'create_store', { name: 'X', country: 'ZZ' }, 'invalid_input', 'country');
      await expectToolError(server.deps, client, 'create_store', { name: '', country: 'CO' }, 'invalid_input', 'name');
      await expectToolError(server.deps, client, 'create_store', { country: 'CO' }, 'invalid_input', 'name');
      await expectToolError(server.deps, client, 'create_store', { name: 'X', country: 'CO', currency: 'pesos' }, 'invalid_input', 'currency');
      await expectToolError(server.deps, client, 'create_store', { name: 'X', country: 'CO', timezone: 'Mars/Olympus' }, 'invalid_input', 'timezone');
      await expectToolError(server.deps, client, 'create_store', { name: 'X', country: 'CO', domains: ['https://shop.example.com/path'] }, 'invalid_input', 'domains.0');
      await expectToolError(server.deps, client, 'create_store', { name: 'X', country: 'CO', support_phone: '123' }, 'invalid_input', 'support_phone');
      await expectToolError(server.deps, client, 'create_store', { name: 'X', country: 'CO', max_discount_pct: 101 }, 'invalid_input', 'max_discount_pct');
      await expectToolError(server.deps, client, 'create_store', { name: 'X', country: 'CO', account_id: other.accountId }, 'invalid_input');
    });

    test('create_store with a token holding stores:read only is 403 insufficient_scope and stores nothing', async () => {
      await expectInsufficientScope(server, tokens.storesRead, STORES_READ, 'create_store', { name: 'X', country: 'CO' }, 'stores:write');
    });
  });

  describe('update_store', () => {
    test('update_store patches the given fields, keeps the omitted ones and stores them', async () => {
      const { storeId } = await auxStore({ support_phone: '3001234567', order_prefix: 'AX' });
      const before_ = await storeRow(server.deps, storeId);
      const value = await ok(client, 'update_store', { store_id: storeId, name: 'Tienda Centro', timezone: 'America/Lima', order_prefix: 'tc-', max_discount_pct: 20 });
      assert.equal(value.name, 'Tienda Centro');
      assert.equal(value.timezone, 'America/Lima');
      assert.equal(value.order_prefix, 'TC-');
      assert.equal(value.max_discount_pct, 20);
      assert.equal(value.support_phone, '+573001234567', 'omitted fields stay');
      const row = await storeRow(server.deps, storeId);
      assert.equal(row.name, 'Tienda Centro');
      assert.equal(row.timezone, 'America/Lima');
      assert.equal(row.order_prefix, 'TC-');
      assert.equal(row.max_discount_pct, 20);
      assert.equal(row.support_phone, '+573001234567');
      assert.equal(row.allowed_domains, before_.allowed_domains);
      assert.equal(row.country, 'CO');
      assert.equal(row.currency, 'COP');
      const cleared = await ok(client, 'update_store', { store_id: storeId, support_phone: '', order_prefix: '' });
      assert.equal(cleared.support_phone, null);
      const after_ = await storeRow(server.deps, storeId);
      assert.equal(after_.support_phone, null);
      assert.equal(after_.order_prefix, null);
    });

    test('update_store changes the country and currency of a store without orders', async () => {
      const { storeId } = await auxStore();
      const value = await ok(client, 'update_store', { store_id: storeId, country: 'PE', currency: 'PEN' });
      assert.equal(value.country, 'PE');
      assert.equal(value.currency, 'PEN');
      const row = await storeRow(server.deps, storeId);
      assert.equal(row.country, 'PE');
      assert.equal(row.currency, 'PEN');
    });

    test('update_store refuses a new country or currency once the store has orders, as invalid_state, changing nothing', async () => {
      const aux = await auxStore();
      await expectCreated(await postOrder(server.url, orderBody(aux, { telefono: nextPhone(), unit_price: 50000, total_price: 50000 }), { authorization: `Bearer ${shop.secretKey}` }));
      const country = await expectToolError(server.deps, client, 'update_store', { store_id: aux.storeId, country: 'MX' }, 'invalid_state', 'country');
      assert.match(country.hint ?? '', /new store/);
      await expectToolError(server.deps, client, 'update_store', { store_id: aux.storeId, currency: 'USD' }, 'invalid_state', 'currency');
      await expectToolError(server.deps, client, 'update_store', { store_id: aux.storeId, name: 'Renamed', country: 'MX' }, 'invalid_state', 'country');
      // The same country is no move: other fields still change.
      const same = await ok(client, 'update_store', { store_id: aux.storeId, country: 'CO', name: 'Renamed' });
      assert.equal(same.name, 'Renamed');
      assert.equal((await storeRow(server.deps, aux.storeId)).country, 'CO');
    });

    test("update_store to another country never leaves a support phone that is not valid for the store's country", async () => {
      const { storeId } = await auxStore({ support_phone: '3001234567' });
      await call(client, 'update_store', { store_id: storeId, country: 'CL', currency: 'CLP' });
      const row = await storeRow(server.deps, storeId);
      // Refused, cleared or replaced: whatever is stored must be a phone of the stored country (support_phone's description).
      if (row.support_phone !== null) assert.ok(normalizePhone(row.support_phone, row.country), `${row.support_phone} is not a phone of ${row.country}`);
    });

    test("update_store to a whole-unit currency never leaves pack prices with decimals the currency lacks", async () => {
      const { storeId } = await auxStore();
      const product = await addProduct(server.deps, { store_id: storeId, name: 'Con centavos', packs: [{ quantity: 1, price: 1000.5 }] });
      await call(client, 'update_store', { store_id: storeId, country: 'CL', currency: 'CLP' });
      const row = await storeRow(server.deps, storeId);
      const packs = await server.deps.db.selectFrom('product_packs').select(['code', 'price_minor']).where('product_id', '=', product.id).execute();
      // MCP-TOOLS.md §5.5: prices follow the currency's ISO 4217 exponent (CLP: none), else the
      // quote answers a price that checkout refuses.
      if (row.currency === 'CLP') for (const p of packs) assert.equal(p.price_minor % 100, 0, `the ${p.code} pack costs ${p.price_minor / 100} CLP`);
    });

    test('update_store refuses bad arguments, naming the field, and changes nothing', async () => {
      await expectToolError(server.deps, client, 'update_store', { store_id: shop.storeId, max_discount_pct: 101 }, 'invalid_input', 'max_discount_pct');
      await expectToolError(server.deps, client, 'update_store', { store_id: shop.storeId, timezone: 'Mars/Olympus' }, 'invalid_input', 'timezone');
      await expectToolError(server.deps, client, 'update_store', { store_id: shop.storeId, support_phone: '12' }, 'invalid_input', 'support_phone');
      await expectToolError(server.deps, client, 'update_store', { store_id: shop.storeId, order_prefix: 'way too long prefix' }, 'invalid_input', 'order_prefix');
      await expectToolError(server.deps, client, 'update_store', { store_id: shop.storeId, domains: ['x.example.com'] }, 'invalid_input');
      await expectToolError(server.deps, client, 'update_store', { name: 'X' }, 'invalid_input', 'store_id');
    });

    test("update_store of another account's store answers not_found exactly like an unknown id and changes nothing", async () => {
      await expectForeignLikeUnknown(server.deps, client, 'update_store', (id) => ({ store_id: id, name: 'Hijacked' }), other.storeId, 'store_id');
      assert.equal((await storeRow(server.deps, other.storeId)).name, 'Tienda');
    });

    test('update_store with a token holding stores:read only is 403 and changes nothing', async () => {
      await expectInsufficientScope(server, tokens.storesRead, STORES_READ, 'update_store', { store_id: shop.storeId, name: 'X' }, 'stores:write');
    });
  });

  describe('archive_store', () => {
    test('archive_store stops checkout: landings unpublished, publishable keys revoked (401), the secret key refused for it (403)', async () => {
      const victim = await seedShop(server.deps);
      const owner = await connect(server.url, victim.secretKey);
      try {
        const live = await keyRow(server.deps, victim.liveKeyId);
        assert.equal(live.revoked_at, null);
        const value = await ok(owner, 'archive_store', { store_id: victim.storeId, reason: 'closing down' });
        assert.equal(value.status, 'archived');
        assert.equal(value.archive_reason, 'closing down');
        assert.ok(value.archived_at);
        assert.equal(value.counts.published_landing_pages, 0);
        assert.equal(value.counts.active_keys, 1, 'only the secret key stays');

        const row = await storeRow(server.deps, victim.storeId);
        assert.equal(row.archived_at, value.archived_at);
        assert.equal(row.archive_reason, 'closing down');
        assert.equal((await landingRow(server.deps, victim.landingId)).published, 0);
        const keys = await server.deps.db.selectFrom('api_keys').selectAll().where('store_id', '=', victim.storeId).execute();
        for (const k of keys) {
          if (k.type === 'publishable') assert.equal(k.revoked_at, value.archived_at, `${k.prefix} is revoked`);
          else assert.equal(k.revoked_at, null, 'the secret key still works for the other stores of the account');
        }
        assert.equal(keys.filter((k) => k.type === 'publishable').length, 2);

        // The old live and test publishable keys: revoked, so 401 before anything else.
        const body = () => orderBody(victim, { telefono: nextPhone() });
        await expectError(await postOrder(server.url, body(), { 'x-svc-api-key': victim.liveKey, origin: SHOP_ORIGIN }), 401);
        await expectError(await postOrder(server.url, body(), { 'x-svc-api-key': victim.testKey, origin: SHOP_ORIGIN }), 401);
        // The account's secret key is valid but the store takes no orders.
        await expectError(await postOrder(server.url, body(), { authorization: `Bearer ${victim.secretKey}` }), 403);
        // Its landing page is offline.
        const { store_id: _s, product_id: _p, ...buyerOnly } = body();
        await expectError(await postOrder(server.url, { landing_page_id: victim.landingId, ...buyerOnly }), 400, { fields: ['landing_page_id'] });
        assert.equal((await server.deps.db.selectFrom('orders').select('id').where('store_id', '=', victim.storeId).execute()).length, 0);

        const account = await ok(owner, 'get_account');
        assert.deepEqual(account.stores.map((s: { archived: boolean }) => s.archived), [true]);
        const archived = await ok(owner, 'list_stores', { status: 'archived' });
        assert.deepEqual(archived.items.map((s: { id: string }) => s.id), [victim.storeId]);
        assert.deepEqual((await ok(owner, 'list_stores', { status: 'active' })).items, []);
      } finally {
        await owner.close();
      }
    });

    test('archive_store of an archived store changes nothing, and it takes no new publishable key', async () => {
      const victim = await seedShop(server.deps);
      const owner = await connect(server.url, victim.secretKey);
      try {
        const first = await ok(owner, 'archive_store', { store_id: victim.storeId, reason: 'first' });
        const again = await unchanged(server.deps, () => ok(owner, 'archive_store', { store_id: victim.storeId, reason: 'second' }));
        assert.equal(again.archived_at, first.archived_at);
        assert.equal(again.archive_reason, 'first');
        await expectToolError(server.deps, owner, 'create_publishable_key', { store_id: victim.storeId }, 'invalid_state', 'store_id');
        // Products, pages and keys are kept, only switched off.
        assert.equal((await landingRow(server.deps, victim.landingId)).published, 0);
        assert.equal((await keyRow(server.deps, victim.liveKeyId)).revoked_at, first.archived_at);
      } finally {
        await owner.close();
      }
    });

    test('archive_store refuses a reason over 500 characters and archives nothing', async () => {
      await expectToolError(server.deps, client, 'archive_store', { store_id: shop.storeId, reason: 'x'.repeat(501) }, 'invalid_input', 'reason');
      assert.equal((await storeRow(server.deps, shop.storeId)).archived_at, null);
    });

    test("archive_store of another account's store answers not_found exactly like an unknown id and archives nothing", async () => {
      await expectForeignLikeUnknown(server.deps, client, 'archive_store', (id) => ({ store_id: id }), other.storeId, 'store_id');
      assert.equal((await storeRow(server.deps, other.storeId)).archived_at, null);
      assert.equal((await keyRow(server.deps, other.liveKeyId)).revoked_at, null);
    });

    test('archive_store with a token holding stores:read only is 403 and archives nothing', async () => {
      await expectInsufficientScope(server, tokens.storesRead, STORES_READ, 'archive_store', { store_id: shop.storeId }, 'stores:write');
      const reader = await connect(server.url, tokens.storesRead);
      try {
        await expectSdkForbidden(server.deps, reader, 'archive_store', { store_id: shop.storeId });
      } finally {
        await reader.close();
      }
    });
  });

  describe('add_store_domain', () => {
    test('add_store_domain stores the normalized host, and adding it again is a no-op', async () => {
      const { storeId } = await auxStore();
      const value = await ok(client, 'add_store_domain', { store_id: storeId, domain: ' New.Example.COM. ' });
      assert.deepEqual(value.domains, ['aux.example.com', 'new.example.com']);
      assert.equal((await storeRow(server.deps, storeId)).allowed_domains, '["aux.example.com","new.example.com"]');
      const again = await unchanged(server.deps, () => ok(client, 'add_store_domain', { store_id: storeId, domain: 'new.example.com' }));
      assert.deepEqual(again.domains, ['aux.example.com', 'new.example.com']);
      const wildcard = await ok(client, 'add_store_domain', { store_id: storeId, domain: '*.Brand.Example' });
      assert.deepEqual(wildcard.domains, ['aux.example.com', 'new.example.com', '*.brand.example']);
    });

    test('domains added and removed at once by several callers all take effect: none overwrites another (one transaction reads and writes the list)', async () => {
      // On PostgreSQL these calls truly overlap (before the fix, most edits were lost there); one
      // SQLite process happens to run each one whole, so there it guards against a regression only.
      const { storeId } = await auxStore({ domains: ['aux.example.com', 'old-1.example.com', 'old-2.example.com', 'old-3.example.com'] });
      const added = Array.from({ length: 6 }, (_, i) => `new-${i}.example.com`);
      await Promise.all([
        ...added.map((domain) => ok(client, 'add_store_domain', { store_id: storeId, domain })),
        ...[1, 2, 3].map((n) => ok(client, 'remove_store_domain', { store_id: storeId, domain: `old-${n}.example.com` })),
      ]);
      const stored = JSON.parse((await storeRow(server.deps, storeId)).allowed_domains) as string[];
      assert.deepEqual([...stored].sort(), ['aux.example.com', ...added].sort());
    });

    test('a domain added with add_store_domain lets a key that follows the store take orders from it', async () => {
      const aux = await auxStore();
      const key = await addKey(server.deps, { store_id: aux.storeId, type: 'publishable', env: 'live' });
      const body = () => orderBody(aux, { telefono: nextPhone(), unit_price: 50000, total_price: 50000 });
      await expectError(await postOrder(server.url, body(), { 'x-svc-api-key': key.key, origin: 'https://later.example.com' }), 403);
      await ok(client, 'add_store_domain', { store_id: aux.storeId, domain: 'later.example.com' });
      await expectCreated(await postOrder(server.url, body(), { 'x-svc-api-key': key.key, origin: 'https://later.example.com' }));
    });

    test('add_store_domain refuses a URL or a non-host, naming domain with a hint, and stores nothing', async () => {
      for (const domain of ['https://shop.example.com/path', 'shop example', 'shop.example.com:8443', '']) {
        const error = await expectToolError(server.deps, client, 'add_store_domain', { store_id: shop.storeId, domain }, 'invalid_input', 'domain');
        assert.match(error.hint ?? '', /bare host/);
      }
    });

    test(`add_store_domain refuses a domain beyond the ${MAX_STORE_DOMAINS} a store may have and stores nothing`, async () => {
      const domains = Array.from({ length: MAX_STORE_DOMAINS }, (_, i) => `d${i}.example.com`);
      const { storeId } = await auxStore({ domains });
      assert.equal(JSON.parse((await storeRow(server.deps, storeId)).allowed_domains).length, MAX_STORE_DOMAINS);
      await expectToolError(server.deps, client, 'add_store_domain', { store_id: storeId, domain: 'one-more.example.com' }, 'invalid_input', 'domain');
    });

    test("add_store_domain on another account's store answers not_found exactly like an unknown id and changes nothing", async () => {
      await expectForeignLikeUnknown(server.deps, client, 'add_store_domain', (id) => ({ store_id: id, domain: 'evil.example.com' }), other.storeId, 'store_id');
    });

    test('add_store_domain with a token holding stores:read only is 403 and stores nothing', async () => {
      await expectInsufficientScope(server, tokens.storesRead, STORES_READ, 'add_store_domain', { store_id: shop.storeId, domain: 'x.example.com' }, 'stores:write');
    });
  });

  describe('remove_store_domain', () => {
    test('remove_store_domain removes the domain from the store and from the keys that list it; checkouts there stop', async () => {
      const aux = await auxStore({ domains: ['a.example.com', 'b.example.com'] });
      const listing = await addKey(server.deps, { store_id: aux.storeId, type: 'publishable', env: 'live', domains: ['a.example.com', 'b.example.com'] });
      const following = await addKey(server.deps, { store_id: aux.storeId, type: 'publishable', env: 'live' });
      const body = () => orderBody(aux, { telefono: nextPhone(), unit_price: 50000, total_price: 50000 });
      const from = (key: string, host: string) => postOrder(server.url, body(), { 'x-svc-api-key': key, origin: `https://${host}` });
      await expectCreated(await from(listing.key, 'a.example.com'));
      await expectCreated(await from(following.key, 'a.example.com'));

      const value = await ok(client, 'remove_store_domain', { store_id: aux.storeId, domain: 'A.example.com' });
      assert.deepEqual(value.domains, ['b.example.com']);
      assert.equal((await storeRow(server.deps, aux.storeId)).allowed_domains, '["b.example.com"]');
      const listed = await keyRow(server.deps, listing.id);
      assert.equal(listed.allowed_domains, '["b.example.com"]');
      assert.equal(listed.inherit_domains, 0);
      const followed = await keyRow(server.deps, following.id);
      assert.equal(followed.inherit_domains, 1, 'a following key keeps following');

      await expectError(await from(listing.key, 'a.example.com'), 403);
      await expectError(await from(following.key, 'a.example.com'), 403);
      await expectCreated(await from(listing.key, 'b.example.com'));
      await expectCreated(await from(following.key, 'b.example.com'));
    });

    test('remove_store_domain of a wildcard stops checkouts on the hosts a key listed under it', async () => {
      const aux = await auxStore({ domains: ['aux.example.com', '*.w.example'] });
      const key = await addKey(server.deps, { store_id: aux.storeId, type: 'publishable', env: 'live', domains: ['x.w.example'] });
      const post = () => postOrder(server.url, orderBody(aux, { telefono: nextPhone(), unit_price: 50000, total_price: 50000 }), { 'x-svc-api-key': key.key, origin: 'https://x.w.example' });
      await expectCreated(await post());
      const value = await ok(client, 'remove_store_domain', { store_id: aux.storeId, domain: '*.w.example' });
      assert.deepEqual(value.domains, ['aux.example.com']);
      // The store no longer allows x.w.example: its checkout must stop there (tool description, row 9).
      await expectError(await post(), 403);
    });

    test('remove_store_domain of a domain the store does not have is not_found on domain and changes nothing', async () => {
      const error = await expectToolError(server.deps, client, 'remove_store_domain', { store_id: shop.storeId, domain: 'absent.example.com' }, 'not_found', 'domain');
      assert.match(error.hint ?? '', /get_store/);
    });

    test('remove_store_domain refuses a URL instead of a host, naming domain, and changes nothing', async () => {
      await expectToolError(server.deps, client, 'remove_store_domain', { store_id: shop.storeId, domain: 'https://shop.example.com/' }, 'invalid_input', 'domain');
    });

    test("remove_store_domain on another account's store answers not_found exactly like an unknown id and changes nothing", async () => {
      await expectForeignLikeUnknown(server.deps, client, 'remove_store_domain', (id) => ({ store_id: id, domain: 'shop.example.com' }), other.storeId, 'store_id');
      assert.equal((await storeRow(server.deps, other.storeId)).allowed_domains, '["shop.example.com","*.brand.example"]');
    });

    test('remove_store_domain with a token holding stores:read only is 403 and changes nothing', async () => {
      await expectInsufficientScope(server, tokens.storesRead, STORES_READ, 'remove_store_domain', { store_id: shop.storeId, domain: 'shop.example.com' }, 'stores:write');
    });
  });
});
