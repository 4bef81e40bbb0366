// The demo landing page in real headless Chromium on a phone-sized screen (SPEC 13; issue 11): a
// buyer chooses a pack, picks Departamento and Ciudad from the selectors, fills the form, sends it
// and sees the order number; the order is in the database with that pack and price. Field errors,
// double taps, JavaScript off, screenshots and an accessibility check.
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
import { runDemo } from '../../src/use-cases/demo.use-case.ts';

const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface OrderRow {
  id: string;
  order_number: number;
  pack: string;
  total_price_minor: number;
  landing_page_id: string | null;
  departamento: string;
  ciudad: string;
  telefono: string;
}

describe('the demo landing page in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let landingId = '';
  let url = '';
  let phoneSeq = 0;
  const phone = () => `310${String(4_000_000 + ++phoneSeq).padStart(7, '0')}`;

  before(async () => {
    server = await startServer(OPEN_LIMITS);
    const demo = await runDemo(server.deps);
    landingId = demo.landing.id;
    url = `${server.url}/l/${demo.landing.slug}`;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server.close();
  });

  const ordersOf = async (telefono: string) =>
    (await sql<OrderRow>`SELECT id, order_number, pack, total_price_minor, landing_page_id, departamento, ciudad, telefono FROM orders WHERE telefono = ${telefono}`.execute(server.deps.db)).rows;

  async function fill(page: Page, telefono: string, over: { nombre?: string } = {}) {
    await page.getByLabel('Nombre completo').fill(over.nombre ?? 'Ana Gómez');
    await page.getByLabel('Teléfono celular').fill(telefono);
    await page.getByLabel('Departamento').selectOption('Antioquia');
    await page.locator('select#f-ciudad').selectOption('Medellín');
    await page.getByLabel('Dirección').fill('Calle 10 # 43-12, apto 301');
  }

  test('a buyer on a 390×844 phone chooses a pack, picks region and city, orders and sees the order number stored with that pack and price', async () => {
    const page = await browser.newPage({ viewport: PHONE });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(url);
    await page.screenshot({ path: join(SCREENSHOTS, 'landing-phone.png') });
    assert.equal(await page.locator('input[name=pack]:checked').inputValue(), '2x', 'the default pack is pre-selected');
    assert.equal(await page.locator('.pack s').first().textContent(), '$\u00a0129.900', 'compare-at prices are struck through');
    await page.locator('label.pack', { hasText: '3 unidades' }).click();
    assert.equal(await page.locator('[data-total]').textContent(), '$\u00a0219.900');
    const telefono = phone();
    await fill(page, telefono);
    await page.screenshot({ path: join(SCREENSHOTS, 'landing-phone-form.png'), fullPage: true });
    await page.getByRole('button', { name: /Pedir ahora/ }).click();
    const number = page.locator('[data-order-number]');
    await number.waitFor();
    const [order] = await ordersOf(telefono);
    assert.ok(order, 'the order is stored');
    assert.equal(await number.textContent(), String(order.order_number));
    assert.equal(order.pack, '3x');
    assert.equal(order.total_price_minor, 21_990_000);
    assert.equal(order.landing_page_id, landingId);
    assert.deepEqual([order.departamento, order.ciudad], ['Antioquia', 'Medellín']);
    await page.screenshot({ path: join(SCREENSHOTS, 'landing-phone-confirmation.png') });
    assert.deepEqual(problems, []);
    const origins = new Set(requests.map((r) => new URL(r).origin));
    assert.deepEqual([...origins], [server.url], 'no third-party request');
    await page.close();
  });

  test('a field the server refuses shows its Spanish message under that field and nothing is stored', async () => {
    const page = await browser.newPage({ viewport: PHONE });
    await page.goto(url);
    // Seven digits pass the page's own check but are no Colombian mobile: the server says so.
    const telefono = '1234567';
    await fill(page, telefono);
    await page.getByRole('button', { name: /Pedir ahora/ }).click();
    const error = page.locator('#e-telefono');
    await error.filter({ hasText: /número de celular válido/ }).waitFor();
    assert.equal(await page.getByLabel('Teléfono celular').getAttribute('aria-invalid'), 'true');
    assert.equal((await ordersOf(telefono)).length, 0);
    await page.close();
  });

  test('an empty form is stopped by the page itself with a message under each required field', async () => {
    const page = await browser.newPage({ viewport: PHONE });
    await page.goto(url);
    let posted = 0;
    page.on('request', (r) => r.method() === 'POST' && posted++);
    await page.getByRole('button', { name: /Pedir ahora/ }).click();
    for (const field of ['nombre', 'telefono', 'departamento', 'ciudad', 'direccion']) assert.notEqual((await page.locator(`#e-${field}`).textContent())?.trim(), '', field);
    assert.equal(posted, 0);
    await page.close();
  });

  test('a double tap while the first answer is slow creates one order, both requests carrying the same Idempotency-Key', async () => {
    const page = await browser.newPage({ viewport: PHONE });
    await page.goto(url);
    const keys: string[] = [];
    await page.route('**/api/orders/create', async (route) => {
      keys.push(route.request().headers()['idempotency-key'] ?? '');
      await new Promise((r) => setTimeout(r, 400));
      await route.continue();
    });
    const telefono = phone();
    await fill(page, telefono);
    const button = page.getByRole('button', { name: /Pedir ahora/ });
    await button.click();
    await page.locator('form').dispatchEvent('submit');
    await page.locator('[data-order-number]').waitFor();
    assert.equal((await ordersOf(telefono)).length, 1);
    assert.ok(keys.length >= 1 && keys.every((k) => k === keys[0] && k.length > 10), JSON.stringify(keys));
    await page.close();
  });

  test('a retry after a lost answer reuses the attempt key: the order exists once', async () => {
    const page = await browser.newPage({ viewport: PHONE });
    await page.goto(url);
    const keys: string[] = [];
    let first = true;
    await page.route('**/api/orders/create', async (route) => {
      keys.push(route.request().headers()['idempotency-key'] ?? '');
      if (first) {
        first = false;
        // The order is created, but the answer never reaches the phone.
        await route.fetch();
        await route.abort('connectionreset');
      } else await route.continue();
    });
    const telefono = phone();
    await fill(page, telefono);
    await page.getByRole('button', { name: /Pedir ahora/ }).click();
    await page.locator('[data-banner]').filter({ hasText: /No hay conexión/ }).waitFor();
    await page.getByRole('button', { name: /Pedir ahora/ }).click();
    await page.locator('[data-order-number]').waitFor();
    assert.equal(keys.length, 2);
    assert.equal(keys[0], keys[1]);
    assert.equal((await ordersOf(telefono)).length, 1);
    await page.close();
  });

  test('a 429 shows how long to wait, keeps the button off for Retry-After seconds, and the next try goes through', async () => {
    const page = await browser.newPage({ viewport: PHONE });
    await page.goto(url);
    let limited = true;
    await page.route('**/api/orders/create', async (route) => {
      if (limited) {
        limited = false;
        await route.fulfill({ status: 429, headers: { 'retry-after': '2', 'content-type': 'application/json' }, body: JSON.stringify({ success: false, error: 'Too many requests, retry later' }) });
      } else await route.continue();
    });
    const telefono = phone();
    await fill(page, telefono);
    const button = page.getByRole('button', { name: /Pedir ahora/ });
    await button.click();
    await page.locator('[data-banner]').filter({ hasText: 'Espera 2 segundos' }).waitFor();
    assert.equal(await button.isDisabled(), true);
    await page.waitForFunction(() => !(globalThis as unknown as { document: { querySelector(s: string): { disabled: boolean } } }).document.querySelector('button[type=submit]').disabled, undefined, { timeout: 5000 });
    await button.click();
    await page.locator('[data-order-number]').waitFor();
    assert.equal((await ordersOf(telefono)).length, 1);
    await page.close();
  });

  test('with JavaScript off the plain form posts and answers the confirmation with the order number', async () => {
    const context = await browser.newContext({ viewport: PHONE, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(url);
    const telefono = phone();
    await page.getByLabel('Nombre completo').fill('Luis Pérez');
    await page.getByLabel('Teléfono celular').fill(telefono);
    await page.getByLabel('Departamento').selectOption('Antioquia');
    await page.getByLabel('Ciudad').fill('Envigado');
    await page.getByLabel('Dirección').fill('Carrera 43A # 1-50');
    await page.locator('label.pack', { hasText: '1 unidad' }).click();
    await page.getByRole('button', { name: /Pedir ahora/ }).click();
    const number = page.locator('[data-order-number]');
    await number.waitFor();
    const [order] = await ordersOf(telefono);
    assert.ok(order);
    assert.equal(await number.textContent(), String(order.order_number));
    assert.equal(order.pack, '1x');
    assert.equal(order.total_price_minor, 8_990_000);
    await page.screenshot({ path: join(SCREENSHOTS, 'landing-nojs-confirmation.png') });
    await context.close();
  });

  test('with JavaScript off a refused form comes back with the buyer’s values and the Spanish reason under the field', async () => {
    const context = await browser.newContext({ viewport: PHONE, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(url);
    await page.getByLabel('Nombre completo').fill('Luis Pérez');
    await page.getByLabel('Teléfono celular').fill('12');
    await page.getByRole('button', { name: /Pedir ahora/ }).evaluate((b) => (b as unknown as { form: { setAttribute(name: string, value: string): void } }).form.setAttribute('novalidate', ''));
    await page.getByRole('button', { name: /Pedir ahora/ }).click();
    await page.locator('#e-telefono').filter({ hasText: /número de celular/ }).waitFor();
    assert.equal(await page.getByLabel('Nombre completo').inputValue(), 'Luis Pérez');
    await context.close();
  });

  test('the page at 1280×800 is written as a screenshot and axe-core finds no serious or critical violation', async () => {
    // axe is injected as an inline script: this context alone bypasses the page's CSP to run it.
    const context = await browser.newContext({ viewport: DESKTOP, bypassCSP: true });
    const page = await context.newPage();
    await page.goto(url);
    await page.screenshot({ path: join(SCREENSHOTS, 'landing-desktop.png'), fullPage: true });
    await page.addScriptTag({ content: AXE });
    const violations = (await page.evaluate(async () => {
      const result = await (globalThis as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> } }).axe.run();
      return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
    })) as { id: string; impact: string }[];
    const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(serious, [], JSON.stringify(violations));
    await context.close();
  });
});
