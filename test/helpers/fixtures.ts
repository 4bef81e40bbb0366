// Builds accounts, stores, products and keys through the real use-cases (no mocks, no raw SQL).
import type { Deps } from '../../src/app.ts';
import { createAccount } from '../../src/use-cases/accounts/accounts.use-case.ts';
import { createStore } from '../../src/use-cases/stores/stores.use-case.ts';
import { createProduct } from '../../src/use-cases/products/products.use-case.ts';
import { createLandingPage } from '../../src/use-cases/landings/landings.use-case.ts';
import { createKey, revokeApiKey, rollApiKey } from '../../src/use-cases/keys/keys.use-case.ts';
import { OPERATOR, operatorAs } from '../../src/use-cases/caller.ts';
import { parseWith } from '../../src/use-cases/validate.ts';
import { assignWhatsappNumber } from '../../src/use-cases/whatsapp/whatsapp-senders.use-case.ts';
import { CreateStoreInput } from '../../src/use-cases/stores/store.schemas.ts';
import { CreateProductInput } from '../../src/use-cases/products/product.schemas.ts';
import { CreateLandingPageInput } from '../../src/use-cases/landings/landing.schemas.ts';
import type { ConfigFlags } from '../../src/config.ts';
import type { Clock } from '../../src/clock.ts';
import { startServer, type TestServer } from './server.ts';

/** What making a product needs: its images are fetched (outbound) and re-encoded (imageEncoder). */
type ProductDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'outbound' | 'imageEncoder'>;

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
  deps: ProductDeps,
  opts: { country?: string; currency?: string; domains?: string[]; maxDiscount?: number; slug?: string } = {},
): Promise<Shop> {
  const account = await createAccount(deps, { name: 'Test account' });
  const as = operatorAs(account.id);
  const store = await createStore(
    deps,
    as,
    parseWith(CreateStoreInput, {
      name: 'Tienda',
      country: opts.country ?? 'CO',
      currency: opts.currency ?? 'COP',
      domains: opts.domains ?? ['shop.example.com', '*.brand.example'],
      ...(opts.maxDiscount !== undefined ? { max_discount_pct: opts.maxDiscount } : {}),
    }),
  );
  const product = await createProduct(
    deps,
    as,
    parseWith(CreateProductInput, {
      store_id: store.id,
      name: 'Faja',
      status: 'active',
      packs: [
        { quantity: 1, price: 100000 },
        { quantity: 2, price: 180000 },
        { quantity: 3, price: 240000, min_price: 200000 },
      ],
    }),
  );
  const landing = await createLandingPage(deps, as, parseWith(CreateLandingPageInput, { product_id: product.id, slug: opts.slug ?? `l-${store.id.slice(-8)}`, publish: true }));
  const live = await createKey(deps, as, { store_id: store.id, type: 'publishable', env: 'live' });
  const test = await createKey(deps, as, { store_id: store.id, type: 'publishable', env: 'test' });
  const secret = await createKey(deps, as, { store_id: store.id, type: 'secret' });
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
export async function openShop(flags: ConfigFlags = {}, options: { clock?: Clock; env?: Record<string, string> } = {}): Promise<{ server: TestServer; shop: Shop }> {
  const server = await startServer(flags, options);
  return { server, shop: await seedShop(server.deps) };
}

/** The real use-cases as the operator's CLI runs them, with their inputs parsed as every shell parses them. */
export const addProduct = (deps: ProductDeps, input: Record<string, unknown>) =>
  createProduct(deps, OPERATOR, parseWith(CreateProductInput, { status: 'active', ...input }));
export const addLanding = (deps: ProductDeps, input: Record<string, unknown>) =>
  createLandingPage(deps, OPERATOR, parseWith(CreateLandingPageInput, input));
export const addKey = (deps: Pick<Deps, 'db' | 'clock'>, input: Parameters<typeof createKey>[2]) => createKey(deps, OPERATOR, input);
export const revokeKey = (deps: Pick<Deps, 'db' | 'clock'>, id: string) => revokeApiKey(deps, OPERATOR, { key_id: id });
export const rollKey = (deps: Pick<Deps, 'db' | 'clock'>, id: string, graceMinutes: number) => rollApiKey(deps, OPERATOR, id, graceMinutes);
export const addStore = (deps: Pick<Deps, 'db' | 'clock' | 'config'>, accountId: string, input: Record<string, unknown>) =>
  createStore(deps, operatorAs(accountId), parseWith(CreateStoreInput, input));

let numberSequence = 0;

/** A fresh WhatsApp phone-number id, distinct within this test process (a number belongs to one account). */
export const freshPhoneNumberId = () => `1065403522${String(process.pid % 1000).padStart(3, '0')}${String(++numberSequence).padStart(4, '0')}`;

/**
 * The operator assigns a WhatsApp phone-number id to an account (`codrail whatsapp numbers assign`,
 * issue 19 §4): only then may the server-wide token send from it for that account's stores.
 */
export async function assignNumber(deps: Pick<Deps, 'db' | 'clock'>, accountId: string, phoneNumberId = freshPhoneNumberId()): Promise<string> {
  await assignWhatsappNumber(deps, { phoneNumberId, accountId });
  return phoneNumberId;
}
