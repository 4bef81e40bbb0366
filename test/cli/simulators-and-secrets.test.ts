// `codrail whatsapp sim` and `codrail fulfillment sim --accept-token` spawned for real (long-running:
// read the {url} they print with --json, call them with fetch, stop them with SIGTERM), and
// `codrail secrets rotate` over stored platform credentials (README "Secrets at rest"): the key file
// next to the database, CODRAIL_SECRET_KEY replacing it (the file kept as a previous key),
// CODRAIL_SECRET_KEY_PREVIOUS, credentials that no configured key opens, and a malformed key. Each
// rotation test seals its own credentials in a database of its own, so it passes alone.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tempDbFile } from '../helpers/server.ts';
import { seedShop } from '../helpers/fixtures.ts';
import { cliFails, cliJson, readDb, withApp } from '../helpers/cli-expect.ts';
import { runCli, spawnLong as spawnLongCli } from '../helpers/cli.ts';
import { startDropiSimulator } from '../../src/platforms/dropi/simulator.ts';
import { startSimulator, type Simulator } from '../../src/platforms/generic/simulator.ts';
import { keyId } from '../../src/domain/secret-box.ts';
import { sqliteOnly } from '../helpers/test-database.ts';

const tmp = tempDbFile();
/** Nothing from the developer's shell leaks in: no platform token, app secret or sealing key. */
const CLEAN = { CODRAIL_FULFILLMENT_TOKEN: '', CODRAIL_WHATSAPP_TOKEN: '', CODRAIL_WHATSAPP_APP_SECRET: '', CODRAIL_FULFILLMENT_WEBHOOK_SECRET: '', CODRAIL_SECRET_KEY: '', CODRAIL_SECRET_KEY_PREVIOUS: '' };

/** Spawns a long-running `codrail --json …` with nothing from the developer's shell (helpers/cli.ts). */
const spawnLong = (args: string[], env: Record<string, string> = {}) => spawnLongCli(args, { ...CLEAN, ...env });

const post = (url: string, body: unknown, token?: string) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });

after(() => tmp.cleanup());

describe('whatsapp sim', () => {
  test('whatsapp sim --port 0 --fail-rate 0 accepts a Cloud API text message, lists it at /_sim/messages, and exits 0 on SIGTERM', async () => {
    const sim = await spawnLong(['whatsapp', 'sim', '--port', '0', '--fail-rate', '0']);
    let stopped;
    try {
      assert.deepEqual(await (await fetch(`${sim.url}/_sim/messages`)).json(), []);
      const res = await post(`${sim.url}/v21.0/123/messages`, { messaging_product: 'whatsapp', to: '573001234567', type: 'text', text: { body: 'Hola Ana, tu pedido va en camino' } });
      assert.equal(res.status, 200);
      const answer = (await res.json()) as { messaging_product: string; contacts: { wa_id: string }[]; messages: { id: string }[] };
      assert.equal(answer.messaging_product, 'whatsapp');
      assert.equal(answer.contacts[0]!.wa_id, '573001234567');
      const wamid = answer.messages[0]!.id;
      assert.match(wamid, /^wamid\./);

      const refused = await post(`${sim.url}/v21.0/123/messages`, { messaging_product: 'whatsapp', to: '+57 300', type: 'text', text: { body: 'x' } });
      assert.equal(refused.status, 400);
      assert.match(((await refused.json()) as { error: { message: string } }).error.message, /to must be a phone number/);

      const listed = (await (await fetch(`${sim.url}/_sim/messages`)).json()) as Record<string, unknown>[];
      assert.equal(listed.length, 1, 'the refused message is not recorded');
      assert.deepEqual({ ...listed[0], created_at: undefined }, { id: wamid, phone_number_id: '123', to: '573001234567', type: 'text', text: 'Hola Ana, tu pedido va en camino', status: 'accepted', sent_as: 'server', created_at: undefined });
    } finally {
      stopped = await sim.stop();
    }
    assert.deepEqual([stopped.code, stopped.signal], [0, null], stopped.stderr);
    assert.ok(stopped.stdout.endsWith('\n') && !stopped.stdout.slice(0, -1).includes('\n'), `stdout is one line of JSON: ${stopped.stdout}`);
  });

  test('whatsapp sim --fail-rate 2 (exit 2 naming the option), and --webhook-url without --app-secret or CODRAIL_WHATSAPP_APP_SECRET (codrail takes no unsigned webhooks), are refused before listening', async () => {
    const [rate, webhook] = await Promise.all([
      cliFails(tmp.file, ['whatsapp', 'sim', '--port', '0', '--fail-rate', '2'], 2, { env: CLEAN }),
      cliFails(tmp.file, ['whatsapp', 'sim', '--port', '0', '--webhook-url', 'http://127.0.0.1:9/api/whatsapp/webhook'], 2, { env: CLEAN }),
    ]);
    assert.match(rate.stderr, /--fail-rate must be a number from 0 to 1/);
    assert.match(webhook.stderr, /--webhook-url needs --app-secret or CODRAIL_WHATSAPP_APP_SECRET/);
  });
});

