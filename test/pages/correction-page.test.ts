// The buyer's one-time address-correction page (issue 25 §1), reached the real way: a live order of
// a store that asks on WhatsApp, the request accepted by the WhatsApp simulator, the buyer's
// "Corregir dirección" tap through the signed webhook, and the link the reply brings. A valid link
// opens the order's address; bad fields re-render with their errors and change nothing; a good
// form saves the address (city canonicalized again), confirms the order as the buyer's and uses the
// link up, once: of two sends one wins whole. Unknown, used, expired links, and links of an order no
// longer pending or already at the platform, open nothing.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { startServer, type TestServer } from '../helpers/server.ts';
import { assignNumber, orderBody, postOrder, seedShop, type Shop } from '../helpers/fixtures.ts';
import { OPEN_LIMITS, eventsOf, expectCreated, liveHeaders, nextPhone, orderRow } from '../api/orders/order-kit.ts';
import { until } from '../helpers/wait.ts';
import { startWhatsappSim, type WhatsappSim } from '../../src/whatsapp/simulator.ts';
import { startPushWorker, startWhatsappWorker } from '../../src/use-cases/fulfillment/push-worker.use-case.ts';
import { startSimulator } from '../../src/platforms/generic/simulator.ts';
import { request } from 'node:http';
import { manualClock } from '../../src/clock.ts';
import type { OrderRow } from '../../src/db/queries/orders.queries.ts';

const APP_SECRET = 'meta-app-secret-correction';
const HOUR_MS = 3_600_000;
const GONE = 'Este enlace ya no sirve';

interface Link {
  orderId: string;
  /** The link as the buyer received it on WhatsApp. */
  url: string;
  token: string;
  to: string;
}

interface Page {
  status: number;
  headers: Headers;
  body: string;
}

