// The CLI commands derived from the order-life, fulfillment and WhatsApp operations (issue 12;
// src/use-cases/operations/*.operations.ts `cli`), the real CLI spawned with --json on a temp
// database: per-store platform credentials (sealed, never shown), the platform catalog and product
// links, pushes, batches and syncs against the fulfillment simulator started in this process,
// cancellation, WhatsApp messages in the outbox, --account tenancy and exit codes 1 and 2.
// Orders are created and confirmed in-process through the real use-cases. Every test that changes a
// store, its product, its orders or its messages makes its own (the factories below), so each passes alone.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { openSync } from '../helpers/sync-database.ts';
import { onPostgres, TEST_SECRET_KEY } from '../helpers/test-database.ts';
import { tempDbFile } from '../helpers/server.ts';
import { assignNumber, freshPhoneNumberId, seedShop, type Shop } from '../helpers/fixtures.ts';
import { cliFails, cliJson, readDb, withApp } from '../helpers/cli-expect.ts';
import { nextPhone } from '../api/orders/order-kit.ts';
import { buyer } from '../mcp/mcp-kit.ts';
import { startSimulator, credentialOf, type Simulator } from '../../src/platforms/generic/simulator.ts';
import { createAccountOrder } from '../../src/use-cases/orders/create-account-order.use-case.ts';
import { CreateAccountOrderSchema } from '../../src/use-cases/orders/create-account-order.schema.ts';
import { updateOrderStatus } from '../../src/use-cases/orders/order-life.use-case.ts';
import { UpdateOrderStatusInput } from '../../src/use-cases/orders/order-life.schemas.ts';
import { updateWhatsappSettings } from '../../src/use-cases/whatsapp/whatsapp-settings.use-case.ts';
import { sendWhatsappMessage } from '../../src/use-cases/whatsapp/whatsapp-messages.use-case.ts';
import { SendWhatsappMessageInput, UpdateWhatsappSettingsInput } from '../../src/use-cases/whatsapp/whatsapp.schemas.ts';
import { operatorAs } from '../../src/use-cases/caller.ts';
import { parseWith } from '../../src/use-cases/validate.ts';
import { keyId } from '../../src/domain/secret-box.ts';
import { manualClock } from '../../src/clock.ts';

const tmp = tempDbFile();
const TOKEN = 'dropi-tok-shop-a1b2';
const CREDENTIAL = credentialOf(TOKEN);
const PLATFORM_ACCOUNT = `acct_${CREDENTIAL.hash.slice(0, 8)}`;
const clock = manualClock(Date.now() - 3_600_000);

type Row = Record<string, any>;
const oneIn = (file: string, sql: string, ...params: unknown[]): Row | undefined => readDb(file, (db) => db.prepare(sql).get(...params) as Row | undefined);
const allIn = (file: string, sql: string, ...params: unknown[]): Row[] => readDb(file, (db) => db.prepare(sql).all(...params) as Row[]);
const one = (sql: string, ...params: unknown[]) => oneIn(tmp.file, sql, ...params);
const all = (sql: string, ...params: unknown[]) => allIn(tmp.file, sql, ...params);
const order = (id: string) => one('SELECT status, cancel_reason, tracking_number, fulfillment_status FROM orders WHERE id = ?', id)!;
const jobs = (id: string) => all('SELECT action, state, attempts, remote_id FROM fulfillment_jobs WHERE order_id = ? ORDER BY action DESC', id);
const events = (id: string, type: string) => all('SELECT actor, data FROM order_events WHERE order_id = ? AND type = ? ORDER BY created_at, id', id, type).map((e) => ({ actor: e.actor, data: JSON.parse(e.data) }));
const write = (statement: string, ...params: unknown[]) => {
  const db = openSync(tmp.file);
  try {
    assert.equal(db.prepare(statement).run(...params).changes, 1, statement);
  } finally {
    db.close();
  }
};

let sim: Simulator;
let env: Record<string, string>;
let noPlatform: Record<string, string>;
/** Read only: no test changes this store, its product or its orders. */
let shop: Shop;
/** Another account, with one confirmed order that no test may reach. */
let other: Shop;
let foreignOrder = '';
const ownDbs: { cleanup(): void }[] = [];

