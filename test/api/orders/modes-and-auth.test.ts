// POST /api/orders/create, SPEC 4.1 steps 2 (mode) and 3 (credential), SPEC 5 (keys, roll grace).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { addKey, addLanding, orderBody, postOrder, revokeKey, rollKey, seedShop, type Shop } from '../../helpers/fixtures.ts';
import { manualClock } from '../../../src/clock.ts';
import { randomBase62 } from '../../../src/domain/keys.ts';
import { newId } from '../../../src/ids.ts';
import { OPEN_LIMITS, SHOP_ORIGIN, eventsOf, expectCreated, expectError, jobsOf, liveHeaders, nextPhone, orderRow, storesNothing } from './order-kit.ts';

const clock = manualClock(Date.now());
let server: TestServer;
let shop: Shop;
let other: Shop;

before(async () => {
  server = await startServer(OPEN_LIMITS, { clock });
  shop = await seedShop(server.deps);
  other = await seedShop(server.deps);
});
after(() => server.close());

const body = (over: Record<string, unknown> = {}) => orderBody(shop, { telefono: nextPhone(), ...over });

/** A mode-1 body: the landing page instead of the ids. */
function landingBody(landingId: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  const { store_id: _s, product_id: _p, ...rest } = body(over);
  return { landing_page_id: landingId, ...rest };
}

describe('step 2: mode', () => {
  test('mode 1 with a published landing_page_id and no credential creates the order in the landing store for its product', async () => {
    const created = await expectCreated(await postOrder(server.url, landingBody(shop.landingId)));
    const row = await orderRow(server.deps, created.data.id);
    assert.equal(row.store_id, shop.storeId);
    assert.equal(row.product_id, shop.productId);
    assert.equal(row.landing_page_id, shop.landingId);
    assert.equal(row.api_key_id, null);
    assert.equal(row.sandbox, 0);
    assert.equal(created.data.sandbox, false);
    const events = await eventsOf(server.deps, row.id);
    assert.equal(events.length, 1);
    assert.equal(events[0]!.type, 'order.created');
    assert.equal(events[0]!.actor, `landing:${shop.landingId}`);
    assert.deepEqual((await jobsOf(server.deps, row.id)).map((j) => j.state), ['queued']);
  });

  test('mode 1 ignores an Origin header: the landing needs no domain check', async () => {
    await expectCreated(await postOrder(server.url, landingBody(shop.landingId), { origin: 'https://anywhere.example' }));
  });

  test('an unknown landing_page_id is a 400 naming landing_page_id and stores nothing', async () => {
    await storesNothing(server.deps, async () => {
      await expectError(await postOrder(server.url, landingBody(newId())), 400, { fields: ['landing_page_id'] });
    });
  });

  test('an unpublished landing page is a 400 naming landing_page_id and stores nothing', async () => {
    const draft = await addLanding(server.deps, { product_id: shop.productId, slug: `draft-${shop.storeId.slice(-8)}` });
    assert.equal(draft.published, false);
    await storesNothing(server.deps, async () => {
      await expectError(await postOrder(server.url, landingBody(draft.id)), 400, { fields: ['landing_page_id'] });
    });
  });

  test('a landing_page_id that is not a UUID is a 400 naming landing_page_id', async () => {
    await expectError(await postOrder(server.url, landingBody('not-a-uuid')), 400, { fields: ['landing_page_id'] });
  });

  test('neither landing_page_id nor the ids is a 400 naming store_id and product_id and stores nothing', async () => {
    const { store_id: _s, product_id: _p, ...rest } = body();
    await storesNothing(server.deps, async () => {
      await expectError(await postOrder(server.url, rest, liveHeaders(shop)), 400, { fields: ['store_id', 'product_id'] });
    });
  });

  test('store_id without product_id is a 400 naming only product_id', async () => {
    const { product_id: _p, ...rest } = body();
    await expectError(await postOrder(server.url, rest, liveHeaders(shop)), 400, { fields: ['product_id'] });
  });

  test('product_id without store_id is a 400 naming only store_id', async () => {
    const { store_id: _s, ...rest } = body();
    await expectError(await postOrder(server.url, rest, liveHeaders(shop)), 400, { fields: ['store_id'] });
  });

  test('a mode-2 store_id that is not a UUID is a 400 naming store_id', async () => {
    await expectError(await postOrder(server.url, body({ store_id: 'tienda-1' }), liveHeaders(shop)), 400, { fields: ['store_id'] });
  });

  test('a landing_page_id plus store and product ids with a credential is mode 2: the key decides the store', async () => {
    // The landing belongs to `shop`; the ids and the key to `other`.
    const { telefono } = body();
    const b = { ...orderBody(other, { telefono }), landing_page_id: shop.landingId };
    const created = await expectCreated(await postOrder(server.url, b, liveHeaders(other)));
    const row = await orderRow(server.deps, created.data.id);
    assert.equal(row.store_id, other.storeId);
    assert.equal(row.product_id, other.productId);
    assert.equal(row.landing_page_id, null);
    assert.notEqual(row.api_key_id, null);
  });

  test('a landing_page_id plus store and product ids without a credential is mode 1', async () => {
    const b = { ...orderBody(other, { telefono: nextPhone() }), landing_page_id: shop.landingId };
    const created = await expectCreated(await postOrder(server.url, b));
    const row = await orderRow(server.deps, created.data.id);
    assert.equal(row.store_id, shop.storeId);
    assert.equal(row.landing_page_id, shop.landingId);
    assert.equal(row.api_key_id, null);
  });

  test('a landing_page_id plus ids with a credential still needs that credential to be valid', async () => {
    const b = { ...body(), landing_page_id: shop.landingId };
    await storesNothing(server.deps, async () => {
      await expectError(await postOrder(server.url, b, { 'x-svc-api-key': `svc_live_pub_${randomBase62(32)}`, origin: SHOP_ORIGIN }), 401);
    });
  });
});