describe('the buyer’s one-time address-correction page', () => {
  // Noon in Bogotá; each step moves it a little, and the expiry test moves it two days.
  const clock = manualClock('2026-03-10T17:00:00.000Z');
  let server: TestServer;
  let whatsapp: WhatsappSim;
  let shop: Shop;
  let stopWorker: () => Promise<void> = async () => {};

  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${server.url}/api/v1${path}`, { ...init, headers: { authorization: `Bearer ${shop.secretKey}`, 'content-type': 'application/json' } });
  const digits = (e164: string) => e164.replace('+', '');

  before(async () => {
    server = await startServer(OPEN_LIMITS, { clock, env: { CODRAIL_WHATSAPP_APP_SECRET: APP_SECRET } });
    whatsapp = await startWhatsappSim({ webhookUrl: `${server.url}/api/whatsapp/webhook`, appSecret: APP_SECRET });
    Object.assign(server.deps, { config: { ...server.deps.config, whatsappUrl: whatsapp.url } });
    const worker = startWhatsappWorker(server.deps)!;
    stopWorker = () => worker.stop();
    shop = await seedShop(server.deps);
    const phoneNumberId = await assignNumber(server.deps, shop.accountId);
    const settings = await api(`/stores/${shop.storeId}/whatsapp`, { method: 'PATCH', body: JSON.stringify({ enabled: true, phone_number_id: phoneNumberId }) });
    assert.equal(settings.status, 200, await settings.clone().text());
    const store = await api(`/stores/${shop.storeId}`, { method: 'PATCH', body: JSON.stringify({ confirmation: 'whatsapp' }) });
    assert.equal(store.status, 200, await store.clone().text());
  });
  after(async () => {
    await stopWorker();
    await whatsapp.close();
    await server.close();
  });

  /** A live order in Medellín whose buyer tapped "Corregir dirección": the link their WhatsApp reply brought. */
  async function linkForNewOrder(): Promise<Link> {
    clock.advance(1_000);
    const created = await expectCreated(await postOrder(server.url, orderBody(shop, { telefono: nextPhone() }), liveHeaders(shop)));
    const orderId = created.data.id;
    const to = digits((await orderRow(server.deps, orderId)).telefono_e164);
    const request = (await until('the confirmation request at the simulator', () => whatsapp.messages().find((m) => m.to === to && m.template?.name === 'confirmation_request')))!;
    clock.advance(1_000);
    await whatsapp.reply(request.id, { button: 2 });
    const text = (await until('the reply with the link', () => whatsapp.messages().find((m) => m.to === to && m.type === 'text' && /\/c\//.test(m.text ?? ''))?.text))!;
    const url = /https?:\/\/\S+\/c\/([A-Za-z0-9_-]+)/.exec(text);
    assert.ok(url, `a link in: ${text}`);
    assert.match(text, /sirve una vez y vence en 48 horas/);
    // The simulator reports both messages sent and delivered: once that is on the timeline, nothing else writes to the order.
    const count = (types: string[], type: string) => types.filter((t) => t === type).length;
    await until('both messages delivered', async () => {
      const types = (await eventsOf(server.deps, orderId)).map((e) => e.type);
      return count(types, 'whatsapp.sent') === 2 && count(types, 'whatsapp.delivered') === 2;
    });
    return { orderId, url: url[0], token: url[1]!, to };
  }

  async function open(url: string): Promise<Page> {
    const res = await fetch(url);
    return { status: res.status, headers: res.headers, body: await res.text() };
  }

  async function send(url: string, fields: Record<string, string>): Promise<Page> {
    clock.advance(1_000);
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
    return { status: res.status, headers: res.headers, body: await res.text() };
  }

  /** What every answer of the page carries: HTML, never cached, the token never leaked by a Referer, a strict policy. */
  function assertPageHeaders(page: Page): void {
    assert.match(page.headers.get('content-type') ?? '', /^text\/html; charset=utf-8/);
    assert.equal(page.headers.get('cache-control'), 'no-store');
    assert.equal(page.headers.get('referrer-policy'), 'no-referrer');
    assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
    const csp = page.headers.get('content-security-policy') ?? '';
    for (const directive of ["default-src 'none'", "form-action 'self'", "frame-ancestors 'none'", "base-uri 'none'"]) assert.ok(csp.includes(directive), `${directive} in ${csp}`);
    assert.doesNotMatch(page.body, /<script/i, 'the page runs no script');
  }

  function assertGone(page: Page): void {
    assert.equal(page.status, 410, page.body);
    assertPageHeaders(page);
    assert.ok(page.body.includes(GONE), page.body);
    assert.doesNotMatch(page.body, /<form/);
  }

  /** The value an input of the page holds, as the browser would read it (entities left as written). */
  const inputValue = (body: string, name: string) => new RegExp(`<input id="f-${name}" name="${name}" value="([^"]*)"`).exec(body)?.[1];
  const fieldError = (body: string, name: string) => new RegExp(`<p class="cr-err" id="e-${name}" role="alert">([^<]*)</p>`).exec(body)?.[1];
  const stored = async (id: string): Promise<OrderRow> => orderRow(server.deps, id);

  test('the tap sends a link whose token is stored only as its hash, valid for 48 hours', async () => {
    const link = await linkForNewOrder();
    // The clock stands still between the tap and now.
    const tappedAt = clock.now().getTime();
    assert.ok(link.url.startsWith(`${server.deps.config.baseUrl}/c/`), link.url);
    const row = await stored(link.orderId);
    assert.equal(row.correction_token_hash, createHash('sha256').update(link.token).digest('hex'));
    assert.equal(row.confirmation, 'correcting');
    assert.equal(row.correction_expires_at, new Date(tappedAt + 48 * HOUR_MS).toISOString());
    assert.ok(!JSON.stringify(row).includes(link.token), 'the order row does not hold the token');
    assert.ok(!JSON.stringify(await eventsOf(server.deps, link.orderId)).includes(link.token), 'nor does its timeline');
  });

  test('a valid link opens the form filled with the order’s address; opening it does not use it up', async () => {
    const link = await linkForNewOrder();
    for (let i = 0; i < 2; i++) {
      const page = await open(link.url);
      assert.equal(page.status, 200, page.body);
      assertPageHeaders(page);
      assert.match(page.body, /<form class="cr-form" method="post" action="\/c\/[A-Za-z0-9_-]+">/);
      assert.ok(page.body.includes(`action="/c/${link.token}"`), 'the form posts back to the same link');
      assert.match(page.body, /<option selected>Antioquia<\/option>/);
      assert.equal(inputValue(page.body, 'ciudad'), 'Medellín');
      assert.equal(inputValue(page.body, 'direccion'), 'Calle 10 # 43-12');
      assert.equal(inputValue(page.body, 'barrio'), '');
    }
    const row = await stored(link.orderId);
    assert.deepEqual([row.status, row.confirmation, row.correction_token_hash !== null], ['pending', 'correcting', true]);
  });

  test('bad fields answer 400 with their errors and change nothing; the link still works', async () => {
    const link = await linkForNewOrder();
    const before = JSON.stringify(await stored(link.orderId));
    const eventsBefore = (await eventsOf(server.deps, link.orderId)).length;

    const short = await send(link.url, { departamento: 'Antioquia', ciudad: 'Envigado', direccion: 'ab' });
    assert.equal(short.status, 400, short.body);
    assertPageHeaders(short);
    assert.ok(short.body.includes('Revisa los datos marcados.'));
    assert.equal(fieldError(short.body, 'direccion'), 'Escribe la dirección de entrega: calle, número y apartamento (de 5 a 300 caracteres).');
    assert.match(short.body, /id="f-direccion"[^>]*aria-invalid="true"/);
    assert.equal(fieldError(short.body, 'ciudad'), '', 'only the bad field is marked');
    assert.equal(inputValue(short.body, 'direccion'), 'ab', 'what the buyer typed is kept to fix');
    assert.equal(inputValue(short.body, 'ciudad'), 'Envigado');

    const noCity = await send(link.url, { departamento: 'Antioquia', ciudad: '', direccion: 'Carrera 43A # 36 Sur-17' });
    assert.equal(noCity.status, 400, noCity.body);
    assert.equal(fieldError(noCity.body, 'ciudad'), 'Elige o escribe tu ciudad.');
    assert.equal(fieldError(noCity.body, 'direccion'), '');

    assert.equal(JSON.stringify(await stored(link.orderId)), before, 'the order is as it was');
    assert.equal((await eventsOf(server.deps, link.orderId)).length, eventsBefore, 'and its timeline too');
    const again = await open(link.url);
    assert.equal(again.status, 200, 'the link still opens');
    assert.equal(inputValue(again.body, 'direccion'), 'Calle 10 # 43-12');
  });

  test('markup the buyer types is shown as text, never as a tag', async () => {
    const link = await linkForNewOrder();
    const hostile = '<script>alert(1)</script>';
    const page = await send(link.url, { departamento: 'Antioquia', ciudad: '', direccion: hostile, barrio: '"><img src=x onerror=alert(2)>' });
    assert.equal(page.status, 400, page.body);
    assert.equal(inputValue(page.body, 'direccion'), '&lt;script&gt;alert(1)&lt;/script&gt;');
    assert.equal(inputValue(page.body, 'barrio'), '&quot;&gt;&lt;img src=x onerror=alert(2)&gt;');
    assert.ok(!page.body.includes(hostile));
    assert.doesNotMatch(page.body, /<img/i);
    assert.equal((await stored(link.orderId)).direccion, 'Calle 10 # 43-12');

    // Saved, it is shown escaped on the page that says what was saved.
    const done = await send(link.url, { departamento: 'Antioquia', ciudad: 'Medellín', direccion: `Calle 5 # 3-2 ${hostile}`, barrio: '<b>Laureles</b>' });
    assert.equal(done.status, 200, done.body);
    assertPageHeaders(done);
    assert.ok(done.body.includes('Calle 5 # 3-2 &lt;script&gt;alert(1)&lt;/script&gt;'), done.body);
    assert.ok(done.body.includes('&lt;b&gt;Laureles&lt;/b&gt;'));
    assert.doesNotMatch(done.body, /<b>/);
  });

  test('a good form saves the address with its city canonicalized again, confirms the order as the buyer’s and uses the link up', async () => {
    const link = await linkForNewOrder();
    const number = `#${(await stored(link.orderId)).order_number}`;
    const page = await send(link.url, { departamento: 'Antioquia', ciudad: 'envigado', direccion: 'Carrera 43A # 36 Sur-17', barrio: 'Zona Centro', referencia: 'Portón verde' });
    assert.equal(page.status, 200, page.body);
    assertPageHeaders(page);
    assert.ok(page.body.includes(`¡Listo! Tu pedido ${number} quedó confirmado`), page.body);
    assert.match(page.body, /Carrera 43A # 36 Sur-17<br>Zona Centro<br>Envigado, Antioquia/);

    const row = await stored(link.orderId);
    assert.deepEqual(
      { status: row.status, confirmed_by: row.confirmed_by, confirmation: row.confirmation, departamento: row.departamento, ciudad: row.ciudad, city_code: row.city_code, ciudad_input: row.ciudad_input, direccion: row.direccion, barrio: row.barrio, referencia: row.referencia, needs_review: row.needs_review, token: row.correction_token_hash },
      { status: 'confirmed', confirmed_by: 'buyer', confirmation: 'answered', departamento: 'Antioquia', ciudad: 'Envigado', city_code: '05266', ciudad_input: 'envigado', direccion: 'Carrera 43A # 36 Sur-17', barrio: 'Zona Centro', referencia: 'Portón verde', needs_review: 0, token: null },
    );
    const events = await eventsOf(server.deps, link.orderId);
    const changed = events.filter((e) => e.type === 'order.status_changed');
    assert.equal(changed.length, 1);
    assert.equal(changed[0]!.actor, 'buyer');
    assert.equal(JSON.parse(changed[0]!.data).to, 'confirmed');
    assert.ok(events.some((e) => e.type === 'order.buyer_updated' && e.actor === 'buyer'));

    // Support sees the same through the API, and the buyer is thanked on WhatsApp.
    const detail = ((await (await api(`/orders/${link.orderId}`)).json()) as { data: any }).data;
    assert.deepEqual([detail.status, detail.confirmation.confirmed_by, detail.confirmation.state], ['confirmed', 'buyer', 'answered']);
    await until('the thanks on WhatsApp', () => whatsapp.messages().some((m) => m.to === link.to && m.type === 'text' && (m.text ?? '').includes(`Tu pedido ${number} quedó confirmado`)));

    // Used up: a second send and a later visit open nothing, and change nothing.
    const after = JSON.stringify(await stored(link.orderId));
    assertGone(await send(link.url, { departamento: 'Antioquia', ciudad: 'Bello', direccion: 'Calle 50 # 50-50' }));
    assertGone(await open(link.url));
    assert.equal(JSON.stringify(await stored(link.orderId)), after);
  });

  test('an unknown or malformed link answers the same 410 page, for a visit or a form', async () => {
    const link = await linkForNewOrder();
    // Same shape as a real token, one character off.
    const last = link.token.at(-1) === 'A' ? 'B' : 'A';
    const forged = `${server.url}/c/${link.token.slice(0, -1)}${last}`;
    assertGone(await open(forged));
    assertGone(await send(forged, { departamento: 'Antioquia', ciudad: 'Bello', direccion: 'Calle 50 # 50-50' }));
    assertGone(await open(`${server.url}/c/short`));
    assertGone(await open(`${server.url}/c/${'x'.repeat(65)}`));
    assertGone(await open(`${server.url}/c/${encodeURIComponent('<script>alert(1)</script>')}`));
    assert.equal((await stored(link.orderId)).status, 'pending', 'the real order was not touched');
    assert.equal((await open(link.url)).status, 200, 'and its link still works');
  });

  test('a link of an order that is no longer pending opens nothing', async () => {
    const link = await linkForNewOrder();
    const res = await api(`/orders/${link.orderId}/status`, { method: 'POST', body: JSON.stringify({ status: 'confirmed', note: 'Llamada: confirma la dirección' }) });
    assert.equal(res.status, 200, await res.text());
    const before = JSON.stringify(await stored(link.orderId));
    assertGone(await open(link.url));
    assertGone(await send(link.url, { departamento: 'Antioquia', ciudad: 'Bello', direccion: 'Calle 50 # 50-50' }));
    const row = await stored(link.orderId);
    assert.equal(JSON.stringify(row), before);
    assert.deepEqual([row.status, row.confirmed_by, row.ciudad], ['confirmed', 'support', 'Medellín']);
  });

  test('two sends of one link: one wins whole, the other is 410 and writes nothing', async () => {
    const link = await linkForNewOrder();
    // The first send's body arrives slowly: the second completes meanwhile and uses the link up.
    const slowBody = new URLSearchParams({ departamento: 'Antioquia', ciudad: 'Bello', direccion: 'Calle 50 # 50-50' }).toString();
    const url = new URL(link.url);
    const slow = new Promise<number>((resolve, reject) => {
      const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(slowBody) } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      req.write(slowBody.slice(0, 10));
      setTimeout(() => req.end(slowBody.slice(10)), 400);
    });
    await new Promise((r) => setTimeout(r, 100));
    const fast = await send(link.url, { departamento: 'Antioquia', ciudad: 'envigado', direccion: 'Carrera 43A # 36 Sur-17' });
    assert.equal(fast.status, 200, fast.body);
    assert.equal(await slow, 410, 'the link was used while the slow send was arriving');
    const row = await stored(link.orderId);
    assert.deepEqual([row.status, row.ciudad, row.direccion], ['confirmed', 'Envigado', 'Carrera 43A # 36 Sur-17']);
    const events = (await eventsOf(server.deps, link.orderId)).map((e) => e.type);
    assert.equal(events.filter((t) => t === 'order.buyer_updated').length, 1, 'one correction written');
    assert.equal(events.filter((t) => t === 'order.status_changed').length, 1);
  });

  test('a link of an order already at the platform says it is on its way and changes nothing', async () => {
    const link = await linkForNewOrder();
    // The store pushes at creation (on_create): a platform and its worker take the order now.
    const platform = await startSimulator({});
    const pushes = startPushWorker({ ...server.deps, config: { ...server.deps.config, fulfillmentUrl: platform.url } })!;
    try {
      await until('pushed', async () => (await server.deps.db.selectFrom('fulfillment_jobs').select('state').where('order_id', '=', link.orderId).executeTakeFirst())?.state === 'done');
    } finally {
      await pushes.stop();
      await platform.close();
    }
    const before = JSON.stringify(await stored(link.orderId));
    for (const page of [await open(link.url), await send(link.url, { departamento: 'Antioquia', ciudad: 'Bello', direccion: 'Calle 50 # 50-50' })]) {
      assert.equal(page.status, 410, page.body);
      assertPageHeaders(page);
      assert.ok(page.body.includes('Tu pedido ya va en camino'), page.body);
      assert.doesNotMatch(page.body, /<form/);
    }
    assert.equal(JSON.stringify(await stored(link.orderId)), before, 'nothing changed');
  });

  test('a link expires 48 hours after it was sent', async () => {
    const link = await linkForNewOrder();
    const expires = Date.parse((await stored(link.orderId)).correction_expires_at!);
    clock.set(new Date(expires - 1_000));
    assert.equal((await open(link.url)).status, 200, 'still valid a second before');
    clock.set(new Date(expires));
    const before = JSON.stringify(await stored(link.orderId));
    assertGone(await open(link.url));
    assertGone(await send(link.url, { departamento: 'Antioquia', ciudad: 'envigado', direccion: 'Carrera 43A # 36 Sur-17' }));
    assert.equal(JSON.stringify(await stored(link.orderId)), before, 'nothing changed');
  });
});
