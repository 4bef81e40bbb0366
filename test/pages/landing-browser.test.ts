// The demo landing page in real headless Chromium on a phone-sized screen (SPEC 13; issue 11): a
// buyer chooses a pack, picks Departamento and Ciudad from the selectors, fills the form, sends it
// and sees the order number; the order is in the database with that pack and price. Field errors,
// double taps, a lost answer, the real rate limiter's 429 with and without JavaScript, screenshots and
// an accessibility check.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { sql } from 'kysely';
import { startServer, type TestServer } from '../helpers/server.ts';
import { DESKTOP, PHONE, SCREENSHOTS, launchBrowser } from '../helpers/browser.ts';
import { OPEN_LIMITS, nextPhone } from '../api/orders/order-kit.ts';
import { until } from '../helpers/wait.ts';
import { runDemo } from '../../src/use-cases/demo.use-case.ts';
import { manualClock } from '../../src/clock.ts';

const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

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
    await page.getByRole('combobox', { name: 'Ciudad' }).fill('Medellin');
    await page.getByRole('listbox', { name: 'Ciudades' }).getByRole('option', { name: /^Medellín/ }).click();
    await page.getByLabel('Dirección').fill('Calle 10 # 43-12, apto 301');
  }

  /** The Idempotency-Key of every order request the page sends, in order (from the browser's own request events). */
  function createRequests(page: Page): string[] {
    const keys: string[] = [];
    page.on('request', (r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/orders/create' && keys.push(r.headers()['idempotency-key'] ?? ''));
    return keys;
  }

  /** How many order requests the server has answered since this call (from its request log). */
  function serverCreates(): () => number {
    const isCreate = (l: Record<string, unknown>) => l.msg === 'request' && l.method === 'POST' && l.path === '/api/orders/create';
    const before = server.logs.filter(isCreate).length;
    return () => server.logs.filter(isCreate).length - before;
  }

  /** The order id the server recorded under an Idempotency-Key. */
  const recordOf = async (key: string) =>
    (JSON.parse((await sql<{ body: string }>`SELECT body FROM idempotency_records WHERE key = ${key}`.execute(server.deps.db)).rows[0]?.body ?? 'null') as { data?: { id?: string } } | null)?.data?.id;

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

  test('a double tap while the first answer is on its way sends one request, with an attempt key, and creates one order', async () => {
    const page = await browser.newPage({ viewport: PHONE });
    await page.goto(url);
    const sent = createRequests(page);
    // The first answer is held until the second tap has been handled by the page.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/api/orders/create', async (route) => {
      await held;
      await route.continue();
    });
    const served = serverCreates();
    const telefono = phone();
    await fill(page, telefono);
    const button = page.getByRole('button', { name: /Pedir ahora/ });
    await button.click();
    await page.locator('form').dispatchEvent('submit');
    assert.equal(await page.locator('button[type=submit]').isDisabled(), true, 'the button is off while the first answer is on its way');
    release();
    await page.locator('[data-order-number]').waitFor();
    assert.equal(sent.length, 1, `requests sent: ${JSON.stringify(sent)}`);
    assert.match(sent[0]!, UUID);
    await until('the server to log the create', () => served() >= 1);
    assert.equal(served(), 1, 'the server received one create');
    const orders = await ordersOf(telefono);
    assert.equal(orders.length, 1);
    assert.equal(await recordOf(sent[0]!), orders[0]!.id);
    await page.close();
  });

  test('a retry after a lost answer sends a second request with the same Idempotency-Key: the order exists once', async () => {
    const page = await browser.newPage({ viewport: PHONE });
    await page.goto(url);
    const sent = createRequests(page);
    let first = true;
    await page.route('**/api/orders/create', async (route) => {
      if (first) {
        first = false;
        // The order is created, but the answer never reaches the phone.
        await route.fetch();
        await route.abort('connectionreset');
      } else await route.continue();
    });
    const served = serverCreates();
    const telefono = phone();
    await fill(page, telefono);
    await page.getByRole('button', { name: /Pedir ahora/ }).click();
    await page.locator('[data-banner]').filter({ hasText: /No hay conexión/ }).waitFor();
    await page.getByRole('button', { name: /Pedir ahora/ }).click();
    await page.locator('[data-order-number]').waitFor();
    assert.equal(sent.length, 2, `requests sent: ${JSON.stringify(sent)}`);
    assert.equal(sent[0], sent[1]);
    assert.match(sent[0]!, UUID);
    await until('the server to log both creates', () => served() >= 2);
    assert.equal(served(), 2, 'both requests reached the server');
    const orders = await ordersOf(telefono);
    assert.equal(orders.length, 1);
    assert.equal(await recordOf(sent[0]!), orders[0]!.id, 'the second request was answered from the first one’s record');
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

  describe('against the real order rate limiter (1 order per client IP per minute)', () => {
    // The server's clock: each test starts 58 s into a fresh minute, so the limiter answers Retry-After 2.
    const clock = manualClock(Date.UTC(2030, 0, 1, 0, 0, 58));
    let limited: TestServer;
    let limitedUrl = '';
    before(async () => {
      limited = await startServer({ ...OPEN_LIMITS, rateIpPerMin: 1 }, { clock });
      limitedUrl = `${limited.url}/l/${(await runDemo(limited.deps)).landing.slug}`;
    });
    after(() => limited.close());

    const storedFor = async (telefono: string) => (await sql<{ id: string }>`SELECT id FROM orders WHERE telefono = ${telefono}`.execute(limited.deps.db)).rows.length;

    /** Moves to 58 s into the next minute and spends this address's one order of it (a no-script post from 127.0.0.1, as the browser's). */
    async function spendTheMinute(): Promise<void> {
      const now = clock.now().getTime();
      clock.set(new Date(Math.floor(now / 60_000) * 60_000 + 60_000 + 58_000));
      const fields = { nombre: 'Ana Gómez', telefono: nextPhone(), departamento: 'Antioquia', ciudad: 'Medellín', direccion: 'Calle 10 # 43-12', pack: '1x' };
      const res = await fetch(limitedUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
      assert.equal(res.status, 200, await res.text());
    }

    test('with the script, a 429 of the limiter shows how long to wait, keeps the button off for exactly Retry-After seconds, and the next try goes through', async () => {
      await spendTheMinute();
      const page = await browser.newPage({ viewport: PHONE });
      // The page's timers run on a clock the test moves: "2 seconds" is checked without waiting for them.
      await page.clock.install({ time: clock.now() });
      await page.goto(limitedUrl);
      const telefono = phone();
      await fill(page, telefono);
      await page.clock.pauseAt(clock.now().getTime() + 60_000);
      const button = page.getByRole('button', { name: /Pedir ahora/ });
      const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/orders/create');
      await button.click();
      const refused = await answered;
      assert.equal(refused.status(), 429);
      assert.equal(await refused.headerValue('retry-after'), '2');
      assert.equal(((await refused.json()) as { success: boolean }).success, false);
      await page.locator('[data-banner]').filter({ hasText: 'Espera 2 segundos' }).waitFor();
      assert.equal(await button.isDisabled(), true);
      assert.equal(await storedFor(telefono), 0, 'the refused order is not stored');
      await page.clock.runFor(1_999);
      assert.equal(await button.isDisabled(), true, 'still off just before Retry-After has passed');
      await page.clock.runFor(1);
      assert.equal(await button.isDisabled(), false, 'on again once Retry-After has passed');
      // The limiter's window has passed for the server too.
      clock.advance(2_000);
      await button.click();
      const number = page.locator('[data-order-number]');
      await number.waitFor();
      const [order] = (await sql<OrderRow>`SELECT order_number FROM orders WHERE telefono = ${telefono}`.execute(limited.deps.db)).rows;
      assert.ok(order, 'the order is stored');
      assert.equal(await storedFor(telefono), 1);
      assert.equal(await number.textContent(), String(order.order_number));
      await page.close();
    });

    test('with JavaScript off, a 429 of the limiter answers the form again with how long to wait and the buyer’s values, storing nothing', async () => {
      await spendTheMinute();
      const context = await browser.newContext({ viewport: PHONE, javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto(limitedUrl);
      const telefono = phone();
      await page.getByLabel('Nombre completo').fill('Luis Pérez');
      await page.getByLabel('Teléfono celular').fill(telefono);
      await page.getByLabel('Departamento').selectOption('Antioquia');
      await page.getByLabel('Ciudad').fill('Envigado');
      await page.getByLabel('Dirección').fill('Carrera 43A # 1-50');
      const answered = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname.startsWith('/l/'));
      await page.getByRole('button', { name: /Pedir ahora/ }).click();
      const refused = await answered;
      assert.equal(refused.status(), 429);
      assert.equal(await refused.headerValue('retry-after'), '2');
      await page.locator('[data-banner]').filter({ hasText: 'Demasiados intentos. Espera 2 segundos e inténtalo de nuevo.' }).waitFor();
      assert.equal(await page.getByLabel('Nombre completo').inputValue(), 'Luis Pérez');
      assert.equal(await page.getByLabel('Teléfono celular').inputValue(), telefono);
      assert.equal(await storedFor(telefono), 0);
      await context.close();
    });
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