/** Creates (and confirms) orders in-process, one simulated second apart so "oldest first" is well defined. */
const place = (s: Shop, confirmed: boolean[]) =>
  withApp(
    tmp.file,
    async (app) => {
      const as = operatorAs(s.accountId);
      const made: string[] = [];
      for (const confirm of confirmed) {
        clock.advance(1000);
        const created = await createAccountOrder(app, as, parseWith(CreateAccountOrderSchema, { store_id: s.storeId, product_id: s.productId, buyer: buyer({ telefono: nextPhone() }), idempotency_key: `cli-life-${nextPhone()}` }));
        if (confirm) await updateOrderStatus(app, as, parseWith(UpdateOrderStatusInput, { order_id: created.id, status: 'confirmed' }));
        made.push(created.id);
      }
      return made;
    },
    { clock },
  );

/** A store of its own (seedShop's), without platform credentials: it pushes with the server's default (here, no token). */
const newShop = () => withApp(tmp.file, (app) => seedShop(app));

/** A database of its own with one store, for the tests that watch the key file the first saved secret creates. */
async function ownDb(): Promise<{ file: string; keyFile: string; shop: Shop }> {
  const own = tempDbFile();
  ownDbs.push(own);
  return { file: own.file, keyFile: `${own.file}.key`, shop: await withApp(own.file, (app) => seedShop(app)) };
}

/** Saves TOKEN as the store's own platform credentials (checked live against the simulator). */
const connect = (s: Shop) => cliJson(tmp.file, ['fulfillment', 'connection', 'set', s.storeId, '--api-token', TOKEN, '--account-id', PLATFORM_ACCOUNT], { env });

/** A store of its own with TOKEN saved and its product linked to the platform's DP-1001, variant DP-1001-V1. */
async function linkedShop(): Promise<Shop> {
  const s = await newShop();
  await connect(s);
  await cliJson(tmp.file, ['products', 'link', s.productId, '--fulfillment-product-id', 'DP-1001', '--fulfillment-variant-id', 'DP-1001-V1'], { env });
  return s;
}

/** A confirmed order of a linked store, pushed with the store's own token: its id and the platform's. */
async function pushedOrder(): Promise<{ shop: Shop; id: string; remote: string }> {
  const s = await linkedShop();
  const [id] = (await place(s, [true])) as [string];
  const { json } = await cliJson(tmp.file, ['orders', 'push', id], { env });
  return { shop: s, id, remote: json.remote_id };
}

/** A store of its own with three confirmed orders and then a pending one. */
async function batchShop(): Promise<{ shop: Shop; confirmed: string[]; pending: string }> {
  const s = await newShop();
  const made = await place(s, [true, true, true, false]);
  return { shop: s, confirmed: made.slice(0, 3), pending: made[3]! };
}

/** A pending order of a store of its own, then WhatsApp switched on (after the order, so none was queued for it). */
async function messagingOrder(): Promise<{ shop: Shop; id: string }> {
  const s = await newShop();
  const [id] = (await place(s, [false])) as [string];
  await withApp(tmp.file, async (app) => updateWhatsappSettings(app, operatorAs(s.accountId), parseWith(UpdateWhatsappSettingsInput, { store_id: s.storeId, enabled: true, phone_number_id: await assignNumber(app, s.accountId) })));
  return { shop: s, id };
}

/** Queues messages in-process, one simulated second apart so "newest first" is well defined: their ids. */
const queue = (s: Shop, sends: Record<string, unknown>[]) =>
  withApp(
    tmp.file,
    async (app) => {
      const made: string[] = [];
      for (const send of sends) {
        clock.advance(1000);
        made.push((await sendWhatsappMessage(app, operatorAs(s.accountId), parseWith(SendWhatsappMessageInput, send))).id);
      }
      return made;
    },
    { clock },
  );

