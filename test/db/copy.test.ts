// `codrail db copy` (issue 28 §4; src/db/copy.ts): an installation moved from SQLite to PostgreSQL
// without losing an order, an event, a key, an image or an OAuth grant. COPY_ORDER checked against
// the migrated schema (every table once, each after what its foreign keys point to); a real SQLite
// installation — the newest upgrade fixture (orders in every push state, sealed platform
// credentials, an OAuth family, WhatsApp settings) migrated and used through the server, the CLI and
// the simulators until nearly every table holds rows — copied by the real CLI into a new PostgreSQL
// database and compared row by row, then used there with the SQLite installation's key; a second
// copy into it refused; the same place, or no --to, refused; and SQLite to a new SQLite file.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { COPY_ORDER } from '../../src/db/copy.ts';
import { openDatabase } from '../../src/db/connect.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { COPY_BATCH_ROWS } from '../../src/limits.ts';
import { isPostgresUrl, loadConfig, withListenPort, type ConfigFlags } from '../../src/config.ts';
import { migrate, openApp, type Deps } from '../../src/app.ts';
import { createLogger } from '../../src/log.ts';
import { createHttpServer } from '../../src/http/server.ts';
import { loadRoutes } from '../../src/cli/serve.command.ts';
import { recordOperatorUrls, startPushWorker, startWebhookWorker } from '../../src/use-cases/fulfillment/push-worker.use-case.ts';
import { receiveBuyerMessage } from '../../src/use-cases/orders/confirmation.use-case.ts';
import { applyStatusReport } from '../../src/whatsapp/status-reports.ts';
import { Circuits } from '../../src/outbox/circuit.ts';
import { writeTransaction } from '../../src/db/transaction.ts';
import { signWebhook } from '../../src/domain/webhook-signature.ts';
import { startSimulator } from '../../src/platforms/generic/simulator.ts';
import { startDropiSimulator, type DropiSimulator } from '../../src/platforms/dropi/simulator.ts';
import { onPostgres, tempDatabase } from '../helpers/test-database.ts';
import { runCli, spawnServe } from '../helpers/cli.ts';
import { cliFails, cliJson } from '../helpers/cli-expect.ts';
import { addStore, orderBody, postOrder, seedShop, type Shop } from '../helpers/fixtures.ts';
import { OPEN_LIMITS, liveHeaders, nextPhone } from '../api/orders/order-kit.ts';
import { obtainTokens } from '../helpers/oauth.ts';
import { photo } from '../helpers/image-host.ts';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.ts';
import { until } from '../helpers/wait.ts';
import { UPGRADE_FIXTURE as F, ordersAt } from '../helpers/upgrade-fixture.ts';

const pgOnly = onPostgres ? false : 'needs PostgreSQL (npm run test:postgres)';

/** kysely's own tables and SQLite's: every database has its own, never copied. */
const INTERNAL = /^(kysely_migration|kysely_migration_lock|sqlite_sequence)$/;
const TABLES = COPY_ORDER.map(([table]) => table);
const KEYS = new Map(COPY_ORDER.map(([table, orderBy]) => [table, orderBy]));

const FIXTURES = new URL('../../fixtures/upgrade/', import.meta.url);
/** The newest shipped level: the richest installation an operator may bring. */
const NEWEST = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.sql'))
  .map((f) => f.slice(0, -4))
  .sort()
  .at(-1)!;

/** The SQLite installation's sealing key (the fixture's secrets are sealed with it). */
const KEY = F.secretKeyBase64;
const OTHER_KEY = Buffer.alloc(32, 9).toString('base64');
const DEFAULT_TOKEN = 'default-platform-token-0042';
const DROPI_KEY = 'dropi-key-COPY-0004-cli';
const PLATFORM_WEBHOOK_SECRET = 'whsec-platform-copy';

const cleanups: (() => unknown)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A directory of this file's own (a SQLite file in either run: the source of a copy is SQLite). */
function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'codrail-copy-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A SQLite file holding the newest upgrade fixture, as that release left it (not migrated yet). */
function fixtureFile(dir: string): string {
  const file = join(dir, 'codrail.sqlite');
  const raw = new Database(file);
  raw.exec(readFileSync(new URL(`${NEWEST}.sql`, FIXTURES), 'utf8'));
  raw.close();
  return file;
}

type Row = Record<string, unknown>;

const compare = (a: unknown, b: unknown): number => {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : 1;
};

