// Issue 13 §2-3: hostile input gets a clear error in its surface's shape, never a 5xx, and is never
// stored as garbage; protocol errors get the status that names them; HEAD works wherever GET does.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect as tcp } from 'node:net';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { openShop, orderBody, postOrder, type Shop } from '../helpers/fixtures.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { OPEN_LIMITS, SHOP_ORIGIN, counts, liveHeaders, nextPhone, orderRow } from '../api/orders/order-kit.ts';
import { buyer, call, connect } from '../mcp/mcp-kit.ts';
import { until } from '../helpers/wait.ts';

/** Sends raw bytes and returns the whole answer (the server closes the connection). */
function raw(url: string, bytes: string, { wait = 0 } = {}): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = tcp(Number(port), '127.0.0.1');
    let answer = '';
    socket.on('data', (d) => (answer += d.toString('latin1')));
    socket.on('end', () => resolve(answer));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
    socket.on('connect', () => (wait ? setTimeout(() => socket.write(bytes), wait) : socket.write(bytes)));
  });
}

const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { success: boolean; error: string };

describe('hostile input', () => {
  let server: TestServer;
  let shop: Shop;
  let client: Client;
  before(async () => {
    ({ server, shop } = await openShop(OPEN_LIMITS));
    client = await connect(server.url, shop.secretKey);
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  test('a body nested thousands of levels deep, with an Idempotency-Key, is a 400 and stores nothing', async () => {
    const deep = `${'['.repeat(20_000)}1${']'.repeat(20_000)}`;
    const before = await counts(server.deps);
    for (const [path, headers] of [
      ['/api/orders/create', { ...liveHeaders(shop), 'idempotency-key': 'deep-1' }],
      ['/api/v1/stores', { authorization: `Bearer ${shop.secretKey}`, 'idempotency-key': 'deep-2' }],
    ] as const) {
      const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: `{"nombre":${deep}}` });
      assert.equal(res.status, 400, path);
      assert.match(((await res.json()) as { error: string }).error, /nests deeper than 32 levels/);
    }
    const mcp = await fetch(`${server.url}/api/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${shop.secretKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_stores","arguments":{"x":${deep}}}}`,
    });
    assert.equal(mcp.status, 400);
    assert.equal(((await mcp.json()) as { error: { code: number } }).error.code, -32700);
    assert.deepEqual(await counts(server.deps), before);
  });

  test('control characters and unpaired surrogates are field errors on every surface; nothing is stored', async () => {
    const before = await counts(server.deps);
    for (const [field, value] of [
      ['nombre', 'Ana\u0000Gómez'],
      ['direccion', 'Calle 10\u0007 # 43'],
      ['ciudad', 'Medell\ud800n'],
      ['referencia', 'casa \u009b azul'],
    ] as const) {
      const res = await postOrder(server.url, orderBody(shop, { telefono: nextPhone(), [field]: value }), liveHeaders(shop));
      assert.equal(res.status, 400, field);
      const body = (await res.json()) as { details: { field: string; message: string }[] };
      assert.equal(body.details[0]!.field, field);
      assert.match(body.details[0]!.message, /control characters|invalid Unicode/);
      const viaMcp = await call(client, 'create_order', { store_id: shop.storeId, product_id: shop.productId, buyer: buyer({ telefono: nextPhone(), [field]: value }), idempotency_key: `ctl-${field}` });
      assert.equal(viaMcp.isError, true);
      assert.equal(viaMcp.value.error.code, 'invalid_input');
    }
    assert.deepEqual(await counts(server.deps), before);
  });

  test('bidi controls are dropped, line breaks of a one-line field become spaces, and text is stored as NFC', async () => {
    const res = await postOrder(
      server.url,
      orderBody(shop, { telefono: nextPhone(), nombre: 'Ana \u202Ezemóg\u202C', direccion: 'Calle 10\n# 43-12', ciudad: 'Medelli\u0301n' }),
      liveHeaders(shop),
    );
    assert.equal(res.status, 200);
    const id = ((await res.json()) as { data: { id: string } }).data.id;
    const row = await orderRow(server.deps, id);
    assert.equal(row.nombre, 'Ana zemóg');
    assert.equal(row.direccion, 'Calle 10 # 43-12');
    assert.equal(row.ciudad, 'Medellín', 'a combining accent is composed (NFC) and the city matched');
    assert.equal(row.ciudad_input.normalize('NFC'), row.ciudad_input);
  });

  test('an amount like 1e300 is out of range, not "at most 2 decimals"', async () => {
    const res = await postOrder(server.url, orderBody(shop, { telefono: nextPhone(), total_price: 1e300 }), liveHeaders(shop));
    assert.equal(res.status, 400);
    const body = (await res.json()) as { details: { field: string; message: string }[] };
    assert.deepEqual(body.details[0], { field: 'total_price', message: 'total_price is out of range (at most 1000000000000)' });
  });

  test('protocol errors answer 431, 414, 400 and 501 with the JSON ErrorResponse and Connection: close', async () => {
    const cases: [string, string, number][] = [
      ['large headers', `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
      ['many headers', `GET /healthz HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 2_000 }, (_, i) => `X-H${i}: ${'v'.repeat(10)}\r\n`).join('')}\r\n`, 431],
      ['a URL over 16 KiB', `GET /healthz?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 414],
      ['conflicting Content-Length', 'POST /api/orders/create HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}', 400],
      ['Content-Length with Transfer-Encoding', 'POST /api/orders/create HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', 400],
      ['a malformed header line', 'GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n', 400],
      ['an unknown method', 'BREW /healthz HTTP/1.1\r\nHost: x\r\n\r\n', 501],
    ];
    for (const [what, bytes, status] of cases) {
      const answer = await raw(server.url, bytes);
      assert.equal(statusOf(answer), status, `${what}: ${answer.slice(0, 120)}`);
      assert.match(answer, /\r\nConnection: close\r\n/i, what);
      const body = bodyOf(answer);
      assert.equal(body.success, false, what);
      assert.ok(body.error.length > 0, what);
    }
    const long = await fetch(`${server.url}/healthz?q=${'a'.repeat(9_000)}`);
    assert.equal(long.status, 414, 'a URL over 8 KiB that the parser takes is 414 too');
    const propfind = await fetch(`${server.url}/healthz`, { method: 'PROPFIND' });
    assert.equal(propfind.status, 501);
    assert.equal(((await propfind.json()) as { success: boolean }).success, false);
  });

  test('stalled partial headers are answered by the configured header timeout: 408 with the JSON ErrorResponse and Connection: close, then the connection is closed', async () => {
    // A short --headers-timeout-ms, so that the answer is the timeout's and not the test runner's.
    const quick = await startServer({ ...OPEN_LIMITS, headersTimeoutMs: 300 });
    try {
      assert.equal(server.http.server.headersTimeout, 10_000, 'the default is 10 s');
      assert.equal(quick.http.server.headersTimeout, 300, 'the configured timeout is the one Node enforces');
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = tcp(Number(new URL(quick.url).port), '127.0.0.1');
        let data = '';
        socket.on('connect', () => socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n'));
        socket.on('data', (d) => (data += d.toString('latin1')));
        socket.on('close', () => resolve(data));
        socket.on('error', reject);
      });
      assert.equal(statusOf(answer), 408, answer);
      assert.match(answer, /^HTTP\/1\.1 408 Request Timeout\r\n/);
      assert.match(answer, /\r\nConnection: close\r\n/i);
      assert.match(answer, /\r\nContent-Type: application\/json\r\n/i);
      assert.deepEqual(bodyOf(answer), { success: false, error: 'The request was not received in time' });
    } finally {
      await quick.close();
    }
  });

  test('a client that disconnects mid-body is not an error in the log', async () => {
    const errorsBefore = server.logs.filter((l) => (l.level as number) >= 50).length;
    const reqId = 'hostile-gone-mid-body';
    await new Promise<void>((resolve, reject) => {
      const socket = tcp(Number(new URL(server.url).port), '127.0.0.1');
      // Expect: 100-continue: the server says "100 Continue" once it has read the headers and the
      // route is waiting for the body; only then does the client send part of it and go away.
      socket.on('connect', () =>
        socket.write(
          `POST /api/orders/create HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\nExpect: 100-continue\r\nX-Request-Id: ${reqId}\r\nX-Svc-Api-Key: ${shop.liveKey}\r\nOrigin: ${SHOP_ORIGIN}\r\n\r\n`,
        ),
      );
      socket.once('data', (d) => {
        assert.match(d.toString('latin1'), /^HTTP\/1\.1 100 Continue\r\n/);
        socket.write('{"nombre":', () => (socket.destroy(), resolve()));
      });
      socket.on('error', reject);
    });
    // The request's log line is written once the server is done with it, after any error it logs.
    const line = await until('the request to be logged', () => server.logs.find((l) => l.reqId === reqId && l.msg === 'request'));
    assert.equal(line?.path, '/api/orders/create');
    const errors = server.logs.filter((l) => (l.level as number) >= 50).slice(errorsBefore);
    assert.deepEqual(errors, []);
  });

  test('HEAD works wherever GET does: same status and headers, no body', async () => {
    for (const path of ['/healthz', '/openapi.json', `/api/geo/cities?country=CO`, '/.well-known/oauth-authorization-server']) {
      const [get, head] = await Promise.all([fetch(`${server.url}${path}`), fetch(`${server.url}${path}`, { method: 'HEAD' })]);
      assert.equal(head.status, get.status, path);
      assert.equal(head.headers.get('content-type'), get.headers.get('content-type'), path);
      assert.equal(await head.text(), '', path);
      await get.body?.cancel();
    }
  });

  test('the refusal of a foreign origin and every order answer carry Vary: Origin', async () => {
    const refused = await postOrder(server.url, orderBody(shop, { telefono: nextPhone() }), { ...liveHeaders(shop), origin: 'https://evil.example' });
    assert.equal(refused.status, 403);
    assert.equal(refused.headers.get('vary'), 'Origin');
    const ok = await postOrder(server.url, orderBody(shop, { telefono: nextPhone() }), { ...liveHeaders(shop), origin: SHOP_ORIGIN });
    assert.equal(ok.status, 200);
    assert.match(ok.headers.get('vary') ?? '', /Origin/);
  });

  test('the OAuth endpoints name their own 16 KiB limit in a 413', async () => {
    const res = await fetch(`${server.url}/api/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `code=${'a'.repeat(20_000)}` });
    assert.equal(res.status, 413);
    const body = JSON.stringify(await res.json());
    assert.match(body, /16384/);
    assert.doesNotMatch(body, /65536/);
  });
});