describe('fulfillment sim --accept-token', () => {
  test('each accepted token is its own platform account, recorded by hash and last four characters; another token is 401', async () => {
    const sim = await spawnLong(['fulfillment', 'sim', '--port', '0', '--accept-token', 'tokA', '--accept-token', 'tokB']);
    let stopped;
    try {
      const order = { external_ref: 'ref-cli-1', name: 'Ana', phone: '+573001234567', state: 'Antioquia', city: 'Medellín', address: 'Calle 10 # 43-12', total_to_collect: 1000, currency: 'COP', products: [{ sku: null, name: 'Faja', pack: '1x', quantity: 1, unit_price: 1000 }] };
      const created = await post(`${sim.url}/orders`, order, 'tokA');
      assert.equal(created.status, 201);
      const { id } = (await created.json()) as { id: string };

      const listed = (await (await fetch(`${sim.url}/_sim/orders`)).json()) as { id: string; external_ref: string; credential: { hash: string; last4: string } | null }[];
      assert.equal(listed.length, 1);
      assert.deepEqual([listed[0]!.id, listed[0]!.external_ref], [id, 'ref-cli-1']);
      assert.deepEqual(listed[0]!.credential, { last4: 'tokA'.slice(-4), hash: createHash('sha256').update('tokA').digest('hex').slice(0, 16) });
      assert.ok(!JSON.stringify(listed).includes('Bearer'), 'the token itself is not recorded');

      for (const token of ['tokC', undefined]) {
        const res = await post(`${sim.url}/orders`, { ...order, external_ref: 'ref-cli-2' }, token);
        assert.equal(res.status, 401, `token ${token}`);
      }
      const theirs = await fetch(`${sim.url}/orders/${id}`, { headers: { authorization: 'Bearer tokB' } });
      assert.equal(theirs.status, 404, "tokB's account does not see tokA's order");
      const mine = await fetch(`${sim.url}/orders/${id}`, { headers: { authorization: 'Bearer tokA' } });
      assert.equal(mine.status, 200);
      assert.equal(((await (await fetch(`${sim.url}/_sim/orders`)).json()) as unknown[]).length, 1, 'refused creates create nothing');
    } finally {
      stopped = await sim.stop();
    }
    assert.deepEqual([stopped.code, stopped.signal], [0, null], stopped.stderr);
  });
});

