// codrail fulfillment list | replay | sync | sim (SPEC 7, 9), the real CLI spawned with --json on
// a temp database. Orders are created in-process through the real createOrder use-case; the
// dead and done job states belong to the outbox worker, so they are set with SQL on the file.
// `sync` talks to the simulator started in this process; `sim` is spawned and stopped with SIGTERM.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { openSync } from '../helpers/sync-database.ts';
import { tempDbFile } from '../helpers/server.ts';
import { seedShop, orderBody, type Shop } from '../helpers/fixtures.ts';
import { cliFails, cliJson, readDb, withApp } from '../helpers/cli-expect.ts';
import { BIN, cliEnv } from '../helpers/cli.ts';
import { createOrder } from '../../src/use-cases/orders/create-order.use-case.ts';
import { startSimulator, type Simulator } from '../../src/platforms/generic/simulator.ts';
import { manualClock } from '../../src/clock.ts';
import { LIST_MAX_LIMIT } from '../../src/limits.ts';

const tmp = tempDbFile();
after(() => tmp.cleanup());
const ownDbs: { cleanup(): void }[] = [];
after(() => ownDbs.forEach((own) => own.cleanup()));

const clock = manualClock(Date.now() - 600_000);
const NO_PLATFORM = { CODRAIL_FULFILLMENT_URL: '', CODRAIL_FULFILLMENT_TOKEN: '' };
const STATES = ['queued', 'held', 'in_flight', 'failed', 'dead', 'done', 'cancelled'] as const;
const zero = Object.fromEntries(STATES.map((s) => [s, 0]));

let shop: Shop;
/** Three live orders, oldest first. */
const orders: { id: string; order_number: number }[] = [];
let sim: Simulator;

async function place(telefono: string) {
  return withApp(
    tmp.file,
    async (app) => {
      clock.advance(1000);
      const { body } = await createOrder(app, { body: orderBody(shop, { telefono }), apiKey: shop.liveKey, origin: 'https://shop.example.com', ip: '203.0.113.7' }, {});
      return body.data as { id: string; order_number: number };
    },
    { clock },
  );
}

/** Runs one write on a database file, expecting it to change exactly one row. */
function writeIn(file: string, statement: string, ...params: unknown[]): void {
  const db = openSync(file);
  try {
    assert.equal(db.prepare(statement).run(...params).changes, 1, statement);
  } finally {
    db.close();
  }
}
const write = (statement: string, ...params: unknown[]) => writeIn(tmp.file, statement, ...params);

type JobRow = { state: string; attempts: number; next_attempt_at: string; lease_until: string | null; last_error: string | null; remote_id: string | null; updated_at: string };
const jobIn = (file: string, orderId: string) => readDb(file, (db) => db.prepare('SELECT * FROM fulfillment_jobs WHERE order_id = ?').get(orderId) as JobRow);
const eventsIn = (file: string, orderId: string, type: string) =>
  readDb(file, (db) => db.prepare('SELECT * FROM order_events WHERE order_id = ? AND type = ? ORDER BY created_at, id').all(orderId, type) as { actor: string; store_id: string; data: string; created_at: string }[]);
const orderRowIn = (file: string, id: string) => readDb(file, (db) => db.prepare('SELECT status, fulfillment_status FROM orders WHERE id = ?').get(id) as { status: string; fulfillment_status: string | null });
const job = (orderId: string) => jobIn(tmp.file, orderId);
const events = (orderId: string, type: string) => eventsIn(tmp.file, orderId, type);
const orderRow = (id: string) => orderRowIn(tmp.file, id);
const allJobs = () => readDb(tmp.file, (db) => db.prepare('SELECT * FROM fulfillment_jobs ORDER BY order_id').all());
const replays = () => readDb(tmp.file, (db) => (db.prepare("SELECT count(*) AS n FROM order_events WHERE type = 'fulfillment.replayed'").get() as { n: number }).n);