/** Rows in their table's COPY_ORDER key order, compared in JavaScript (the two databases collate text differently). */
const sortRows = (table: string, rows: Row[]): Row[] =>
  rows.sort((a, b) => {
    for (const column of KEYS.get(table)!) {
      const c = compare(a[column], b[column]);
      if (c !== 0) return c;
    }
    return 0;
  });

const INT8 = 20;
const NUMERIC = 1700;

/** Every row of every table of `where` (a SQLite file or a postgres:// URL): integers as numbers, BLOB and bytea as Buffers. */
async function readAllRows(where: string): Promise<Map<string, Row[]>> {
  const out = new Map<string, Row[]>();
  if (isPostgresUrl(where)) {
    const client = new pg.Client({ connectionString: where });
    await client.connect();
    try {
      for (const table of TABLES) {
        const result = await client.query(`SELECT * FROM "${table}"`);
        const integers = result.fields.filter((f) => f.dataTypeID === INT8 || f.dataTypeID === NUMERIC).map((f) => f.name);
        const rows = result.rows.map((row: Row) => {
          for (const column of integers) {
            if (row[column] === null) continue;
            const n = Number(row[column]);
            assert.ok(Number.isSafeInteger(n), `${table}.${column}: ${String(row[column])} is an exact integer`);
            row[column] = n;
          }
          return row;
        });
        out.set(table, sortRows(table, rows));
      }
    } finally {
      await client.end();
    }
    return out;
  }
  const db = new Database(where, { readonly: true });
  try {
    for (const table of TABLES) out.set(table, sortRows(table, db.prepare(`SELECT * FROM "${table}"`).all() as Row[]));
  } finally {
    db.close();
  }
  return out;
}

const countsOf = (rows: Map<string, Row[]>): Record<string, number> => Object.fromEntries([...rows].map(([table, list]) => [table, list.length]));

async function countRows(where: string): Promise<Record<string, number>> {
  return countsOf(await readAllRows(where));
}

/** Table by table, row by row: the first difference is reported with its table and key, not as one enormous diff. */
function assertSameRows(copied: Map<string, Row[]>, source: Map<string, Row[]>): void {
  for (const table of TABLES) {
    const theirs = source.get(table)!;
    const ours = copied.get(table)!;
    assert.equal(ours.length, theirs.length, `${table}: as many rows on both sides`);
    for (let i = 0; i < theirs.length; i++) {
      if (isDeepStrictEqual(ours[i], theirs[i])) continue;
      const key = KEYS.get(table)!.map((c) => `${c}=${String(theirs[i]![c])}`).join(', ');
      assert.deepStrictEqual(ours[i], theirs[i], `${table} row ${i} (${key}) differs after the copy`);
    }
  }
}

interface Installation {
  url: string;
  deps: Deps;
  close(): Promise<void>;
}

/**
 * codrail on `where` as `serve` runs it, in this process: migrated (bundled catalogs loaded), the
 * HTTP server on port 0, and with `workers` the operator's URLs recorded and the push and webhook
 * workers running.
 */
async function openInstallation(where: string, env: Record<string, string>, flags: ConfigFlags = {}, workers = false): Promise<Installation> {
  const config = loadConfig({ port: 0, logLevel: 'warn', ...OPEN_LIMITS, ...flags, db: where }, env);
  const app = await openApp(config, { log: createLogger('silent') });
  await migrate(app);
  const http = createHttpServer(app, await loadRoutes());
  const port = await http.listen(0, '127.0.0.1');
  const deps: Deps = { ...app, config: withListenPort(config, port, false) };
  http.useDeps(deps);
  const running: { stop(): Promise<void> }[] = [];
  if (workers) {
    await recordOperatorUrls(deps);
    running.push(startPushWorker(deps), startWebhookWorker(deps));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    deps,
    async close() {
      for (const worker of running) await worker.stop();
      await http.close();
      await app.close();
    },
  };
}

/** A live order through the public order API; its id and number. */
async function placeOrder(url: string, shop: Shop, headers: Record<string, string> = {}, key = shop.liveKey): Promise<{ id: string; order_number: number; telefono: string }> {
  const telefono = nextPhone();
  const res = await postOrder(url, orderBody(shop, { telefono }), liveHeaders({ liveKey: key }, headers));
  const text = await res.text();
  assert.equal(res.status, 200, text);
  const { data } = JSON.parse(text) as { data: { id: string; order_number: number } };
  return { id: data.id, order_number: data.order_number, telefono };
}

