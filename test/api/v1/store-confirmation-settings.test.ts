// A store's confirmation settings and risk hold (issue 25): update_store takes `confirmation`,
// `confirmation_minutes` and `risk_hold`, refuses out-of-range values on their fields, and refuses
// asking on WhatsApp while the store's WhatsApp is off. A pending order whose return risk is above
// the hold has its push held until someone confirms it; a new hold re-decides every push that has
// not started. No worker runs here, so a released push simply stays queued.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assignNumber, openShop, orderBody, postOrder, type Shop } from '../../helpers/fixtures.ts';
import type { TestServer } from '../../helpers/server.ts';
import { OPEN_LIMITS, expectCreated, jobsOf, liveHeaders, nextPhone, orderRow } from '../orders/order-kit.ts';
import { V1Client, failed, ok, storesNothing } from './v1-kit.ts';
import { manualClock } from '../../../src/clock.ts';

const STORE = '/api/v1/stores/{store_id}';
const WHATSAPP = '/api/v1/stores/{store_id}/whatsapp';
const ORDER = '/api/v1/orders/{order_id}';
const STATUS = '/api/v1/orders/{order_id}/status';
const CANCEL = '/api/v1/orders/{order_id}/cancel';

/** Noon in Bogotá: no order placed here gets the small-hours points. */
const NOON = '2026-03-10T17:00:00.000Z';

