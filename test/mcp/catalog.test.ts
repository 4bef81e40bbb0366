// The served tool catalog (MCP-TOOLS.md §3.4, §5, §6, §7), seen through the real SDK client.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { openShop, type Shop } from '../helpers/fixtures.ts';
import type { TestServer } from '../helpers/server.ts';
import { lintTools, type ListedTool } from '../../src/mcp/tools/lint-tools.ts';
import { TOOLS } from '../../src/mcp/tools/tool-catalog.ts';
import { GRANTABLE_SCOPES } from '../../src/domain/oauth/scopes.ts';
import { connect, rawPost } from './mcp-kit.ts';

/**
 * The rows of MCP-TOOLS.md §6 served so far, in the tools/list order of §7 (account/meta, orders,
 * products, prices & packs, landing pages, geo, stores, domains & keys): scope, RO, D, I, OW.
 */
const R = true;
const _ = false;
const CATALOG: [string, string, boolean, boolean, boolean, boolean][] = [
  ['get_account', 'mcp:invoke', R, _, R, _],
  ['get_account_stats', 'orders:read', R, _, R, _],
  ['list_orders', 'orders:read', R, _, R, _],
  ['get_order', 'orders:read', R, _, R, _],
  ['create_order', 'orders:create', _, _, R, _],
  ['update_order_buyer', 'orders:write', _, _, R, _],
  ['update_order_status', 'orders:write', _, _, R, _],
  ['cancel_order', 'orders:write', _, R, R, R],
  ['add_order_note', 'orders:write', _, _, _, _],
  ['list_order_events', 'orders:read', R, _, R, _],
  ['get_fulfillment_connection', 'stores:read', R, _, R, _],
  ['set_fulfillment_credentials', 'stores:write', _, _, R, R],
  ['test_fulfillment_connection', 'stores:read', R, _, R, R],
  ['list_fulfillment_products', 'products:read', R, _, R, R],
  ['link_product_to_fulfillment', 'products:write', _, _, R, R],
  ['unlink_product_from_fulfillment', 'products:write', _, R, R, _],
  ['push_order_to_fulfillment', 'orders:write', _, _, R, R],
  ['push_confirmed_orders', 'orders:write', _, _, R, R],
  ['sync_fulfillment_status', 'orders:write', _, _, R, R],
  ['list_products', 'products:read', R, _, R, _],
  ['get_product', 'products:read', R, _, R, _],
  ['create_product', 'products:write', _, _, _, _],
  ['update_product', 'products:write', _, _, R, _],
  ['archive_product', 'products:write', _, R, R, _],
  ['duplicate_product', 'products:write', _, _, _, _],
  ['set_product_stock', 'products:write', _, _, R, _],
  ['set_product_packs', 'products:write', _, _, R, _],
  ['update_pack_prices', 'products:write', _, _, R, _],
  ['set_price_floor', 'products:write', _, _, R, _],
  ['quote_product_price', 'products:read', R, _, R, _],
  ['list_price_floor_violations', 'products:read', R, _, R, _],
  ['list_landing_pages', 'landings:read', R, _, R, _],
  ['get_landing_page', 'landings:read', R, _, R, _],
  ['create_landing_page', 'landings:write', _, _, _, _],
  ['update_landing_page', 'landings:write', _, _, R, _],
  ['set_landing_sections', 'landings:write', _, _, R, _],
  ['publish_landing_page', 'landings:write', _, _, R, _],
  ['unpublish_landing_page', 'landings:write', _, R, R, _],
  ['delete_landing_page', 'landings:write', _, R, R, _],
  ['get_whatsapp_settings', 'stores:read', R, _, R, _],
  ['update_whatsapp_settings', 'whatsapp:write', _, _, R, _],
  ['preview_whatsapp_message', 'orders:read', R, _, R, _],
  ['send_whatsapp_message', 'whatsapp:write', _, _, R, R],
  ['list_whatsapp_messages', 'orders:read', R, _, R, _],
  ['cancel_whatsapp_message', 'whatsapp:write', _, R, R, _],
  ['list_countries', 'mcp:invoke', R, _, R, _],
  ['list_regions', 'mcp:invoke', R, _, R, _],
  ['list_cities', 'mcp:invoke', R, _, R, _],
  ['canonicalize_city', 'mcp:invoke', R, _, R, _],
  ['normalize_phone', 'mcp:invoke', R, _, R, _],
  ['list_stores', 'stores:read', R, _, R, _],
  ['get_store', 'stores:read', R, _, R, _],
  ['create_store', 'stores:write', _, _, _, _],
  ['update_store', 'stores:write', _, _, R, _],
  ['archive_store', 'stores:write', _, R, R, _],
  ['add_store_domain', 'stores:write', _, _, R, _],
  ['remove_store_domain', 'stores:write', _, R, R, _],
  ['list_api_keys', 'stores:read', R, _, R, _],
  ['create_publishable_key', 'stores:write', _, _, _, _],
  ['create_secret_key', 'stores:write', _, _, _, _],
  ['update_api_key', 'stores:write', _, _, R, _],
  ['revoke_api_key', 'stores:write', _, R, R, _],
];
const ORDER = CATALOG.map(([name]) => name);