before(async () => {
  sim = await startSimulator({});
  env = { CODRAIL_FULFILLMENT_URL: sim.url, CODRAIL_FULFILLMENT_TOKEN: '', CODRAIL_SECRET_KEY: '', CODRAIL_SECRET_KEY_PREVIOUS: '' };
  noPlatform = { ...env, CODRAIL_FULFILLMENT_URL: '' };
  ({ shop, other } = await withApp(tmp.file, async (app) => ({ shop: await seedShop(app), other: await seedShop(app) })));
  [foreignOrder] = (await place(other, [true])) as [string];
});
after(async () => {
  await sim.close();
  tmp.cleanup();
  for (const own of ownDbs) own.cleanup();
});

describe('fulfillment connection', () => {
  test('connection get of a store without credentials shows the server default, and touching no secret creates no key file', async () => {
    const own = await ownDb();
    const { json } = await cliJson(own.file, ['fulfillment', 'connection', 'get', own.shop.storeId], { env });
    assert.deepEqual(json, {
      store_id: own.shop.storeId,
      source: 'default',
      platform: new URL(sim.url).origin,
      platform_name: 'generic',
      base_url: null,
      test: false,
      credential: null,
      verified_at: null,
      last_ok_at: null,
      last_error: null,
      last_error_at: null,
      paused: null,
      webhook_url: null,
    });
    // A SQLite installation's key file (PostgreSQL's key is given, never a file made here).
    if (!onPostgres) assert.equal(existsSync(own.keyFile), false);
  });

  test('connection set with an --account-id the token does not belong to is a usage error naming account_id that saves nothing', async () => {
    const own = await ownDb();
    const r = await cliFails(own.file, ['fulfillment', 'connection', 'set', own.shop.storeId, '--api-token', TOKEN, '--account-id', 'acct_someone_else'], 2, { env });
    assert.match(r.stderr, /account_id: this token belongs to platform account acct_/);
    assert.ok(!r.stderr.includes(TOKEN), 'the token is not echoed');
    assert.equal(allIn(own.file, 'SELECT * FROM fulfillment_connections').length, 0);
    // A SQLite installation's key file (PostgreSQL's key is given, never a file made here).
    if (!onPostgres) assert.equal(existsSync(own.keyFile), false);
  });

  test('connection set checks the token live, stores it sealed with only its last four characters in clear, and creates the key file with mode 0600', async () => {
    const own = await ownDb();
    // A SQLite installation's key file (PostgreSQL's key is given, never a file made here).
    if (!onPostgres) assert.equal(existsSync(own.keyFile), false);
    const { json, result } = await cliJson(own.file, ['fulfillment', 'connection', 'set', own.shop.storeId, '--api-token', TOKEN, '--account-id', PLATFORM_ACCOUNT], { env });
    assert.equal(json.source, 'store');
    assert.deepEqual(json.credential, { masked: '••••a1b2', account_id: PLATFORM_ACCOUNT, account_name: 'Simulated account …a1b2' });
    assert.ok(json.verified_at && json.last_ok_at === json.verified_at);
    assert.ok(!result.stdout.includes(TOKEN) && !result.stderr.includes(TOKEN), 'the token is never printed');

    const row = oneIn(own.file, 'SELECT * FROM fulfillment_connections WHERE store_id = ?', own.shop.storeId)!;
    assert.equal(row.token_last4, 'a1b2');
    assert.equal(row.platform_account_id, PLATFORM_ACCOUNT);
    for (const [column, value] of Object.entries(row)) assert.ok(!String(value).includes(TOKEN), `${column} holds no clear token`);
    if (!onPostgres) assert.equal(statSync(own.keyFile).mode & 0o777, 0o600);
    // Sealed with the key file's key on SQLite, with the key given on PostgreSQL (the suite's own).
    const key = onPostgres ? Buffer.from(TEST_SECRET_KEY, 'base64') : Buffer.from(readFileSync(own.keyFile, 'utf8').trim(), 'base64');
    assert.equal(key.length, 32);
    assert.match(row.token_sealed, new RegExp(`^v1\\.${keyId(key)}\\.`), 'sealed with the installation’s key');
    for (const file of [own.file, `${own.file}-wal`].filter(existsSync)) assert.ok(!readFileSync(file).includes(TOKEN), `${file} holds no clear token`);
  });

  test('connection test calls the platform with the store’s own token and saves nothing', async () => {
    const s = await newShop();
    await connect(s);
    const before_ = one('SELECT * FROM fulfillment_connections WHERE store_id = ?', s.storeId);
    const { json } = await cliJson(tmp.file, ['fulfillment', 'connection', 'test', s.storeId], { env });
    assert.equal(json.ok, true, JSON.stringify(json));
    assert.deepEqual([json.source, json.account, json.error], ['store', { id: PLATFORM_ACCOUNT, name: 'Simulated account …a1b2' }, null]);
    assert.equal(typeof json.latency_ms, 'number');
    assert.deepEqual(one('SELECT * FROM fulfillment_connections WHERE store_id = ?', s.storeId), before_);
  });
});

