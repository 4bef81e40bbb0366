// Shared assertions for the account tools (stores, keys, products, prices, landing pages, geo):
// what the account tables hold before and after a call, the isError shape of MCP-TOOLS.md §5.10,
// tenancy (§5.14: another account's id answers exactly like an unknown one) and the HTTP 403 of a
// token lacking the tool's scope (§5.13), with real OAuth tokens from the consent pages.
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Deps } from '../../src/app.ts';
import type { ConfigFlags } from '../../src/config.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { seedShop, type Shop } from '../helpers/fixtures.ts';
import { OPEN_LIMITS } from '../api/orders/order-kit.ts';
import { Browser, addUser, obtainTokens } from '../helpers/oauth.ts';
import { joinScopes } from '../../src/domain/oauth/scopes.ts';
import { call, connect, rawPost, type Structured } from './mcp-kit.ts';

/** A well-formed id that no row has. */
export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** Every table an account tool or an order may write. */
const TABLES = [
  'accounts',
  'stores',
  'products',
  'product_packs',
  'landing_pages',
  'api_keys',
  'orders',
  'order_events',
  'fulfillment_jobs',
  'idempotency_records',
  'fulfillment_connections',
  'whatsapp_settings',
  'whatsapp_messages',
] as const;

export type Snapshot = Record<(typeof TABLES)[number], unknown[]>;

/** Every row of the account tables, in a stable order. */
export async function snapshot(deps: Pick<Deps, 'db'>): Promise<Snapshot> {
  // The tables are read at once: on PostgreSQL each read is a round trip on its own pooled
  // connection, and the attack run takes two snapshots around each of its 7,000 requests.
  const tables = await Promise.all(TABLES.map(async (table) => (await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(deps.db)).rows.map((r) => JSON.stringify(r)).sort()));
  return Object.fromEntries(TABLES.map((table, i) => [table, tables[i]!])) as Snapshot;
}

/** Runs `act` and asserts that no row of the account tables was added, changed or removed. */
export async function unchanged<T>(deps: Pick<Deps, 'db'>, act: () => Promise<T>): Promise<T> {
  const before = await snapshot(deps);
  const result = await act();
  assert.deepEqual(await snapshot(deps), before, 'nothing was stored or changed');
  return result;
}

export interface ToolError {
  code: string;
  message: string;
  field?: string;
  hint?: string;
  retryable: boolean;
}

/** Calls a tool that must fail: isError with the code (and field), nothing stored; returns the error. */
export async function expectToolError(deps: Pick<Deps, 'db'>, client: Client, name: string, args: Record<string, unknown>, code: string, field?: string): Promise<ToolError> {
  const { isError, value } = await unchanged(deps, () => call(client, name, args));
  assert.equal(isError, true, `${name} should fail: ${JSON.stringify(value)}`);
  const error = value.error as ToolError;
  assert.equal(error.code, code, JSON.stringify(error));
  if (field !== undefined) assert.equal(error.field, field, JSON.stringify(error));
  assert.equal(typeof error.message, 'string');
  assert.ok(error.message.length > 0);
  assert.equal(error.retryable, false);
  return error;
}

