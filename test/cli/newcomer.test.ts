// Issue 14 §1: errors and output a newcomer can act on, each item tested as a person meets it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { tempDbFile } from '../helpers/server.ts';
import { cliFails, cliJson, withApp } from '../helpers/cli-expect.ts';
import { runCli, spawnServe } from '../helpers/cli.ts';
import { openShop, orderBody, postOrder, seedShop, addStore, addProduct, type Shop } from '../helpers/fixtures.ts';
import { OPEN_LIMITS, nextPhone } from '../api/orders/order-kit.ts';
import { call, connect, buyer } from '../mcp/mcp-kit.ts';
import { until } from '../helpers/wait.ts';

const tmp = tempDbFile();
after(() => tmp.cleanup());

describe('the CLI', () => {
  let shop: Shop;
  before(async () => {
    shop = await withApp(tmp.file, (app) => seedShop(app));
  });

  test('--json failures print one JSON error document on stdout and keep the exit codes', async () => {
    const notFound = await cliFails(tmp.file, ['stores', 'get', '01900000-0000-7000-8000-000000000000'], 1);
    assert.equal(notFound.error.code, 'not_found');
    assert.deepEqual(notFound.error.details, [{ field: 'store_id', message: 'Unknown store in this account' }]);
    const usage = await cliFails(tmp.file, ['stores', 'get'], 2);
    assert.equal(usage.error.code, 'usage');
    assert.match(usage.error.message, /missing required argument/);
    const unknown = await cliFails(tmp.file, ['orders', 'list', '--bogus'], 2);
    assert.match(unknown.error.message, /unknown option '--bogus'/);
  });

  test('--help shows each default once', async () => {
    for (const args of [['fulfillment', 'list'], ['orders', 'list'], ['orders', 'search'], ['fulfillment', 'sim'], ['whatsapp', 'sim'], ['serve']]) {
      const help = await runCli([...args, '--help']);
      assert.equal(help.code, 0);
      for (const line of help.stdout.split('\n')) assert.ok((line.match(/default/g) ?? []).length <= 1, `${args.join(' ')}: ${line}`);
    }
  });

  test('lists that mix stores name the store; a review says why and what to run; a held push says what it waits for', async () => {
    const second = await withApp(tmp.file, async (app) => {
      const storeId = (await addStore(app, shop.accountId, { name: 'Relojes MX', country: 'CO', domains: ['relojes.example.com'] })).id;
      await addProduct(app, { store_id: storeId, name: 'Reloj', packs: [{ quantity: 1, price: 120000 }] });
      return storeId;
    });
    assert.ok(second, 'a second store: the list mixes stores');
    // Orders through the CLI's own database: one in review (an unknown city), one plain.
    const created = await withApp(tmp.file, async (app) => {
      const { createAccountOrder } = await import('../../src/use-cases/orders/create-account-order.use-case.ts');
      const { operatorAs } = await import('../../src/use-cases/caller.ts');
      const { parseWith } = await import('../../src/use-cases/validate.ts');
      const { CreateAccountOrderSchema } = await import('../../src/use-cases/orders/create-account-order.schema.ts');
      const as = operatorAs(shop.accountId);
      const review = await createAccountOrder(app, as, parseWith(CreateAccountOrderSchema, { store_id: shop.storeId, product_id: shop.productId, buyer: buyer({ telefono: nextPhone(), departamento: 'Atlantida', ciudad: 'Zzyzx' }), idempotency_key: 'newcomer-review' }));
      // A barrio of Bogotá given with Cundinamarca: the matcher's candidate is worth showing.
      await createAccountOrder(app, as, parseWith(CreateAccountOrderSchema, { store_id: shop.storeId, product_id: shop.productId, buyer: buyer({ telefono: nextPhone(), departamento: 'Cundinamarca', ciudad: 'Chapinero' }), idempotency_key: 'newcomer-review-barrio' }));
      return review.id as string;
    });
    const list = await runCli(['orders', 'list', '--review'], { db: tmp.file });
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /\[Tienda\]/, 'the store is named');
    assert.match(list.stdout, /needs review: the buyer's city "Zzyzx" \(Atlantida\) matched no catalog city with confidence \(No city with this name in the catalog\): fix it with orders resolve-city/);
    assert.match(list.stdout, /needs review: the buyer's city "Chapinero" \(Cundinamarca\) matched no catalog city with confidence \(A neighbourhood of a neighbouring region’s city: barrio names repeat across towns\); it may be Bogotá, D\.C\. \(Bogotá, D\.C\.\): fix it with orders resolve-city/);
    const jobs = await runCli(['fulfillment', 'list'], { db: tmp.file });
    assert.match(jobs.stdout, new RegExp(`${created}  \\[Tienda\\]  push   held`));
    assert.match(jobs.stdout, /waits for the buyer's city "Zzyzx" .*orders resolve-city/);
    const json = await cliJson(tmp.file, ['fulfillment', 'list']);
    assert.equal(json.json.jobs.find((j: { order_id: string }) => j.order_id === created).store_name, 'Tienda');
  });

  test('a replay that re-queues nothing says so', async () => {
    const replay = await runCli(['fulfillment', 'replay', '--all-dead'], { db: tmp.file });
    assert.equal(replay.code, 0);
    assert.match(replay.stdout, /^nothing re-queued: no failed or dead push is waiting/);
  });
});

describe('serve', () => {
  test('a second serve on a busy port names the port and how to pick another', async () => {
    const busy = createServer();
    await new Promise<void>((ok) => busy.listen(0, '127.0.0.1', ok));
    const port = (busy.address() as { port: number }).port;
    try {
      const result = await runCli(['serve', '--port', String(port)], { db: tmp.file });
      assert.equal(result.code, 1);
      assert.match(result.stderr, new RegExp(`Port ${port} on 127\\.0\\.0\\.1 is already in use .*--port N or PORT=N`));
      assert.doesNotMatch(result.stderr, /EADDRINUSE/);
    } finally {
      busy.close();
    }
  });

  test('the banner is for people (stderr) and stdout carries only JSON log lines', async () => {
    const served = await spawnServe(tmp.file, ['--demo']);
    try {
      await fetch(`${served.base}/healthz`);
      // The request's own log line reaches stdout after the answer (over a pipe): wait for it.
      await until('the /healthz request logged', () => /"path":"\/healthz"[^\n]*\n/.test(served.output().stdout));
      const { stdout, stderr } = served.output();
      assert.match(stderr, /codrail listening on/);
      assert.match(stderr, /place a first order/);
      const lines = stdout.split('\n').filter(Boolean);
      assert.ok(lines.length > 0);
      for (const line of lines) assert.doesNotThrow(() => JSON.parse(line), `not a JSON log line: ${line}`);
      assert.doesNotMatch(stdout, /codrail listening on http/);
    } finally {
      served.child.kill('SIGTERM');
      await served.exited;
    }
  });
});

describe('the order API and MCP', () => {
  test('a publishable key without Origin or Referer is told the Origin is missing and that servers use a secret key', async () => {
    const { server, shop } = await openShop(OPEN_LIMITS);
    try {
      const res = await postOrder(server.url, orderBody(shop, { telefono: nextPhone() }), { 'x-svc-api-key': shop.liveKey });
      assert.equal(res.status, 403);
      const body = (await res.json()) as { error: string };
      assert.match(body.error, /^Origin is missing: a publishable key works only from a web page/);
      assert.match(body.error, /server-to-server calls use a secret key/);
    } finally {
      await server.close();
    }
  });

  test('an order created through MCP with a secret key records that key as api_key_id, like REST orders', async () => {
    const { server, shop } = await openShop(OPEN_LIMITS);
    try {
      const client = await connect(server.url, shop.secretKey);
      const { value } = await call(client, 'create_order', { store_id: shop.storeId, product_id: shop.productId, buyer: buyer({ telefono: nextPhone() }), idempotency_key: 'newcomer-key-id' });
      await client.close();
      const row = await server.deps.db.selectFrom('orders').select('api_key_id').where('id', '=', value.id).executeTakeFirstOrThrow();
      const key = await server.deps.db.selectFrom('api_keys').select('id').where('type', '=', 'secret').where('store_id', '=', shop.storeId).executeTakeFirstOrThrow();
      assert.equal(row.api_key_id, key.id);
    } finally {
      await server.close();
    }
  });
});