describe('fulfillment products and product links', () => {
  test('fulfillment products pages the platform catalog (an array, the next cursor on stderr) and --query searches names and SKUs', async () => {
    const [first, search] = await Promise.all([
      cliJson(tmp.file, ['fulfillment', 'products', shop.storeId, '--limit', '2'], { env }),
      cliJson(tmp.file, ['fulfillment', 'products', shop.storeId, '--query', 'cep-3en1'], { env }),
    ]);
    assert.deepEqual(first.json.map((p: { id: string }) => p.id), ['DP-1001', 'DP-1002']);
    assert.deepEqual(first.json[0].variants.map((v: { id: string }) => v.id), ['DP-1001-V1', 'DP-1001-V2', 'DP-1001-V3', 'DP-1001-V4']);
    assert.deepEqual(first.json[1].variants, []);
    assert.deepEqual(search.json.map((p: { id: string; sku: string }) => [p.id, p.sku]), [['DP-1002', 'CEP-3EN1']]);
    assert.doesNotMatch(search.result.stderr, /more:/);
    const cursor = /more: add --cursor (\S+)/.exec(first.result.stderr)?.[1];
    assert.ok(cursor, first.result.stderr);
    const second = await cliJson(tmp.file, ['fulfillment', 'products', shop.storeId, '--limit', '2', '--cursor', cursor], { env });
    assert.deepEqual(second.json.map((p: { id: string }) => p.id), ['DP-1003', 'DP-1004']);
  });

  test('products link without the variant of a product that has variants is a usage error listing them, and links nothing', async () => {
    const s = await newShop();
    const r = await cliFails(tmp.file, ['products', 'link', s.productId, '--fulfillment-product-id', 'DP-1001'], 2, { env });
    assert.match(r.stderr, /fulfillment_variant_id: DP-1001 has variants: choose one of DP-1001-V1 \(S\)/);
    assert.deepEqual(one('SELECT fulfillment_product_ref, fulfillment_variant_ref FROM products WHERE id = ?', s.productId), { fulfillment_product_ref: null, fulfillment_variant_ref: null });
  });

  test('products link --fulfillment-product-id --fulfillment-variant-id stores the platform product and variant', async () => {
    const s = await newShop();
    const { json } = await cliJson(tmp.file, ['products', 'link', s.productId, '--fulfillment-product-id', 'DP-1001', '--fulfillment-variant-id', 'DP-1001-V1'], { env });
    assert.equal(json.id, s.productId);
    assert.deepEqual(one('SELECT fulfillment_product_ref, fulfillment_variant_ref, fulfillment_product_name, fulfillment_unlinked_at FROM products WHERE id = ?', s.productId), {
      fulfillment_product_ref: 'DP-1001',
      fulfillment_variant_ref: 'DP-1001-V1',
      fulfillment_product_name: 'Faja colombiana reductora',
      fulfillment_unlinked_at: null,
    });
  });
});

