// GET /l/:slug and POST /l/:slug over plain HTTP (SPEC 13; issue 11): what a slow phone receives
// first, caching by version, the 404 page, the security headers, escaping, the size budget, and
// the no-script form post, its refusal by the real order rate limiter included.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { addLanding, addProduct, seedShop, type Shop } from '../../helpers/fixtures.ts';
import { OPEN_LIMITS, counts, nextPhone, storesNothing } from '../orders/order-kit.ts';
import { runDemo } from '../../../src/use-cases/demo.use-case.ts';
import { manualClock } from '../../../src/clock.ts';
import { updateLandingPage, unpublishLandingPage } from '../../../src/use-cases/landings/landings.use-case.ts';
import { OPERATOR } from '../../../src/use-cases/caller.ts';
import { parseWith } from '../../../src/use-cases/validate.ts';
import { UpdateLandingPageInput } from '../../../src/use-cases/landings/landing.schemas.ts';

describe('landing pages over HTTP', () => {
  let server: TestServer;
  let demo: Awaited<ReturnType<typeof runDemo>>;
  let url = '';
  before(async () => {
    server = await startServer(OPEN_LIMITS);
    demo = await runDemo(server.deps);
    url = `${server.url}/l/${demo.landing.slug}`;
  });
  after(() => server.close());

  test('the first HTML answer is the whole page: content, packs and form, the stylesheet inline, the one script deferred', async () => {
    const res = await fetch(url);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    const page = await res.text();
    for (const text of ['Faja moldeadora — pago contra entrega', 'Más vendido', '$\u00a0159.900', 'name="nombre"', 'name="telefono"', 'Departamento', '<option>Antioquia</option>', 'name="website"']) assert.ok(page.includes(text), text);
    assert.match(page, /<style>[^<]+<\/style>/);
    assert.deepEqual([...page.matchAll(/<script\b[^>]*>/g)].map((m) => m[0].replace(/\?v=[\w-]{22}"/, '?v=…"')), ['<script src="/checkout.js?v=…" defer>', '<script type="application/json" id="codrail-page">']);
    assert.doesNotMatch(page, /<link rel="stylesheet"/, 'nothing to fetch before the first paint');
    // Nothing the page loads comes from elsewhere; the one link out is the store's WhatsApp (a navigation, not a fetch).
    for (const [, attr, value] of page.matchAll(/\b(src|srcset|href)="([^"]*)"/g)) {
      if (attr === 'href' && value?.startsWith('https://wa.me/')) continue;
      assert.doesNotMatch(value ?? '', /^(?:https?:)?\/\/(?!127\.0\.0\.1)/, `${attr}="${value}" loads nothing from elsewhere`);
    }
  });

  test('the form carries what a phone keyboard needs and the server’s limits', async () => {
    const page = await (await fetch(url)).text();
    assert.match(page, /name="telefono" type="tel" value="" autocomplete="tel-national" inputmode="tel" required minlength="6" maxlength="20"/);
    assert.match(page, /name="nombre" type="text" value="" autocomplete="name" required minlength="2" maxlength="100"/);
    assert.match(page, /name="direccion" type="text" value="" autocomplete="street-address" required minlength="5" maxlength="300"/);
    assert.match(page, /<label for="f-telefono">Teléfono celular<\/label>/);
  });

  test('HTML, CSS and script weigh at most 50 KB gzip together', async () => {
    const html = Buffer.from(await (await fetch(url)).arrayBuffer());
    const script = Buffer.from(await (await fetch(`${server.url}/checkout.js`)).arrayBuffer());
    const total = gzipSync(html).length + gzipSync(script).length;
    assert.ok(total <= 50 * 1024, `${total} bytes gzip`);
  });

  test('the page has a strict CSP, no framing, a strong ETag per version with 304, and gzip', async () => {
    const res = await fetch(url, { headers: { 'accept-encoding': 'gzip' } });
    const csp = res.headers.get('content-security-policy') ?? '';
    for (const directive of ["default-src 'none'", "script-src 'self'", "frame-ancestors 'none'", "form-action 'self'", "base-uri 'none'"]) assert.ok(csp.includes(directive), directive);
    assert.match(csp, /style-src 'sha256-[A-Za-z0-9+/=]+'/);
    assert.equal(res.headers.get('content-encoding'), 'gzip');
    assert.match(res.headers.get('cache-control') ?? '', /public, max-age=\d+/);
    const etag = res.headers.get('etag')!;
    assert.match(etag, /^"[\w-]+-gzip"$/);
    const again = await fetch(url, { headers: { 'accept-encoding': 'gzip', 'if-none-match': etag } });
    assert.equal(again.status, 304);
  });

  test('editing the landing changes the page and its ETag', async () => {
    const before_ = await fetch(url);
    const etag = before_.headers.get('etag');
    await updateLandingPage(server.deps, OPERATOR, parseWith(UpdateLandingPageInput, { landing_page_id: demo.landing.id, title: 'Faja moldeadora — oferta de hoy' }));
    const after_ = await fetch(url, { headers: { 'if-none-match': etag ?? '' } });
    assert.equal(after_.status, 200);
    assert.notEqual(after_.headers.get('etag'), etag);
    assert.match(await after_.text(), /Faja moldeadora — oferta de hoy/);
  });

  test('an unknown slug and an unpublished page answer the same 404 HTML page', async () => {
    const shop = await seedShop(server.deps);
    const unknown = await fetch(`${server.url}/l/no-existe`);
    assert.equal(unknown.status, 404);
    assert.match(unknown.headers.get('content-type') ?? '', /^text\/html/);
    const text = await unknown.text();
    assert.match(text, /Página no encontrada/);
    await unpublishLandingPage(server.deps, OPERATOR, { landing_page_id: shop.landingId });
    const slug = (await server.deps.db.selectFrom('landing_pages').select('slug').where('id', '=', shop.landingId).executeTakeFirstOrThrow()).slug;
    const unpublished = await fetch(`${server.url}/l/${slug}`);
    assert.equal(unpublished.status, 404);
    assert.equal(await unpublished.text(), text);
  });

  test('what a merchant writes is escaped: a title, a section and an image address cannot inject markup', async () => {
    const shop: Shop = await seedShop(server.deps);
    const evil = '<script>alert(1)</script>"><img src=x onerror=alert(2)>';
    const landing = await addLanding(server.deps, {
      product_id: shop.productId,
      slug: `evil-${shop.storeId.slice(-6)}`,
      title: evil,
      sections: [{ type: 'faq', heading: evil, items: [{ title: evil, text: evil }] }],
      publish: true,
    });
    const page = await (await fetch(`${server.url}/l/${landing.slug}`)).text();
    assert.ok(!page.includes('<script>alert(1)'));
    assert.ok(!page.includes('<img src=x'));
    assert.ok(page.includes('&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(2)&gt;'));
  });

  test('a landing of a draft product is not shown', async () => {
    const shop = await seedShop(server.deps);
    const product = await addProduct(server.deps, { store_id: shop.storeId, name: 'Borrador', packs: [{ quantity: 1, price: 1000 }] });
    const landing = await addLanding(server.deps, { product_id: product.id, slug: `draft-${shop.storeId.slice(-6)}`, publish: true });
    await server.deps.db.updateTable('products').set({ status: 'draft' }).where('id', '=', product.id).execute();
    assert.equal((await fetch(`${server.url}/l/${landing.slug}`)).status, 404);
  });

  describe('the form without script', () => {
    const form = (fields: Record<string, string>) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
    const valid = () => ({ nombre: 'Ana Gómez', telefono: nextPhone(), departamento: 'Antioquia', ciudad: 'Medellin', direccion: 'Calle 10 # 43-12', pack: '3x' });

    test('a valid post answers the confirmation with the order number and stores the order priced from the chosen pack', async () => {
      const fields = valid();
      const res = await form(fields);
      assert.equal(res.status, 200);
      const page = await res.text();
      const number = /data-order-number>(\d+)</.exec(page)?.[1];
      const order = await server.deps.db.selectFrom('orders').selectAll().where('telefono', '=', fields.telefono).executeTakeFirstOrThrow();
      assert.equal(number, String(order.order_number));
      assert.equal(order.pack, '3x');
      assert.equal(order.total_price_minor, 21_990_000);
      assert.equal(order.landing_page_id, demo.landing.id);
      assert.equal(order.ciudad, 'Medellín');
      // Issue 23 §4: what was ordered, the address as it will be shipped (the catalog's "Medellín" for
      // the typed "Medellin"), what happens next and the store's WhatsApp naming the order.
      assert.match(page, /data-recap-product><strong>Faja moldeadora<\/strong> · 3 unidades</);
      assert.match(page, /data-recap-total>\$\u00a0219\.900</);
      assert.match(page, /data-recap-address>Calle 10 # 43-12<br>Medellín, Antioquia</);
      assert.match(page, /Pagas \$\u00a0219\.900 en efectivo cuando lo recibas\./);
      assert.match(page, /Entrega en 2 a 5 días hábiles/);
      assert.ok(page.includes(`href="https://wa.me/573001234567?text=${encodeURIComponent(`Hola, hice el pedido ${number}`)}"`), 'the store’s WhatsApp, naming the order');
    });

    test('a refused post answers 400 with the values kept and a Spanish message under each bad field, storing nothing', async () => {
      const res = await storesNothing(server.deps, () => form({ nombre: 'Ana <b>', telefono: '12', departamento: '', ciudad: '', direccion: '' }));
      assert.equal(res.status, 400);
      const page = await res.text();
      assert.match(page, /id="e-telefono" role="alert">Escribe un número de celular válido/);
      assert.match(page, /name="nombre" type="text" value="Ana &lt;b&gt;"/);
      assert.match(page, /aria-invalid="true"/);
    });

    test('the honeypot refuses with the generic message and stores no order', async () => {
      const before_ = await counts(server.deps);
      const res = await form({ ...valid(), website: 'http://spam.example' });
      assert.equal(res.status, 400);
      assert.match(await res.text(), /No pudimos registrar tu pedido/);
      assert.equal((await counts(server.deps)).orders, before_.orders);
    });
  });
});

describe('the form without script against the order rate limit (1 per client IP per minute)', () => {
  // 10 s into a minute: the IP window resets in 50 s.
  const clock = manualClock(Date.UTC(2030, 0, 1, 0, 0, 10));
  let server: TestServer;
  let url = '';
  before(async () => {
    server = await startServer({ ...OPEN_LIMITS, rateIpPerMin: 1 }, { clock });
    url = `${server.url}/l/${(await runDemo(server.deps)).landing.slug}`;
  });
  after(() => server.close());

  const form = (fields: Record<string, string>) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
  const valid = () => ({ nombre: 'Ana Gómez', telefono: nextPhone(), departamento: 'Antioquia', ciudad: 'Medellin', direccion: 'Calle 10 # 43-12', pack: '3x' });
  const ordersOf = (telefono: string) => server.deps.db.selectFrom('orders').select('id').where('telefono', '=', telefono).execute();

  test('a post over the limit answers 429 from the limiter with Retry-After, the form with the values kept and how long to wait, storing nothing; the next window takes it', async () => {
    const first = valid();
    const accepted = await form(first);
    assert.equal(accepted.status, 200, await accepted.clone().text());
    assert.equal((await ordersOf(first.telefono)).length, 1);

    const fields = valid();
    const refused = await storesNothing(server.deps, () => form(fields));
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('retry-after'), '50');
    assert.match(refused.headers.get('content-type') ?? '', /^text\/html/);
    assert.equal(refused.headers.get('cache-control'), 'no-store');
    const page = await refused.text();
    assert.match(page, /data-banner[^>]*>Demasiados intentos\. Espera 50 segundos e inténtalo de nuevo\.</);
    assert.match(page, /name="nombre" type="text" value="Ana Gómez"/);
    assert.ok(page.includes(`value="${fields.telefono}"`), 'the phone is kept');
    assert.equal((await ordersOf(fields.telefono)).length, 0);

    clock.advance(50_000);
    const again = await form(fields);
    assert.equal(again.status, 200, await again.clone().text());
    const number = /data-order-number>(\d+)</.exec(await again.text())?.[1];
    const [order] = await server.deps.db.selectFrom('orders').select('order_number').where('telefono', '=', fields.telefono).execute();
    assert.equal(number, String(order?.order_number));
  });
});
