// Builds accounts, stores, products and keys through the real use-cases (no mocks, no raw SQL).
import type { Deps } from '../../src/app.ts';
import { createAccount } from '../../src/use-cases/accounts/accounts.use-case.ts';
import { createStore } from '../../src/use-cases/stores/stores.use-case.ts';
import { createLanding, createProduct } from '../../src/use-cases/stores/products.use-case.ts';
import { createKey } from '../../src/use-cases/keys/keys.use-case.ts';
import type { ConfigFlags } from '../../src/config.ts';
import type { Clock } from '../../src/clock.ts';
import { startServer, type TestServer } from './server.ts';

export interface Shop {
  accountId: string;
  storeId: string;
  productId: string;
  landingId: string;
  liveKey: string;
  testKey: string;
  secretKey: string;
  liveKeyId: string;
}

/** A store with one product (packs 1x 100000, 2x 180000, 3x 240000 min 200000) and keys. */
export async function seedShop(
  deps: Pick<Deps, 'db' | 'clock' | 'config'>,
  opts: { country?: string; currency?: string; domains?: string[]; maxDiscount?: number; slug?: string } = {},
): Promise<Shop> {
  const account = await createAccount(deps, { name: 'Test account' });
  const store = await createStore(deps, {
    account_id: account.id,
    name: 'Tienda',
    country: opts.country ?? 'CO',
    currency: opts.currency ?? 'COP',
    domains: opts.domains ?? ['shop.example.com', '*.brand.example'],
    ...(opts.maxDiscount !== undefined ? { max_discount_pct: opts.maxDiscount } : {}),
  });
  const product = await createProduct(deps, {
    store_id: store.id,
    name: 'Faja',
    packs: [
      { code: '1x', price: 100000 },
      { code: '2x', price: 180000 },
      { code: '3x', price: 240000, min_price: 200000 },
    ],
  });
  const landing = await createLanding(deps, { product_id: product.id, slug: opts.slug ?? `l-${store.id.slice(-8)}`, publish: true });
  const live = await createKey(deps, { store_id: store.id, type: 'publishable', env: 'live' });
  const test = await createKey(deps, { store_id: store.id, type: 'publishable', env: 'test' });
  const secret = await createKey(deps, { store_id: store.id, type: 'secret' });
  return {
    accountId: account.id,
    storeId: store.id,
    productId: product.id,
    landingId: landing.id,
    liveKey: live.key,
    liveKeyId: live.id,
    testKey: test.key,
    secretKey: secret.key,
  };
}

/** A valid Colombian order body for the shop (mode 2), overridable field by field. */
export function orderBody(shop: Pick<Shop, 'storeId' | 'productId'>, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    store_id: shop.storeId,
    product_id: shop.productId,
    nombre: 'Ana Gómez',
    telefono: '3001234567',
    departamento: 'Antioquia',
    ciudad: 'Medellín',
    direccion: 'Calle 10 # 43-12',
    pack: '1x',
    quantity: 1,
    unit_price: 100000,
    total_price: 100000,
    ...over,
  };
}

/** POST /api/orders/create with a JSON body and headers. */
export function postOrder(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${url}/api/orders/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** The usual test setup: a server on a temp database with one seeded shop. */
export async function openShop(flags: ConfigFlags = {}, options: { clock?: Clock } = {}): Promise<{ server: TestServer; shop: Shop }> {
  const server = await startServer(flags, options);
  return { server, shop: await seedShop(server.deps) };
}