describe('orders push, push-confirmed and sync', () => {
  test('orders push without a platform fails with exit 1 (fulfillment_not_connected) and leaves the job queued', async () => {
    const [id] = (await place(await newShop(), [true])) as [string];
    const sent = sim.orders().length;
    const r = await cliFails(tmp.file, ['orders', 'push', id], 1, { env: noPlatform });
    assert.match(r.stderr, /No fulfillment platform is configured on this server \(CODRAIL_FULFILLMENT_URL\)/);
    assert.deepEqual(jobs(id), [{ action: 'push', state: 'queued', attempts: 0, remote_id: null }]);
    assert.equal(sim.orders().length, sent);
  });

  test('orders push sends a confirmed order once with the store’s own token and linked variant; a second push sends nothing', async () => {
    const [id] = (await place(await linkedShop(), [true])) as [string];
    const sent = sim.orders().length;
    const { json } = await cliJson(tmp.file, ['orders', 'push', id], { env });
    assert.deepEqual([json.order_id, json.pushed, json.already_pushed, json.state, json.attempts, json.last_error], [id, true, false, 'done', 1, null]);
    const [placed, ...more] = sim.orders().slice(sent);
    assert.equal(more.length, 0);
    assert.deepEqual([placed!.id, placed!.external_ref, placed!.credential], [json.remote_id, id, CREDENTIAL]);
    assert.equal(placed!.credential!.last4, 'a1b2');
    const line = (placed!.request as { products: Record<string, unknown>[] }).products[0]!;
    assert.deepEqual([line.product_id, line.variant_id, line.sku], ['DP-1001', 'DP-1001-V1', 'DP-1001']);
    assert.deepEqual(jobs(id), [{ action: 'push', state: 'done', attempts: 1, remote_id: json.remote_id }]);
    assert.equal(events(id, 'fulfillment.push_requested')[0]?.actor, 'cli');

    const again = (await cliJson(tmp.file, ['orders', 'push', id], { env })).json;
    assert.deepEqual([again.pushed, again.already_pushed, again.remote_id], [true, true, json.remote_id]);
    assert.equal(sim.orders().length, sent + 1);
  });

  test('orders sync applies the platform’s shipment status and tracking number to the pushed order', async () => {
    const { shop: s, id, remote } = await pushedOrder();
    await sim.advance(remote, 'EN_TRANSITO', 'GUIA0000777');
    const { json } = await cliJson(tmp.file, ['orders', 'sync', s.storeId], { env });
    assert.deepEqual(json, {
      store_id: s.storeId,
      checked: 1,
      changed: 1,
      orders: [{ order_id: id, order_number: json.orders[0].order_number, status: 'shipped', platform_status: 'EN_TRANSITO', tracking_number: 'GUIA0000777', error: null }],
      has_more: false,
    });
    assert.deepEqual(order(id), { status: 'shipped', cancel_reason: null, tracking_number: 'GUIA0000777', fulfillment_status: 'EN_TRANSITO' });
    assert.equal(events(id, 'order.status_changed').at(-1)?.data.to, 'shipped');
  });

  test('orders push-confirmed --dry-run lists the store’s confirmed unpushed orders oldest first and sends nothing', async () => {
    const batch = await batchShop();
    const sent = sim.orders().length;
    const { json } = await cliJson(tmp.file, ['orders', 'push-confirmed', batch.shop.storeId, '--dry-run'], { env });
    assert.equal(json.dry_run, true);
    assert.deepEqual(json.results.map((r: { order_id: string }) => r.order_id), batch.confirmed, 'the pending order is not listed');
    assert.ok(json.results.every((r: { pushed: boolean; skipped: null; state: string }) => !r.pushed && r.skipped === null && r.state === 'queued'));
    assert.equal(json.has_more, false);
    assert.equal(sim.orders().length, sent);
    for (const id of batch.confirmed) assert.deepEqual(jobs(id), [{ action: 'push', state: 'queued', attempts: 0, remote_id: null }]);
  });

  test('orders push-confirmed --max-orders 1 pushes the oldest with the server default credentials and says more wait', async () => {
    const batch = await batchShop();
    const { json } = await cliJson(tmp.file, ['orders', 'push-confirmed', batch.shop.storeId, '--max-orders', '1'], { env });
    assert.equal(json.dry_run, false);
    assert.equal(json.has_more, true);
    assert.equal(json.results.length, 1);
    assert.deepEqual([json.results[0].order_id, json.results[0].pushed, json.results[0].state], [batch.confirmed[0], true, 'done']);
    const placed = sim.orders().find((o) => o.external_ref === batch.confirmed[0])!;
    assert.equal(placed.credential, null, 'no store token and no CODRAIL_FULFILLMENT_TOKEN: the request carries none');
    assert.equal(jobs(batch.confirmed[0]!)[0]!.remote_id, placed.id);
    for (const id of [batch.confirmed[1]!, batch.confirmed[2]!, batch.pending]) assert.equal(jobs(id)[0]!.state, 'queued');
  });
});

