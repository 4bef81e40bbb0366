// Issue 19 §4: a WhatsApp sender is not a credential. Account A typing store B's phone-number id must
// not make A's messages leave from B's business number. A store sends either with its own Cloud API
// credentials (the token sealed, the number proven by a live call to be one of that token's business
// account) or with the server's token from a number the operator assigned to its account; a number
// belongs to one account. Against the Cloud API simulator with two business accounts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { addProduct, addStore, assignNumber } from '../helpers/fixtures.ts';
import { nextPhone } from '../api/orders/order-kit.ts';
import { closeToolBench, expectToolError, ok, openToolBench, type ToolBench } from '../mcp/account-kit.ts';
import { buyer, connect } from '../mcp/mcp-kit.ts';
import { startWhatsappSim, type WhatsappSim } from '../../src/whatsapp/simulator.ts';
import { startWhatsappWorker } from '../../src/use-cases/fulfillment/push-worker.use-case.ts';
import { assignWhatsappNumber, unassignWhatsappNumber } from '../../src/use-cases/whatsapp/whatsapp-senders.use-case.ts';
import { runCli } from '../helpers/cli.ts';
import { until } from '../helpers/wait.ts';
import { onPostgres } from '../helpers/test-database.ts';

const SERVER_TOKEN = 'server-wide-cloud-token';
const A = { waba: '100000000000001', token: 'EAAG-business-a-token-0001', number: '200000000000001' };
const B = { waba: '100000000000002', token: 'EAAG-business-b-token-0002', number: '200000000000002' };

