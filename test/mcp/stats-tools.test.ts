// get_account_stats (MCP-TOOLS.md §6.1 row 2): live orders of a period, days read in each store's
// timezone, counts, value and rates as issue 12's contract defines them; the pure arithmetic in
// src/domain/order-stats.ts, the period and tenancy here, through the MCP SDK client and the CLI.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { sql } from 'kysely';
import { manualClock } from '../../src/clock.ts';
import { orderStats, localDay, type StatRow } from '../../src/domain/order-stats.ts';
import { openShop, orderBody, postOrder, seedShop, type Shop } from '../helpers/fixtures.ts';
import type { TestServer } from '../helpers/server.ts';
import { cliJson } from '../helpers/cli-expect.ts';
import { OPEN_LIMITS, liveHeaders, nextPhone } from '../api/orders/order-kit.ts';
import { call, connect } from './mcp-kit.ts';

test('orderStats counts by status and push state, sums the value of orders not cancelled, and computes the three rates', () => {
  const row = (status: StatRow['status'], job: string, totalMinor: number, currency: string): StatRow => ({ status, job, totalMinor, currency, riskScore: 10, confirmation: null, askedAt: null, confirmedAt: null, confirmedBy: null });
  const s = orderStats([
    row('pending', 'queued', 100, 'COP'),
    row('confirmed', 'done', 200, 'COP'),
    row('delivered', 'done', 300, 'COP'),
    row('returned', 'done', 400, 'MXN'),
    row('cancelled', 'done', 500, 'COP'),
    row('pending', 'dead', 600, 'COP'),
  ]);
  assert.equal(s.orders, 6);
  assert.equal(s.by_status.pending, 2);
  assert.deepEqual(s.by_fulfillment, { not_pushed: 1, pushed: 4, push_failed: 1 });
  assert.deepEqual([...s.codMinor], [['COP', 1200], ['MXN', 400]]);
  assert.equal(s.confirmation_rate, 0.5);
  assert.equal(s.delivery_rate, 0.5);
  assert.equal(s.return_rate, 0.5);
  assert.equal(orderStats([]).confirmation_rate, null);
});

test('orderStats: how buyers answered (rate, median minutes to confirm) and delivered versus returned per risk band', () => {
  const at = (min: number) => new Date(Date.UTC(2026, 2, 1, 12, min)).toISOString();
  const row = (over: Partial<StatRow>): StatRow => ({ status: 'pending', job: 'queued', totalMinor: 100, currency: 'COP', riskScore: 10, confirmation: null, askedAt: null, confirmedAt: null, confirmedBy: null, ...over });
  const s = orderStats([
    row({ status: 'confirmed', askedAt: at(0), confirmedAt: at(4), confirmedBy: 'buyer', confirmation: 'answered' }),
    row({ status: 'delivered', askedAt: at(0), confirmedAt: at(10), confirmedBy: 'buyer', confirmation: 'answered' }),
    row({ status: 'confirmed', askedAt: at(0), confirmedAt: at(90), confirmedBy: 'support', confirmation: 'answered' }),
    row({ status: 'cancelled', askedAt: at(0), confirmation: 'answered' }),
    row({ askedAt: at(0), confirmation: 'call', riskScore: 45 }),
    row({ status: 'returned', riskScore: 70 }),
    row({ status: 'delivered', riskScore: 65 }),
    row({ status: 'returned', riskScore: 35 }),
  ]);
  assert.deepEqual(s.confirmation, { asked: 5, by_buyer: 2, by_support: 1, cancelled: 1, unanswered: 1, rate: 0.4, median_minutes: 7 });
  assert.deepEqual(s.by_risk, {
    low: { orders: 4, delivered: 1, returned: 0, return_rate: 0 },
    medium: { orders: 2, delivered: 0, returned: 1, return_rate: 1 },
    high: { orders: 2, delivered: 1, returned: 1, return_rate: 0.5 },
  });
  assert.deepEqual(orderStats([]).confirmation, { asked: 0, by_buyer: 0, by_support: 0, cancelled: 0, unanswered: 0, rate: null, median_minutes: null });
});