describe('orders cancel', () => {
  test('orders cancel --reason --note cancels a never-pushed order: its push job is cancelled and nothing goes to the platform', async () => {
    const [id] = (await place(await newShop(), [false])) as [string];
    const { json } = await cliJson(tmp.file, ['orders', 'cancel', id, '--reason', 'buyer_declined', '--note', 'No contesta'], { env });
    assert.equal(json.status, 'cancelled');
    assert.deepEqual([order(id).status, order(id).cancel_reason], ['cancelled', 'buyer_declined']);
    assert.deepEqual(jobs(id), [{ action: 'push', state: 'cancelled', attempts: 0, remote_id: null }]);
    assert.deepEqual(events(id, 'order.cancelled'), [{ actor: 'cli', data: { from: 'pending', reason: 'buyer_declined', note: 'No contesta', platform_cancel: 'not_needed' } }]);
  });

  test('orders cancel of a pushed order queues one platform cancel job naming its remote id; cancelling again changes nothing', async () => {
    const [id] = (await place(await newShop(), [true])) as [string];
    assert.equal((await cliJson(tmp.file, ['orders', 'push', id], { env })).json.state, 'done');
    const remote = jobs(id)[0]!.remote_id as string;
    const { json } = await cliJson(tmp.file, ['orders', 'cancel', id, '--reason', 'duplicate'], { env });
    assert.equal(json.status, 'cancelled');
    const expected = [
      { action: 'push', state: 'done', attempts: 1, remote_id: remote },
      { action: 'cancel', state: 'queued', attempts: 0, remote_id: remote },
    ];
    assert.deepEqual(jobs(id), expected);
    assert.equal(events(id, 'order.cancelled')[0]?.data.platform_cancel, 'queued');
    const again = (await cliJson(tmp.file, ['orders', 'cancel', id, '--reason', 'fraud'], { env })).json;
    assert.equal(again.status, 'cancelled');
    assert.deepEqual(jobs(id), expected);
    assert.equal(order(id).cancel_reason, 'duplicate', 'the first reason stays');
    assert.equal(events(id, 'order.cancelled').length, 1);
  });

  test('orders cancel of a shipped order fails with exit 1, and with a reason it does not know is a usage error (exit 2) listing the reasons; nothing changes', async () => {
    const pushed = await pushedOrder();
    await sim.advance(pushed.remote, 'EN_TRANSITO', 'GUIA0000777');
    assert.equal((await cliJson(tmp.file, ['orders', 'sync', pushed.shop.storeId], { env })).json.orders[0].status, 'shipped');
    const [confirmed] = (await place(pushed.shop, [true])) as [string];
    const [shipped, unknown] = await Promise.all([
      cliFails(tmp.file, ['orders', 'cancel', pushed.id, '--reason', 'buyer_declined'], 1, { env }),
      cliFails(tmp.file, ['orders', 'cancel', confirmed, '--reason', 'changed_mind'], 2, { env }),
    ]);
    assert.match(shipped.stderr, /An order that is shipped cannot be cancelled/);
    assert.match(unknown.stderr, /reason must be one of buyer_declined, unreachable, duplicate, fraud, other/);
    assert.deepEqual([order(pushed.id).status, jobs(pushed.id).length], ['shipped', 1]);
    assert.deepEqual([order(confirmed).status, order(confirmed).cancel_reason], ['confirmed', null]);
  });
});