// The key file beside a SQLite database, its rotation and damage: PostgreSQL's key is always given.
describe('secrets rotate', { skip: sqliteOnly }, () => {
  const TOKEN = 'dropi-tok-rotate-9f3e';
  const newKey = randomBytes(32);
  const unrelated = randomBytes(32);
  let platform: Simulator;
  const owns: { cleanup(): void }[] = [];
  const kidOf = (value: string) => value.split('.')[1];
  const env = (extra: Record<string, string> = {}) => ({ ...CLEAN, CODRAIL_FULFILLMENT_URL: platform.url, ...extra });

  /** A database of its own whose store's platform token `connection set` sealed with the key file it created next to it. */
  async function sealedStore() {
    const own = tempDbFile();
    owns.push(own);
    const shop = await withApp(own.file, (app) => seedShop(app));
    await cliJson(own.file, ['fulfillment', 'connection', 'set', shop.storeId, '--api-token', TOKEN], { env: env() });
    const keyFile = `${own.file}.key`;
    return {
      file: own.file,
      keyFile,
      shop,
      fileKeyId: keyId(Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'base64')),
      sealed: () => readDb(own.file, (db) => (db.prepare('SELECT token_sealed FROM fulfillment_connections WHERE store_id = ?').get(shop.storeId) as { token_sealed: string }).token_sealed),
      /** `secrets rotate` whose stdout is its report, whatever the exit code. */
      rotate: async (extra: Record<string, string> = {}) => {
        const r = await runCli(['--json', 'secrets', 'rotate'], { db: own.file, env: env(extra) });
        return { ...r, report: r.json as { key: string; key_id: string; resealed: number; already_current: number; failed: { store_id: string; error: string }[] } };
      },
    };
  }

  /** A sealed store whose token `secrets rotate` then moved to newKey given as CODRAIL_SECRET_KEY. */
  async function resealedWithNewKey() {
    const store = await sealedStore();
    const { code, stderr } = await store.rotate({ CODRAIL_SECRET_KEY: newKey.toString('base64') });
    assert.equal(code, 0, stderr);
    assert.equal(kidOf(store.sealed()), keyId(newKey));
    return store;
  }

  before(async () => {
    platform = await startSimulator({});
  });
  after(async () => {
    await platform.close();
    for (const own of owns) own.cleanup();
  });

  test('with the key that sealed them, rotate re-seals nothing: resealed 0, already_current 1', async () => {
    const store = await sealedStore();
    const before_ = store.sealed();
    assert.equal(kidOf(before_), store.fileKeyId);
    const { code, report, stderr } = await store.rotate();
    assert.equal(code, 0, stderr);
    assert.deepEqual(report, { key: store.keyFile, key_id: store.fileKeyId, resealed: 0, already_current: 1, failed: [] });
    assert.equal(store.sealed(), before_);
  });

  test('with a new CODRAIL_SECRET_KEY, the key file is kept as a previous key: rotate re-seals with the new key', async () => {
    const store = await sealedStore();
    const before_ = store.sealed();
    const { code, report, stderr } = await store.rotate({ CODRAIL_SECRET_KEY: newKey.toString('base64') });
    assert.equal(code, 0, stderr);
    assert.deepEqual(report, { key: 'CODRAIL_SECRET_KEY', key_id: keyId(newKey), resealed: 1, already_current: 0, failed: [] });
    const after_ = store.sealed();
    assert.notEqual(after_, before_);
    assert.equal(kidOf(after_), keyId(newKey));
    assert.ok(!after_.includes(TOKEN));
  });

  test('once re-sealed, the credentials work with CODRAIL_SECRET_KEY alone (no key file), and no key file is created', async () => {
    const store = await resealedWithNewKey();
    renameSync(store.keyFile, `${store.keyFile}.old`);
    const { json } = await cliJson(store.file, ['fulfillment', 'connection', 'test', store.shop.storeId], { env: env({ CODRAIL_SECRET_KEY: newKey.toString('base64') }) });
    assert.equal(json.ok, true, JSON.stringify(json));
    assert.equal(json.source, 'store');
    assert.equal(json.account.name, `Simulated account …${TOKEN.slice(-4)}`);
    assert.equal(existsSync(store.keyFile), false);
  });

  test('an unrelated CODRAIL_SECRET_KEY without the key file: rotate reports the credentials it cannot open in failed, exit 1, and keeps them', async () => {
    const store = await resealedWithNewKey();
    renameSync(store.keyFile, `${store.keyFile}.old`);
    const before_ = store.sealed();
    const { code, report, stderr } = await store.rotate({ CODRAIL_SECRET_KEY: unrelated.toString('base64') });
    assert.equal(code, 1, stderr);
    assert.deepEqual([report.key_id, report.resealed, report.already_current], [keyId(unrelated), 0, 0]);
    assert.equal(report.failed.length, 1);
    assert.equal(report.failed[0]!.store_id, store.shop.storeId);
    assert.match(report.failed[0]!.error, new RegExp(`sealed with key ${keyId(newKey)}, which is not configured`));
    assert.equal(store.sealed(), before_);
  });

  test('CODRAIL_SECRET_KEY_PREVIOUS holding the old key lets rotate move the credentials to the next key', async () => {
    // No key file: only CODRAIL_SECRET_KEY_PREVIOUS opens the credentials.
    const store = await resealedWithNewKey();
    renameSync(store.keyFile, `${store.keyFile}.old`);
    const { code, report, stderr } = await store.rotate({ CODRAIL_SECRET_KEY: unrelated.toString('base64'), CODRAIL_SECRET_KEY_PREVIOUS: newKey.toString('base64') });
    assert.equal(code, 0, stderr);
    assert.deepEqual([report.resealed, report.already_current, report.failed], [1, 0, []]);
    assert.equal(kidOf(store.sealed()), keyId(unrelated));
  });

  test('a Dropi connection’s receiver path is re-sealed with its token: once the old key is gone, the same webhook_url is shown', async () => {
    const dropiSim = await startDropiSimulator({});
    try {
      const own = tempDbFile();
      owns.push(own);
      const shop = await withApp(own.file, (app) => seedShop(app));
      const dropiEnv = (extra: Record<string, string> = {}) => ({ ...CLEAN, CODRAIL_DROPI_URL: dropiSim.url, CODRAIL_DROPI_INTERVAL_MS: '0', ...extra });
      const set = await cliJson(own.file, ['fulfillment', 'connection', 'set', shop.storeId, '--platform', 'dropi', '--api-token', TOKEN], { env: dropiEnv() });
      assert.match(set.json.webhook_url, /\/api\/fulfillment\/hooks\/[0-9A-Za-z]{32}$/);
      const r = await runCli(['--json', 'secrets', 'rotate'], { db: own.file, env: dropiEnv({ CODRAIL_SECRET_KEY: newKey.toString('base64') }) });
      assert.equal(r.code, 0, r.stderr);
      const report = r.json as { resealed: number; failed: unknown[] };
      assert.deepEqual([report.resealed, report.failed], [2, []], 'the token and the receiver path');
      renameSync(`${own.file}.key`, `${own.file}.key.old`);
      const got = await cliJson(own.file, ['fulfillment', 'connection', 'get', shop.storeId], { env: dropiEnv({ CODRAIL_SECRET_KEY: newKey.toString('base64') }) });
      assert.equal(got.json.webhook_url, set.json.webhook_url);
    } finally {
      await dropiSim.close();
    }
  });

  test('a malformed CODRAIL_SECRET_KEY or a damaged key file is a configuration failure naming it (exit 1, README: exit 2 is for argv), and nothing changes', async () => {
    const store = await sealedStore();
    const before_ = store.sealed();
    writeFileSync(store.keyFile, 'not a key\n', { mode: 0o600 });
    try {
      const [malformed, damaged] = await Promise.all([
        cliFails(store.file, ['secrets', 'rotate'], 1, { env: env({ CODRAIL_SECRET_KEY: 'short' }) }),
        cliFails(store.file, ['secrets', 'rotate'], 1, { env: env() }),
      ]);
      assert.match(malformed.stderr, /Invalid configuration: CODRAIL_SECRET_KEY must be 32 bytes in base64/);
      assert.ok(damaged.stderr.includes(`${store.keyFile} must be 32 bytes in base64`), damaged.stderr);
    } finally {
      rmSync(store.keyFile);
    }
    assert.equal(store.sealed(), before_);
  });
});