/** Calls a tool that must succeed and returns its structured result. */
export async function ok(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Structured> {
  const { isError, value } = await call(client, name, args);
  assert.equal(isError, false, `${name} failed: ${JSON.stringify(value)}`);
  return value;
}

/**
 * Tenancy (§5.14): the call with another account's id and with an unknown id both answer the same
 * not_found (same field, message and hint), and neither changes anything.
 */
export async function expectForeignLikeUnknown(
  deps: Pick<Deps, 'db'>,
  client: Client,
  name: string,
  args: (id: string) => Record<string, unknown>,
  foreignId: string,
  field: string,
): Promise<ToolError> {
  const foreign = await expectToolError(deps, client, name, args(foreignId), 'not_found', field);
  const unknown = await expectToolError(deps, client, name, args(UNKNOWN_ID), 'not_found', field);
  assert.deepEqual(foreign, unknown, 'another account’s id is indistinguishable from an unknown one');
  return foreign;
}

export const toolCall = (id: number, name: string, args: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

/**
 * A token granted `granted` calls `name`, which needs `missing`: HTTP 403 insufficient_scope with the
 * challenge naming the granted plus the missing scopes, before anything runs (nothing stored).
 */
export async function expectInsufficientScope(server: TestServer, token: string, granted: readonly string[], name: string, args: Record<string, unknown>, missing: string): Promise<void> {
  const res = await unchanged(server.deps, () => rawPost(server.url, toolCall(1, name, args), { authorization: `Bearer ${token}` }));
  assert.equal(res.status, 403, `${name}: expected 403, got ${res.status}`);
  assert.equal(
    res.headers.get('www-authenticate'),
    `Bearer error="insufficient_scope", scope="${joinScopes([...granted, missing])}", resource_metadata="${server.deps.config.baseUrl}/.well-known/oauth-protected-resource/api/mcp"`,
  );
  const body = (await res.json()) as { error: string; error_description: string };
  assert.equal(body.error, 'insufficient_scope');
  assert.match(body.error_description, new RegExp(missing));
}

/** The SDK client (no auth provider) sees the 403 as a rejected call; nothing is stored. */
export async function expectSdkForbidden(deps: Pick<Deps, 'db'>, client: Client, name: string, args: Record<string, unknown>): Promise<void> {
  await unchanged(deps, () =>
    assert.rejects(client.callTool({ name, arguments: args }), (error: unknown) => error instanceof StreamableHTTPError && error.code === 403),
  );
}

/**
 * OAuth access tokens of one user of the account, each granted exactly the listed scopes (plus
 * mcp:invoke, which the server always keeps), through the real sign-in and consent pages.
 */
export async function scopedTokens<K extends string>(server: TestServer, accountId: string, grants: Record<K, string[] | 'all'>): Promise<Record<K, string>> {
  const user = await addUser(server.deps, accountId);
  const browser = new Browser(server.url);
  const out = {} as Record<K, string>;
  for (const [name, grant] of Object.entries(grants) as [K, string[] | 'all'][]) {
    const { tokens } = await obtainTokens(server.url, user, grant === 'all' ? { browser } : { browser, grant });
    if (grant !== 'all') assert.equal(tokens.scope, joinScopes(['mcp:invoke', ...grant]));
    out[name] = tokens.access_token;
  }
  return out;
}

async function one<R>(what: string, id: string, row: R | undefined): Promise<R> {
  assert.ok(row, `${what} ${id} is stored`);
  return row;
}

/** The stored row with this id (asserted to exist). */
export const storeRow = async (deps: Pick<Deps, 'db'>, id: string) => one('store', id, await deps.db.selectFrom('stores').selectAll().where('id', '=', id).executeTakeFirst());
export const productRow = async (deps: Pick<Deps, 'db'>, id: string) => one('product', id, await deps.db.selectFrom('products').selectAll().where('id', '=', id).executeTakeFirst());
export const landingRow = async (deps: Pick<Deps, 'db'>, id: string) => one('landing page', id, await deps.db.selectFrom('landing_pages').selectAll().where('id', '=', id).executeTakeFirst());
export const keyRow = async (deps: Pick<Deps, 'db'>, id: string) => one('key', id, await deps.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst());

export const packsOf = (deps: Pick<Deps, 'db'>, productId: string) =>
  deps.db.selectFrom('product_packs').selectAll().where('product_id', '=', productId).orderBy('position').execute();

export interface ToolBench<K extends string> {
  server: TestServer;
  /** The account the SDK client acts for. */
  shop: Shop;
  /** Another account: its ids must be not_found for the client. */
  other: Shop;
  client: Client;
  /** OAuth tokens of the first account, granted only the named scopes (plus mcp:invoke). */
  tokens: Record<K, string>;
}

/** What every tool suite starts from: one server, two accounts, the first's secret-key SDK client, scoped tokens. */
export async function openToolBench<K extends string>(grants: Record<K, string[]>, flags: ConfigFlags = {}, env: Record<string, string> = {}): Promise<ToolBench<K>> {
  const server = await startServer({ ...OPEN_LIMITS, ...flags }, { env });
  const shop = await seedShop(server.deps);
  const other = await seedShop(server.deps);
  const client = await connect(server.url, shop.secretKey);
  const tokens = await scopedTokens(server, shop.accountId, grants);
  return { server, shop, other, client, tokens };
}

export async function closeToolBench(bench: { server: TestServer; client: Client }): Promise<void> {
  await bench.client.close();
  await bench.server.close();
}
