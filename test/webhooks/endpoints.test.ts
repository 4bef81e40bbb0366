// Issue 21 §5: what /api/v1/webhook-endpoints refuses. On a server without
// CODRAIL_WEBHOOKS_ALLOW_PRIVATE a seller's URL must be https on a public address (no loopback,
// private or link-local one: the operator's network and a cloud's metadata service stay out of
// reach), without credentials; an event type must be one codrail sends; another account's endpoint
// or event is answered exactly like one that does not exist. A refusal stores nothing.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import type { Deps } from '../../src/app.ts';
import { seedShop, type Shop } from '../helpers/fixtures.ts';
import { failed, ok, sameNotFound, UNKNOWN_ID, type V1Client } from '../api/v1/v1-kit.ts';
import { addEndpoint, liveOrder, openBench, storedEvents, type Bench } from './webhook-kit.ts';

/** A public address written as an IP literal: accepted without a DNS look-up (none is made here). */
const PUBLIC_URL = 'https://93.184.216.34/codrail/hooks';

const endpointRows = async (deps: Pick<Deps, 'db'>) => (await sql<Record<string, unknown>>`select * from webhook_endpoints order by id`.execute(deps.db)).rows;

/** Runs `act` and asserts that no endpoint was added or changed. */
async function storesNoEndpoint<T>(deps: Pick<Deps, 'db'>, act: () => Promise<T>): Promise<T> {
  const before = await endpointRows(deps);
  const result = await act();
  assert.deepEqual(await endpointRows(deps), before, 'no endpoint was stored or changed');
  return result;
}