describe('step 3: credential', () => {
  test('mode 2 without any credential is a 401 and stores nothing', async () => {
    await storesNothing(server.deps, async () => {
      await expectError(await postOrder(server.url, body(), { origin: SHOP_ORIGIN }), 401, { fields: [] });
    });
  });

  for (const [label, key] of [
    ['a key without a known prefix', `sk_live_${randomBase62(32)}`],
    ['a publishable key that is too short', `svc_live_pub_${randomBase62(31)}`],
    ['a publishable key that is too long', `svc_live_pub_${randomBase62(33)}`],
    ['a key with a character outside base62', `svc_live_pub_${randomBase62(31)}-`],
    ['an empty x-svc-api-key', ''],
  ] as const) {
    test(`${label} is a 401 and stores nothing`, async () => {
      await storesNothing(server.deps, async () => {
        await expectError(await postOrder(server.url, body(), { 'x-svc-api-key': key, origin: SHOP_ORIGIN }), 401);
      });
    });
  }

  test('a well-formed but unknown publishable key is a 401 and stores nothing', async () => {
    await storesNothing(server.deps, async () => {
      await expectError(await postOrder(server.url, body(), { 'x-svc-api-key': `svc_live_pub_${randomBase62(32)}`, origin: SHOP_ORIGIN }), 401);
    });
  });

  test('a revoked publishable key is a 401 from the next request on', async () => {
    const extra = await addKey(server.deps, { store_id: shop.storeId, type: 'publishable', env: 'live' });
    await expectCreated(await postOrder(server.url, body(), { 'x-svc-api-key': extra.key, origin: SHOP_ORIGIN }));
    await revokeKey(server.deps, extra.id);
    await storesNothing(server.deps, async () => {
      await expectError(await postOrder(server.url, body(), { 'x-svc-api-key': extra.key, origin: SHOP_ORIGIN }), 401);
      await expectError(await postOrder(server.url, body(), { authorization: `Bearer ${extra.key}`, origin: SHOP_ORIGIN }), 401);
    });
  });

  test('a publishable key in x-svc-api-key creates the order and records the key', async () => {
    const created = await expectCreated(await postOrder(server.url, body(), liveHeaders(shop)));
    assert.equal((await orderRow(server.deps, created.data.id)).api_key_id, shop.liveKeyId);
  });

  for (const scheme of ['Bearer', 'bearer', 'BEARER']) {
    test(`a publishable key as Authorization: ${scheme} creates the order`, async () => {
      const created = await expectCreated(await postOrder(server.url, body(), { authorization: `${scheme} ${shop.liveKey}`, origin: SHOP_ORIGIN }));
      assert.equal((await orderRow(server.deps, created.data.id)).api_key_id, shop.liveKeyId);
    });
  }

  test('an Authorization header with another scheme is a 401', async () => {
    await storesNothing(server.deps, async () => {
      const basic = Buffer.from(`${shop.liveKey}:`).toString('base64');
      await expectError(await postOrder(server.url, body(), { authorization: `Basic ${basic}`, origin: SHOP_ORIGIN }), 401);
    });
  });

  test('a Bearer with an unknown key is a 401', async () => {
    await expectError(await postOrder(server.url, body(), { authorization: `Bearer svc_live_pub_${randomBase62(32)}`, origin: SHOP_ORIGIN }), 401);
  });

  test('a secret key as Bearer creates a live order with no Origin or Referer at all', async () => {
    const created = await expectCreated(await postOrder(server.url, body(), { authorization: `Bearer ${shop.secretKey}` }));
    assert.equal(created.data.sandbox, false);
    const row = await orderRow(server.deps, created.data.id);
    assert.equal(row.store_id, shop.storeId);
    assert.equal(row.sandbox, 0);
    assert.deepEqual((await jobsOf(server.deps, row.id)).map((j) => j.state), ['queued']);
  });

  test('a secret key in x-svc-api-key is a 401 and stores nothing', async () => {
    await storesNothing(server.deps, async () => {
      await expectError(await postOrder(server.url, body(), { 'x-svc-api-key': shop.secretKey, origin: SHOP_ORIGIN }), 401);
    });
  });

  test('a secret key of another account is a 403 for this store', async () => {
    await storesNothing(server.deps, async () => {
      await expectError(await postOrder(server.url, body(), { authorization: `Bearer ${other.secretKey}` }), 403);
    });
  });

  test('a key rolled with a 5-minute grace keeps working until the grace ends, then is a 401', async () => {
    const key = await addKey(server.deps, { store_id: shop.storeId, type: 'publishable', env: 'live' });
    const rolled = await rollKey(server.deps, key.id, 5);
    const oldHeaders = { 'x-svc-api-key': key.key, origin: SHOP_ORIGIN };
    const newHeaders = { 'x-svc-api-key': rolled.key, origin: SHOP_ORIGIN };
    await expectCreated(await postOrder(server.url, body(), oldHeaders));
    await expectCreated(await postOrder(server.url, body(), newHeaders));
    clock.advance(4 * 60_000 + 59_000);
    const created = await expectCreated(await postOrder(server.url, body(), oldHeaders));
    assert.equal((await orderRow(server.deps, created.data.id)).api_key_id, key.id);
    clock.advance(1_000);
    await storesNothing(server.deps, async () => {
      await expectError(await postOrder(server.url, body(), oldHeaders), 401);
    });
    const fresh = await expectCreated(await postOrder(server.url, body(), newHeaders));
    assert.equal((await orderRow(server.deps, fresh.data.id)).api_key_id, rolled.id);
  });

  test('a key rolled with no grace is a 401 at once while its replacement works', async () => {
    const key = await addKey(server.deps, { store_id: shop.storeId, type: 'publishable', env: 'live' });
    const rolled = await rollKey(server.deps, key.id, 0);
    await storesNothing(server.deps, async () => {
      await expectError(await postOrder(server.url, body(), { 'x-svc-api-key': key.key, origin: SHOP_ORIGIN }), 401);
    });
    await expectCreated(await postOrder(server.url, body(), { 'x-svc-api-key': rolled.key, origin: SHOP_ORIGIN }));
  });

  test('the credential is checked before field validation: an invalid body with no key is a 401', async () => {
    await expectError(await postOrder(server.url, body({ nombre: 'A', total_price: 'x' }), { origin: SHOP_ORIGIN }), 401);
  });
});
