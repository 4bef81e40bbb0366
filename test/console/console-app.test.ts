// The support console's first screens (issue 24 §1, §3, §4, §6) rendered with ink-testing-library
// over a real database and the real account operations: the header lists the screens, the orders
// list refreshes on its own and keeps its selection, j/k and Enter open an order's detail (address
// as typed and as shipped, push state, timeline), Esc goes back, 2 shows the city review queue, ?
// the keys; a user signs in with the OAuth users' email and password and sees only their account.
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createElement } from 'react';
import { cleanup, render } from 'ink-testing-library';
import { openShop, orderBody, postOrder, seedShop, type Shop } from '../helpers/fixtures.ts';
import type { TestServer } from '../helpers/server.ts';
import { until } from '../helpers/wait.ts';
import { OPEN_LIMITS, nextPhone } from '../api/orders/order-kit.ts';
import { ConsoleApp } from '../../src/console/components/console-app.tsx';
import { terminalPreferences } from '../../src/config.ts';
import { localSession, userSession, type ConsoleSession } from '../../src/console/console-session.ts';
import { CONSOLE_TEXT, consoleLang } from '../../src/console/console-text.ts';
import { createUser } from '../../src/use-cases/accounts/accounts.use-case.ts';
import type { App } from '../../src/app.ts';

const ESC = '\u001B';
const DOWN = '\u001B[B';
const pause = (ms = 60) => new Promise((r) => setTimeout(r, ms));