describe('webhook endpoints on a server that keeps private addresses out', () => {
  let bench: Bench;
  let v1: V1Client;
  let shop: Shop;
  let other: Shop;

  before(async () => {
    bench = await openBench({ allowPrivate: false, worker: false });
    ({ v1, shop } = bench);
    other = await seedShop(bench.server.deps);
  });
  after(() => bench.close());

  const create = (url: string, extra: Record<string, unknown> = {}) => v1.post('/api/v1/webhook-endpoints', { body: { store_id: shop.storeId, url, ...extra } });

  for (const url of ['https://10.0.0.1/x', 'https://169.254.169.254/latest', 'https://[::1]/x', 'http://localhost:9/x', 'https://127.0.0.1/x', 'https://192.168.1.20/hooks', 'https://[fe80::1]/x', 'https://[::ffff:127.0.0.1]/x', 'https://2130706433/x', 'https://localhost/x'])
    test(`an endpoint at ${url} is refused with 400 naming url, and nothing is stored`, async () => {
      const answer = await storesNoEndpoint(bench.server.deps, () => create(url));
      failed(answer, 400, ['url']);
    });

  test('an endpoint on http at a public host is refused with 400 naming url: https only', async () => {
    const answer = await storesNoEndpoint(bench.server.deps, () => create('http://93.184.216.34/hooks'));
    const body = failed(answer, 400, ['url']);
    assert.match(body.details![0]!.message, /https/);
  });

  test('an endpoint URL with credentials in it is refused with 400 naming url, without echoing them', async () => {
    const answer = await storesNoEndpoint(bench.server.deps, () => create('https://erp:s3cr3t-pw@93.184.216.34/hooks'));
    const body = failed(answer, 400, ['url']);
    assert.match(body.details![0]!.message, /credentials/);
    assert.ok(!answer.text.includes('s3cr3t-pw'), 'the password is not echoed');
  });

  test('an endpoint subscribed to an event type codrail does not send is refused with 400 naming event_types', async () => {
    const answer = await storesNoEndpoint(bench.server.deps, () => create(PUBLIC_URL, { event_types: ['order.created', 'order.exploded'] }));
    const body = failed(answer, 400);
    assert.ok(body.details?.length && body.details.every((d) => d.field.startsWith('event_types')), JSON.stringify(body.details));
    assert.match(body.details![0]!.message, /order\.created/, 'the message lists the types there are');
  });

  test('an endpoint at a public https address is added, enabled, with its secret shown once; reading it never shows a secret', async () => {
    const endpoint = await addEndpoint(v1, shop.storeId, PUBLIC_URL, ['order.created']);
    assert.deepEqual([endpoint.url, endpoint.status, endpoint.event_types], [PUBLIC_URL, 'enabled', ['order.created']]);
    const got = await v1.get('/api/v1/webhook-endpoints/{endpoint_id}', { params: { endpoint_id: endpoint.id } });
    assert.equal(ok(got).secret, undefined);
    assert.ok(!got.text.includes(endpoint.secret));
    const list = await v1.get('/api/v1/webhook-endpoints', { query: { store_id: shop.storeId } });
    assert.ok(ok(list).items.some((e: { id: string }) => e.id === endpoint.id));
    for (const item of ok(list).items) assert.equal(item.secret, undefined);
    assert.ok(!list.text.includes(endpoint.secret));
  });

  test('changing an endpoint to a private address is refused with 400 naming url, and the endpoint keeps its URL', async () => {
    const endpoint = await addEndpoint(v1, shop.storeId, PUBLIC_URL);
    const answer = await storesNoEndpoint(bench.server.deps, () => v1.patch('/api/v1/webhook-endpoints/{endpoint_id}', { params: { endpoint_id: endpoint.id }, body: { url: 'https://169.254.169.254/latest/meta-data' } }));
    failed(answer, 400, ['url']);
  });

  test("an endpoint for another account's store is refused with 404 naming store_id, like an unknown store", async () => {
    await sameNotFound(bench.server.deps, (id) => create(PUBLIC_URL, { store_id: id }), other.storeId, 'store_id');
    assert.equal((await endpointRows(bench.server.deps)).filter((e) => e.store_id === other.storeId).length, 0);
  });

  describe("another account's endpoint is answered like an unknown one", () => {
    let theirs = '';
    before(async () => {
      theirs = (await addEndpoint(v1.as(other.secretKey), other.storeId, PUBLIC_URL)).id;
    });

    const calls: [string, (id: string) => Promise<unknown>][] = [
      ['GET', (id) => v1.get('/api/v1/webhook-endpoints/{endpoint_id}', { params: { endpoint_id: id } })],
      ['PATCH', (id) => v1.patch('/api/v1/webhook-endpoints/{endpoint_id}', { params: { endpoint_id: id }, body: { description: 'mine now' } })],
      ['POST rotate-secret', (id) => v1.post('/api/v1/webhook-endpoints/{endpoint_id}/rotate-secret', { params: { endpoint_id: id }, body: { grace_minutes: 0 } })],
      ['POST disable', (id) => v1.post('/api/v1/webhook-endpoints/{endpoint_id}/disable', { params: { endpoint_id: id } })],
      ['POST enable', (id) => v1.post('/api/v1/webhook-endpoints/{endpoint_id}/enable', { params: { endpoint_id: id } })],
      ['POST test', (id) => v1.post('/api/v1/webhook-endpoints/{endpoint_id}/test', { params: { endpoint_id: id } })],
      ['GET deliveries', (id) => v1.get('/api/v1/webhook-endpoints/{endpoint_id}/deliveries', { params: { endpoint_id: id } })],
      ['DELETE', (id) => v1.delete('/api/v1/webhook-endpoints/{endpoint_id}', { params: { endpoint_id: id } })],
    ];
    for (const [name, call] of calls)
      test(`${name} /webhook-endpoints/:id with another account's endpoint answers 404 naming endpoint_id, exactly as an unknown id, and changes nothing`, async () => {
        await storesNoEndpoint(bench.server.deps, () => sameNotFound(bench.server.deps, call as never, theirs, 'endpoint_id'));
      });

    test("GET /webhook-endpoints lists only the caller's own endpoints", async () => {
      const items = ok(await v1.get('/api/v1/webhook-endpoints', { query: { limit: 100 } })).items as { id: string; store_id: string }[];
      assert.ok(!items.some((e) => e.id === theirs));
      assert.ok(items.every((e) => e.store_id === shop.storeId));
    });
  });

  test("replaying another account's event answers 404 naming event_id, exactly as an unknown event", async () => {
    const theirs = await seedShop(bench.server.deps);
    await addEndpoint(v1.as(theirs.secretKey), theirs.storeId, PUBLIC_URL);
    const orderId = await liveOrder(bench.server, theirs);
    const event = (await storedEvents(bench.server.deps)).find((e) => e.order_id === orderId)!;
    const replay = (id: string) => v1.post('/api/v1/webhook-events/replay', { body: { event_id: id } });
    const deliveries = async () => (await sql<{ n: number }>`select count(*) as n from webhook_deliveries`.execute(bench.server.deps.db)).rows[0]!.n;
    const before = await deliveries();
    const unknown = await replay(`evt_${UNKNOWN_ID.replace(/-/g, '')}`);
    const foreign = await replay(event.id);
    failed(unknown, 404, ['event_id']);
    failed(foreign, 404, ['event_id']);
    assert.equal(foreign.text, unknown.text);
    assert.equal(await deliveries(), before, 'no delivery was queued');
  });
});

describe('webhook endpoints on a server that allows private addresses (development)', () => {
  let bench: Bench;
  before(async () => {
    bench = await openBench({ worker: false });
  });
  after(() => bench.close());

  test('http is accepted on loopback and still refused on another private address', async () => {
    const { v1, shop } = bench;
    await addEndpoint(v1, shop.storeId, 'http://127.0.0.1:9/hooks');
    await addEndpoint(v1, shop.storeId, 'https://10.0.0.1/hooks');
    const answer = await storesNoEndpoint(bench.server.deps, () => v1.post('/api/v1/webhook-endpoints', { body: { store_id: shop.storeId, url: 'http://10.0.0.1/hooks' } }));
    failed(answer, 400, ['url']);
  });
});