describe('a store’s confirmation settings and risk hold', () => {
  const clock = manualClock(NOON);
  let server: TestServer;
  let shop: Shop;
  let v1: V1Client;

  before(async () => {
    ({ server, shop } = await openShop(OPEN_LIMITS, { clock }));
    v1 = await V1Client.open(server, shop.secretKey);
  });
  after(() => server.close());

  const getStore = async () => ok(await v1.get(STORE, { params: { store_id: shop.storeId } }));
  const patchStore = (body: Record<string, unknown>) => v1.patch(STORE, { params: { store_id: shop.storeId }, body });
  const getOrder = async (id: string) => ok(await v1.get(ORDER, { params: { order_id: id } }));
  const jobState = async (orderId: string) => {
    const jobs = (await jobsOf(server.deps, orderId)).filter((j) => j.action === 'push');
    assert.equal(jobs.length, 1, `one push job for ${orderId}`);
    return jobs[0]!.state;
  };
  const storedHold = async () => (await server.deps.db.selectFrom('stores').select(['risk_hold']).where('id', '=', shop.storeId).executeTakeFirstOrThrow()).risk_hold;
  /** A live order from a new phone (no history, no repeats): its risk is the base plus what its own fields add. */
  const place = async (over: Record<string, unknown> = {}) => {
    clock.advance(1_000);
    return (await expectCreated(await postOrder(server.url, orderBody(shop, { telefono: nextPhone(), ...over }), liveHeaders(shop)))).data.id;
  };
  const ordinary = () => place();
  const bareAddress = () => place({ direccion: 'frente al parque' });

  test('get_store shows the defaults: no confirmation, 120 minutes, no risk hold', async () => {
    const s = await getStore();
    assert.deepEqual([s.confirmation, s.confirmation_minutes, s.risk_hold], ['off', 120, null]);
  });

  test('out-of-range values are refused on their fields and change nothing', async () => {
    const cases: [Record<string, unknown>, string[]][] = [
      [{ confirmation_minutes: 0 }, ['confirmation_minutes']],
      [{ confirmation_minutes: 10_081 }, ['confirmation_minutes']],
      [{ confirmation_minutes: 1.5 }, ['confirmation_minutes']],
      [{ confirmation_minutes: '30' }, ['confirmation_minutes']],
      [{ risk_hold: -1 }, ['risk_hold']],
      [{ risk_hold: 101 }, ['risk_hold']],
      [{ risk_hold: 20.5 }, ['risk_hold']],
      [{ risk_hold: null }, ['risk_hold']],
      [{ confirmation: 'sms' }, ['confirmation']],
      [{ confirmation: 'WHATSAPP' }, ['confirmation']],
      // A valid field alongside an invalid one is not applied either.
      [{ confirmation_minutes: 30, risk_hold: 101 }, ['risk_hold']],
      [{ confirmation_minutes: 0, risk_hold: 101 }, ['confirmation_minutes', 'risk_hold']],
    ];
    for (const [body, fields] of cases) {
      const answer = await storesNothing(server.deps, () => patchStore(body));
      const error = failed(answer, 400, fields);
      assert.ok(error.details!.every((d) => d.message.includes(d.field)), `each message names its field: ${answer.text}`);
    }
    const s = await getStore();
    assert.deepEqual([s.confirmation, s.confirmation_minutes, s.risk_hold], ['off', 120, null]);
  });

  test('the edges of each range are accepted and stored', async () => {
    assert.equal(ok(await patchStore({ confirmation_minutes: 1 })).confirmation_minutes, 1);
    assert.equal(ok(await patchStore({ confirmation_minutes: 10_080 })).confirmation_minutes, 10_080);
    assert.equal(ok(await patchStore({ risk_hold: 0 })).risk_hold, 0);
    assert.equal(await storedHold(), 0);
    const back = ok(await patchStore({ confirmation_minutes: 120, risk_hold: 100 }));
    assert.deepEqual([back.confirmation_minutes, back.risk_hold], [120, null]);
  });

  test('risk_hold 100 holds nothing and is stored as no hold (null)', async () => {
    ok(await patchStore({ risk_hold: 35 }));
    assert.equal(await storedHold(), 35);
    const updated = ok(await patchStore({ risk_hold: 100 }));
    assert.equal(updated.risk_hold, null);
    assert.equal(await storedHold(), null);
    assert.equal((await getStore()).risk_hold, null);
  });

  test('confirmation whatsapp is refused on its field while the store’s WhatsApp is off, and accepted once it is on', async () => {
    const refused = await storesNothing(server.deps, () => patchStore({ confirmation: 'whatsapp', confirmation_minutes: 30 }));
    const error = failed(refused, 400, ['confirmation']);
    assert.match(error.details![0]!.message, /WhatsApp/);
    assert.deepEqual([(await getStore()).confirmation, (await getStore()).confirmation_minutes], ['off', 120], 'the valid field alongside was not applied');

    const phoneNumberId = await assignNumber(server.deps, shop.accountId);
    ok(await v1.patch(WHATSAPP, { params: { store_id: shop.storeId }, body: { enabled: true, phone_number_id: phoneNumberId } }));
    const accepted = ok(await patchStore({ confirmation: 'whatsapp', confirmation_minutes: 30 }));
    assert.deepEqual([accepted.confirmation, accepted.confirmation_minutes], ['whatsapp', 30]);
    const stored = await server.deps.db.selectFrom('stores').select(['confirmation', 'confirmation_minutes']).where('id', '=', shop.storeId).executeTakeFirstOrThrow();
    assert.deepEqual(stored, { confirmation: 'whatsapp', confirmation_minutes: 30 });

    // While buyers are asked, WhatsApp cannot be switched off underneath (nobody would be asked any more).
    const switchedOff = await storesNothing(server.deps, () => v1.patch(WHATSAPP, { params: { store_id: shop.storeId }, body: { enabled: false } }));
    assert.match(failed(switchedOff, 400, ['enabled']).details![0]!.message, /confirmation to off first/);

    // Turning it off needs nothing; the rest of this file's orders are not asked.
    const off = ok(await patchStore({ confirmation: 'off', confirmation_minutes: 120 }));
    assert.deepEqual([off.confirmation, off.confirmation_minutes], ['off', 120]);
    ok(await v1.patch(WHATSAPP, { params: { store_id: shop.storeId }, body: { enabled: false } }));
  });

  test('with a risk hold of 20, a bare-address order’s push is held and an ordinary order’s is queued', async () => {
    assert.equal(ok(await patchStore({ risk_hold: 20 })).risk_hold, 20);
    const plain = await ordinary();
    const risky = await bareAddress();

    const p = await getOrder(plain);
    assert.deepEqual(p.risk, { score: 10, band: 'low', reasons: [] });
    assert.equal(p.risk_score, 10);
    assert.equal(p.fulfillment.state, 'queued');
    assert.equal(await jobState(plain), 'queued');

    const r = await getOrder(risky);
    assert.equal(r.risk.score, 25);
    assert.equal(r.risk_score, 25);
    assert.deepEqual(
      r.risk.reasons.map((x: { code: string; points: number }) => [x.code, x.points]),
      [['bare_address', 15]],
    );
    assert.equal(r.status, 'pending');
    assert.equal(r.needs_review, false, 'held for its risk, not for its city');
    assert.equal(r.fulfillment.state, 'held');
    assert.equal(await jobState(risky), 'held');
    assert.deepEqual(r.confirmation, { state: null, asked_at: null, next_step_at: null, confirmed_at: null, confirmed_by: null });
  });

  test('confirming a held order releases its push and records support as who confirmed', async () => {
    assert.equal(ok(await patchStore({ risk_hold: 20 })).risk_hold, 20);
    const risky = await bareAddress();
    assert.equal(await jobState(risky), 'held');
    clock.advance(60_000);
    const at = clock.now().toISOString();
    const confirmed = ok(await v1.post(STATUS, { params: { order_id: risky }, body: { status: 'confirmed', note: 'Llamada: confirma' } }));
    assert.equal(confirmed.status, 'confirmed');
    assert.equal(confirmed.confirmation.confirmed_by, 'support');
    assert.equal(confirmed.confirmation.confirmed_at, at);
    assert.equal(confirmed.fulfillment.state, 'queued');
    assert.equal(await jobState(risky), 'queued');
    const row = await orderRow(server.deps, risky);
    assert.deepEqual([row.status, row.confirmed_by, row.confirmed_at], ['confirmed', 'support', at]);
    // Support's confirmation lowers the risk, with its reason; the order stays released whatever its score.
    const seen = await getOrder(risky);
    assert.deepEqual(
      seen.risk.reasons.map((x: { code: string }) => x.code).sort(),
      ['bare_address', 'confirmed_by_support'],
    );
    assert.equal(seen.risk.score, 10 + 15 - 10);
  });

  test('a new risk hold re-decides every push that has not started, and no other', async () => {
    ok(await patchStore({ risk_hold: 100 }));
    const plain = await ordinary(); // 10
    const risky = await bareAddress(); // 25
    const confirmed = await bareAddress();
    ok(await v1.post(STATUS, { params: { order_id: confirmed }, body: { status: 'confirmed' } }));
    const cancelled = await bareAddress();
    ok(await v1.post(CANCEL, { params: { order_id: cancelled }, body: { reason: 'buyer_declined' } }));
    const states = async () => [await jobState(plain), await jobState(risky), await jobState(confirmed), await jobState(cancelled)];
    assert.deepEqual(await states(), ['queued', 'queued', 'queued', 'cancelled'], 'no hold: every live push is due');

    ok(await patchStore({ risk_hold: 20 }));
    assert.deepEqual(await states(), ['queued', 'held', 'queued', 'cancelled'], 'the risky pending order is held');

    ok(await patchStore({ risk_hold: 5 }));
    assert.deepEqual(await states(), ['held', 'held', 'queued', 'cancelled'], 'lowering it holds the ordinary order too; a confirmed one stays released');

    ok(await patchStore({ risk_hold: 25 }));
    assert.deepEqual(await states(), ['queued', 'queued', 'queued', 'cancelled'], 'a score equal to the hold is not above it');

    ok(await patchStore({ risk_hold: 24 }));
    assert.deepEqual(await states(), ['queued', 'held', 'queued', 'cancelled']);

    // Changing something else leaves the jobs as they are.
    ok(await patchStore({ name: 'Tienda renombrada' }));
    assert.deepEqual(await states(), ['queued', 'held', 'queued', 'cancelled']);

    ok(await patchStore({ risk_hold: 100 }));
    assert.deepEqual(await states(), ['queued', 'queued', 'queued', 'cancelled'], 'raising it to 100 releases every pending push');
  });

  test('a refused update leaves the jobs as they were', async () => {
    ok(await patchStore({ risk_hold: 20 }));
    const risky = await bareAddress();
    assert.equal(await jobState(risky), 'held');
    failed(await storesNothing(server.deps, () => patchStore({ risk_hold: 100, confirmation_minutes: 0 })), 400, ['confirmation_minutes']);
    failed(await storesNothing(server.deps, () => patchStore({ risk_hold: 100, push_policy: 'on_demand' })), 400, ['push_policy']);
    assert.equal(await jobState(risky), 'held');
    assert.equal(await storedHold(), 20);
  });
});