describe('whatsapp send, messages and cancel', () => {
  const TEXT = 'Hola {nombre}, tu pedido va para {ciudad}';

  test('whatsapp send is refused (exit 1, invalid_state) while the store has WhatsApp off; settings update switches it on', async () => {
    const s = await newShop();
    const [id] = (await place(s, [false])) as [string];
    const refused = await cliFails(tmp.file, ['whatsapp', 'send', id, '--text', 'Hola', '--idempotency-key', 'cli-wa-off1'], 1, { env });
    assert.match(refused.stderr, /WhatsApp is off/);
    assert.equal(all('SELECT id FROM whatsapp_messages WHERE order_id = ?', id).length, 0);
    // The operator assigns the number to the account first (issue 19 §4), then the store may send from it.
    const number = freshPhoneNumberId();
    const refusedNumber = await cliFails(tmp.file, ['whatsapp', 'settings', 'update', s.storeId, '--enabled', '--phone-number-id', number], 2, { env });
    assert.match(refusedNumber.stderr, /not assigned to this account/);
    const assigned = await cliJson(tmp.file, ['whatsapp', 'numbers', 'assign', number, '--account', s.accountId], { env });
    assert.deepEqual([assigned.json.phone_number_id, assigned.json.account_id, assigned.json.source], [number, s.accountId, 'operator']);
    const { json } = await cliJson(tmp.file, ['whatsapp', 'settings', 'update', s.storeId, '--enabled', '--phone-number-id', number], { env });
    assert.deepEqual([json.enabled, json.phone_number_id, json.credentials.source], [true, number, 'server']);
  });

  test('whatsapp send --text --idempotency-key queues the text filled from the order; the same key again returns the same message', async () => {
    const { shop: s, id } = await messagingOrder();
    const args = ['whatsapp', 'send', id, '--text', TEXT, '--idempotency-key', 'cli-wa-0001'];
    const { json } = await cliJson(tmp.file, args, { env });
    const textId = json.id;
    assert.deepEqual([json.order_id, json.store_id, json.type, json.template, json.text, json.status, json.event, json.replayed], [id, s.storeId, 'text', null, 'Hola Ana, tu pedido va para Medellín', 'queued', null, false]);
    assert.match(json.to, /^\+573\d{9}$/);
    const row = one('SELECT status, type, body, idempotency_key, actor FROM whatsapp_messages WHERE id = ?', textId);
    assert.deepEqual(row, { status: 'queued', type: 'text', body: 'Hola Ana, tu pedido va para Medellín', idempotency_key: 'cli-wa-0001', actor: 'cli' });

    const again = (await cliJson(tmp.file, args, { env })).json;
    assert.deepEqual([again.id, again.replayed], [textId, true]);
    assert.equal(all('SELECT id FROM whatsapp_messages WHERE order_id = ?', id).length, 1);
  });

  test('whatsapp send --template order_created queues the store’s template', async () => {
    const { id } = await messagingOrder();
    const { json } = await cliJson(tmp.file, ['whatsapp', 'send', id, '--template', 'order_created', '--idempotency-key', 'cli-wa-0002'], { env });
    const templateId = json.id;
    assert.deepEqual([json.type, json.template, json.status], ['template', 'order_created', 'queued']);
    assert.match(json.text, /^Hola Ana, recibimos tu pedido de Faja/);
    assert.equal(one('SELECT template FROM whatsapp_messages WHERE id = ?', templateId)?.template, 'order_created');
  });

  test('whatsapp messages --store-id --order-id --status prints the items newest first and the next cursor on stderr', async () => {
    const { shop: s, id } = await messagingOrder();
    const [textId, templateId] = await queue(s, [
      { order_id: id, text: TEXT, idempotency_key: 'cli-wa-list-text' },
      { order_id: id, template: 'order_created', idempotency_key: 'cli-wa-list-template' },
    ]);
    const filter = ['--store-id', s.storeId, '--order-id', id, '--status', 'queued', '--limit', '1'];
    const first = await cliJson(tmp.file, ['whatsapp', 'messages', ...filter], { env });
    assert.ok(Array.isArray(first.json));
    assert.deepEqual(first.json.map((m: { id: string }) => m.id), [templateId]);
    const cursor = /more: add --cursor (\S+)/.exec(first.result.stderr)?.[1];
    assert.ok(cursor, first.result.stderr);
    const second = await cliJson(tmp.file, ['whatsapp', 'messages', ...filter, '--cursor', cursor], { env });
    assert.deepEqual(second.json.map((m: { id: string }) => m.id), [textId]);
    assert.doesNotMatch(second.result.stderr, /more:/);
  });

  test('whatsapp cancel cancels a queued message with an event; a message already sent cannot be cancelled (exit 1)', async () => {
    const { shop: s, id } = await messagingOrder();
    const [textId, templateId] = (await queue(s, [
      { order_id: id, text: TEXT, idempotency_key: 'cli-wa-cancel-text' },
      { order_id: id, template: 'order_created', idempotency_key: 'cli-wa-cancel-template' },
    ])) as [string, string];
    const { json } = await cliJson(tmp.file, ['whatsapp', 'cancel', textId], { env });
    assert.equal(json.status, 'cancelled');
    assert.equal(one('SELECT status FROM whatsapp_messages WHERE id = ?', textId)?.status, 'cancelled');
    assert.deepEqual(events(id, 'whatsapp.cancelled'), [{ actor: 'cli', data: { message_id: textId } }]);

    write("UPDATE whatsapp_messages SET status = 'sent', wa_message_id = 'wamid.X' WHERE id = ?", templateId);
    const r = await cliFails(tmp.file, ['whatsapp', 'cancel', templateId], 1, { env });
    assert.match(r.stderr, /Only a queued message can be cancelled; this one is sent/);
    assert.equal(one('SELECT status FROM whatsapp_messages WHERE id = ?', templateId)?.status, 'sent');
  });
});

