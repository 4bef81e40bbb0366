// POST /api/orders/create, SPEC 4.1 step 4: publishable key checks (store, products, Origin/Referer).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { addKey, addProduct, orderBody, postOrder, seedShop, type Shop } from '../../helpers/fixtures.ts';
import { addStoreDomain, removeStoreDomain } from '../../../src/use-cases/stores/stores.use-case.ts';
import { OPERATOR } from '../../../src/use-cases/caller.ts';
import { OPEN_LIMITS, SHOP_ORIGIN, expectCreated, expectError, nextPhone, orderRow, storesNothing } from './order-kit.ts';

let server: TestServer;
let shop: Shop;
let other: Shop;

before(async () => {
  server = await startServer(OPEN_LIMITS);
  // seedShop's store allows shop.example.com and *.brand.example; its keys carry no own domains.
  shop = await seedShop(server.deps);
  other = await seedShop(server.deps);
});
after(() => server.close());

const body = (over: Record<string, unknown> = {}) => orderBody(shop, { telefono: nextPhone(), ...over });
const live = (headers: Record<string, string>) => postOrder(server.url, body(), { 'x-svc-api-key': shop.liveKey, ...headers });
const sandbox = (headers: Record<string, string>) => postOrder(server.url, body(), { 'x-svc-api-key': shop.testKey, ...headers });

describe('step 4: key and store', () => {
  test('a publishable key of another store is a 403 and stores nothing', async () => {
    await storesNothing(server.deps, async () => {
      await expectError(await postOrder(server.url, body(), { 'x-svc-api-key': other.liveKey, origin: SHOP_ORIGIN }), 403, { fields: [] });
    });
  });

  test("the store check runs before field validation: another store's key with a bad body is a 403", async () => {
    await expectError(await postOrder(server.url, body({ nombre: 'A' }), { 'x-svc-api-key': other.liveKey, origin: SHOP_ORIGIN }), 403);
  });

  test("a product of another store with this store's key is a 400 naming product_id and stores nothing", async () => {
    await storesNothing(server.deps, async () => {
      const res = await postOrder(server.url, body({ product_id: other.productId }), { 'x-svc-api-key': shop.liveKey, origin: SHOP_ORIGIN });
      await expectError(res, 400, { fields: ['product_id'] });
    });
  });

  test('a product outside the key’s allowed products is a 403 while a listed product is accepted', async () => {
    const second = await addProduct(server.deps, { store_id: shop.storeId, name: 'Crema', packs: [{ quantity: 1, price: 50000 }] });
    const key = await addKey(server.deps, { store_id: shop.storeId, type: 'publishable', env: 'live', products: [second.id] });
    const headers = { 'x-svc-api-key': key.key, origin: SHOP_ORIGIN };
    await storesNothing(server.deps, async () => {
      await expectError(await postOrder(server.url, body(), headers), 403);
    });
    const created = await expectCreated(await postOrder(server.url, body({ product_id: second.id, unit_price: 50000, total_price: 50000 }), headers));
    assert.equal((await orderRow(server.deps, created.data.id)).product_id, second.id);
  });
});