describe('codrail console (ink)', { timeout: 60_000 }, () => {
  let server: TestServer;
  let shop: Shop;
  let other: Shop;
  const numbers: Record<string, number> = {};

  const place = async (s: Shop, name: string, over: Record<string, unknown> = {}) => {
    const res = await postOrder(server.url, orderBody(s, { telefono: nextPhone(), ...over }), { authorization: `Bearer ${s.secretKey}` });
    assert.equal(res.status, 200, await res.clone().text());
    numbers[name] = ((await res.json()) as { data: { order_number: number } }).data.order_number;
  };

  before(async () => {
    ({ server, shop } = await openShop(OPEN_LIMITS));
    await place(shop, 'medellin', { nombre: 'Ana Gómez', departamento: 'Antioquia', ciudad: 'Medellin' });
    await place(shop, 'flagged', { nombre: 'Luis Pérez', departamento: 'Antioquia', ciudad: 'Zzyzx' });
    other = await seedShop(server.deps);
    await place(other, 'foreign', { nombre: 'Otra Cuenta' });
    await createUser(server.deps, { account_id: shop.accountId, email: 'soporte@tienda.test', password: 'clave-de-soporte-1', role: 'support' });
  });
  // A failed assertion must not leave an app mounted: its refresh timer would keep the process alive.
  afterEach(() => cleanup());
  after(() => server.close());

  const open = (session: ConsoleSession, lang: 'es' | 'en' = 'en') => render(createElement(ConsoleApp, { session, text: CONSOLE_TEXT[lang], refreshMs: 100, color: false }));
  const local = () => localSession(server.deps as unknown as App);
  const frameHas = async (frame: () => string | undefined, text: string | RegExp) =>
    // Generous: the suite runs beside Chromium and Lighthouse on two cores; a passing wait returns at once.
    until(`the console to show ${text}`, () => (typeof text === 'string' ? frame()?.includes(text) : text.test(frame() ?? '')) === true, 15_000);

  test('the header lists the screens and the list shows every order, newest first, cut to 80 columns', async () => {
    const app = open(local());
    await frameHas(app.lastFrame, 'Luis Pérez');
    const frame = app.lastFrame()!;
    assert.match(frame.split('\n')[0]!, /codrail console +1 Orders +2 Review +operator \(--local\)/);
    assert.ok(frame.indexOf('Luis Pérez') < frame.indexOf('Ana Gómez'), 'newest first');
    assert.match(frame, /Medellín, Antioquia/, 'the city as stored');
    assert.ok(frame.split('\n').every((line) => line.length <= 100), 'no line wider than the terminal');
    assert.match(frame, /↑↓\/j k move · Enter open/);
    app.unmount();
  });

  test('a new order appears on its own, and the selection stays on its order', async () => {
    const app = open(local());
    await frameHas(app.lastFrame, 'Luis Pérez');
    // From the newest (Otra Cuenta) down to Luis Pérez, one key at a time, each seen on screen.
    for (let i = 0; i < 5 && !/^›.*Luis Pérez/m.test(app.lastFrame()!); i++) {
      app.stdin.write('j');
      await pause(150);
    }
    await frameHas(app.lastFrame, /^›.*Luis Pérez/m);
    await place(shop, 'late', { nombre: 'Marta Ruiz', departamento: 'Antioquia', ciudad: 'Envigado' });
    await frameHas(app.lastFrame, 'Marta Ruiz');
    assert.match(app.lastFrame()!, /^›.*Luis Pérez/m, 'the selection stayed on its order');
    app.stdin.write('\r');
    await frameHas(app.lastFrame, `#${numbers.flagged}`);
    assert.match(app.lastFrame()!, /Luis Pérez/, 'Enter opened the order that was selected before the new one came');
    app.unmount();
  });

  test('Enter opens the detail: buyer, address as shipped and as typed, pack, push state, timeline; Esc goes back', async () => {
    const app = open(local());
    await frameHas(app.lastFrame, 'Ana Gómez');
    // Down until Ana Gómez's row carries the selection mark, then open it.
    for (let i = 0; i < 6 && !/^›.*Ana Gómez/m.test(app.lastFrame()!); i++) {
      app.stdin.write(DOWN);
      await pause(150);
    }
    await frameHas(app.lastFrame, /^›.*Ana Gómez/m);
    assert.match(app.lastFrame()!, /^›.*Ana Gómez/m, 'the selected row is marked without colour');
    app.stdin.write('\r');
    await frameHas(app.lastFrame, `#${numbers.medellin}`);
    const frame = app.lastFrame()!;
    assert.match(frame, new RegExp(`#${numbers.medellin} +pending`));
    assert.match(frame, /Address \(as shipped\) +Calle 10 # 43-12, Medellín, Antioquia/);
    assert.match(frame, /Address \(as typed\) +Medellin, Antioquia/);
    assert.match(frame, /Push to the platform +queued/);
    assert.match(frame, /order\.created/);
    assert.match(frame, /Esc back/);
    app.stdin.write(ESC);
    await frameHas(app.lastFrame, 'Enter open');
    app.unmount();
  });

  test('2 shows the review queue: only the order whose city awaits review; 1 goes back to every order', async () => {
    const app = open(local());
    await frameHas(app.lastFrame, 'Ana Gómez');
    app.stdin.write('2');
    await until('the review queue', () => !app.lastFrame()!.includes('Ana Gómez') && app.lastFrame()!.includes('Luis Pérez'), 15_000);
    assert.doesNotMatch(app.lastFrame()!, /Otra Cuenta/);
    app.stdin.write('1');
    await frameHas(app.lastFrame, 'Ana Gómez');
    app.unmount();
  });

  test('? shows every key, Esc hides it; Spanish when asked', async () => {
    const app = open(local(), 'es');
    await frameHas(app.lastFrame, 'Pedidos');
    app.stdin.write('?');
    await frameHas(app.lastFrame, 'Teclas');
    for (const row of CONSOLE_TEXT.es.helpRows) assert.ok(app.lastFrame()!.includes(row[1]), row[1]);
    app.stdin.write(ESC);
    await until('the help to close', () => !app.lastFrame()!.includes('Teclas'), 15_000);
    app.unmount();
  });

  test('a support user signs in with email and password and sees only their account’s orders; a wrong password is refused', async () => {
    await assert.rejects(userSession(server.deps as unknown as App, 'soporte@tienda.test', 'otra-clave'), /Wrong email or password/);
    const session = await userSession(server.deps as unknown as App, 'soporte@tienda.test', 'clave-de-soporte-1');
    assert.equal(session.role, 'support');
    assert.equal(session.may('create_store'), false, 'support never changes stores');
    const app = open(session);
    await frameHas(app.lastFrame, 'Ana Gómez');
    assert.match(app.lastFrame()!, /soporte@tienda\.test \(support\)/);
    assert.doesNotMatch(app.lastFrame()!, /Otra Cuenta/, 'another account’s orders are never listed');
    app.unmount();
  });

  test('the language follows --lang, else the locale; NO_COLOR turns colour off', () => {
    const locale = (env: Record<string, string>) => terminalPreferences(env).locale;
    assert.equal(consoleLang('en', locale({ LANG: 'es_CO.UTF-8' })), 'en');
    assert.equal(consoleLang(undefined, locale({ LANG: 'es_CO.UTF-8' })), 'es');
    assert.equal(consoleLang(undefined, locale({ LC_ALL: 'en_US.UTF-8', LANG: 'es_MX' })), 'en');
    assert.equal(consoleLang(undefined, locale({})), 'en');
    assert.equal(terminalPreferences({ NO_COLOR: '1' }).noColor, true);
    assert.equal(terminalPreferences({}).noColor, false);
  });
});