describe('--account and usage errors', () => {
  test('with --account, another account’s order and store are not found (exit 1) and nothing changes', async () => {
    const [push, set] = await Promise.all([
      cliFails(tmp.file, ['orders', 'push', foreignOrder, '--account', shop.accountId], 1, { env }),
      cliFails(tmp.file, ['fulfillment', 'connection', 'set', other.storeId, '--api-token', 'dropi-tok-other-9999', '--account', shop.accountId], 1, { env }),
    ]);
    assert.match(push.stderr, /Order not found/);
    assert.match(set.stderr, /Store not found/);
    assert.deepEqual(jobs(foreignOrder), [{ action: 'push', state: 'queued', attempts: 0, remote_id: null }]);
    assert.equal(one('SELECT count(*) AS n FROM fulfillment_connections WHERE store_id = ?', other.storeId)?.n, 0);
    assert.ok(!sim.orders().some((o) => o.external_ref === foreignOrder));
  });

  test('an order id that is not a UUID and a missing --api-token are usage errors (exit 2)', async () => {
    const [malformed, missing] = await Promise.all([
      cliFails(tmp.file, ['orders', 'push', 'order-one'], 2, { env }),
      cliFails(tmp.file, ['fulfillment', 'connection', 'set', other.storeId], 2, { env }),
    ]);
    assert.match(malformed.stderr, /order_id/);
    assert.match(missing.stderr, /--api-token/);
  });
});

describe('products unlink', () => {
  test('products unlink removes the link and records when; a push of that product’s order is then refused (exit 1) and sends nothing', async () => {
    const s = await linkedShop();
    const [afterUnlink] = (await place(s, [true])) as [string];
    const { json } = await cliJson(tmp.file, ['products', 'unlink', s.productId], { env });
    assert.equal(json.id, s.productId);
    const row = one('SELECT fulfillment_product_ref, fulfillment_variant_ref, fulfillment_product_name, fulfillment_unlinked_at FROM products WHERE id = ?', s.productId)!;
    assert.deepEqual([row.fulfillment_product_ref, row.fulfillment_variant_ref, row.fulfillment_product_name], [null, null, null]);
    assert.ok(row.fulfillment_unlinked_at);

    const sent = sim.orders().length;
    const r = await cliFails(tmp.file, ['orders', 'push', afterUnlink], 1, { env });
    assert.match(r.stderr, /was unlinked from the platform/);
    assert.equal(jobs(afterUnlink)[0]!.state, 'dead');
    assert.equal(sim.orders().length, sent);
  });
});
