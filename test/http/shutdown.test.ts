// Graceful shutdown of the real `codrail serve` on SIGTERM (SPEC 15): it stops accepting connections,
// finishes the requests and the pushes in flight, closes the database and exits 0; a request still
// unfinished when the grace period (--shutdown-grace-ms) ends is cut. What the process stored is read
// from the database file once it has exited.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request, type ClientRequest } from 'node:http';
import { tempDbFile } from '../helpers/server.ts';
import { spawnServe, type ServeProcess } from '../helpers/cli.ts';
import { readDb, withApp } from '../helpers/cli-expect.ts';
import { orderBody, postOrder, seedShop, type Shop } from '../helpers/fixtures.ts';
import { until } from '../helpers/wait.ts';
import { expectCreated, liveHeaders, nextPhone } from '../api/orders/order-kit.ts';
import { startSimulator } from '../../src/platforms/generic/simulator.ts';

const cleanups: (() => void)[] = [];
after(() => cleanups.forEach((c) => c()));

/** A database with one shop, and `codrail serve` on it. */
async function serveShop(args: string[]): Promise<{ file: string; shop: Shop; serve: ServeProcess }> {
  const tmp = tempDbFile();
  cleanups.push(tmp.cleanup);
  const shop = await withApp(tmp.file, (app) => seedShop(app));
  const serve = await spawnServe(tmp.file, ['--log-level', 'info', ...args]);
  cleanups.unshift(() => {
    if (serve.child.exitCode === null && serve.child.signalCode === null) serve.child.kill('SIGKILL');
  });
  return { file: tmp.file, shop, serve };
}