test("localDay reads an instant in the store's timezone", () => {
  assert.equal(localDay('2026-03-02T03:00:00Z', 'America/Bogota'), '2026-03-01');
  assert.equal(localDay('2026-03-02T05:00:00Z', 'America/Bogota'), '2026-03-02');
});

describe('get_account_stats', () => {
  const clock = manualClock('2026-03-01T23:30:00-05:00');
  let server: TestServer;
  let shop: Shop;
  let other: Shop;
  let client: Client;
  before(async () => {
    ({ server, shop } = await openShop(OPEN_LIMITS, { clock }));
    other = await seedShop(server.deps);
    client = await connect(server.url, shop.secretKey);
    const order = async (s: Shop, over: Record<string, unknown> = {}) =>
      ((await (await postOrder(server.url, orderBody(s, { telefono: nextPhone(), ...over }), liveHeaders(s))).json()) as { data: { id: string } }).data.id;
    await order(shop);
    const delivered = await order(shop, { pack: '2x', unit_price: 180000, total_price: 180000 });
    await sql`UPDATE orders SET status = 'delivered' WHERE id = ${delivered}`.execute(server.deps.db);
    await postOrder(server.url, orderBody(shop, { telefono: nextPhone() }), { 'x-svc-api-key': shop.testKey, origin: 'http://localhost' });
    clock.advance(60 * 60_000); // 00:30 on 2 March in Bogotá, 05:30 UTC
    const returned = await order(shop);
    await sql`UPDATE orders SET status = 'returned' WHERE id = ${returned}`.execute(server.deps.db);
    await order(other);
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  test('the totals of a day count the live orders of that local day only, sandbox and other accounts excluded', async () => {
    const { isError, value } = await call(client, 'get_account_stats', { from: '2026-03-01', to: '2026-03-01' });
    assert.equal(isError, false, JSON.stringify(value));
    assert.equal(value.totals.orders, 2);
    assert.equal(value.totals.by_status.delivered, 1);
    assert.deepEqual(value.totals.cod_value.map((c: { currency: string; amount: number }) => [c.currency, c.amount]), [['COP', 280000]]);
    assert.equal(value.totals.confirmation_rate, 0.5);
    assert.equal(value.totals.delivery_rate, 1);
  });

  test('grouped by day, a period splits at midnight in the store timezone', async () => {
    const { value } = await call(client, 'get_account_stats', { from: '2026-03-01', to: '2026-03-02', group_by: 'day', store_id: shop.storeId });
    assert.deepEqual(value.groups.map((g: { key: string; orders: number }) => [g.key, g.orders]), [['2026-03-01', 2], ['2026-03-02', 1]]);
    assert.equal(value.totals.return_rate, 0.5);
  });

  test('a bad period, and another account\u2019s store, are refused', async () => {
    const backwards = await call(client, 'get_account_stats', { from: '2026-03-02', to: '2026-03-01' });
    assert.equal(backwards.value.error.code, 'invalid_input');
    assert.equal(backwards.value.error.field, 'to');
    const notADate = await call(client, 'get_account_stats', { from: '1 March', to: '2026-03-01' });
    assert.equal(notADate.value.error.field, 'from');
    const foreign = await call(client, 'get_account_stats', { from: '2026-03-01', to: '2026-03-01', store_id: other.storeId });
    assert.equal(foreign.value.error.code, 'not_found');
  });

  test('codrail account stats --account gives the same totals', async () => {
    const { json } = await cliJson(server.dbFile, ['account', 'stats', '--account', shop.accountId, '--from', '2026-03-01', '--to', '2026-03-02']);
    assert.equal(json.totals.orders, 3);
  });
});