test('every scope the consent page offers guards at least one tool (mcp:invoke guards them all)', () => {
  const used = new Set(TOOLS.map((t) => t.scope));
  assert.deepEqual(GRANTABLE_SCOPES.filter((s) => !used.has(s)), []);
  assert.ok(!used.has('ai:generate'));
});

test('the catalog table is MCP-TOOLS.md §7: 62 tools, 25 read-only, 9 destructive, 9 open-world, every scope but ai:generate', () => {
  assert.equal(CATALOG.length, 62);
  assert.equal(CATALOG.filter((r) => r[2]).length, 25);
  assert.equal(CATALOG.filter((r) => r[3]).length, 9);
  assert.equal(CATALOG.filter((r) => r[5]).length, 9);
  const perScope = Object.fromEntries([...new Set(CATALOG.map((r) => r[1]))].map((s) => [s, CATALOG.filter((r) => r[1] === s).length]));
  assert.deepEqual(perScope, {
    'mcp:invoke': 6,
    'orders:read': 6,
    'orders:create': 1,
    'orders:write': 7,
    'stores:read': 6,
    'stores:write': 10,
    'products:read': 5,
    'products:write': 10,
    'landings:read': 2,
    'landings:write': 6,
    'whatsapp:write': 3,
  });
});
const TABLE = new Map(CATALOG.map(([name, ...row]) => [name, row] as const));

