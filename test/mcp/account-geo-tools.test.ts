// get_account (MCP-TOOLS.md §6.1 row 1) and the geo tools (§6.9 rows 54-55) through the SDK client.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { openShop, seedShop, type Shop } from '../helpers/fixtures.ts';
import type { TestServer } from '../helpers/server.ts';
import { GRANTABLE_SCOPES } from '../../src/domain/oauth/scopes.ts';
import { call, connect } from './mcp-kit.ts';

describe('account and geo tools', () => {
  let server: TestServer;
  let shop: Shop;
  let client: Client;
  before(async () => {
    ({ server, shop } = await openShop());
    await seedShop(server.deps);
    client = await connect(server.url, shop.secretKey);
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  test("get_account returns the caller's account, every scope of a secret key, and only its own stores", async () => {
    const { isError, value } = await call(client, 'get_account');
    assert.equal(isError, false);
    assert.deepEqual(value.account, { id: shop.accountId, name: 'Test account' });
    assert.equal(value.credential, 'secret_key');
    assert.deepEqual(value.granted_scopes, [...GRANTABLE_SCOPES]);
    assert.ok(!value.granted_scopes.includes('ai:generate'), 'never a scope OAuth cannot grant');
    assert.deepEqual(value.stores, [{ id: shop.storeId, name: 'Tienda', country: 'CO', currency: 'COP', archived: false }]);
  });

  test('get_account refuses arguments it does not define', async () => {
    const { value } = await call(client, 'get_account', { account_id: shop.accountId });
    assert.equal(value.error.code, 'invalid_input');
  });

  test('list_cities pages through the official catalog of a region in order', async () => {
    const first = await call(client, 'list_cities', { country: 'co', region: 'antioquia', limit: 50 });
    assert.equal(first.isError, false);
    assert.equal(first.value.country, 'CO');
    assert.equal(first.value.catalog, 'official');
    assert.equal(first.value.items.length, 50);
    assert.ok(first.value.items.every((c: { region: string }) => c.region === 'Antioquia'));
    assert.equal(first.value.has_more, true);
    const all: string[] = first.value.items.map((c: { city: string }) => c.city);
    let cursor: string | undefined = first.value.next_cursor;
    while (cursor) {
      const page = await call(client, 'list_cities', { country: 'CO', region: 'Antioquia', limit: 50, cursor });
      all.push(...page.value.items.map((c: { city: string }) => c.city));
      cursor = page.value.next_cursor;
    }
    assert.equal(new Set(all).size, all.length);
    assert.ok(all.includes('Medellín'));
    assert.ok(all.length > 100);
  });

  test('list_cities filters by a name query ignoring accents', async () => {
    const { value } = await call(client, 'list_cities', { country: 'CO', query: 'medellin' });
    assert.deepEqual(value.items, [{ region: 'Antioquia', city: 'Medellín' }]);
    assert.equal(value.has_more, false);
    assert.equal(value.next_cursor, undefined);
  });

  test('list_cities uses the fulfillment catalog for a country with no official one', async () => {
    const { isError, value } = await call(client, 'list_cities', { country: 'PA', limit: 5 });
    assert.equal(isError, false);
    assert.equal(value.catalog, 'fulfillment');
    assert.equal(value.items.length, 5);
  });

  test('list_cities refuses an unknown country, an unknown region and a bad cursor', async () => {
    const country = await call(client, 'list_cities', { country: 'ZZ' });
    assert.equal(country.value.error.code, 'invalid_input');
    assert.equal(country.value.error.field, 'country');
    const region = await call(client, 'list_cities', { country: 'CO', region: 'Atlantida' });
    assert.equal(region.value.error.code, 'invalid_input');
    assert.equal(region.value.error.field, 'region');
    const cursor = await call(client, 'list_cities', { country: 'CO', cursor: 'WyJ4Il0' });
    assert.equal(cursor.value.error.code, 'invalid_cursor');
  });

  test('canonicalize_city resolves "Bogota" to the catalog spelling with its code', async () => {
    const { isError, value } = await call(client, 'canonicalize_city', { country: 'CO', city: 'Bogota' });
    assert.equal(isError, false);
    assert.equal(value.confident, true);
    assert.equal(value.city, 'Bogotá, D.C.');
    assert.equal(value.code, '11001');
    assert.equal(typeof value.score, 'number');
  });

  test('canonicalize_city returns candidates for a city in two regions', async () => {
    const { value } = await call(client, 'canonicalize_city', { country: 'CO', city: 'Armenia' });
    assert.equal(value.confident, false);
    assert.deepEqual(value.candidates.map((c: { region: string }) => c.region).sort(), ['Antioquia', 'Quindío']);
  });

  test('canonicalize_city refuses a missing city and an unknown country', async () => {
    const city = await call(client, 'canonicalize_city', { country: 'CO' });
    assert.equal(city.value.error.field, 'city');
    const country = await call(client, 'canonicalize_city', { country: 'ZZ', city: 'Lima' });
    assert.equal(country.value.error.code, 'invalid_input');
  });
});
