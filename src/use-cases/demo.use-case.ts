// `codrail demo` (and `npm start`): an idempotent demo account, store, product (with three hosted
// images), landing page and test key, and a demo user to sign in on the OAuth consent page. Keys
// and passwords are stored hashed and shown once, so every run rolls the demo key and the demo
// password and prints the new ones. Everything else is found again, not duplicated.
import { findAccountByName, findUserByEmail, setUserPassword } from '../db/queries/accounts.queries.ts';
import { hashPassword } from '../domain/password.ts';
import { randomBase62 } from '../domain/keys.ts';
import { createUser } from './accounts/accounts.use-case.ts';
import { listKeys } from '../db/queries/keys.queries.ts';
import { listStores } from '../db/queries/stores.queries.ts';
import { findProductBySku } from '../db/queries/products.queries.ts';
import { findLandingBySlug } from '../db/queries/landings.queries.ts';
import { createAccount } from './accounts/accounts.use-case.ts';
import { createStore } from './stores/stores.use-case.ts';
import { createProduct } from './products/products.use-case.ts';
import { addProductImage, storedImages, type HostDeps } from './products/image-hosting.use-case.ts';
import { rasterizeSvg } from './products/image-encoder.ts';
import { DEMO_IMAGES } from './products/demo-images.ts';
import { createLandingPage } from './landings/landings.use-case.ts';
import { createKey, rollApiKey } from './keys/keys.use-case.ts';
import { keyActive } from './keys/authenticate-key.ts';
import { operatorAs } from './caller.ts';
import { parseWith } from './validate.ts';
import { CreateStoreInput } from './stores/store.schemas.ts';
import { CreateProductInput } from './products/product.schemas.ts';
import { CreateLandingPageInput } from './landings/landing.schemas.ts';

export const DEMO = {
  account: 'codrail demo',
  store: 'Tienda Demo Colombia',
  sku: 'DEMO-FAJA',
  slug: 'demo-faja',
  keyLabel: 'demo',
  domain: 'demo.codrail.test',
  email: 'demo@codrail.test',
} as const;

export async function runDemo(deps: HostDeps) {
  const account = (await findAccountByName(deps.db, DEMO.account)) ?? (await createAccount(deps, { name: DEMO.account }));
  const as = operatorAs(account.id);
  const store =
    (await listStores(deps.db, account.id)).find((s) => s.name === DEMO.store) ??
    (await createStore(deps, as, parseWith(CreateStoreInput, {
        name: DEMO.store,
        country: 'CO',
        currency: 'COP',
        domains: [DEMO.domain],
        // What the buyer's page shows on its first screen (issue 23 §2): the store's WhatsApp and its promises.
        support_phone: '+57 300 123 4567',
        delivery_time: 'Entrega en 2 a 5 días hábiles',
        guarantee: 'Garantía de 30 días',
      })));
  const product =
    (await findProductBySku(deps.db, store.id, DEMO.sku)) ??
    (await createProduct(
      deps,
      as,
      parseWith(CreateProductInput, {
        store_id: store.id,
        name: 'Faja moldeadora',
        sku: DEMO.sku,
        status: 'active',
        description: 'Faja moldeadora de compresión media: cintura definida desde el primer día, tela transpirable, broches ajustables.',
        price_floor: 50000,
        packs: [
          { quantity: 1, price: 89900, compare_at_price: 129900 },
          { quantity: 2, price: 159900, compare_at_price: 259800, label: 'Más vendido', is_default: true },
          { quantity: 3, price: 219900, compare_at_price: 389700, min_price: 180000 },
        ],
      }),
    ));
  // Three hosted photos, drawn here (no network), uploaded as a seller's files are; a demo product
  // made before codrail hosted images gets them too.
  const demoProduct = await findProductBySku(deps.db, store.id, DEMO.sku);
  if (demoProduct && storedImages(demoProduct.images).length === 0)
    for (const image of DEMO_IMAGES) await addProductImage(deps, as, { product_id: product.id, alt: image.alt, file: await rasterizeSvg(image.svg) });
  const landing =
    (await findLandingBySlug(deps.db, DEMO.slug)) ??
    (await createLandingPage(
      deps,
      as,
      parseWith(CreateLandingPageInput, {
        product_id: product.id,
        slug: DEMO.slug,
        title: 'Faja moldeadora — pago contra entrega',
        seo_description: 'Faja moldeadora con envío gratis y pago contra entrega en toda Colombia.',
        sections: [
          { type: 'hero', heading: 'Tu cintura, definida desde el primer día', body: 'Pagas cuando la recibes en casa.' },
          { type: 'benefits', heading: 'Por qué te va a encantar', items: [{ title: 'Compresión media' }, { title: 'Tela transpirable' }, { title: 'Broches ajustables' }] },
          { type: 'faq', heading: 'Preguntas frecuentes', items: [{ title: '¿Cómo pago?', text: 'En efectivo al recibir el pedido.' }, { title: '¿Cuánto tarda?', text: 'De 2 a 5 días hábiles.' }] },
          { type: 'guarantee', heading: 'Garantía de 30 días', body: 'Si no te queda, te la cambiamos.' },
          { type: 'cta', heading: 'Pide la tuya hoy' },
        ],
        theme: { primary_color: '#0a7d4f', font: 'system' },
        publish: true,
      }),
    ));
  const now = deps.clock.now();
  const existing = (await listKeys(deps.db, store.id)).find((k) => k.label === DEMO.keyLabel && k.env === 'test' && keyActive(k, now));
  const key = existing
    ? await rollApiKey(deps, as, existing.id, 0)
    : await createKey(deps, as, { store_id: store.id, type: 'publishable', env: 'test', label: DEMO.keyLabel });
  const password = randomBase62(16);
  const user = await findUserByEmail(deps.db, DEMO.email);
  if (user) await setUserPassword(deps.db, user.id, hashPassword(password));
  else await createUser(deps, { account_id: account.id, email: DEMO.email, password });
  const order = {
    store_id: store.id,
    product_id: product.id,
    nombre: 'Ana Gómez',
    telefono: '3001234567',
    departamento: 'Antioquia',
    ciudad: 'Medellin',
    direccion: 'Calle 10 # 43-12, apto 301',
    pack: '1x',
    quantity: 1,
    unit_price: 89900,
    total_price: 89900,
  };
  const curl =
    `curl -s ${deps.config.baseUrl}/api/orders/create -H 'content-type: application/json' ` +
    `-H 'x-svc-api-key: ${key.key}' -H 'origin: http://localhost' -d '${JSON.stringify(order)}'`;
  return {
    account: { id: account.id, name: account.name },
    store: { id: store.id, name: store.name, country: store.country, currency: store.currency },
    product: { id: product.id, name: product.name, sku: DEMO.sku },
    landing: { id: landing.id, slug: landing.slug, url: `${deps.config.baseUrl}/l/${landing.slug}` },
    key: { id: key.id, key: key.key, env: key.env, prefix: key.prefix },
    user: { email: DEMO.email, password },
    mcp: { url: `${deps.config.baseUrl}/api/mcp`, metadata: `${deps.config.baseUrl}/.well-known/oauth-protected-resource/api/mcp` },
    curl,
  };
}
