// A store connected to Dropi as a seller would do it (issue 22 §1, §4, §5, §6): from the CLI, which
// needs nothing of the server's environment; Dropi's cities pulled into the store's catalog so
// orders carry Dropi's exact strings (and a town Dropi does not deliver cash on delivery to waits
// for review); Dropi's unsigned webhook at the connection's own path, acknowledged at once,
// deduplicated, and never applied before the order is read again through the API; and the
// Dropi-dialect simulator from the CLI.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { startServer, type TestServer } from '../helpers/server.ts';
import { seedShop, type Shop } from '../helpers/fixtures.ts';
import { cliFails, cliJson } from '../helpers/cli-expect.ts';
import { BIN, cliEnv } from '../helpers/cli.ts';
import { until } from '../helpers/wait.ts';
import { liveOrder } from '../webhooks/webhook-kit.ts';
import { OPEN_LIMITS } from '../api/orders/order-kit.ts';
import { startDropiSimulator, type DropiSimulator } from '../../src/platforms/dropi/simulator.ts';
import { recordOperatorUrls, startPushWorker } from '../../src/use-cases/fulfillment/push-worker.use-case.ts';
import { hookRereadsIdle } from '../../src/use-cases/fulfillment/platform-hook.use-case.ts';
import type { OutboxWorker } from '../../src/fulfillment/worker.ts';

const KEY = 'dropi-key-DDDD-0004-cli';

