// The served tool catalog (MCP-TOOLS.md §3.4, §5, §6, §7), seen through the real SDK client.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { openShop, type Shop } from '../helpers/fixtures.ts';
import type { TestServer } from '../helpers/server.ts';
import { lintTools, type ListedTool } from '../../src/mcp/tools/lint-tools.ts';
import { connect } from './mcp-kit.ts';

const ORDER = ['get_account', 'list_orders', 'get_order', 'create_order', 'list_cities', 'canonicalize_city'];

/** The RO / D / I / OW columns and the scope of MCP-TOOLS.md §6.1, §6.7 and §6.9. */
const TABLE: Record<string, [string, boolean, boolean, boolean, boolean]> = {
  get_account: ['mcp:invoke', true, false, true, false],
  list_orders: ['orders:read', true, false, true, false],
  get_order: ['orders:read', true, false, true, false],
  create_order: ['orders:create', false, false, true, false],
  list_cities: ['mcp:invoke', true, false, true, false],
  canonicalize_city: ['mcp:invoke', true, false, true, false],
};

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

  test('tools/list returns the six tools on one page in catalog order, with no nextCursor', async () => {
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
      const [scope, ro, d, i, ow] = TABLE[tool.name]!;
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
    assert.deepEqual(lintTools(tools as ListedTool[], 6), []);
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
