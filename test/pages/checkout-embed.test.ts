// checkout.js on a merchant's own page (SPEC 13 mode 2; issue 11): a page served from another
// origin embeds <div data-codrail-checkout data-key data-store data-product> and one script tag. From
// an origin the key allows it renders the form in a shadow root (the host page's styles do not reach
// it) and creates a mode-2 order with the publishable key; from an origin the key does not allow it
// shows an error and nothing is created.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { sql } from 'kysely';
import { startServer, type TestServer } from '../helpers/server.ts';
import { PHONE, SCREENSHOTS, launchBrowser } from '../helpers/browser.ts';
import { addKey, addStore, addProduct } from '../helpers/fixtures.ts';
import { OPEN_LIMITS, counts } from '../api/orders/order-kit.ts';
import { createAccount } from '../../src/use-cases/accounts/accounts.use-case.ts';
import { revokeApiKey } from '../../src/use-cases/keys/keys.use-case.ts';
import { OPERATOR } from '../../src/use-cases/caller.ts';

describe('the embedded checkout on a merchant page in Chromium', () => {
  let server: TestServer;
  let merchant: Server;
  let merchantPort = 0;
  let browser: Browser;
  let ids = { store: '', product: '', key: '' };

  const hostPage = (key: string) => `<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Tienda del comerciante</title>
<style>button{background:red!important;font-size:40px}label{color:red}</style></head><body><h1>Mi tienda</h1>
<div data-codrail-checkout data-key="${key}" data-store="${ids.store}" data-product="${ids.product}"></div>
<script src="${server.url}/checkout.js" defer></script></body></html>`;

  before(async () => {
    server = await startServer(OPEN_LIMITS);
    const account = await createAccount(server.deps, { name: 'Comerciante' });
    const store = await addStore(server.deps, account.id, { name: 'Tienda MX', country: 'MX', domains: ['localhost'] });
    const product = await addProduct(server.deps, { store_id: store.id, name: 'Crema', packs: [{ quantity: 1, price: 499 }, { quantity: 2, price: 899, is_default: true }] });
    const key = await addKey(server.deps, { store_id: store.id, type: 'publishable', env: 'live', domains: ['localhost'] });
    ids = { store: store.id, product: product.id, key: key.key };
    merchant = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(hostPage(new URL(req.url ?? '/', 'http://x').searchParams.get('key') ?? ids.key));
    });
    await new Promise<void>((ok) => merchant.listen(0, '127.0.0.1', ok));
    merchantPort = (merchant.address() as { port: number }).port;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await new Promise((ok) => merchant.close(ok));
    await server.close();
  });

  test('from http://localhost (a domain the key allows) the form renders isolated from the page styles and creates a mode-2 order', async () => {
    const page = await browser.newPage({ viewport: PHONE });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`http://localhost:${merchantPort}/`);
    const form = page.locator('[data-codrail-checkout] form');
    await form.waitFor();
    const button = form.getByRole('button', { name: /Pedir ahora/ });
    assert.notEqual(await button.evaluate((b) => (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(b).backgroundColor), 'rgb(255, 0, 0)', 'the host page style does not reach the form');
    assert.equal(await form.locator('input[name=pack]:checked').inputValue(), '2x');
    await form.getByLabel('Nombre completo').fill('María López');
    await form.getByLabel('Teléfono celular').fill('5512345678');
    await form.getByLabel('Estado').selectOption('Ciudad de México');
    await form.getByRole('combobox', { name: 'Ciudad' }).fill('coyoacan');
    await form.getByRole('listbox', { name: 'Ciudades' }).getByRole('option', { name: /^Coyoacán/ }).click();
    await form.getByLabel('Dirección').fill('Av. Universidad 3000');
    await form.getByLabel('Colonia').fill('Copilco');
    await form.getByLabel('Código postal').fill('04510');
    await page.screenshot({ path: join(SCREENSHOTS, 'checkout-embed-phone.png'), fullPage: true });
    await button.click();
    const number = page.locator('[data-codrail-checkout] [data-order-number]');
    await number.waitFor();
    const rows = (await sql<{ order_number: number; pack: string; total_price_minor: number; api_key_id: string | null; landing_page_id: string | null; codigo_postal: string }>`SELECT order_number, pack, total_price_minor, api_key_id, landing_page_id, codigo_postal FROM orders WHERE telefono = '5512345678'`.execute(server.deps.db)).rows;
    assert.equal(rows.length, 1);
    assert.equal(await number.textContent(), String(rows[0]!.order_number));
    assert.equal(rows[0]!.pack, '2x');
    assert.equal(rows[0]!.total_price_minor, 89_900);
    assert.ok(rows[0]!.api_key_id, 'a mode-2 order records its key');
    assert.equal(rows[0]!.landing_page_id, null);
    // The confirmation repeats what was ordered and where it goes (issue 23 §4).
    assert.equal(await page.locator('[data-codrail-checkout] [data-recap-address]').innerText(), 'Av. Universidad 3000\nCoyoacán, Ciudad de México');
    assert.match((await page.locator('[data-codrail-checkout] [data-recap-product]').textContent()) ?? '', /Crema · 2 unidades/);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('in one browser, a refused origin after an allowed one shows "no disponible", and a refused order never reads as a lost connection', async () => {
    // Issue 23 §5: the same browser first embeds the form where the key is allowed, then on an origin it does not allow.
    const context = await browser.newContext({ viewport: PHONE });
    const allowed = await context.newPage();
    await allowed.goto(`http://localhost:${merchantPort}/`);
    const form = allowed.locator('[data-codrail-checkout] form');
    await form.waitFor();
    const denied = await context.newPage();
    await denied.goto(`http://127.0.0.1:${merchantPort}/`);
    const alert = denied.locator('[data-codrail-checkout]').getByRole('alert');
    await alert.waitFor();
    assert.match((await alert.textContent()) ?? '', /no está disponible en este sitio/);
    assert.equal(await denied.locator('[data-codrail-checkout] form').count(), 0, 'no form where the key is refused');
    // The form already on screen, then its key is revoked: the refusal is read and said as such.
    const before_ = await counts(server.deps);
    const key = await addKey(server.deps, { store_id: ids.store, type: 'publishable', env: 'live', domains: ['localhost'] });
    const revocable = await context.newPage();
    await revocable.goto(`http://localhost:${merchantPort}/?key=${key.key}`);
    const second = revocable.locator('[data-codrail-checkout] form');
    await second.waitFor();
    await revokeApiKey(server.deps, OPERATOR, { key_id: key.id });
    const refused = revocable.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api/orders/create'));
    await second.getByLabel('Nombre completo').fill('María López');
    await second.getByLabel('Teléfono celular').fill('5512345679');
    await second.getByLabel('Estado').selectOption('Jalisco');
    await second.getByRole('combobox', { name: 'Ciudad' }).fill('Guadalajara');
    await second.getByRole('listbox', { name: 'Ciudades' }).getByRole('option', { name: /^Guadalajara/ }).first().click();
    await second.getByLabel('Dirección').fill('Av. Juárez 100');
    await second.getByLabel('Colonia').fill('Centro');
    await second.getByLabel('Código postal').fill('44100');
    await second.getByRole('button', { name: /Pedir ahora/ }).click();
    assert.equal((await refused).status(), 401);
    await second.locator('[data-banner]').filter({ hasText: 'no está disponible en este sitio' }).waitFor();
    assert.doesNotMatch((await second.locator('[data-banner]').textContent()) ?? '', /conexión/);
    assert.equal((await counts(server.deps)).orders, before_.orders);
    await context.close();
  });

  test('from http://127.0.0.1 (not among the key’s domains) the checkout shows an error and creates nothing', async () => {
    const before_ = await counts(server.deps);
    const page = await browser.newPage({ viewport: PHONE });
    await page.goto(`http://127.0.0.1:${merchantPort}/`);
    await page.locator('[data-codrail-checkout]').getByRole('alert').waitFor();
    assert.match((await page.locator('[data-codrail-checkout]').getByRole('alert').textContent()) ?? '', /no está disponible/);
    assert.equal(await page.locator('[data-codrail-checkout] form').count(), 0);
    assert.deepEqual(await counts(server.deps), before_);
    await page.close();
  });

  test('a publishable key that is unknown shows the same error and the product read answers 401', async () => {
    const page = await browser.newPage({ viewport: PHONE });
    await page.goto(`http://localhost:${merchantPort}/?key=svc_live_pub_${'x'.repeat(32)}`);
    await page.locator('[data-codrail-checkout]').getByRole('alert').waitFor();
    await page.close();
    const res = await fetch(`${server.url}/api/checkout/products/${ids.product}?store_id=${ids.store}`, { headers: { 'x-svc-api-key': `svc_live_pub_${'x'.repeat(32)}`, origin: `http://localhost:${merchantPort}` } });
    assert.equal(res.status, 401);
  });
});