describe('WhatsApp senders', () => {
  let sim: WhatsappSim;
  let bench: ToolBench<never>;
  let otherClient: Client;
  before(async () => {
    sim = await startWhatsappSim({
      token: SERVER_TOKEN,
      businesses: [
        { id: A.waba, token: A.token, numbers: [A.number] },
        { id: B.waba, token: B.token, numbers: [B.number] },
      ],
    });
    bench = await openToolBench({}, { whatsappUrl: sim.url }, { CODRAIL_WHATSAPP_TOKEN: SERVER_TOKEN });
    otherClient = await connect(bench.server.url, bench.other.secretKey);
  });
  after(async () => {
    await otherClient.close();
    await closeToolBench(bench);
    await sim.close();
  });

  /** update_whatsapp_settings that must be refused with that code and field, storing nothing anywhere; its message. */
  const refused = async (client: Client, storeId: string, patch: Record<string, unknown>, code: string, field: string) =>
    (await expectToolError(bench.server.deps, client, 'update_whatsapp_settings', { store_id: storeId, ...patch }, code, field)).message;
  const stored = (storeId: string) => bench.server.deps.db.selectFrom('whatsapp_settings').selectAll().where('store_id', '=', storeId).executeTakeFirst();
  let seq = 0;
  const queueText = async (client: Client, storeId: string, productId: string) => {
    const order = await ok(client, 'create_order', { store_id: storeId, product_id: productId, buyer: buyer({ telefono: nextPhone() }), idempotency_key: `sender-${++seq}` });
    return ok(client, 'send_whatsapp_message', { order_id: order.id, text: 'Hola {nombre}', idempotency_key: `sender-msg-${seq}` });
  };
  const row = (id: string) => bench.server.deps.db.selectFrom('whatsapp_messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  async function withWorker<T>(act: () => Promise<T>): Promise<T> {
    const worker = startWhatsappWorker(bench.server.deps)!;
    try {
      return await act();
    } finally {
      await worker.stop();
    }
  }

  test("the other account's store proves business B's number with B's own token: the token is sealed and masked, the number is B's account's", async () => {
    const { other } = bench;
    const result = await ok(otherClient, 'update_whatsapp_settings', { store_id: other.storeId, enabled: true, phone_number_id: B.number, business_account_id: B.waba, access_token: B.token });
    assert.deepEqual(result.credentials, { source: 'store', business_account_id: B.waba, token: `••••${B.token.slice(-4)}`, verified_at: result.credentials.verified_at, problem: null });
    assert.ok(result.credentials.verified_at);
    assert.equal(JSON.stringify(result).includes(B.token), false, 'the token is never shown again');
    const row = await stored(other.storeId);
    assert.ok(row?.token_sealed && !row.token_sealed.includes(B.token), 'sealed at rest');
    const number = await bench.server.deps.db.selectFrom('whatsapp_numbers').selectAll().where('phone_number_id', '=', B.number).executeTakeFirstOrThrow();
    assert.deepEqual([number.account_id, number.source, number.store_id, number.business_account_id], [other.accountId, 'store', other.storeId, B.waba]);
    // The SQLite file itself (on PostgreSQL the stored row, just above, is what there is to read).
    if (!onPostgres) assert.equal(readFileSync(bench.server.dbFile).includes(Buffer.from(B.token)), false, 'no byte of the database file holds the token');
  });

  test("account A cannot send from B's number: without credentials it is not assigned to A; with A's own token the live check refuses it; nothing is stored", async () => {
    const { shop } = bench;
    await ok(otherClient, 'update_whatsapp_settings', { store_id: bench.other.storeId, enabled: true, phone_number_id: B.number, business_account_id: B.waba, access_token: B.token });
    assert.match(await refused(bench.client, shop.storeId, { enabled: true, phone_number_id: B.number }, 'invalid_input', 'phone_number_id'), /not assigned to this account/);
    assert.match(
      await refused(bench.client, shop.storeId, { enabled: true, phone_number_id: B.number, business_account_id: A.waba, access_token: A.token }, 'invalid_input', 'phone_number_id'),
      /is not a phone number of business account 100000000000001/,
    );
    assert.match(await refused(bench.client, shop.storeId, { enabled: true, phone_number_id: B.number, business_account_id: B.waba, access_token: A.token }, 'invalid_input', 'access_token'), /refused this token/);
    // Even B's real token cannot move B's number to account A: a number belongs to one account.
    assert.match(await refused(bench.client, shop.storeId, { enabled: true, phone_number_id: B.number, business_account_id: B.waba, access_token: B.token }, 'conflict', 'phone_number_id'), /belongs to another account/);
    assert.equal(sim.messages().filter((m) => m.phone_number_id === B.number && m.sent_as !== B.waba).length, 0);
  });

  test("a wrong token for the business account is refused by the live call and nothing is saved", async () => {
    const store = await ok(bench.client, 'create_store', { name: 'Tienda token', country: 'CO', currency: 'COP' });
    assert.match(await refused(bench.client, store.id, { phone_number_id: A.number, business_account_id: A.waba, access_token: 'EAAG-not-a-real-token' }, 'invalid_input', 'access_token'), /refused this token/);
    assert.equal(await stored(store.id), undefined);
  });

  test("a store's own credentials send its messages with its own token from its own number", async () => {
    const { shop } = bench;
    await ok(bench.client, 'update_whatsapp_settings', { store_id: shop.storeId, enabled: true, phone_number_id: A.number, business_account_id: A.waba, access_token: A.token });
    const message = await queueText(bench.client, shop.storeId, shop.productId);
    await withWorker(() => until('sent', async () => (await row(message.id)).status === 'sent'));
    const received = sim.messages().find((m) => m.to === message.to.slice(1));
    assert.deepEqual([received?.phone_number_id, received?.sent_as], [A.number, A.waba]);
  });

  test('the server token sends only from numbers the operator assigned to the account, and stops the moment the assignment is withdrawn', async () => {
    const deps = bench.server.deps;
    const store = await addStore(deps, bench.shop.accountId, { name: 'Tienda servidor', country: 'CO', domains: ['shop.example.com'] });
    const product = await addProduct(deps, { store_id: store.id, name: 'Reloj', packs: [{ quantity: 1, price: 120000 }] });
    const number = await assignNumber(deps, bench.shop.accountId);
    const saved = await ok(bench.client, 'update_whatsapp_settings', { store_id: store.id, enabled: true, phone_number_id: number });
    assert.equal(saved.credentials.source, 'server');
    const first = await queueText(bench.client, store.id, product.id);
    await withWorker(() => until('sent', async () => (await row(first.id)).status === 'sent'));
    assert.equal(sim.messages().find((m) => m.to === first.to.slice(1))?.sent_as, 'server');
    await unassignWhatsappNumber(deps, number);
    assert.equal((await ok(bench.client, 'get_whatsapp_settings', { store_id: store.id })).credentials.source, 'none');
    const second = await queueText(bench.client, store.id, product.id);
    await withWorker(() => until('failed', async () => (await row(second.id)).status === 'failed'));
    assert.match((await row(second.id)).last_error ?? '', /not assigned to this account/);
    assert.equal(sim.messages().filter((m) => m.to === second.to.slice(1)).length, 0, 'nothing left from the withdrawn number');
  });

  test('a number belongs to one account: the operator cannot assign it to a second one, through the use-case or the CLI', async () => {
    const deps = bench.server.deps;
    const number = await assignNumber(deps, bench.shop.accountId);
    await assert.rejects(assignWhatsappNumber(deps, { phoneNumberId: number, accountId: bench.other.accountId }), /belongs to another account/);
    const cli = await runCli(['--json', 'whatsapp', 'numbers', 'assign', number, '--account', bench.other.accountId], { db: bench.server.dbFile });
    assert.equal(cli.code, 1, cli.stderr);
    assert.equal((cli.json as { error: { code: string } }).error.code, 'conflict');
    const listed = await runCli(['--json', 'whatsapp', 'numbers', 'list', '--account', bench.shop.accountId], { db: bench.server.dbFile });
    assert.ok((listed.json as { phone_number_id: string; account_id: string }[]).some((n) => n.phone_number_id === number && n.account_id === bench.shop.accountId));
    const held = await deps.db.selectFrom('whatsapp_numbers').selectAll().where('phone_number_id', '=', number).executeTakeFirstOrThrow();
    assert.equal(held.account_id, bench.shop.accountId);
  });

  test('the tokens reach no log line', () => {
    const logs = JSON.stringify(bench.server.logs);
    for (const secret of [A.token, B.token, SERVER_TOKEN]) assert.equal(logs.includes(secret), false, secret);
  });
});