const logLines = (serve: ServeProcess) =>
  serve
    .output()
    .stdout.split('\n')
    .filter((l) => l.trim().startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** SIGTERM, then waits until the process says it is draining (from then on it accepts nothing new). */
async function terminate(serve: ServeProcess): Promise<void> {
  serve.child.kill('SIGTERM');
  await until('serve to start draining', () => logLines(serve).some((l) => l.msg === 'shutting down: draining requests' && l.signal === 'SIGTERM'));
}

async function exitCode(serve: ServeProcess): Promise<number | null> {
  await until('serve to exit', () => serve.child.exitCode !== null || serve.child.signalCode !== null);
  assert.equal(serve.child.signalCode, null, `serve exited by itself, not killed by ${serve.child.signalCode}`);
  return serve.exited;
}

interface Open {
  req: ClientRequest;
  /** Resolves once the server has taken the request (its 100 Continue): it is in flight there. */
  taken: Promise<void>;
  answer: Promise<Response>;
}

/** POST /api/orders/create with `Expect: 100-continue`: the headers go now, the body when the test sends it. */
function openOrderRequest(base: string, shop: Shop, body: Buffer): Open {
  const req = request(`${base}/api/orders/create`, {
    method: 'POST',
    agent: false,
    headers: { ...liveHeaders(shop), 'content-type': 'application/json', 'content-length': String(body.length), expect: '100-continue' },
  });
  const taken = new Promise<void>((resolve) => req.once('continue', resolve));
  const answer = new Promise<Response>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      const headers = Object.entries(res.headers).flatMap(([k, v]): [string, string][] => (v === undefined ? [] : [[k, String(v)]]));
      res.on('end', () => resolve(new Response(text, { status: res.statusCode ?? 0, headers })));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
  return { req, taken, answer };
}

/** A new connection is refused (a reset means the listener closed while it connected: try again; an answer is a failure). */
async function newConnectionsRefused(base: string): Promise<void> {
  await until('a new connection to be refused', () =>
    fetch(`${base}/healthz`).then(
      (res) => assert.fail(`a new connection after SIGTERM was served (${res.status})`),
      (error: { cause?: { code?: string } }) => error.cause?.code === 'ECONNREFUSED',
    ),
  );
}

const rows = (file: string, sql: string, ...params: unknown[]) => readDb(file, (db) => db.prepare(sql).all(...params) as Record<string, unknown>[]);

describe('codrail serve on SIGTERM', () => {
  test('a valid order whose request is in flight when SIGTERM arrives is answered 200 and stored, new connections are refused, and serve exits 0', async () => {
    const { file, shop, serve } = await serveShop([]);
    const body = Buffer.from(JSON.stringify(orderBody(shop, { telefono: nextPhone() })));
    const open = openOrderRequest(serve.base, shop, body);
    await open.taken;

    await terminate(serve);
    await newConnectionsRefused(serve.base);
    open.req.end(body);
    const created = await expectCreated(await open.answer);
    assert.equal(await exitCode(serve), 0, serve.output().stderr);

    assert.deepEqual(rows(file, 'SELECT id, status, telefono FROM orders WHERE store_id = ?', shop.storeId), [{ id: created.data.id, status: 'pending', telefono: JSON.parse(body.toString()).telefono }]);
    assert.deepEqual(rows(file, 'SELECT type FROM order_events WHERE order_id = ?', created.data.id), [{ type: 'order.created' }]);
    assert.deepEqual(rows(file, 'SELECT action, state FROM fulfillment_jobs WHERE order_id = ?', created.data.id), [{ action: 'push', state: 'queued' }]);
    const lines = logLines(serve);
    assert.ok(lines.some((l) => l.msg === 'request' && l.path === '/api/orders/create' && l.status === 200), 'the request was answered while draining');
    assert.ok(!lines.some((l) => l.msg?.toString().startsWith('shutdown grace period over')), 'nothing was cut');
  });

  test('a push in flight when SIGTERM arrives is recorded done with the platform order id before serve exits 0', async () => {
    // The platform creates the order at once and answers 1.5 s later: the push is in flight meanwhile.
    const sim = await startSimulator({ latencyMs: 1_500 });
    try {
      const { file, shop, serve } = await serveShop(['--fulfillment-url', sim.url]);
      const created = await expectCreated(await postOrder(serve.base, orderBody(shop, { telefono: nextPhone() }), liveHeaders(shop)));
      const id = created.data.id;
      await until('the platform to have created the order', () => sim.orders().some((o) => o.external_ref === id));
      assert.deepEqual(rows(file, 'SELECT state, remote_id FROM fulfillment_jobs WHERE order_id = ?', id), [{ state: 'in_flight', remote_id: null }], 'the push awaits its answer');

      await terminate(serve);
      assert.equal(await exitCode(serve), 0, serve.output().stderr);

      const platform = sim.orders().filter((o) => o.external_ref === id);
      assert.equal(platform.length, 1);
      assert.equal(platform[0]!.create_calls, 1);
      assert.deepEqual(rows(file, 'SELECT state, remote_id, unknown_outcome FROM fulfillment_jobs WHERE order_id = ?', id), [{ state: 'done', remote_id: platform[0]!.id, unknown_outcome: 0 }]);
      const pushed = rows(file, "SELECT data FROM order_events WHERE order_id = ? AND type = 'fulfillment.pushed'", id);
      assert.equal(pushed.length, 1);
      assert.equal(JSON.parse(pushed[0]!.data as string).remote_id, platform[0]!.id);
      assert.deepEqual(rows(file, 'SELECT fulfillment_status FROM orders WHERE id = ?', id), [{ fulfillment_status: 'PENDIENTE' }]);
    } finally {
      await sim.close();
    }
  });

  test('a request still unfinished when the --shutdown-grace-ms period ends is cut, nothing of it is stored, and serve exits 0', async () => {
    const { file, shop, serve } = await serveShop(['--shutdown-grace-ms', '300']);
    const body = Buffer.from(JSON.stringify(orderBody(shop, { telefono: nextPhone() })));
    const open = openOrderRequest(serve.base, shop, body);
    await open.taken;
    // The client never sends its body: only the grace period can end this request (the request timeout is 30 s).
    await terminate(serve);
    await assert.rejects(open.answer, (error: NodeJS.ErrnoException) => ['ECONNRESET', 'EPIPE'].includes(error.code ?? '') || /socket hang up/.test(error.message));
    assert.equal(await exitCode(serve), 0, serve.output().stderr);

    const cut = logLines(serve).find((l) => l.msg === 'shutdown grace period over: cutting the requests still in flight');
    assert.ok(cut, 'the cut is logged');
    assert.equal(cut.graceMs, 300);
    assert.equal(cut.cut, 1);
    assert.deepEqual(rows(file, 'SELECT count(*) AS n FROM orders WHERE store_id = ?', shop.storeId), [{ n: 0 }]);
  });
});
