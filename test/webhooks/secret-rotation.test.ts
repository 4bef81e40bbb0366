// Issue 21 §5: rotating an endpoint's signing secret. With a grace period every delivery carries two
// v1 signatures (the new secret's first) and a receiver holding either secret accepts it, so the
// seller can switch without losing an event; once the grace is over, or with grace 0, only the new
// secret signs. The server's clock is a test clock moved past the grace, and the receiver checks
// the signature's timestamp against that clock, as a receiver whose clock agrees with the server's.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { manualClock } from '../../src/clock.ts';
import { seedShop } from '../helpers/fixtures.ts';
import { startReceiver, type Arrival, type Receiver } from '../helpers/webhook-receiver.ts';
import { ok, type V1Client } from '../api/v1/v1-kit.ts';
import { addEndpoint, liveOrder, openBench, v1s, verifies, waitFor, type Bench } from './webhook-kit.ts';

describe('webhook secret rotation', () => {
  const clock = manualClock(Date.now());
  let bench: Bench;
  const receivers: Receiver[] = [];

  before(async () => {
    bench = await openBench({ clock });
  });
  after(async () => {
    await bench.close();
    for (const r of receivers) await r.close();
  });

  /** The receiver checks the signature against the server's (test) clock at the time it looks. */
  const verifiesNow = (secret: string, a: Arrival) => verifies(secret, a, Math.floor(clock.now().getTime() / 1000));

  async function station() {
    const shop = await seedShop(bench.server.deps);
    const v1 = bench.v1.as(shop.secretKey);
    const receiver = await startReceiver();
    receivers.push(receiver);
    const endpoint = await addEndpoint(v1, shop.storeId, receiver.url);
    /** One new order, and its order.created as the receiver got it. */
    const deliver = async (): Promise<Arrival> => {
      const orderId = await liveOrder(bench.server, shop);
      return waitFor(`order ${orderId} at the receiver`, () => receiver.accepted().find((a) => a.json.data.object.id === orderId));
    };
    return { shop, v1, receiver, endpoint, deliver };
  }

  const rotate = async (v1: V1Client, endpointId: string, grace: number) => {
    const answer = await v1.post('/api/v1/webhook-endpoints/{endpoint_id}/rotate-secret', { params: { endpoint_id: endpointId }, body: { grace_minutes: grace } });
    return ok(answer);
  };

  test('after a rotation with a 60-minute grace, a delivery carries two v1 signatures and verifies with the old secret and with the new one', async () => {
    const { v1, endpoint, deliver } = await station();
    const before = await deliver();
    assert.equal(v1s(before.signature), 1, 'one signature before any rotation');
    assert.ok(verifiesNow(endpoint.secret, before));

    const rotated = await rotate(v1, endpoint.id, 60);
    assert.match(rotated.secret, /^whsec_/);
    assert.notEqual(rotated.secret, endpoint.secret);
    assert.equal(rotated.previous_secret_expires_at, new Date(clock.now().getTime() + 60 * 60_000).toISOString());

    const during = await deliver();
    assert.equal(v1s(during.signature), 2, `two v1 signatures during the grace: ${during.signature}`);
    assert.ok(verifiesNow(endpoint.secret, during), 'the old secret verifies');
    assert.ok(verifiesNow(rotated.secret, during), 'the new secret verifies');
    assert.ok(verifies(rotated.secret, { ...during, signature: during.signature.split(',').slice(0, 2).join(',') }, Math.floor(clock.now().getTime() / 1000)), "the new secret's signature comes first");
  });

  test('once the grace period is over only the new secret signs: the old one no longer verifies', async () => {
    const { v1, endpoint, deliver } = await station();
    const rotated = await rotate(v1, endpoint.id, 60);
    clock.advance(61 * 60_000);
    const after = await deliver();
    assert.equal(v1s(after.signature), 1, `one signature after the grace: ${after.signature}`);
    assert.ok(verifiesNow(rotated.secret, after), 'the new secret verifies');
    assert.equal(verifiesNow(endpoint.secret, after), false, 'the old secret does not');
  });

  test('a rotation with grace 0 stops the old secret at once: the next delivery verifies only with the new one', async () => {
    const { v1, endpoint, deliver } = await station();
    const rotated = await rotate(v1, endpoint.id, 0);
    assert.equal(rotated.previous_secret_expires_at, null);
    const next = await deliver();
    assert.equal(v1s(next.signature), 1);
    assert.ok(verifiesNow(rotated.secret, next));
    assert.equal(verifiesNow(endpoint.secret, next), false);
  });

  test('a second rotation during a grace period drops the first secret: the delivery verifies with the two latest only', async () => {
    const { v1, endpoint, deliver } = await station();
    const second = await rotate(v1, endpoint.id, 60);
    const third = await rotate(v1, endpoint.id, 60);
    const next = await deliver();
    assert.equal(v1s(next.signature), 2);
    assert.ok(verifiesNow(third.secret, next));
    assert.ok(verifiesNow(second.secret, next));
    assert.equal(verifiesNow(endpoint.secret, next), false, 'the first secret is gone');
  });

  test('reading an endpoint during a rotation shows when the old secret expires, never a secret', async () => {
    const { v1, endpoint } = await station();
    const rotated = await rotate(v1, endpoint.id, 30);
    const got = await v1.get('/api/v1/webhook-endpoints/{endpoint_id}', { params: { endpoint_id: endpoint.id } });
    assert.equal(ok(got).previous_secret_expires_at, rotated.previous_secret_expires_at);
    assert.equal(ok(got).secret, undefined);
    assert.ok(!got.text.includes(rotated.secret) && !got.text.includes(endpoint.secret));
  });
});
