// Invalid UTF-8 is refused (issue 19 §6): every body is decoded strictly, once, where bodies are
// decoded (src/use-cases/json-text.ts, src/use-cases/form-text.ts). The bytes C3 28 (a lead byte
// followed by a byte that cannot continue it) sent raw in JSON, or percent-encoded in a form
// (`%C3%28`), get a 400 in the shape of the surface that received them and store nothing, where a
// lenient decoder would have stored U+FFFD in the buyer's name.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openShop, orderBody, type Shop } from '../helpers/fixtures.ts';
import type { TestServer } from '../helpers/server.ts';
import { OPEN_LIMITS, liveHeaders, nextPhone, storesNothing } from '../api/orders/order-kit.ts';
import { unchanged } from '../mcp/account-kit.ts';
import { buyer } from '../mcp/mcp-kit.ts';

const BAD = Buffer.from([0xc3, 0x28]);
const MARK = '@@BAD@@';

/** The JSON text of `value` with the two bad bytes where MARK is. */
function withBadBytes(value: unknown): Uint8Array {
  const [head, tail] = JSON.stringify(value).split(MARK);
  assert.notEqual(tail, undefined, 'the value holds the mark');
  return Buffer.concat([Buffer.from(head!), BAD, Buffer.from(tail!)]);
}

