// GET /metrics (issue 14 §3; issue 13 §1's backlog metric): off by default, on its own port when
// asked, Prometheus text format that a third-party parser reads, and counters that move as orders
// are created, refused and pushed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { startServer } from '../helpers/server.ts';
import { seedShop, orderBody, postOrder } from '../helpers/fixtures.ts';
import { OPEN_LIMITS, liveHeaders, nextPhone } from '../api/orders/order-kit.ts';
import { startSimulator } from '../../src/platforms/generic/simulator.ts';
import { startPushWorker } from '../../src/use-cases/fulfillment/push-worker.use-case.ts';
import { startMetricsServer } from '../../src/http/metrics-server.ts';
import { until } from '../helpers/wait.ts';
import { runCli, spawnServe } from '../helpers/cli.ts';
import { tempDbFile } from '../helpers/server.ts';

interface Family {
  name: string;
  type: string;
  metrics: { labels?: Record<string, string>; value?: string; buckets?: Record<string, string>; count?: string }[];
}
const parse = createRequire(import.meta.url)('parse-prometheus-text-format') as (text: string) => Family[];

const value = (families: Family[], name: string, labels: Record<string, string> = {}) =>
  families
    .find((f) => f.name === name)
    ?.metrics.filter((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))
    .reduce((sum, m) => sum + Number(m.value ?? m.count ?? 0), 0) ?? 0;

test('the counters move as orders are created, refused and pushed, and the text parses', async () => {
  const sim = await startSimulator({});
  const server = await startServer({ ...OPEN_LIMITS, fulfillmentUrl: sim.url, fulfillmentBackoffMs: 10 });
  const metrics = await startMetricsServer(server.deps, 0, '127.0.0.1');
  const scrape = async () => {
    const res = await fetch(`http://127.0.0.1:${metrics.port}/metrics`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    return parse(await res.text());
  };
  try {
    const shop = await seedShop(server.deps);
    const before = await scrape();
    for (let i = 0; i < 3; i++) assert.equal((await postOrder(server.url, orderBody(shop, { telefono: nextPhone() }), liveHeaders(shop))).status, 200);
    assert.equal((await postOrder(server.url, orderBody(shop, { telefono: nextPhone(), total_price: 1 }), liveHeaders(shop))).status, 400);
    assert.equal((await postOrder(server.url, orderBody(shop, { telefono: nextPhone(), nombre: '' }), liveHeaders(shop))).status, 400);
    const created = await scrape();
    assert.equal(value(created, 'codrail_orders_created_total') - value(before, 'codrail_orders_created_total'), 3);
    assert.equal(value(created, 'codrail_orders_created_total', { mode: 'key' }), 3);
    assert.equal(value(created, 'codrail_orders_refused_total', { reason: 'price_below_floor' }), 1);
    assert.equal(value(created, 'codrail_orders_refused_total', { reason: 'invalid_input' }), 1);
    assert.equal(value(created, 'codrail_fulfillment_jobs', { state: 'queued' }), 3);
    assert.ok(value(created, 'codrail_fulfillment_oldest_pending_push_seconds') >= 0);
    await until('three answered orders counted', async () => value(await scrape(), 'codrail_http_requests_total', { route: '/api/orders/create', status: '200', method: 'POST' }) === 3);
    // A request is counted once its answer is out (the socket may close a moment after the client read it).
    await until('five timed order requests', async () => (await (await fetch(`http://127.0.0.1:${metrics.port}/metrics`)).text()).includes('codrail_http_request_duration_seconds_count{method="POST",route="/api/orders/create"} 5'));
    assert.equal((await scrape()).find((f) => f.name === 'codrail_http_request_duration_seconds')?.type, 'HISTOGRAM');

    const worker = startPushWorker(server.deps)!;
    await until('pushed', async () => value(await scrape(), 'codrail_fulfillment_jobs', { state: 'done' }) === 3);
    await worker.stop();
    const pushed = await scrape();
    assert.equal(value(pushed, 'codrail_fulfillment_jobs', { state: 'queued' }), 0);
    assert.equal(value(pushed, 'codrail_fulfillment_oldest_pending_push_seconds'), 0);
    const unknown = await fetch(`${server.url}/no/such/route/123`);
    assert.equal(unknown.status, 404);
    await until('the 404 counted as unmatched (raw paths never become labels)', async () => value(await scrape(), 'codrail_http_requests_total', { route: 'unmatched', status: '404' }) === 1);
  } finally {
    await metrics.close();
    await server.close();
    await sim.close();
  }
});

test('serve has no metrics unless asked; --metrics-port serves them on 127.0.0.1 only, not on the API port', async () => {
  const tmp = tempDbFile();
  await runCli(['migrate'], { db: tmp.file });
  const off = await spawnServe(tmp.file);
  try {
    assert.equal((await fetch(`${off.base}/metrics`)).status, 404);
    assert.match(off.output().stderr, /metrics: {2}off/);
  } finally {
    off.child.kill('SIGTERM');
    await off.exited;
  }
  const on = await spawnServe(tmp.file, ['--metrics-port', '0']);
  try {
    const m = /metrics: {2}curl (http:\/\/127\.0\.0\.1:\d+\/metrics)/.exec(on.output().stderr);
    assert.ok(m, on.output().stderr);
    const res = await fetch(m[1]!);
    assert.equal(res.status, 200);
    assert.ok(parse(await res.text()).some((f) => f.name === 'codrail_http_requests_total'));
    assert.equal((await fetch(`${on.base}/metrics`)).status, 404, 'never on the public API port');
  } finally {
    on.child.kill('SIGTERM');
    await on.exited;
    tmp.cleanup();
  }
});
