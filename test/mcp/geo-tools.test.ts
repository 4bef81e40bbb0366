// Geo tools through the real SDK client (MCP-TOOLS.md §6.9 rows 52, 53, 56): countries, regions and
// phone normalization from local tables and libphonenumber metadata. They need only mcp:invoke, which
// every OAuth token carries, and write nothing.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { openShop, orderBody, postOrder, type Shop } from '../helpers/fixtures.ts';
import type { TestServer } from '../helpers/server.ts';
import { OPEN_LIMITS, SHOP_ORIGIN, expectCreated, orderRow } from '../api/orders/order-kit.ts';
import { SUPPORTED_COUNTRIES } from '../../src/domain/countries.ts';
import { connect, rawPost } from './mcp-kit.ts';
import { expectToolError, ok, scopedTokens, toolCall, unchanged } from './account-kit.ts';

describe('geo tools', () => {
  let server: TestServer;
  let shop: Shop;
  let client: Client;
  let invokeOnly: Client;
  before(async () => {
    ({ server, shop } = await openShop(OPEN_LIMITS));
    client = await connect(server.url, shop.secretKey);
    const tokens = await scopedTokens(server, shop.accountId, { invoke: [] });
    invokeOnly = await connect(server.url, tokens.invoke);
  });
  after(async () => {
    await client.close();
    await invokeOnly.close();
    await server.close();
  });

  describe('list_countries', () => {
    test('list_countries lists every supported country with its currency, dial code, region label and catalog', async () => {
      const value = await unchanged(server.deps, () => ok(client, 'list_countries'));
      assert.equal(value.has_more, false);
      assert.equal(value.next_cursor, undefined);
      assert.deepEqual(value.items.map((c: { country: string }) => c.country), SUPPORTED_COUNTRIES.map((c) => c.code));
      const by = (code: string) => value.items.find((c: { country: string }) => c.country === code);
      assert.deepEqual(by('CO'), {
        country: 'CO',
        name: 'Colombia',
        currency: 'COP',
        dial_code: '+57',
        region_label: 'departamento',
        phone_length: 10,
        timezone: 'America/Bogota',
        city_catalog: 'official',
        canonicalized: true,
      });
      assert.deepEqual([by('MX').currency, by('MX').region_label, by('MX').dial_code], ['MXN', 'estado', '+52']);
      assert.deepEqual([by('PA').city_catalog, by('PA').currency], ['fulfillment', 'USD']);
      assert.equal(by('BO').city_catalog, 'none');
      assert.equal(by('CL').currency, 'CLP');
    });

    test('list_countries refuses arguments it does not define', async () => {
      await expectToolError(server.deps, client, 'list_countries', { country: 'CO' }, 'invalid_input');
    });

    test('list_countries works with an OAuth token granted nothing but mcp:invoke, and without a token is 401', async () => {
      const value = await ok(invokeOnly, 'list_countries');
      assert.equal(value.items.length, SUPPORTED_COUNTRIES.length);
      assert.equal((await rawPost(server.url, toolCall(1, 'list_countries'))).status, 401);
    });
  });

  describe('list_regions', () => {
    test('list_regions lists the departamentos of Colombia with their number of cities, as list_cities has them', async () => {
      const value = await unchanged(server.deps, () => ok(client, 'list_regions', { country: 'co' }));
      assert.equal(value.country, 'CO');
      assert.equal(value.region_label, 'departamento');
      assert.equal(value.catalog, 'official');
      assert.equal(value.has_more, false);
      const names = value.items.map((r: { name: string }) => r.name);
      assert.equal(names.length, 33, '32 departamentos and Bogotá, D.C.');
      assert.ok(names.includes('Antioquia') && names.includes('Bogotá, D.C.'));
      const amazonas = value.items.find((r: { name: string }) => r.name === 'Amazonas');
      const cities = await ok(client, 'list_cities', { country: 'CO', region: 'Amazonas', limit: 100 });
      assert.equal(amazonas.cities, cities.items.length);
    });

    test('list_regions names the regions of Mexico estados and reads Panama from the fulfillment catalog', async () => {
      const mexico = await ok(client, 'list_regions', { country: 'MX' });
      assert.equal(mexico.region_label, 'estado');
      assert.equal(mexico.items.length, 32);
      const panama = await ok(client, 'list_regions', { country: 'PA' });
      assert.equal(panama.catalog, 'fulfillment');
      assert.equal(panama.region_label, 'provincia');
      assert.ok(panama.items.length > 0 && panama.items.every((r: { cities: number }) => r.cities > 0));
    });

    test('list_regions of a country without a city catalog is not_found on country; an unknown country is invalid_input', async () => {
      const error = await expectToolError(server.deps, client, 'list_regions', { country: 'BO' }, 'not_found', 'country');
      assert.match(error.message, /catalog/);
      await expectToolError(server.deps, client, 'list_regions', { country: 'ZZ' }, 'invalid_input', 'country');
      await expectToolError(server.deps, client, 'list_regions', {}, 'invalid_input', 'country');
    });

    test('list_regions works with an OAuth token granted nothing but mcp:invoke', async () => {
      assert.equal((await ok(invokeOnly, 'list_regions', { country: 'CO' })).items.length, 33);
    });
  });

  describe('normalize_phone', () => {
    test('normalize_phone gives the E.164, national and international forms of a Colombian mobile, written any way', async () => {
      for (const phone of ['3001234567', '300 123 4567', '+57 300-123-4567']) {
        const value = await unchanged(server.deps, () => ok(client, 'normalize_phone', { country: 'CO', phone }));
        assert.deepEqual(value, { country: 'CO', valid: true, e164: '+573001234567', national: '300 1234567', international: '+57 300 1234567', type: 'MOBILE', mobile: true });
      }
    });

    test('normalize_phone tells a landline from a mobile and answers valid: false for an impossible number', async () => {
      const landline = await ok(client, 'normalize_phone', { country: 'CO', phone: '601 2345678' });
      assert.equal(landline.valid, true);
      assert.equal(landline.e164, '+576012345678');
      assert.equal(landline.type, 'FIXED_LINE');
      assert.equal(landline.mobile, false);
      const impossible = await ok(client, 'normalize_phone', { country: 'CO', phone: '123456' });
      assert.deepEqual(impossible, { country: 'CO', valid: false, e164: null, national: null, international: null, type: null, mobile: null });
      const mexico = await ok(client, 'normalize_phone', { country: 'mx', phone: '55 1234 5678' });
      assert.equal(mexico.e164, '+525512345678');
    });

    test('normalize_phone gives the E.164 number an order stores for that buyer', async () => {
      const { e164 } = await ok(client, 'normalize_phone', { country: 'CO', phone: '315 765 4321' });
      const created = await expectCreated(await postOrder(server.url, orderBody(shop, { telefono: '315 765 4321' }), { 'x-svc-api-key': shop.liveKey, origin: SHOP_ORIGIN }));
      assert.equal((await orderRow(server.deps, created.data.id)).telefono_e164, e164);
    });

    test('normalize_phone refuses a too-short phone, a missing phone and an unknown country', async () => {
      await expectToolError(server.deps, client, 'normalize_phone', { country: 'CO', phone: '123' }, 'invalid_input', 'phone');
      await expectToolError(server.deps, client, 'normalize_phone', { country: 'CO' }, 'invalid_input', 'phone');
      await expectToolError(server.deps, client, 'normalize_phone', { country: 'ZZ', phone: '3001234567' }, 'invalid_input', 'country');
    });

    test('normalize_phone works with an OAuth token granted nothing but mcp:invoke', async () => {
      assert.equal((await ok(invokeOnly, 'normalize_phone', { country: 'CO', phone: '3001234567' })).mobile, true);
    });
  });
});