describe('step 4: Origin and Referer', () => {
  test('an Origin outside the allowed domains is a 403 and stores nothing', async () => {
    await storesNothing(server.deps, async () => {
      await expectError(await live({ origin: 'https://evil.example' }), 403);
    });
  });

  test('no Origin and no Referer is a 403 and stores nothing', async () => {
    await storesNothing(server.deps, async () => {
      await expectError(await live({}), 403);
    });
  });

  test('an Origin of "null" with no Referer is a 403', async () => {
    await expectError(await live({ origin: 'null' }), 403);
  });

  test('a Referer on an allowed host is used when there is no Origin', async () => {
    await expectCreated(await live({ referer: 'https://shop.example.com/checkout/faja?utm=ig' }));
  });

  test('a Referer on a foreign host is a 403', async () => {
    await expectError(await live({ referer: 'https://evil.example/shop.example.com' }), 403);
  });

  test('the Origin wins over the Referer: a foreign Origin with an allowed Referer is a 403', async () => {
    await expectError(await live({ origin: 'https://evil.example', referer: 'https://shop.example.com/' }), 403);
  });

  test('the exact allowed host is accepted, on any scheme and port', async () => {
    await expectCreated(await live({ origin: 'https://shop.example.com' }));
    await expectCreated(await live({ origin: 'http://shop.example.com:8080' }));
  });

  test('a subdomain of an exact-host entry is a 403', async () => {
    await expectError(await live({ origin: 'https://www.shop.example.com' }), 403);
  });

  test('a host that only ends with the allowed host is a 403', async () => {
    await expectError(await live({ origin: 'https://evilshop.example.com' }), 403);
  });

  test('subdomains match the *.brand.example wildcard', async () => {
    await expectCreated(await live({ origin: 'https://tienda.brand.example' }));
    await expectCreated(await live({ origin: 'https://a.b.brand.example' }));
  });

  test('brand.example itself does not match *.brand.example', async () => {
    await storesNothing(server.deps, async () => {
      await expectError(await live({ origin: 'https://brand.example' }), 403);
    });
  });

  test('a look-alike host does not match *.brand.example', async () => {
    await expectError(await live({ origin: 'https://evilbrand.example' }), 403);
    await expectError(await live({ origin: 'https://brand.example.evil.com' }), 403);
  });

  test('a test key accepts http://localhost:5173 and creates a sandbox order', async () => {
    const created = await expectCreated(await sandbox({ origin: 'http://localhost:5173' }));
    assert.equal(created.data.sandbox, true);
  });

  test('a test key accepts http://127.0.0.1:8080', async () => {
    const created = await expectCreated(await sandbox({ origin: 'http://127.0.0.1:8080' }));
    assert.equal(created.data.sandbox, true);
  });

  test('a test key still refuses a foreign host', async () => {
    await expectError(await sandbox({ origin: 'https://evil.example' }), 403);
  });

  test('a test key still needs an Origin or Referer', async () => {
    await expectError(await sandbox({}), 403);
  });

  test('a live key does not accept localhost or 127.0.0.1', async () => {
    await storesNothing(server.deps, async () => {
      await expectError(await live({ origin: 'http://localhost:5173' }), 403);
      await expectError(await live({ origin: 'http://127.0.0.1:8080' }), 403);
    });
  });

  test('a key restricted to some store domains accepts them and refuses the store’s others', async () => {
    await addStoreDomain(server.deps, OPERATOR, { store_id: shop.storeId, domain: 'checkout.partner.example' });
    const key = await addKey(server.deps, { store_id: shop.storeId, type: 'publishable', env: 'live', domains: ['checkout.partner.example'] });
    await expectCreated(await postOrder(server.url, body(), { 'x-svc-api-key': key.key, origin: 'https://checkout.partner.example' }));
    await expectError(await postOrder(server.url, body(), { 'x-svc-api-key': key.key, origin: 'https://partner.example' }), 403);
    await expectError(await postOrder(server.url, body(), { 'x-svc-api-key': key.key, origin: SHOP_ORIGIN }), 403);
  });

  test('a key restricted to a domain the store then removes works nowhere: removing a domain never widens a key', async () => {
    await addStoreDomain(server.deps, OPERATOR, { store_id: shop.storeId, domain: 'gone.partner.example' });
    const key = await addKey(server.deps, { store_id: shop.storeId, type: 'publishable', env: 'live', domains: ['gone.partner.example'] });
    await expectCreated(await postOrder(server.url, body(), { 'x-svc-api-key': key.key, origin: 'https://gone.partner.example' }));
    await removeStoreDomain(server.deps, OPERATOR, { store_id: shop.storeId, domain: 'gone.partner.example' });
    await storesNothing(server.deps, async () => {
      await expectError(await postOrder(server.url, body(), { 'x-svc-api-key': key.key, origin: 'https://gone.partner.example' }), 403);
      await expectError(await postOrder(server.url, body(), { 'x-svc-api-key': key.key, origin: SHOP_ORIGIN }), 403);
    });
  });
});