/** What the SQLite installation looked like, and where it went. */
interface Moved {
  file: string;
  pgUrl: string;
  shop: Shop;
  dropiStoreId: string;
  /** The orders placed on SQLite, in order. */
  orders: { id: string; order_number: number }[];
  /** `orders show` and `fulfillment connection get` (the Dropi store) as the CLI printed them on SQLite. */
  shownOnSqlite: any;
  connectionOnSqlite: any;
  /** The answer of `db copy`, and every row of both sides right after it. */
  copy: { code: number; json: any; stderr: string };
  sourceRows: Map<string, Row[]>;
  copiedRows: Map<string, Row[]>;
}

/**
 * The SQLite installation, built once for the PostgreSQL tests (each runs alone too): the fixture
 * migrated by codrail, then a new store with a landing page and keys, a webhook endpoint, a blocked
 * phone, a Dropi connection with its cities, a product image, live and sandbox orders (one with an
 * Idempotency-Key), pushes to the simulator, delivered webhooks, an OAuth grant through the consent
 * pages, a platform status report and a buyer's WhatsApp reply. Then it is copied to PostgreSQL.
 */
let moving: Promise<Moved> | undefined;
const moved = (): Promise<Moved> => (moving ??= moveInstallation());

async function moveInstallation(): Promise<Moved> {
  const dir = scratch();
  const file = fixtureFile(dir);
  const sim = await startSimulator({
    port: 0,
    tokens: [DEFAULT_TOKEN, F.ownPlatformToken],
    existing: ordersAt(NEWEST)
      .filter((o) => o.remote)
      .map((o) => ({ id: o.remote!, external_ref: o.id, token: DEFAULT_TOKEN })),
  });
  cleanups.push(() => sim.close());
  const dropi: DropiSimulator = await startDropiSimulator({ tokens: [DROPI_KEY] });
  cleanups.push(() => dropi.close());
  const receiver: Receiver = await startReceiver();
  cleanups.push(() => receiver.close());
  const cli = { env: { CODRAIL_SECRET_KEY: KEY, CODRAIL_WEBHOOKS_ALLOW_PRIVATE: '1', CODRAIL_DROPI_INTERVAL_MS: '5' } };

  const installation = await openInstallation(
    file,
    { CODRAIL_SECRET_KEY: KEY, CODRAIL_FULFILLMENT_TOKEN: DEFAULT_TOKEN, CODRAIL_FULFILLMENT_WEBHOOK_SECRET: PLATFORM_WEBHOOK_SECRET, CODRAIL_WEBHOOKS_ALLOW_PRIVATE: '1' },
    { fulfillmentUrl: sim.url, dropiUrl: dropi.url, dropiIntervalMs: 5, fulfillmentBackoffMs: 20 },
    true,
  );
  let shop: Shop;
  let dropiStoreId: string;
  const orders: { id: string; order_number: number }[] = [];
  let shownOnSqlite: any;
  let connectionOnSqlite: any;
  try {
    shop = await seedShop(installation.deps);
    dropiStoreId = (await addStore(installation.deps, shop.accountId, { name: 'Tienda Dropi', country: 'CO' })).id;
    // The seller's setup, from the CLI beside the running server.
    await cliJson(file, ['webhooks', 'add', shop.storeId, '--url', receiver.url], cli);
    await cliJson(file, ['stores', 'block', 'add', shop.storeId, 'phone', '3009998877'], cli);
    await cliJson(file, ['fulfillment', 'connection', 'set', dropiStoreId, '--platform', 'dropi', '--api-token', DROPI_KEY], cli);
    await cliJson(file, ['cities', 'import', '--from-platform', dropiStoreId], cli);
    const image = join(dir, 'faja.jpg');
    writeFileSync(image, await photo({ width: 900, height: 700, seed: 3 }));
    await cliJson(file, ['products', 'images', 'add', shop.productId, image], cli);

    // Buyers: live orders (one with an Idempotency-Key), and a sandbox one.
    const first = await placeOrder(installation.url, shop, { 'idempotency-key': 'copy-checkout-0001' });
    orders.push(first);
    for (let i = 0; i < 2; i++) orders.push(await placeOrder(installation.url, shop));
    await placeOrder(installation.url, shop, {}, shop.testKey);
    // An assistant connected through the consent pages: session, code, family, tokens, signing key.
    await obtainTokens(installation.url, { email: F.userEmail, password: F.userPassword });
    // The platform reports a status of an order it holds (a signed webhook).
    const pushed = ordersAt(NEWEST).find((o) => o.job === 'done' && o.remote && !o.cancel)!;
    const report = JSON.stringify({ event_id: 'evt-copy-0001', order_id: pushed.remote, external_ref: pushed.id, status: 'GUIA_GENERADA', tracking_number: 'GUIA-0001' });
    const hook = await fetch(`${installation.url}/api/fulfillment/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-codrail-signature': signWebhook(PLATFORM_WEBHOOK_SECRET, report, Math.floor(Date.now() / 1000)) },
      body: report,
    });
    assert.ok(hook.status < 300, `platform webhook: ${hook.status} ${await hook.text()}`);
    // A buyer writes on WhatsApp.
    await receiveBuyerMessage(installation.deps, { id: 'wamid.copy-0001', from: `57${first.telefono}`, type: 'text', text: 'Hola, ¿cuándo llega?' });
    // The Cloud API reports on a message whose send is not recorded yet (kept for it), and a
    // webhook endpoint failed once (its circuit counts it). Dropi's pace was reserved by the import.
    const at = new Date().toISOString();
    await writeTransaction(installation.deps.db, (tx) => applyStatusReport(installation.deps, tx, { wamid: 'wamid.copy-early', status: 'delivered', error: null }, at));
    await new Circuits(installation.deps.db, 'webhooks', 60_000).failed('endpoint:copy-gone');

    await until(
      'the order.created webhooks delivered',
      () => orders.every((o) => receiver.accepted().some((a) => a.eventType === 'order.created' && a.json?.data?.object?.id === o.id)),
      30_000,
    );
    shownOnSqlite = (await cliJson(file, ['orders', 'show', first.id], cli)).json;
    connectionOnSqlite = (await cliJson(file, ['fulfillment', 'connection', 'get', dropiStoreId], cli)).json;
  } finally {
    await installation.close();
  }

  const target = tempDatabase();
  cleanups.push(() => target.cleanup());
  const result = await runCli(['--json', 'db', 'copy', '--from', `sqlite:${file}`, '--to', target.file]);
  return {
    file,
    pgUrl: target.file,
    shop,
    dropiStoreId,
    orders,
    shownOnSqlite,
    connectionOnSqlite,
    copy: { code: result.code, json: result.json, stderr: result.stderr },
    sourceRows: await readAllRows(file),
    copiedRows: result.code === 0 ? await readAllRows(target.file) : new Map(),
  };
}

test('COPY_ORDER, against a SQLite database migrated to the latest, names every table once, puts each after the tables its foreign keys point to (a self-reference ordered by created_at), orders rows by a unique key, and keeps each batch under both databases\u2019 parameter limits', async () => {
  const file = join(scratch(), 'schema.sqlite');
  const opened = openDatabase(file);
  await migrateToLatest(opened.db);
  await opened.close();
  const db = new Database(file, { readonly: true });
  try {
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name).filter((n) => !INTERNAL.test(n));
    assert.deepEqual([...TABLES].sort(), [...tables].sort(), 'COPY_ORDER names exactly the tables of the schema');
    assert.equal(new Set(TABLES).size, TABLES.length, 'each table once');

    const selfReferences: string[] = [];
    COPY_ORDER.forEach(([table, orderBy], position) => {
      const columns = db.prepare(`PRAGMA table_info("${table}")`).all() as { name: string; pk: number }[];
      const names = columns.map((c) => c.name);
      for (const fk of db.prepare(`PRAGMA foreign_key_list("${table}")`).all() as { table: string; from: string }[]) {
        if (fk.table === table) {
          selfReferences.push(`${table}.${fk.from}`);
          assert.equal(orderBy[0], 'created_at', `${table}.${fk.from} points to ${table} itself: its rows go oldest first`);
          continue;
        }
        assert.ok(TABLES.indexOf(fk.table) >= 0 && TABLES.indexOf(fk.table) < position, `${table}.${fk.from} points to ${fk.table}, which COPY_ORDER must put before ${table}`);
      }
      for (const column of orderBy) assert.ok(names.includes(column), `${table} has the column ${column} it is ordered by`);
      // Rows in a stable order (paged with OFFSET): the key columns include a primary or unique key.
      const keys = [columns.filter((c) => c.pk > 0).map((c) => c.name)];
      for (const index of db.prepare(`PRAGMA index_list("${table}")`).all() as { name: string; unique: number; partial: number }[])
        if (index.unique && !index.partial) keys.push((db.prepare(`PRAGMA index_info("${index.name}")`).all() as { name: string }[]).map((c) => c.name));
      assert.ok(
        keys.some((key) => key.length > 0 && key.every((c) => orderBy.includes(c))),
        `${table} is ordered by ${orderBy.join(', ')}, which holds none of its unique keys (${JSON.stringify(keys)})`,
      );
      // One INSERT of a batch binds columns × rows values: SQLite allows 32,766, PostgreSQL 65,535.
      assert.ok(names.length * COPY_BATCH_ROWS <= 32_766, `${table}: ${names.length} columns × ${COPY_BATCH_ROWS} rows is past SQLite's 32,766 variables`);
    });
    assert.ok(selfReferences.includes('api_keys.created_by_key'), `the one known self-reference is seen: ${selfReferences.join(', ')}`);
  } finally {
    db.close();
  }
});

