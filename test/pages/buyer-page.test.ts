// The buyer's page as a buyer's phone shows it (issue 23), in real headless Chromium at 390×844:
// the first screen sells (image, name, price, trust line, order button, store, WhatsApp), an order
// button stays reachable at any scroll position, the city is a combobox that finds cities by the
// names buyers use ("Cali", never "Calima"), stale messages go, and the confirmation says what
// happens next. Screenshots at both sizes go to test-artifacts/.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { sql } from 'kysely';
import { startServer, type TestServer } from '../helpers/server.ts';
import { DESKTOP, PHONE, SCREENSHOTS, launchBrowser } from '../helpers/browser.ts';
import { OPEN_LIMITS } from '../api/orders/order-kit.ts';
import { addLanding, addProduct, addStore } from '../helpers/fixtures.ts';
import { COMMON_CITY_NAMES } from '../helpers/common-city-names.ts';
import { runDemo } from '../../src/use-cases/demo.use-case.ts';
import { createAccount } from '../../src/use-cases/accounts/accounts.use-case.ts';

const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

describe('the buyer’s page on a phone', () => {
  let server: TestServer;
  let browser: Browser;
  const urls: Record<string, string> = {};
  let phoneSeq = 0;
  const phone = () => `311${String(5_000_000 + ++phoneSeq).padStart(7, '0')}`;

  before(async () => {
    server = await startServer(OPEN_LIMITS);
    const demo = await runDemo(server.deps);
    urls.CO = `${server.url}/l/${demo.landing.slug}`;
    // A Mexican and a Peruvian store, each with a published page, for their cities' common names.
    const account = await createAccount(server.deps, { name: 'Tiendas del sur' });
    for (const [country, price] of [['MX', 499], ['PE', 89]] as const) {
      const store = await addStore(server.deps, account.id, { name: `Tienda ${country}`, country, domains: [`tienda-${country.toLowerCase()}.example`] });
      const product = await addProduct(server.deps, { store_id: store.id, name: `Crema ${country}`, packs: [{ quantity: 1, price }] });
      const landing = await addLanding(server.deps, { product_id: product.id, slug: `crema-${country.toLowerCase()}`, publish: true });
      urls[country] = `${server.url}/l/${landing.slug}`;
    }
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server.close();
  });

  /** The city combobox: the plain text field becomes one once the form is used or near (the catalog is fetched then). */
  async function cityBox(page: Page) {
    await page.getByLabel('Ciudad', { exact: true }).focus();
    const box = page.getByRole('combobox', { name: 'Ciudad' });
    await box.waitFor();
    return box;
  }

  /** The options of the city list (not those of the region's native select). */
  const cityOptions = (page: Page) => page.getByRole('listbox', { name: 'Ciudades' }).getByRole('option');

  /** The share of an element inside the viewport (0: off screen). */
  const inView = (page: Page, selector: string) =>
    page.locator(selector).first().evaluate((el) => {
      const r = (el as unknown as { getBoundingClientRect(): { top: number; bottom: number; height: number } }).getBoundingClientRect();
      const style = (globalThis as unknown as { getComputedStyle(e: unknown): { visibility: string } }).getComputedStyle(el);
      const h = (globalThis as unknown as { innerHeight: number }).innerHeight;
      if (style.visibility === 'hidden' || r.height === 0) return 0;
      return Math.max(0, Math.min(r.bottom, h) - Math.max(r.top, 0)) / r.height;
    });

  test('the first 390×844 screen shows the store, its WhatsApp, the product image, name, price, trust line and “Pedir ahora”, without scrolling', async () => {
    const page = await browser.newPage({ viewport: PHONE });
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(urls.CO!);
    await page.locator('.buy img').evaluate((img) => (img as unknown as { decode(): Promise<void> }).decode());
    await page.screenshot({ path: join(SCREENSHOTS, 'buyer-first-screen-phone.png') });
    for (const selector of ['.shop-name', 'a.wa', '.buy img', '.buy h1', '.buy .price strong', '.buy .price s', '.trust', '.buy [data-order-now]'])
      assert.equal(await inView(page, selector), 1, `${selector} is wholly on the first screen`);
    assert.equal(await page.locator('.shop-name').textContent(), 'Tienda Demo Colombia');
    assert.equal(await page.locator('.buy .price strong').textContent(), '$\u00a0159.900', 'the default pack (2 units)');
    assert.equal(await page.locator('.buy .price s').textContent(), '$\u00a0259.800');
    assert.deepEqual(await page.locator('.trust li').allTextContents(), ['Pago contra entrega', 'Entrega en 2 a 5 días hábiles', 'Garantía de 30 días']);
    const wa = new URL((await page.locator('a.wa').getAttribute('href'))!);
    assert.equal(`${wa.origin}${wa.pathname}`, 'https://wa.me/573001234567');
    assert.match(wa.searchParams.get('text') ?? '', /Faja moldeadora/, 'the message names the product');
    const cover = await page.locator('.buy img').evaluate((img) => ({ src: (img as unknown as { currentSrc: string }).currentSrc, w: (img as unknown as { naturalWidth: number }).naturalWidth }));
    assert.match(cover.src, /\/img\/[\w-]{22}-\d+\.avif$/, 'the browser picked a hosted AVIF from the srcset');
    assert.ok(cover.w >= 390, `an image as wide as the screen (${cover.w})`);
    assert.deepEqual([...new Set(requests.map((r) => new URL(r).origin))], [server.url], 'no request to another host');
    await page.close();
  });

  test('“Pedir ahora” takes the buyer to the form with its pack chosen, and an order button is on screen at every scroll position', async () => {
    const page = await browser.newPage({ viewport: PHONE });
    await page.goto(urls.CO!);
    await page.locator('label.pack', { hasText: '1 unidad' }).click();
    await page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0));
    await page.locator('.buy [data-order-now]').click();
    await page.waitForFunction(() => (globalThis as unknown as { scrollY: number }).scrollY > 400);
    assert.equal(await page.locator('input[name=pack]:checked').inputValue(), '2x', 'the button’s pack, the default, is chosen again');
    assert.equal(await page.locator('[data-total]').textContent(), '$\u00a0159.900');
    const height = await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollHeight: number } } }).document.documentElement.scrollHeight);
    for (let y = 0; y <= height; y += 211) {
      await page.evaluate((top) => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, top), y);
      await page.waitForTimeout(60);
      const shares = await Promise.all(['.buy [data-order-now]', '.bar [data-order-now]', 'button[type=submit]'].map((s) => inView(page, s)));
      assert.ok(shares.some((share) => share === 1), `an order button is wholly visible at scroll ${y}: ${shares.join(', ')}`);
    }
    await page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 1200));
    await page.screenshot({ path: join(SCREENSHOTS, 'buyer-scrolled-phone.png') });
    await page.close();
  });

  test('choosing Valle del Cauca and typing “Cali” offers Cali first; the order stores the catalog’s “Santiago de Cali”, never Calima', async () => {
    const page = await browser.newPage({ viewport: PHONE });
    await page.goto(urls.CO!);
    const telefono = phone();
    await page.getByLabel('Nombre completo').fill('Ana Gómez');
    await page.getByLabel('Teléfono celular').fill(telefono);
    await page.getByLabel('Departamento').selectOption('Valle del Cauca');
    const city = await cityBox(page);
    await city.fill('Cali');
    const options = cityOptions(page);
    await options.first().waitFor();
    assert.match((await options.first().textContent()) ?? '', /^CaliSantiago de Cali$/);
    assert.ok((await options.allTextContents()).some((o) => o.startsWith('Calima')), 'Calima is offered too, after Cali');
    assert.equal(await city.getAttribute('aria-expanded'), 'true');
    await page.screenshot({ path: join(SCREENSHOTS, 'buyer-city-combobox-phone.png') });
    // Keyboard: the first option becomes active, Enter chooses it.
    await city.press('ArrowDown');
    assert.equal(await city.getAttribute('aria-activedescendant'), await options.first().getAttribute('id'));
    await city.press('Enter');
    assert.equal(await city.inputValue(), 'Cali');
    assert.equal(await city.getAttribute('aria-expanded'), 'false');
    await page.getByLabel('Dirección').fill('Calle 5 # 38-20');
    await page.getByRole('button', { name: /Pedir ahora/ }).click();
    await page.locator('[data-order-number]').waitFor();
    const [order] = (await sql<{ departamento: string; ciudad: string; ciudad_input: string; needs_review: number }>`SELECT departamento, ciudad, ciudad_input, needs_review FROM orders WHERE telefono = ${telefono}`.execute(server.deps.db)).rows;
    assert.deepEqual(order, { departamento: 'Valle del Cauca', ciudad: 'Santiago de Cali', ciudad_input: 'Santiago de Cali', needs_review: 0 });
    // The confirmation: product, pack, total, the address as shipped, the number, what happens next, the store's WhatsApp.
    assert.match((await page.locator('[data-recap-product]').textContent()) ?? '', /Faja moldeadora · 2 unidades/);
    assert.equal(await page.locator('[data-recap-address]').innerText(), 'Calle 5 # 38-20\nSantiago de Cali, Valle del Cauca');
    assert.match((await page.locator('.recap').textContent()) ?? '', /\$\u00a0159\.900.*Te llamaremos.*Entrega en 2 a 5 días hábiles.*Pagas \$\u00a0159\.900 en efectivo/s);
    const number = await page.locator('[data-order-number]').textContent();
    assert.match((await page.locator('.recap a.wa-cta').getAttribute('href')) ?? '', new RegExp(`^https://wa\\.me/573001234567\\?text=.*${number}$`));
    await page.screenshot({ path: join(SCREENSHOTS, 'buyer-confirmation-phone.png'), fullPage: true });
    await page.close();
  });

  test('a city typed without choosing a region is found by its common name, and choosing it sets the region', async () => {
    const page = await browser.newPage({ viewport: PHONE });
    await page.goto(urls.CO!);
    const city = await cityBox(page);
    await city.fill('cucuta');
    await cityOptions(page).first().waitFor();
    assert.equal(await cityOptions(page).first().textContent(), 'CúcutaSan José de Cúcuta · Norte de Santander');
    await cityOptions(page).first().click();
    assert.equal(await page.getByLabel('Departamento').inputValue(), 'Norte de Santander');
    assert.equal(await page.locator('input[type=hidden][name=ciudad]').inputValue(), 'San José de Cúcuta');
    await page.close();
  });

  test('Colombian, Mexican and Peruvian cities known by another name are found by that name, accents and case aside, and with a typo', async () => {
    const page = await browser.newPage({ viewport: PHONE });
    const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
    const misses: string[] = [];
    for (const country of ['CO', 'MX', 'PE']) {
      await page.goto(urls[country]!);
      const city = await cityBox(page);
      const region = page.locator('select[name=departamento]');
      for (const c of COMMON_CITY_NAMES.filter((x) => x.country === country)) {
        await region.selectOption(c.region);
        for (const typed of [c.common, fold(c.common).toUpperCase()]) {
          await city.fill(typed);
          const first = (await cityOptions(page).first().textContent({ timeout: 2000 }).catch(() => null)) ?? '';
          if (!first.includes(c.official)) misses.push(`${country} ${c.region}: "${typed}" → "${first}" (want ${c.official})`);
        }
      }
    }
    assert.deepEqual(misses, []);
    // One typo away still finds it.
    await page.goto(urls.CO!);
    await page.getByLabel('Departamento').selectOption('Norte de Santander');
    await (await cityBox(page)).fill('Cucuat');
    assert.match((await cityOptions(page).first().textContent()) ?? '', /^Cúcuta/);
    // Names the catalog shortens or lengthens: a leading article, a seat's long name (aliases).
    await page.getByLabel('Departamento').selectOption('');
    for (const [typed, found] of [['El Espinal', /^Espinal/], ['Puerto Inírida', /^Inírida/], ['retiro', /^El Retiro/], ['San Juan de Pasto', /^Pasto/]] as const) {
      await page.getByRole('combobox', { name: 'Ciudad' }).fill(typed);
      assert.match((await cityOptions(page).first().textContent()) ?? '', found, typed);
    }
    await page.close();
  });

  test('after an empty submit, “Revisa los datos marcados.” goes once every field is fixed', async () => {
    const page = await browser.newPage({ viewport: PHONE });
    await page.goto(urls.CO!);
    await page.getByRole('button', { name: /Pedir ahora/ }).click();
    const banner = page.locator('[data-banner]');
    assert.equal(await banner.textContent(), 'Revisa los datos marcados.');
    await page.getByLabel('Nombre completo').fill('Ana Gómez');
    await page.getByLabel('Teléfono celular').fill(phone());
    await page.getByLabel('Departamento').selectOption('Antioquia');
    assert.equal(await banner.textContent(), 'Revisa los datos marcados.', 'still fields to fix');
    await (await cityBox(page)).fill('Medellin');
    await cityOptions(page).filter({ hasText: /^Medellín/ }).click();
    await page.getByLabel('Dirección').fill('Calle 10 # 43-12');
    await page.getByLabel('Dirección').blur();
    assert.equal(await banner.textContent(), '', 'nothing is marked any more');
    assert.equal(await page.locator('.cr-err:not(:empty)').count(), 0);
    await page.close();
  });

  for (const [name, viewport] of [['phone', PHONE], ['desktop', DESKTOP]] as const)
    test(`at ${viewport.width}×${viewport.height} the page, its open city list and the confirmation have no serious or critical axe violation`, async () => {
      // axe is injected as an inline script: this context alone bypasses the page's CSP to run it.
      const context = await browser.newContext({ viewport, bypassCSP: true });
      const page = await context.newPage();
      await page.goto(urls.CO!);
      await page.screenshot({ path: join(SCREENSHOTS, `buyer-page-${name}.png`), fullPage: true });
      await page.getByLabel('Departamento').selectOption('Valle del Cauca');
      await (await cityBox(page)).fill('Cal');
      await cityOptions(page).first().waitFor();
      await page.addScriptTag({ content: AXE });
      const run = () =>
        page.evaluate(async () => {
          const result = await (globalThis as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> } }).axe.run();
          return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
        });
      assert.deepEqual(await run(), [], 'page with the city list open');
      await cityOptions(page).first().click();
      await page.getByLabel('Nombre completo').fill('Ana Gómez');
      await page.getByLabel('Teléfono celular').fill(phone());
      await page.getByLabel('Dirección').fill('Calle 5 # 38-20');
      await page.getByRole('button', { name: /Pedir ahora/ }).click();
      await page.locator('[data-order-number]').waitFor();
      await page.screenshot({ path: join(SCREENSHOTS, `buyer-confirmation-${name}.png`), fullPage: true });
      assert.deepEqual(await run(), [], 'confirmation');
      await context.close();
    });
});
