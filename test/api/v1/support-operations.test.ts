// Support's account operations over /api/v1 (REST and CLI, not MCP tools): resolve_order_city fixes a
// flagged order's city and releases its held push, list_push_jobs shows the outbox, replay_pushes
// makes failed or dead pushes due again; get_order says why a city is held and where it may be.
// Each resolves everything inside the caller's account: another account's orders, jobs and stores
// are never seen, counted or touched. No push worker runs here, so a job stays in the state a test
// leaves it; a dead job is set in the database, as the worker would after its last attempt.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openShop, orderBody, postOrder, seedShop, type Shop } from '../../helpers/fixtures.ts';
import type { TestServer } from '../../helpers/server.ts';
import { OPEN_LIMITS, eventsOf, expectCreated, jobsOf, liveHeaders, nextPhone, orderRow } from '../orders/order-kit.ts';
import { V1Client, failed, ok, sameNotFound, storesNothing } from './v1-kit.ts';

const ORDER = '/api/v1/orders/{order_id}';
const CITY = '/api/v1/orders/{order_id}/city';
const JOBS = '/api/v1/fulfillment/jobs';
const REPLAY = '/api/v1/fulfillment/replay';

describe('support operations inside the caller’s account', () => {
  let server: TestServer;
  let shop: Shop;
  let foreign: Shop;
  let v1: V1Client;
  /** This account's orders: 1001 an unknown city, 1002 a city two regions have, 1003 a plain one. */
  const mine = { unknown: '', ambiguous: '', plain: '' };
  /** The other account's orders 1001 to 1004 (1004: a number this account does not have). */
  const theirs: string[] = [];

  const place = async (s: Shop, over: Record<string, unknown> = {}) =>
    (await expectCreated(await postOrder(server.url, orderBody(s, { telefono: nextPhone(), ...over }), liveHeaders(s)))).data;

  /** The jobs of an account's orders, as stored. */
  const accountJobs = (accountId: string) =>
    server.deps.db
      .selectFrom('fulfillment_jobs as j')
      .innerJoin('orders as o', 'o.id', 'j.order_id')
      .innerJoin('stores as s', 's.id', 'o.store_id')
      .select(['j.id', 'j.order_id', 'j.state'])
      .where('s.account_id', '=', accountId)
      .execute();

  const jobState = async (orderId: string) => (await jobsOf(server.deps, orderId)).map((j) => j.state);
  const kill = (orderId: string) =>
    server.deps.db.updateTable('fulfillment_jobs').set({ state: 'dead', attempts: 8, last_error: 'POST /orders: 500 (test)' }).where('order_id', '=', orderId).execute();

  before(async () => {
    ({ server, shop } = await openShop(OPEN_LIMITS));
    v1 = await V1Client.open(server, shop.secretKey);
    mine.unknown = (await place(shop, { departamento: 'Antioquia', ciudad: 'Zzyzx' })).id;
    mine.ambiguous = (await place(shop, { departamento: 'Colombia', ciudad: 'Armenia' })).id;
    mine.plain = (await place(shop)).id;
    foreign = await seedShop(server.deps);
    for (let i = 0; i < 4; i++) theirs.push((await place(foreign, i === 0 ? { departamento: 'Antioquia', ciudad: 'Zzyzx' } : {})).id);
  });
  after(() => server.close());

  test('resolve_order_city by order number sets the catalog spelling and code, records the event and queues the held push', async () => {
    assert.deepEqual(await jobState(mine.unknown), ['held']);
    const data = ok(await v1.post(CITY, { params: { order_id: '1001' }, body: { region: 'antioquia', city: 'medellin' } }));
    assert.equal(data.id, mine.unknown);
    assert.deepEqual([data.departamento, data.ciudad, data.city_code, data.needs_review, data.city_review], ['Antioquia', 'Medellín', '05001', false, null]);
    assert.ok(data.events.some((e: { type: string }) => e.type === 'order.city_resolved'));
    assert.equal(data.fulfillment.state, 'queued');

    const row = await orderRow(server.deps, mine.unknown);
    assert.deepEqual(
      [row.departamento, row.ciudad, row.city_code, row.city_match, row.needs_review, row.departamento_input, row.ciudad_input],
      ['Antioquia', 'Medellín', '05001', 'manual', 0, 'Antioquia', 'Zzyzx'],
    );
    const event = (await eventsOf(server.deps, mine.unknown)).find((e) => e.type === 'order.city_resolved');
    assert.ok(event, 'an order.city_resolved event is stored');
    assert.match(event.actor, /^key:/);
    assert.deepEqual(JSON.parse(event.data).to, { departamento: 'Antioquia', ciudad: 'Medellín', city_code: '05001' });
    assert.equal(JSON.parse(event.data).released, true);
    const [job] = await jobsOf(server.deps, mine.unknown);
    assert.equal(job!.state, 'queued');
    assert.equal(job!.next_attempt_at, job!.updated_at, 'the push is due from the moment it is released');
  });

  test('resolve_order_city with a city that is not in the region answers 400 on city, suggests the close one and stores nothing', async () => {
    const answer = await storesNothing(server.deps, () => v1.post(CITY, { params: { order_id: mine.ambiguous }, body: { region: 'Antioquia', city: 'Medelin' } }));
    const refused = failed(answer, 400, ['city']);
    assert.match(refused.error, /No city "Medelin" in region "Antioquia"/);
    assert.match(refused.error, /did you mean "Medellín" in "Antioquia"/);
    assert.equal((await orderRow(server.deps, mine.ambiguous)).needs_review, 1);
    assert.deepEqual(await jobState(mine.ambiguous), ['held']);
  });

  test('get_order of a flagged order shows city_review with the reason and the catalog candidates, and of a matched one null', async () => {
    const data = ok(await v1.get(ORDER, { params: { order_id: mine.ambiguous } }));
    assert.equal(data.needs_review, true);
    assert.match(data.city_review.reason, /Several regions have a city with this name/);
    assert.deepEqual(
      data.city_review.candidates.map((c: { region: string; city: string }) => `${c.city} / ${c.region}`).sort(),
      ['Armenia / Antioquia', 'Armenia / Quindío'],
    );
    const unknown = ok(await v1.get(ORDER, { params: { order_id: theirs[0]! }, key: foreign.secretKey }));
    assert.ok(unknown.city_review.reason, 'the matcher says why');
    assert.deepEqual(unknown.city_review.candidates, [], 'a city nobody has gives a reason and no candidates');
    assert.equal(ok(await v1.get(ORDER, { params: { order_id: mine.plain } })).city_review, null);
  });

  test('get_order after update_order_buyer gave an unsure city shows that city’s reason and candidates, not the first city’s', async () => {
    const as = v1.as(foreign.secretKey);
    const updated = ok(await as.patch(`${ORDER}/buyer`, { params: { order_id: theirs[3]! }, body: { departamento: 'Colombia', ciudad: 'Armenia' } }));
    assert.equal(updated.needs_review, true);
    const data = ok(await as.get(ORDER, { params: { order_id: theirs[3]! } }));
    assert.match(data.city_review.reason, /Several regions have a city with this name/);
    assert.deepEqual(
      data.city_review.candidates.map((c: { region: string; city: string }) => `${c.city} / ${c.region}`).sort(),
      ['Armenia / Antioquia', 'Armenia / Quindío'],
    );
  });

  test('resolve_order_city of another account’s order, by id or number, is the 404 of an unknown one and changes nothing', async () => {
    const body = { region: 'Antioquia', city: 'Medellín' };
    await sameNotFound(server.deps, (id) => v1.post(CITY, { params: { order_id: id }, body }), theirs[0]!, 'order_id');
    failed(await storesNothing(server.deps, () => v1.post(CITY, { params: { order_id: '1004' }, body })), 404, ['order_id']);
    assert.equal((await orderRow(server.deps, theirs[0]!)).needs_review, 1);
    assert.deepEqual(await jobState(theirs[0]!), ['held']);
  });

  test('replay_pushes of another account’s order, by id or number, is the 404 of an unknown one and replays nothing', async () => {
    await kill(theirs[1]!);
    await sameNotFound(server.deps, (id) => v1.post(REPLAY, { body: { order_id: id } }), theirs[1]!, 'order_id');
    failed(await storesNothing(server.deps, () => v1.post(REPLAY, { body: { order_id: '1004' } })), 404, ['order_id']);
    assert.deepEqual(await jobState(theirs[1]!), ['dead']);
  });

  test('list_push_jobs lists and counts only the caller’s account’s jobs, and another account’s store is a 404', async () => {
    const stored = await accountJobs(shop.accountId);
    assert.ok((await accountJobs(foreign.accountId)).length > 0, 'the other account has jobs to leave out');
    const data = ok(await v1.get(JOBS));
    assert.deepEqual(data.jobs.map((j: { order_id: string }) => j.order_id).sort(), stored.map((j) => j.order_id).sort());
    assert.ok(data.jobs.every((j: { store_id: string }) => j.store_id === shop.storeId));
    const expected: Record<string, number> = {};
    for (const j of stored) expected[j.state] = (expected[j.state] ?? 0) + 1;
    assert.deepEqual(Object.fromEntries(Object.entries(data.counts).filter(([, n]) => n !== 0)), expected);
    const pending = stored.filter((j) => ['queued', 'failed', 'in_flight'].includes(j.state)).length;
    assert.equal(data.backlog.pending, pending);
    assert.deepEqual(ok(await v1.get(JOBS, { query: { store_id: shop.storeId } })).counts, data.counts);
    await sameNotFound(server.deps, (id) => v1.get(JOBS, { query: { store_id: id } }), foreign.storeId, 'store_id');
  });

  test('replay_pushes with all_dead re-queues this account’s dead pushes with a fresh budget, and another account’s stay dead', async () => {
    await kill(mine.plain);
    await kill(theirs[1]!);
    await kill(theirs[2]!);
    const data = ok(await v1.post(REPLAY, { body: { all_dead: true } }));
    assert.deepEqual(data, { replayed: 1, orders: [mine.plain] });
    const [job] = await jobsOf(server.deps, mine.plain);
    assert.deepEqual([job!.state, job!.attempts, job!.lease_until], ['queued', 0, null]);
    assert.equal(job!.next_attempt_at, job!.updated_at);
    const replayed = (await eventsOf(server.deps, mine.plain)).filter((e) => e.type === 'fulfillment.replayed');
    assert.equal(replayed.length, 1);
    assert.match(replayed[0]!.actor, /^key:/);
    assert.deepEqual([await jobState(theirs[1]!), await jobState(theirs[2]!)], [['dead'], ['dead']]);
    assert.equal((await eventsOf(server.deps, theirs[2]!)).filter((e) => e.type === 'fulfillment.replayed').length, 0);
  });

  test('replay_pushes needs exactly one of order_id and all_dead, and replays nothing for an order with no failed or dead push', async () => {
    for (const body of [{}, { order_id: mine.plain, all_dead: true }]) failed(await storesNothing(server.deps, () => v1.post(REPLAY, { body })), 400, ['order_id']);
    assert.deepEqual(await jobState(mine.ambiguous), ['held']);
    const none = await storesNothing(server.deps, () => v1.post(REPLAY, { body: { order_id: '1002' } }));
    assert.deepEqual(ok(none), { replayed: 0, orders: [] });
  });

  test('list_push_jobs with a state lists exactly the account’s jobs in that state, and an unknown state is a 400 on state', async () => {
    // Run alone or after the others: a dead push, a queued one (a new order) and the held Armenia one.
    await kill(mine.plain);
    await place(shop);
    const stored = await accountJobs(shop.accountId);
    for (const state of ['held', 'queued', 'dead', 'done']) {
      const data = ok(await v1.get(JOBS, { query: { state } }));
      assert.ok(data.jobs.every((j: { state: string }) => j.state === state), state);
      const expected = stored.filter((j) => j.state === state).map((j) => j.order_id).sort();
      assert.deepEqual(data.jobs.map((j: { order_id: string }) => j.order_id).sort(), expected, state);
      assert.equal(data.counts[state], expected.length, state);
    }
    assert.ok(['held', 'queued', 'dead'].every((s) => stored.some((j) => j.state === s)), 'the account has jobs in each listed state');
    const held = ok(await v1.get(JOBS, { query: { state: 'held' } })).jobs as { order_id: string; waiting_for: string }[];
    assert.match(held.find((j) => j.order_id === mine.ambiguous)!.waiting_for, /Armenia/);
    failed(await v1.get(JOBS, { query: { state: 'stuck' } }), 400, ['state']);
  });
});