test('db copy from a SQLite installation with rows in every table into a new PostgreSQL database: the answer counts each table as the source holds it, every row is equal on both sides, and with the SQLite key an order shows, sealed secrets open and the next order takes the store\u2019s next number', { skip: pgOnly }, async () => {
  const m = await moved();
  assert.equal(m.copy.code, 0, `db copy failed: ${m.copy.stderr}`);

  // What the source holds: rows in every table but the few no use of this installation writes.
  const sourceCounts = countsOf(m.sourceRows);
  const empty = TABLES.filter((t) => sourceCounts[t] === 0);
  assert.deepEqual(empty, [], `the SQLite installation has rows in every table (empty: ${empty.join(', ')})`);

  // The answer: every table, zeros included, with the source's count; their sum; where; when.
  const answer = m.copy.json;
  assert.deepEqual(Object.keys(answer.tables), TABLES, 'every table, in COPY_ORDER');
  assert.deepEqual(answer.tables, sourceCounts);
  assert.equal(answer.rows, Object.values(sourceCounts).reduce((a, b) => a + b, 0));
  assert.equal(answer.from, `sqlite:${m.file}`);
  assert.equal(answer.to, m.pgUrl);
  assert.ok(!Number.isNaN(Date.parse(answer.as_of)), answer.as_of);
  assert.ok(sourceCounts.city_catalogs! > COPY_BATCH_ROWS, 'a table of several batches (the bundled city catalogs) is in the copy');

  // Every row, column by column: text, integers (as numbers) and the images' bytes.
  assertSameRows(m.copiedRows, m.sourceRows);
  assert.ok((m.copiedRows.get('image_variants')![0]!.bytes as Buffer).length > 1000, 'image bytes copied as bytes');

  const onPg = (env: Record<string, string> = { CODRAIL_SECRET_KEY: KEY }) => ({ env });
  // The order, as the SQLite installation showed it.
  const shown = (await cliJson(m.pgUrl, ['orders', 'show', m.orders[0]!.id], onPg())).json;
  assert.deepEqual(shown, m.shownOnSqlite, 'orders show prints on PostgreSQL what it printed on SQLite');
  // The fixture's store's own platform token, sealed by that release: opens with the key and the platform takes it.
  const tested = (await cliJson(m.pgUrl, ['fulfillment', 'connection', 'test', F.ownStoreId], onPg())).json;
  assert.equal(tested.ok, true, JSON.stringify(tested));
  assert.equal(tested.source, 'store');
  // Without the SQLite installation's key it does not open: the check above means something.
  const wrongKey = (await cliJson(m.pgUrl, ['fulfillment', 'connection', 'test', F.ownStoreId], onPg({ CODRAIL_SECRET_KEY: OTHER_KEY }))).json;
  assert.equal(wrongKey.ok, false, JSON.stringify(wrongKey));
  // The Dropi store's receiver path, sealed on SQLite, opens to the same URL.
  const connection = (await cliJson(m.pgUrl, ['fulfillment', 'connection', 'get', m.dropiStoreId], onPg())).json;
  assert.match(connection.webhook_url, /\/api\/fulfillment\/hooks\/[A-Za-z0-9]+$/);
  assert.deepEqual(connection, m.connectionOnSqlite);

  // A new order on PostgreSQL takes the store's next number.
  const next = m.sourceRows.get('store_order_numbers')!.find((r) => r.store_id === m.shop.storeId)!.next_order_number as number;
  const taken = m.sourceRows.get('orders')!.filter((r) => r.store_id === m.shop.storeId).map((r) => r.order_number as number);
  assert.equal(Math.max(...taken), next - 1, `the SQLite orders (${taken.join(', ')}) took every number before ${next}`);
  // `codrail serve` on the PostgreSQL database, as the operator starts it after the copy.
  const serve = await spawnServe(m.pgUrl, ['--log-level', 'warn'], 30_000, { CODRAIL_SECRET_KEY: KEY });
  try {
    const order = await placeOrder(serve.base, m.shop);
    assert.equal(order.order_number, next, 'the number after the last one taken on SQLite: none skipped, none taken twice');
  } finally {
    serve.child.kill('SIGTERM');
    await serve.exited;
  }
});