/** Creates the order on the simulator as a push would: its remote id. */
async function onPlatform(ref: string, phone: string): Promise<string> {
  const res = await fetch(`${sim.url}/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      external_ref: ref,
      name: 'Ana',
      surname: 'Gómez',
      phone,
      state: 'Antioquia',
      city: 'Medellín',
      address: 'Calle 10 # 43-12',
      rate_type: 'CON RECAUDO',
      total_to_collect: 1000,
      currency: 'COP',
      products: [{ sku: null, name: 'Faja', pack: '1x', quantity: 1, unit_price: 1000 }],
    }),
  });
  assert.equal(res.status, 201);
  return ((await res.json()) as { id: string }).id;
}

/**
 * A database of its own with one live order whose job is done (pushed as `remote`), for the tests
 * whose counts over every job or pushed order must see no other test's orders.
 */
async function ownPushedOrder(remote: (orderId: string) => Promise<string>): Promise<{ file: string; id: string; remote: string }> {
  const own = tempDbFile();
  ownDbs.push(own);
  const { id } = await withApp(own.file, async (app) => {
    const s = await seedShop(app);
    const { body } = await createOrder(app, { body: orderBody(s, { telefono: '3001000009' }), apiKey: s.liveKey, origin: 'https://shop.example.com', ip: '203.0.113.9' }, {});
    return body.data as { id: string };
  });
  const remoteId = await remote(id);
  writeIn(own.file, "UPDATE fulfillment_jobs SET state = 'done', remote_id = ?, attempts = 1 WHERE order_id = ?", remoteId, id);
  return { file: own.file, id, remote: remoteId };
}

before(async () => {
  shop = await withApp(tmp.file, (app) => seedShop(app), { clock });
  for (const phone of ['3001000001', '3001000002', '3001000003']) orders.push(await place(phone));
  sim = await startSimulator({ port: 0 });
});
after(() => sim.close());

describe('fulfillment list', () => {
  test('fulfillment list counts every state and lists the jobs most recently changed first', async () => {
    const { json } = await cliJson(tmp.file, ['fulfillment', 'list']);
    assert.deepEqual(json.counts, { ...zero, queued: 3 });
    assert.deepEqual(
      json.jobs.map((j: { order_id: string }) => j.order_id),
      orders.map((o) => o.id).reverse(),
    );
    const newest = json.jobs[0];
    assert.equal(newest.order_number, orders[2]!.order_number);
    assert.equal(newest.store_id, shop.storeId);
    assert.equal(newest.state, 'queued');
    assert.equal(newest.attempts, 0);
    assert.equal(newest.remote_id, null);
    assert.equal(newest.last_error, null);
    assert.equal(newest.updated_at, job(orders[2]!.id).updated_at);
  });

  test('fulfillment list --state keeps only that state while the counts still cover every state', async () => {
    write("UPDATE fulfillment_jobs SET state = 'failed', attempts = 2, last_error = 'POST /orders: HTTP 503' WHERE order_id = ?", orders[0]!.id);
    try {
      const queued = (await cliJson(tmp.file, ['fulfillment', 'list', '--state', 'queued'])).json;
      assert.deepEqual(
        queued.jobs.map((j: { order_id: string }) => j.order_id),
        [orders[2]!.id, orders[1]!.id],
      );
      assert.deepEqual(queued.counts, { ...zero, queued: 2, failed: 1 });
      const failed = (await cliJson(tmp.file, ['fulfillment', 'list', '--state', 'failed'])).json;
      assert.equal(failed.jobs.length, 1);
      assert.deepEqual([failed.jobs[0].order_id, failed.jobs[0].attempts, failed.jobs[0].last_error], [orders[0]!.id, 2, 'POST /orders: HTTP 503']);
      assert.deepEqual((await cliJson(tmp.file, ['fulfillment', 'list', '--state', 'done'])).json.jobs, []);
    } finally {
      write("UPDATE fulfillment_jobs SET state = 'queued', attempts = 0, last_error = NULL WHERE order_id = ?", orders[0]!.id);
    }
  });

  test('fulfillment list --limit caps the jobs listed, not the counts', async () => {
    const { json } = await cliJson(tmp.file, ['fulfillment', 'list', '--limit', '1']);
    assert.deepEqual(
      json.jobs.map((j: { order_id: string }) => j.order_id),
      [orders[2]!.id],
    );
    assert.equal(json.counts.queued, 3);
  });

  test('fulfillment list with an unknown --state or a bad --limit fails with exit 2', async () => {
    const r = await cliFails(tmp.file, ['fulfillment', 'list', '--state', 'pending'], 2);
    assert.match(r.stderr, /state must be one of queued, held, in_flight, failed, dead, done/);
    await cliFails(tmp.file, ['fulfillment', 'list', '--state', 'QUEUED'], 2);
    await cliFails(tmp.file, ['fulfillment', 'list', '--limit', '0'], 2);
    await cliFails(tmp.file, ['fulfillment', 'list', '--limit', 'ten'], 2);
  });
});

describe('fulfillment replay', () => {
  test('fulfillment replay --all-dead re-queues every dead job with a fresh attempt budget and records the replay', async () => {
    const dead = orders[0]!.id;
    write("UPDATE fulfillment_jobs SET state = 'dead', attempts = 7, last_error = 'POST /orders: HTTP 422 city not served', lease_until = NULL WHERE order_id = ?", dead);
    const others = [orders[1]!.id, orders[2]!.id].map(job);
    const started = new Date().toISOString();

    const { json } = await cliJson(tmp.file, ['fulfillment', 'replay', '--all-dead']);
    assert.deepEqual(json, { replayed: 1, orders: [dead] });

    const row = job(dead);
    assert.equal(row.state, 'queued');
    assert.equal(row.attempts, 0);
    assert.equal(row.lease_until, null);
    assert.ok(row.next_attempt_at >= started, 'due at once');
    assert.equal(row.next_attempt_at, row.updated_at);
    assert.equal(row.last_error, 'POST /orders: HTTP 422 city not served', 'the last error stays, so the replay looks the order up before creating it');
    assert.deepEqual([orders[1]!.id, orders[2]!.id].map(job), others, 'jobs that were not dead are untouched');

    const replayed = events(dead, 'fulfillment.replayed');
    assert.equal(replayed.length, 1);
    assert.equal(replayed[0]!.actor, 'cli');
    assert.equal(replayed[0]!.store_id, shop.storeId);
    assert.equal(replayed[0]!.created_at, row.updated_at);

    const listed = (await cliJson(tmp.file, ['fulfillment', 'list'])).json;
    assert.deepEqual(listed.counts, { ...zero, queued: 3 });
    assert.equal(listed.jobs[0].order_id, dead, 'the replayed job is now the most recently changed');
  });

  test('fulfillment replay --all-dead with no dead job re-queues nothing and records nothing', async () => {
    const before = allJobs();
    const recorded = replays();
    const { json } = await cliJson(tmp.file, ['fulfillment', 'replay', '--all-dead']);
    assert.deepEqual(json, { replayed: 0, orders: [] });
    assert.deepEqual(allJobs(), before);
    assert.equal(replays(), recorded);
  });

  test('fulfillment replay --order by number and --store re-queues that failed job only', async () => {
    const target = orders[2]!;
    write("UPDATE fulfillment_jobs SET state = 'failed', attempts = 3, last_error = 'POST /orders: HTTP 500' WHERE order_id = ?", target.id);
    write("UPDATE fulfillment_jobs SET state = 'dead', attempts = 10, last_error = 'POST /orders: HTTP 500' WHERE order_id = ?", orders[1]!.id);
    try {
      const { json } = await cliJson(tmp.file, ['fulfillment', 'replay', '--order', String(target.order_number), '--store', shop.storeId]);
      assert.deepEqual(json, { replayed: 1, orders: [target.id] });
      assert.deepEqual([job(target.id).state, job(target.id).attempts], ['queued', 0]);
      assert.equal(job(orders[1]!.id).state, 'dead', 'another dead job is left alone');
      assert.equal(events(target.id, 'fulfillment.replayed').length, 1);
    } finally {
      write("UPDATE fulfillment_jobs SET state = 'queued', attempts = 0, last_error = NULL WHERE order_id = ?", orders[1]!.id);
    }
  });

  test('fulfillment replay without --order or --all-dead, or with both, fails with exit 2 and changes nothing', async () => {
    write("UPDATE fulfillment_jobs SET state = 'dead' WHERE order_id = ?", orders[1]!.id);
    try {
      const before = allJobs();
      const neither = await cliFails(tmp.file, ['fulfillment', 'replay'], 2);
      assert.match(neither.stderr, /Give either --order ID or --all-dead/);
      const both = await cliFails(tmp.file, ['fulfillment', 'replay', '--order', orders[1]!.id, '--all-dead'], 2);
      assert.match(both.stderr, /Give either --order ID or --all-dead/);
      assert.deepEqual(allJobs(), before);
      assert.equal(events(orders[1]!.id, 'fulfillment.replayed').length, 0);
    } finally {
      write("UPDATE fulfillment_jobs SET state = 'queued' WHERE order_id = ?", orders[1]!.id);
    }
  });

  test('fulfillment replay of an unknown order fails with exit 1, and of a malformed one with exit 2', async () => {
    const byId = await cliFails(tmp.file, ['fulfillment', 'replay', '--order', '0190a0b0-0000-7000-8000-000000000000'], 1);
    assert.match(byId.stderr, /Order not found/);
    await cliFails(tmp.file, ['fulfillment', 'replay', '--order', '9999'], 1);
    await cliFails(tmp.file, ['fulfillment', 'replay', '--order', 'order-one'], 2);
  });
});

describe('fulfillment sync', () => {
  const pushed = () => orders[1]!.id;
  const platformEnv = () => ({ CODRAIL_FULFILLMENT_URL: sim.url, CODRAIL_FULFILLMENT_TOKEN: '' });

  test('fulfillment sync without a configured platform fails with exit 1', async () => {
    const r = await cliFails(tmp.file, ['fulfillment', 'sync'], 1, { env: NO_PLATFORM });
    assert.match(r.stderr, /No fulfillment platform configured \(CODRAIL_FULFILLMENT_URL\)/);
  });

  test('fulfillment sync with nothing pushed checks nothing', async () => {
    const { json } = await cliJson(tmp.file, ['fulfillment', 'sync'], { env: { CODRAIL_FULFILLMENT_URL: sim.url, CODRAIL_FULFILLMENT_TOKEN: '' } });
    assert.deepEqual(json, { checked: 0, changed: 0, errors: [] });
  });

  test("fulfillment sync applies the platform's status to a pushed order through the state machine", async () => {
    const remoteId = await onPlatform(pushed(), '+573001000002');
    write("UPDATE fulfillment_jobs SET state = 'done', remote_id = ?, attempts = 1 WHERE order_id = ?", remoteId, pushed());
    await sim.advance(remoteId, 'EN_TRANSITO');
    assert.deepEqual(orderRow(pushed()), { status: 'pending', fulfillment_status: null });

    const env = { CODRAIL_FULFILLMENT_URL: sim.url, CODRAIL_FULFILLMENT_TOKEN: '' };
    const { json } = await cliJson(tmp.file, ['fulfillment', 'sync'], { env });
    assert.deepEqual(json, { checked: 1, changed: 1, errors: [] });
    assert.deepEqual(orderRow(pushed()), { status: 'shipped', fulfillment_status: 'EN_TRANSITO' });
    const changed = events(pushed(), 'order.status_changed');
    assert.equal(changed.length, 1);
    assert.equal(changed[0]!.actor, 'sync');
    assert.deepEqual(JSON.parse(changed[0]!.data), { from: 'pending', to: 'shipped', platform_status: 'EN_TRANSITO', via: 'sync', remote_id: remoteId });
    for (const o of [orders[0]!, orders[2]!]) assert.deepEqual(orderRow(o.id), { status: 'pending', fulfillment_status: null }, 'orders not pushed are not synced');

    const again = (await cliJson(tmp.file, ['fulfillment', 'sync'], { env })).json;
    assert.deepEqual(again, { checked: 1, changed: 0, errors: [] }, 'an unchanged status changes nothing');
    assert.equal(events(pushed(), 'order.status_changed').length, 1);
  });

  test('fulfillment sync records a backwards report without moving the order, and stops checking a delivered one', async () => {
    const env = platformEnv();
    // An order the platform has in transit, already synced to shipped.
    const own = await ownPushedOrder((id) => onPlatform(id, '+573001000009'));
    await sim.advance(own.remote, 'EN_TRANSITO');
    assert.deepEqual((await cliJson(own.file, ['fulfillment', 'sync'], { env })).json, { checked: 1, changed: 1, errors: [] });
    assert.deepEqual(orderRowIn(own.file, own.id), { status: 'shipped', fulfillment_status: 'EN_TRANSITO' });

    await sim.advance(own.remote, 'GUIA_GENERADA');
    assert.deepEqual((await cliJson(own.file, ['fulfillment', 'sync'], { env })).json, { checked: 1, changed: 1, errors: [] });
    assert.deepEqual(orderRowIn(own.file, own.id), { status: 'shipped', fulfillment_status: 'GUIA_GENERADA' });
    assert.equal(eventsIn(own.file, own.id, 'order.status_refused').length, 1);

    await sim.advance(own.remote, 'ENTREGADO');
    assert.deepEqual((await cliJson(own.file, ['fulfillment', 'sync'], { env })).json, { checked: 1, changed: 1, errors: [] });
    assert.deepEqual(orderRowIn(own.file, own.id), { status: 'delivered', fulfillment_status: 'ENTREGADO' });
    assert.deepEqual((await cliJson(own.file, ['fulfillment', 'sync'], { env })).json, { checked: 0, changed: 0, errors: [] });
  });

  test('fulfillment sync reports an order the platform does not know as an error and goes on', async () => {
    const { file, id: lost } = await ownPushedOrder(async () => 'P-999999');
    const { json } = await cliJson(file, ['fulfillment', 'sync'], { env: platformEnv() });
    assert.equal(json.checked, 1);
    assert.equal(json.changed, 0);
    assert.deepEqual(json.errors, [{ order_id: lost, error: 'GET /orders/P-999999: HTTP 404 not found' }]);
    assert.deepEqual(orderRowIn(file, lost), { status: 'pending', fulfillment_status: null });
  });

  test('fulfillment replay --order of a done job re-queues nothing and records nothing', async () => {
    const own = await ownPushedOrder(async () => 'P-100001');
    const before = jobIn(own.file, own.id);
    assert.equal(before.state, 'done');
    const { json } = await cliJson(own.file, ['fulfillment', 'replay', '--order', own.id]);
    assert.deepEqual(json, { replayed: 0, orders: [] });
    assert.deepEqual(jobIn(own.file, own.id), before);
    assert.equal(eventsIn(own.file, own.id, 'fulfillment.replayed').length, 0);
  });
});

describe('fulfillment sim', () => {
  test('fulfillment sim --port 0 --json prints its URL, serves the contract, and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, [BIN, '--json', 'fulfillment', 'sim', '--port', '0'], { env: cliEnv(NO_PLATFORM), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    try {
      const line = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no URL printed within 20 s\nstderr: ${stderr}`)), 20_000);
        child.stdout.on('data', (d: Buffer) => {
          stdout += d.toString();
          if (stdout.includes('\n')) {
            clearTimeout(timer);
            resolve(stdout);
          }
        });
        child.once('exit', (code) => reject(new Error(`exited ${code} before printing\nstderr: ${stderr}`)));
      });
      const printed = JSON.parse(line) as { url: string };
      assert.deepEqual(Object.keys(printed), ['url']);
      assert.match(printed.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.notEqual(printed.url, 'http://127.0.0.1:0');

      const listed = await fetch(`${printed.url}/_sim/orders`);
      assert.equal(listed.status, 200);
      assert.deepEqual(await listed.json(), []);
      const lookup = await fetch(`${printed.url}/orders?external_ref=nothing`);
      assert.deepEqual([lookup.status, await lookup.json()], [200, { orders: [] }]);
    } finally {
      child.kill('SIGTERM');
    }
    assert.deepEqual(await exited, { code: 0, signal: null }, `stderr: ${stderr}`);
    assert.ok(stdout.endsWith('\n') && !stdout.slice(0, -1).includes('\n'), `stdout is one line of JSON: ${stdout}`);
  });

  test('fulfillment sim with a rate or port out of range fails with exit 2 before listening', async () => {
    const r = await cliFails(tmp.file, ['fulfillment', 'sim', '--port', '0', '--fail-rate', '2'], 2, { env: NO_PLATFORM });
    assert.match(r.stderr, /--fail-rate must be a number from 0 to 1/);
    await cliFails(tmp.file, ['fulfillment', 'sim', '--port', '0', '--fail-rate', 'often'], 2, { env: NO_PLATFORM });
    await cliFails(tmp.file, ['fulfillment', 'sim', '--port', '0', '--timeout-rate', '-0.1'], 2, { env: NO_PLATFORM });
    await cliFails(tmp.file, ['fulfillment', 'sim', '--port', '70000'], 2, { env: NO_PLATFORM });
  });
});