describe('a store on Dropi', () => {
  let sim: DropiSimulator;
  let server: TestServer;
  let shop: Shop;
  let worker: OutboxWorker;
  let hookUrl: string;
  /** What the seller's three setup commands answered (each test reads, none depends on another test). */
  let connected: any;
  let imported: any;
  let linked: any;
  const cli = { env: { CODRAIL_DROPI_INTERVAL_MS: '5' } };

  before(async () => {
    sim = await startDropiSimulator({ tokens: [KEY] });
    // The server knows where Dropi is (a simulator here); the CLI below is not told.
    server = await startServer({ ...OPEN_LIMITS, dropiUrl: sim.url, dropiIntervalMs: 5, fulfillmentBackoffMs: 20 });
    await recordOperatorUrls(server.deps);
    shop = await seedShop(server.deps);
    // The seller's setup, from a plain shell: connect, pull Dropi's cities, link the product.
    connected = (await cliJson(server.dbFile, ['fulfillment', 'connection', 'set', shop.storeId, '--platform', 'dropi', '--api-token', KEY], cli)).json;
    hookUrl = connected.webhook_url;
    imported = (await cliJson(server.dbFile, ['cities', 'import', '--from-platform', shop.storeId], cli)).json;
    linked = (await cliJson(server.dbFile, ['products', 'link', shop.productId, '--fulfillment-product-id', '21002'], cli)).json;
    worker = startPushWorker(server.deps);
  });
  after(async () => {
    await worker?.stop();
    await server.close();
    await sim.close();
  });

  test('the CLI connects the store to Dropi with nothing of the server’s environment, and shows the token masked and the receiver path', async () => {
    const json = connected;
    assert.equal(json.platform_name, 'dropi');
    assert.equal(json.source, 'store');
    assert.equal(json.platform, new URL(sim.url).origin);
    assert.equal(json.credential.masked, `••••${KEY.slice(-4)}`);
    assert.equal(json.credential.account_id, null);
    assert.match(json.webhook_url, /\/api\/fulfillment\/hooks\/[0-9A-Za-z]{32}$/);
    assert.ok(!JSON.stringify(json).includes(KEY));
    // Under the server's public base URL as `serve` recorded it, not the CLI's own default.
    assert.ok(json.webhook_url.startsWith(`${server.deps.config.baseUrl}/api/fulfillment/hooks/`), json.webhook_url);
    // The product was linked after Dropi confirmed it exists.
    assert.equal(linked.fulfillment.product_id, '21002');
    assert.equal(linked.fulfillment.name, 'Cepillo alisador 3 en 1');
  });

  test('a token Dropi refuses is not saved, and its message says why', async () => {
    const r = await cliFails(server.dbFile, ['fulfillment', 'connection', 'set', shop.storeId, '--platform', 'dropi', '--api-token', 'not-a-dropi-key-xx'], 2, cli);
    assert.equal(r.error.code, 'invalid_input');
    assert.deepEqual(r.error.details, [{ field: 'api_token', message: 'Dropi refused this token (HTTP 401: Access denied); nothing was saved' }]);
    const { json } = await cliJson(server.dbFile, ['fulfillment', 'connection', 'get', shop.storeId]);
    assert.equal(json.credential.masked, `••••${KEY.slice(-4)}`, 'the saved connection is untouched');
  });

  test('cities import --from-platform pulls Dropi’s departments and cash-on-delivery cities into the store’s catalog', async () => {
    const json = imported;
    assert.equal(json.platform, 'dropi');
    assert.equal(json.regions, 7);
    assert.ok(json.cities >= 20, String(json.cities));
    const r = await cliFails(server.dbFile, ['cities', 'import', '--from-platform', shop.storeId, '--country', 'CO'], 2);
    assert.equal(r.error.code, 'invalid_input');
  });

  test('orders take Dropi’s exact strings through the official code; a town Dropi does not deliver cash on delivery to waits for review', async () => {
    const read = async (id: string) => (await server.deps.db.selectFrom('orders').select(['departamento', 'ciudad', 'city_code', 'needs_review']).where('id', '=', id).executeTakeFirstOrThrow());
    assert.deepEqual(await read(await liveOrder(server, shop, { departamento: 'Bogotá', ciudad: 'Bogotá' })), { departamento: 'CUNDINAMARCA', ciudad: 'Bogota', city_code: '11001', needs_review: 0 });
    assert.deepEqual(await read(await liveOrder(server, shop, { departamento: 'Cauca', ciudad: 'Argelia' })), { departamento: 'CAUCA', ciudad: 'ARGELIA (C)', city_code: '19050', needs_review: 0 });
    assert.deepEqual(await read(await liveOrder(server, shop, { departamento: 'Norte de Santander', ciudad: 'cucuta' })), { departamento: 'NORTE DE SANTANDER', ciudad: 'Cucuta', city_code: '54001', needs_review: 0 });
    // Calima is prepaid-only at Dropi: not guessed, held for review.
    const calima = await read(await liveOrder(server, shop, { departamento: 'Valle del Cauca', ciudad: 'Calima' }));
    assert.equal(calima.needs_review, 1);
    // The selector buyers see keeps the official names.
    const cities = (await (await fetch(`${server.url}/api/geo/cities?country=CO`)).json()) as { data: Record<string, string[]> };
    assert.ok(JSON.stringify(cities).includes('Bogotá, D.C.'));
  });

  test('Dropi’s unsigned webhook: unknown path 404; unreadable 200 and ignored; a report is applied only as the API reads it, once', async () => {
    const unknown = await fetch(server.url + '/api/fulfillment/hooks/' + 'x'.repeat(32), { method: 'POST', body: '{}' });
    assert.equal(unknown.status, 404);
    const garbage = await fetch(hookUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'not json' });
    assert.equal(garbage.status, 200);
    assert.deepEqual(((await garbage.json()) as { data: unknown }).data, { accepted: false, duplicate: false });

    const orderId = await liveOrder(server, shop, { departamento: 'Antioquia', ciudad: 'Medellín' });
    const job = await until('pushed to Dropi', async () => {
      const j = await server.deps.db.selectFrom('fulfillment_jobs').selectAll().where('order_id', '=', orderId).executeTakeFirst();
      return j?.state === 'done' ? j : undefined;
    });
    const remote = Number(job!.remote_id);
    const status = async () => (await server.deps.db.selectFrom('orders').select(['status', 'fulfillment_status', 'tracking_number']).where('id', '=', orderId).executeTakeFirstOrThrow());

    // A forged report says ENTREGADO; Dropi's API says the order is still PENDIENTE CONFIRMACION: nothing moves.
    const forged = await fetch(hookUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: remote, status: 'ENTREGADO', shop_order_id: orderId }) });
    assert.equal(forged.status, 200);
    await hookRereadsIdle(server.deps);
    assert.equal((await status()).status !== 'delivered', true);

    // The real change: Dropi generates the label and reports it; the API confirms it, and it applies.
    await sim.advance(remote, 'GUIA_GENERADA', 'GUIA-777');
    const report = JSON.stringify({ id: remote, status: 'GUIA_GENERADA', shop_order_id: orderId, shipping_guide: 'GUIA-777' });
    const first = await fetch(hookUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: report });
    assert.deepEqual(((await first.json()) as { data: unknown }).data, { accepted: true, duplicate: false });
    await hookRereadsIdle(server.deps);
    assert.deepEqual(await status(), { status: 'processing', fulfillment_status: 'GUIA_GENERADA', tracking_number: 'GUIA-777' });
    // The same status again is a duplicate: acknowledged, not read again.
    const before = sim.stats(KEY).requests;
    const again = await fetch(hookUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: report });
    assert.deepEqual(((await again.json()) as { data: unknown }).data, { accepted: true, duplicate: true });
    await hookRereadsIdle(server.deps);
    assert.equal(sim.stats(KEY).requests, before);
  });

  test('a status Dropi’s table does not know changes nothing and is logged; a cancel reaches Dropi as CANCELADO', async () => {
    const orderId = await liveOrder(server, shop, { departamento: 'Antioquia', ciudad: 'Envigado' });
    const job = await until('pushed to Dropi', async () => {
      const j = await server.deps.db.selectFrom('fulfillment_jobs').selectAll().where('order_id', '=', orderId).where('action', '=', 'push').executeTakeFirst();
      return j?.state === 'done' ? j : undefined;
    });
    const remote = Number(job!.remote_id);
    await sim.advance(remote, 'EN BODEGA DEL VECINO');
    await fetch(hookUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: remote, status: 'EN BODEGA DEL VECINO', shop_order_id: orderId }) });
    await hookRereadsIdle(server.deps);
    const row = await server.deps.db.selectFrom('orders').select(['status', 'fulfillment_status']).where('id', '=', orderId).executeTakeFirstOrThrow();
    assert.deepEqual(row, { status: 'pending', fulfillment_status: 'EN BODEGA DEL VECINO' }, 'the raw status kept, the order not moved');
    assert.ok(server.logs.some((l) => l.platformStatus === 'EN BODEGA DEL VECINO' && l.platform === 'dropi' && l.level === 40), 'logged as a warning');

    await sim.advance(remote, 'PENDIENTE');
    const { json } = await cliJson(server.dbFile, ['orders', 'cancel', orderId, '--reason', 'buyer_declined'], cli);
    assert.equal(json.status, 'cancelled');
    server.deps.nudge.fulfillment();
    await until('cancelled at Dropi', () => sim.orders().find((o) => o.id === remote)?.status === 'CANCELADO');
    await until('the cancel job done', async () => (await server.deps.db.selectFrom('fulfillment_jobs').select('state').where('order_id', '=', orderId).where('action', '=', 'cancel').executeTakeFirst())?.state === 'done');
  });

  test('codrail fulfillment sim --dialect dropi starts a Dropi that refuses an unknown key and answers a known one', async () => {
    const child = spawn(process.execPath, [BIN, 'fulfillment', 'sim', '--dialect', 'dropi', '--port', '0', '--accept-token', KEY, '--json'], { env: cliEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let out = '';
      child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      const { url } = (await until('the simulator URL', () => (out.includes('}') ? (JSON.parse(out) as { url: string }) : undefined)))!;
      assert.equal((await fetch(`${url}/integrations/department`, { headers: { 'dropi-integration-key': 'other' } })).status, 401);
      const ok = (await (await fetch(`${url}/integrations/department`, { headers: { 'dropi-integration-key': KEY } })).json()) as { isSuccess: boolean; objects: unknown[] };
      assert.equal(ok.isSuccess, true);
      assert.ok(ok.objects.length > 0);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  });
});