describe('tools/list', () => {
  let server: TestServer;
  let shop: Shop;
  let client: Client;
  before(async () => {
    ({ server, shop } = await openShop());
    client = await connect(server.url, shop.secretKey);
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  test('initialize reports the codrail server with the tools capability', () => {
    assert.equal(client.getServerVersion()?.name, 'codrail');
    assert.ok(client.getServerCapabilities()?.tools);
  });

  test('tools/list returns the catalog rows served so far on one page in the §7 order, with no nextCursor', async () => {
    const list = await client.listTools();
    assert.deepEqual(
      list.tools.map((t) => t.name),
      ORDER,
    );
    assert.equal(list.nextCursor, undefined);
  });

  test('every tool carries the title, scope and annotations of its catalog row', async () => {
    const { tools } = await client.listTools();
    for (const tool of tools) {
      const [scope, ro, d, i, ow] = TABLE.get(tool.name)!;
      assert.equal(tool.annotations?.title, tool.title, tool.name);
      assert.deepEqual(
        [tool.annotations?.readOnlyHint, tool.annotations?.destructiveHint, tool.annotations?.idempotentHint, tool.annotations?.openWorldHint],
        [ro, d, i, ow],
        tool.name,
      );
      assert.ok(tool.description!.length <= 350, `${tool.name}: ${tool.description!.length} characters`);
      assert.ok(tool.description!.endsWith(`Scope: ${scope}.`), tool.name);
    }
  });

  test('every input schema passes the startup lint and the whole list fits in 64 KiB', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(lintTools(tools as ListedTool[], CATALOG.length), []);
    assert.ok(JSON.stringify({ tools }).length <= 65_536);
  });

  test('get_account takes an empty object schema and create_order takes no price', async () => {
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    assert.deepEqual(byName.get('get_account')!.inputSchema, { type: 'object', properties: {}, required: [], additionalProperties: false });
    const create = byName.get('create_order')!.inputSchema;
    assert.deepEqual(create.required, ['store_id', 'product_id', 'buyer', 'idempotency_key']);
    for (const price of ['unit_price', 'total_price', 'price']) assert.ok(!(price in create.properties!), price);
  });
});

describe('the precomputed tools/list answer', () => {
  let server: TestServer;
  let shop: Shop;
  before(async () => ({ server, shop } = await openShop()));
  after(() => server.close());

  const list = (id: unknown) => ({ jsonrpc: '2.0', id, method: 'tools/list' });

  test('a single tools/list answers the very bytes the SDK writes for it, for numeric and string ids', async () => {
    const auth = { authorization: `Bearer ${shop.secretKey}` };
    for (const id of [7, 'abc-"quoted"']) {
      const single = await rawPost(server.url, list(id), auth);
      assert.equal(single.status, 200);
      assert.match(single.headers.get('content-type') ?? '', /^application\/json/);
      assert.equal(single.headers.get('access-control-allow-origin'), '*');
      // A batch of one goes through the SDK, which answers a batch of one with the bare response.
      const viaSdk = await (await rawPost(server.url, [list(id)], auth)).text();
      assert.equal(await single.text(), viaSdk);
    }
  });

  test('a tools/list the SDK transport would refuse is refused as the SDK refuses it: no event-stream in Accept, an unknown protocol version, a bad id', async () => {
    const auth = { authorization: `Bearer ${shop.secretKey}` };
    assert.equal((await rawPost(server.url, list(1), { ...auth, accept: 'application/json' })).status, 406);
    assert.equal((await rawPost(server.url, list(1), { ...auth, 'mcp-protocol-version': '1999-01-01' })).status, 400);
    const badId = await rawPost(server.url, list({ nested: true }), auth);
    assert.equal(badId.status, 400);
  });
});

describe('the startup lint', () => {
  const good = (): ListedTool => ({
    name: 'get_thing',
    title: 'Get thing',
    description: 'Return a thing. Scope: mcp:invoke.',
    annotations: { title: 'Get thing', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    inputSchema: { type: 'object', properties: { id: { type: 'string', description: 'Id.' } }, required: ['id'], additionalProperties: false },
  });

  test('a well-formed tool passes and the expected count is checked', () => {
    assert.deepEqual(lintTools([good()], 1), []);
    assert.deepEqual(lintTools([good()], 62), ['expected 62 tools, found 1']);
  });

  test('names, duplicates, descriptions, titles and hints are each reported', () => {
    const bad = { ...good(), name: 'Get-Thing', description: 'x'.repeat(351), title: '', annotations: { readOnlyHint: true, destructiveHint: true } };
    const problems = lintTools([bad, bad]).join('\n');
    for (const expected of ['name must match', 'duplicate name', 'longer than 350', 'does not name its scope', 'no title', 'no annotations.title', 'idempotentHint missing', 'readOnlyHint and destructiveHint'])
      assert.match(problems, new RegExp(expected));
  });

  test('forbidden keywords anywhere, root combinators, item-less arrays and undocumented properties are reported', () => {
    const t = good();
    t.inputSchema = {
      type: 'object',
      anyOf: [],
      properties: {
        a: { type: 'array', description: 'A.' },
        b: { type: 'object', description: 'B.', properties: { c: { type: 'number', exclusiveMinimum: 0 }, const: { type: 'string', description: 'named const' } } },
        d: { $ref: '#/x', description: 'D.' },
      },
      required: [],
      additionalProperties: false,
    };
    const problems = lintTools([t]).join('\n');
    for (const expected of ['root has anyOf', 'properties.a: array without items', 'properties.b.properties.c: no description', 'forbidden keyword exclusiveMinimum', 'forbidden keyword \\$ref'])
      assert.match(problems, new RegExp(expected));
    assert.doesNotMatch(problems, /forbidden keyword const/);
  });

  test('a root without required or additionalProperties:false is reported', () => {
    const t = good();
    t.inputSchema = { type: 'object', properties: {} };
    const problems = lintTools([t]).join('\n');
    assert.match(problems, /no required/);
    assert.match(problems, /additionalProperties must be false/);
  });
});