describe('bodies that are not UTF-8', () => {
  let server: TestServer;
  let shop: Shop;
  let slug: string;
  before(async () => {
    ({ server, shop } = await openShop({ ...OPEN_LIMITS, rateRegisterPerHour: 1000 }));
    slug = (await server.deps.db.selectFrom('landing_pages').select('slug').where('id', '=', shop.landingId).executeTakeFirstOrThrow()).slug;
  });
  after(() => server.close());

  const clients = async () => (await server.deps.db.selectFrom('oauth_clients').select('id').execute()).length;
  const post = (path: string, body: Uint8Array | string, headers: Record<string, string>) => fetch(`${server.url}${path}`, { method: 'POST', headers, body });

  /** A REST ErrorResponse 400 saying the body is not UTF-8. */
  async function expectRestRefusal(res: Response) {
    const text = await res.text();
    assert.equal(res.status, 400, text);
    const body = JSON.parse(text) as { success: boolean; error: string };
    assert.equal(body.success, false);
    assert.match(body.error, /UTF-8/);
  }

  test('POST /api/orders/create with C3 28 inside nombre is a 400 ErrorResponse and stores no order', async () => {
    const bytes = withBadBytes(orderBody(shop, { telefono: nextPhone(), nombre: `Ana ${MARK}` }));
    const res = await unchanged(server.deps, () => post('/api/orders/create', bytes, { 'content-type': 'application/json', ...liveHeaders(shop) }));
    await expectRestRefusal(res);
  });

  test('POST /api/v1/orders with C3 28 inside the buyer\'s nombre is a 400 ErrorResponse and stores no order', async () => {
    const bytes = withBadBytes({ store_id: shop.storeId, product_id: shop.productId, pack: '1x', buyer: buyer({ telefono: nextPhone(), nombre: `Ana ${MARK}` }), idempotency_key: 'utf8-v1' });
    const res = await storesNothing(server.deps, () => post('/api/v1/orders', bytes, { 'content-type': 'application/json', authorization: `Bearer ${shop.secretKey}` }));
    await expectRestRefusal(res);
  });

  test('POST /api/mcp with C3 28 inside a tool argument is a JSON-RPC -32700 parse error and runs nothing', async () => {
    const bytes = withBadBytes({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'create_order', arguments: { store_id: shop.storeId, product_id: shop.productId, buyer: buyer({ telefono: nextPhone(), nombre: `Ana ${MARK}` }), idempotency_key: 'utf8-mcp' } },
    });
    const res = await storesNothing(server.deps, () =>
      post('/api/mcp', bytes, { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${shop.secretKey}` }),
    );
    assert.equal(res.status, 400);
    const body = (await res.json()) as { jsonrpc: string; id: null; error: { code: number; message: string } };
    assert.equal(body.jsonrpc, '2.0');
    assert.equal(body.id, null);
    assert.equal(body.error.code, -32700);
    assert.match(body.error.message, /^Parse error: .*UTF-8/);
  });

  test('POST /api/oauth/register with C3 28 inside client_name is a 400 OAuth error and registers no client', async () => {
    const before_ = await clients();
    const res = await post('/api/oauth/register', withBadBytes({ client_name: `Cliente ${MARK}`, redirect_uris: ['http://127.0.0.1:7777/callback'], token_endpoint_auth_method: 'none' }), { 'content-type': 'application/json' });
    assert.equal(res.status, 400);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const body = (await res.json()) as { error: string; error_description: string };
    assert.equal(body.error, 'invalid_client_metadata', 'a body that cannot be read is refused as the unreadable JSON is');
    assert.match(body.error_description, /UTF-8/);
    assert.equal(await clients(), before_);
  });

  test('POST /api/oauth/token with %C3%28 or the raw bytes in a form value, or %C3%28 in a Basic client_id, is a 400 invalid_request', async () => {
    const forms = [Buffer.from('grant_type=authorization_code&code=%C3%28&code_verifier=x&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb'), Buffer.concat([Buffer.from('grant_type=refresh_token&refresh_token='), BAD])];
    for (const form of forms) {
      const res = await post('/api/oauth/token', form, { 'content-type': 'application/x-www-form-urlencoded' });
      assert.equal(res.status, 400);
      const body = (await res.json()) as { error: string; error_description: string };
      assert.equal(body.error, 'invalid_request', 'not invalid_grant: the form itself cannot be read');
      assert.match(body.error_description, /UTF-8/);
    }
    // A client_id in HTTP Basic is form-urlencoded too (RFC 6749 §2.3.1).
    const basic = `Basic ${Buffer.from('mcp_%C3%28:').toString('base64')}`;
    const res = await post('/api/oauth/token', 'grant_type=refresh_token&refresh_token=x', { 'content-type': 'application/x-www-form-urlencoded', authorization: basic });
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as { error: string }).error, 'invalid_request');
  });

  test('the landing page form post with nombre=%C3%28 answers the page again with a 400 and stores no order', async () => {
    const valid = new URLSearchParams({ telefono: nextPhone(), departamento: 'Antioquia', ciudad: 'Medellin', direccion: 'Calle 10 # 43-12', pack: '1x' }).toString();
    for (const form of [`nombre=Ana%20%C3%28&${valid}`, Buffer.concat([Buffer.from('nombre=Ana+'), BAD, Buffer.from(`&${valid}`)])]) {
      const res = await unchanged(server.deps, () => post(`/l/${slug}`, form, { 'content-type': 'application/x-www-form-urlencoded' }));
      assert.equal(res.status, 400);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
      const page = await res.text();
      assert.match(page, /No pudimos registrar tu pedido/);
      assert.match(page, /<form/);
    }
  });

  test('the same bodies with well-formed UTF-8 are taken, so only the bad bytes were refused', async () => {
    const order = orderBody(shop, { telefono: nextPhone(), nombre: 'Ana Gómez' });
    const res = await post('/api/orders/create', Buffer.from(JSON.stringify(order)), { 'content-type': 'application/json', ...liveHeaders(shop) });
    assert.equal(res.status, 200, await res.clone().text());
    const id = ((await res.json()) as { data: { id: string } }).data.id;
    const row = await server.deps.db.selectFrom('orders').select('nombre').where('id', '=', id).executeTakeFirstOrThrow();
    assert.equal(row.nombre, 'Ana Gómez');
    const telefono = nextPhone();
    const form = `nombre=%C3%81ngela+G%C3%B3mez&${new URLSearchParams({ telefono, departamento: 'Antioquia', ciudad: 'Medellin', direccion: 'Calle 10 # 43-12', pack: '1x' })}`;
    const page = await post(`/l/${slug}`, form, { 'content-type': 'application/x-www-form-urlencoded' });
    assert.equal(page.status, 200);
    assert.match(await page.text(), /Gracias, Ángela!/);
    const stored = await server.deps.db.selectFrom('orders').select('nombre').where('telefono', '=', telefono).executeTakeFirstOrThrow();
    assert.equal(stored.nombre, 'Ángela Gómez');
  });
});