describe('WhatsApp settings edited at once', () => {
  let sim: WhatsappSim;
  let bench: ToolBench<never>;
  const simLog: string[] = [];
  before(async () => {
    // Each Graph call takes 400 ms, as a live check of a store's own number can.
    sim = await startWhatsappSim({ latencyMs: 400, log: (line) => simLog.push(line), businesses: [{ id: A.waba, token: A.token, numbers: [A.number] }] });
    bench = await openToolBench({}, { whatsappUrl: sim.url });
  });
  after(async () => {
    await closeToolBench(bench);
    await sim.close();
  });

  test('an edit saved while another waits on its live credential check is kept: the slow one reads the settings again and saves on top of it', async () => {
    const { shop, client } = bench;
    const listings = () => simLog.filter((l) => l.includes(`/${A.waba}/phone_numbers …`)).length;
    // The store's own credentials: checked live (400 ms) between the edit's read and its save.
    const slow = ok(client, 'update_whatsapp_settings', { store_id: shop.storeId, phone_number_id: A.number, business_account_id: A.waba, access_token: A.token });
    await until('the live check under way', () => listings() === 1, 5_000);
    // Meanwhile another admin writes a template and turns an event off: no live call, saved at once.
    const text = 'Hola {nombre}, recibimos tu pedido de {producto}';
    const quick = await ok(client, 'update_whatsapp_settings', { store_id: shop.storeId, templates: { order_created: text }, events: { order_shipped: false } });
    assert.equal(quick.credentials.token, null, 'saved before the slow edit');
    const settled = await slow;
    assert.equal(listings(), 2, 'the slow edit met the other one, read the settings again and checked again before saving');
    assert.deepEqual([settled.templates.order_created, settled.events.order_shipped], [text, false], 'the other edit is kept');
    assert.equal(settled.credentials.token, `••••${A.token.slice(-4)}`, 'and so is this one');
    const row = await bench.server.deps.db.selectFrom('whatsapp_settings').selectAll().where('store_id', '=', shop.storeId).executeTakeFirstOrThrow();
    assert.equal(JSON.parse(row.templates).order_created, text);
    assert.equal(JSON.parse(row.events).order_shipped, false);
    assert.equal(row.phone_number_id, A.number);
  });
});