test('db copy into a PostgreSQL database that already holds an installation: refused (invalid_state, not empty) and nothing there changes', { skip: pgOnly }, async () => {
  const m = await moved();
  assert.equal(m.copy.code, 0, `the first copy failed: ${m.copy.stderr}`);
  const before = await countRows(m.pgUrl);
  const sourceBefore = await countRows(m.file);
  const refused = await cliFails(undefined, ['db', 'copy', '--from', `sqlite:${m.file}`, '--to', m.pgUrl], 1);
  assert.equal(refused.error.code, 'invalid_state');
  assert.match(refused.error.message, /not empty/);
  assert.deepEqual(await countRows(m.pgUrl), before, 'the target keeps exactly its rows');
  assert.deepEqual(await countRows(m.file), sourceBefore, 'the source too');
});

test('db copy with --from and --to naming the same database is refused and changes nothing; without --to it is a usage error; from SQLite to a new SQLite file every row is copied', async () => {
  const dir = scratch();
  const file = fixtureFile(dir);
  const installation = await openInstallation(file, { CODRAIL_SECRET_KEY: KEY });
  try {
    const shop = await seedShop(installation.deps);
    for (let i = 0; i < 2; i++) await placeOrder(installation.url, shop);
    const image = join(dir, 'faja.png');
    writeFileSync(image, await photo({ width: 640, height: 480, seed: 5, format: 'png' }));
    await cliJson(file, ['products', 'images', 'add', shop.productId, image], { env: { CODRAIL_SECRET_KEY: KEY } });
  } finally {
    await installation.close();
  }
  const source = await readAllRows(file);

  for (const [from, to] of [
    [`sqlite:${file}`, `sqlite:${file}`],
    [file, `sqlite:${file}`],
  ] as const) {
    const same = await cliFails(undefined, ['db', 'copy', '--from', from, '--to', to], 1);
    assert.equal(same.error.code, 'invalid_state');
    assert.match(same.error.message, /same database/);
  }
  // The same file spelled another way is no new, empty database either.
  const spelled = await cliFails(undefined, ['db', 'copy', '--from', `sqlite:${file}`, '--to', `sqlite:${dir}/./codrail.sqlite`], 1);
  assert.equal(spelled.error.code, 'invalid_state');
  if (onPostgres) {
    const pgDb = tempDatabase();
    cleanups.push(() => pgDb.cleanup());
    const samePg = await cliFails(undefined, ['db', 'copy', '--from', pgDb.file, '--to', pgDb.file], 1);
    assert.equal(samePg.error.code, 'invalid_state');
    assert.match(samePg.error.message, /same database/);
  }
  const missing = await cliFails(undefined, ['db', 'copy', '--from', `sqlite:${file}`], 2);
  assert.match(missing.error.message, /--to/);
  const nameless = await cliFails(undefined, ['db', 'copy', '--from', `sqlite:${file}`, '--to', 'sqlite:'], 2);
  assert.match(nameless.error.message, /--to/);
  assertSameRows(await readAllRows(file), source);

  const target = join(dir, 'copied.sqlite');
  assert.equal(existsSync(target), false);
  const result = await runCli(['--json', 'db', 'copy', '--from', `sqlite:${file}`, '--to', `sqlite:${target}`]);
  assert.equal(result.code, 0, result.stderr);
  const answer = result.json as { tables: Record<string, number>; rows: number; from: string; to: string };
  assert.deepEqual(answer.tables, countsOf(source));
  assert.equal(answer.to, `sqlite:${target}`);
  assert.ok(source.get('image_variants')!.length > 0 && source.get('city_catalogs')!.length > COPY_BATCH_ROWS, 'image bytes and a table of several batches are in the copy');
  assertSameRows(await readAllRows(target), source);
});