test(
  'fulfillment sim with a fractional port fails with exit 2 as a usage error',
  async () => {
    await cliFails(tmp.file, ['fulfillment', 'sim', '--port', '1.5'], 2, { env: NO_PLATFORM });
  },
);

test(
  'fulfillment sync checks every pushed, unfinished order, even with more of them than one batch',
  async () => {
    const own = tempDbFile();
    const platform = await startSimulator({ port: 0 });
    try {
      const newest = await withApp(own.file, async (app) => {
        const s = await seedShop(app);
        const { body } = await createOrder(app, { body: orderBody(s, { telefono: '3002000001' }), apiKey: s.liveKey, origin: 'https://shop.example.com', ip: '203.0.113.8' }, {});
        return body.data as { id: string };
      });
      const create = async (ref: string) => {
        const res = await fetch(`${platform.url}/orders`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ external_ref: ref, name: 'Ana', phone: '+573002000001', state: 'Antioquia', city: 'Medellín', address: 'Calle 1', total_to_collect: 1, currency: 'COP', products: [{ sku: null, name: 'Faja', pack: '1x', quantity: 1, unit_price: 1 }] }),
        });
        return ((await res.json()) as { id: string }).id;
      };
      const olderRemote = await create('older-orders');
      const newestRemote = await create(newest.id);
      await platform.advance(newestRemote, 'EN_TRANSITO');

      // LIST_MAX_LIMIT older open orders, pushed and confirmed on the platform, copied from the newest.
      const db = openSync(own.file);
      try {
        const template = db.prepare('SELECT * FROM orders WHERE id = ?').get(newest.id) as Record<string, unknown>;
        const jobTemplate = db.prepare('SELECT * FROM fulfillment_jobs WHERE order_id = ?').get(newest.id) as Record<string, unknown>;
        const columns = Object.keys(template);
        const jobColumns = Object.keys(jobTemplate);
        // A hundred rows per INSERT: in the PostgreSQL run each statement is one psql process.
        const insertRows = (table: string, cols: string[], rows: Record<string, unknown>[]) => {
          for (let i = 0; i < rows.length; i += 100) {
            const chunk = rows.slice(i, i + 100);
            const tuple = `(${cols.map(() => '?').join(', ')})`;
            db.prepare(`INSERT INTO ${table} (${cols.join(', ')}) VALUES ${chunk.map(() => tuple).join(', ')}`).run(...chunk.flatMap((r) => cols.map((c) => r[c])));
          }
        };
        const orders: Record<string, unknown>[] = [];
        const jobs: Record<string, unknown>[] = [];
        for (let i = 0; i < LIST_MAX_LIMIT; i++) {
          const id = randomUUID();
          const at = new Date(Date.UTC(2020, 0, 1) + i * 1000).toISOString();
          orders.push({ ...template, id, order_number: 10_000 + i, status: 'confirmed', fulfillment_status: 'PENDIENTE', created_at: at, updated_at: at });
          jobs.push({ ...jobTemplate, id: randomUUID(), order_id: id, state: 'done', attempts: 1, remote_id: olderRemote, created_at: at, updated_at: at });
        }
        db.transaction(() => {
          insertRows('orders', columns, orders);
          insertRows('fulfillment_jobs', jobColumns, jobs);
        })();
        assert.equal(db.prepare("UPDATE fulfillment_jobs SET state = 'done', remote_id = ?, attempts = 1 WHERE order_id = ?").run(newestRemote, newest.id).changes, 1);
      } finally {
        db.close();
      }

      const { json } = await cliJson(own.file, ['fulfillment', 'sync'], { env: { CODRAIL_FULFILLMENT_URL: platform.url, CODRAIL_FULFILLMENT_TOKEN: '' } });
      assert.equal(json.errors.length, 0);
      assert.equal(json.checked, LIST_MAX_LIMIT + 1);
      const row = readDb(own.file, (d) => d.prepare('SELECT status, fulfillment_status FROM orders WHERE id = ?').get(newest.id));
      assert.deepEqual(row, { status: 'shipped', fulfillment_status: 'EN_TRANSITO' });
    } finally {
      await platform.close();
      own.cleanup();
    }
  },
);
