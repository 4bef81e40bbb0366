import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request, type IncomingHttpHeaders } from 'node:http';
import { Writable } from 'node:stream';
import { startServer, tempDbFile, type TestServer } from '../helpers/server.ts';
import { seedShop, orderBody, postOrder, type Shop } from '../helpers/fixtures.ts';
import { spawnServe } from '../helpers/cli.ts';
import { OpenApiChecker, type OpenApiDoc } from '../helpers/openapi.ts';
import { buildOpenApi } from '../../src/api/openapi.ts';
import { createLogger, REDACT_PATHS } from '../../src/log.ts';
import { MAX_BODY_BYTES } from '../../src/limits.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface ErrorBody {
  success: false;
  error: string;
  details?: { field: string; message: string }[];
}

interface Raw {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A request through node:http: exact headers (no added ones) and the body written as the given chunks. */
function raw(url: string, method: string, path: string, headers: Record<string, string>, chunks: Buffer[] = []): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    // The server may answer (413) and close before the whole body is written: that is not a failure.
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)));
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

/** A JSON object of exactly `size` bytes. */
function paddedJson(size: number): Buffer {
  const empty = JSON.stringify({ pad: '' });
  const out = Buffer.from(JSON.stringify({ pad: 'x'.repeat(size - empty.length) }));
  assert.equal(out.length, size);
  return out;
}

const assertErrorShape = (body: unknown): ErrorBody => {
  const b = body as ErrorBody;
  assert.equal(b.success, false);
  assert.equal(typeof b.error, 'string');
  assert.ok(b.error.length > 0);
  for (const key of Object.keys(b)) assert.ok(['success', 'error', 'details'].includes(key), `unexpected key ${key}`);
  return b;
};

describe('the HTTP server', () => {
  let server: TestServer;
  let shop: Shop;

  before(async () => {
    server = await startServer();
    shop = await seedShop(server.deps);
  });
  after(() => server.close());

  describe('request ids', () => {
    test('every answer carries a generated X-Request-Id, different for each request', async () => {
      const answers = await Promise.all([
        fetch(`${server.url}/healthz`),
        fetch(`${server.url}/nope`),
        fetch(`${server.url}/healthz`, { method: 'DELETE' }),
        postOrder(server.url, 'x', { 'content-type': 'text/plain' }),
        fetch(`${server.url}/api/geo/cities?country=CO`),
      ]);
      const ids = answers.map((res) => res.headers.get('x-request-id'));
      for (const id of ids) assert.match(id ?? '', UUID);
      assert.equal(new Set(ids).size, ids.length);
    });

    test('a well-formed X-Request-Id sent by the client is echoed and keys the request log line', async () => {
      const id = 'edge-7f3a_01.trace:42';
      const res = await fetch(`${server.url}/healthz`, { headers: { 'x-request-id': id } });
      assert.equal(res.headers.get('x-request-id'), id);
      const line = server.logs.find((l) => l.reqId === id && l.msg === 'request');
      assert.ok(line, 'the request is logged under the client id');
      assert.equal(line.status, 200);
      assert.equal(line.path, '/healthz');
    });

    test('an X-Request-Id that is too long or has other characters is replaced by a generated one', async () => {
      for (const sent of ['a'.repeat(300), 'a'.repeat(129), 'has space', 'semi;colon', 'quote"d', '<script>']) {
        const res = await fetch(`${server.url}/healthz`, { headers: { 'x-request-id': sent } });
        assert.equal(res.status, 200);
        assert.match(res.headers.get('x-request-id') ?? '', UUID, JSON.stringify(sent));
      }
      const longest = 'b'.repeat(128);
      const kept = await fetch(`${server.url}/healthz`, { headers: { 'x-request-id': longest } });
      assert.equal(kept.headers.get('x-request-id'), longest);
    });
  });

  describe('routing', () => {
    test('an unknown route answers 404 in the ErrorResponse shape', async () => {
      for (const path of ['/nope', '/api/orders', '/api/orders/create/extra', '/HEALTHZ']) {
        const res = await fetch(`${server.url}${path}`);
        assert.equal(res.status, 404, path);
        assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
        assertErrorShape(await res.json());
      }
      const line = server.logs.find((l) => l.msg === 'request' && l.path === '/nope');
      assert.equal(line?.status, 404);
    });

    test('a known path with a wrong method answers 405 in the ErrorResponse shape with an Allow header', async () => {
      const del = await fetch(`${server.url}/healthz`, { method: 'DELETE' });
      assert.equal(del.status, 405);
      assert.equal(del.headers.get('allow'), 'GET, HEAD', 'HEAD is served wherever GET is (RFC 9110 §9.3.2)');
      assertErrorShape(await del.json());

      const get = await fetch(`${server.url}/api/orders/create`);
      assert.equal(get.status, 405);
      const allow = (get.headers.get('allow') ?? '').split(',').map((m) => m.trim());
      assert.deepEqual(allow.sort(), ['OPTIONS', 'POST']);
      assert.match(get.headers.get('x-request-id') ?? '', UUID);
      assertErrorShape(await get.json());

      const put = await fetch(`${server.url}/api/geo/cities?country=CO`, { method: 'PUT', body: '{}' });
      assert.equal(put.status, 405);
      assert.deepEqual((put.headers.get('allow') ?? '').split(',').map((m) => m.trim()).sort(), ['GET', 'HEAD', 'OPTIONS']);
    });

    test('/healthz answers 200 and is not cached', async () => {
      const res = await fetch(`${server.url}/healthz`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.deepEqual(await res.json(), { success: true, data: { status: 'ok' } });
    });

    test('/readyz answers 200 on a migrated database', async () => {
      const res = await fetch(`${server.url}/readyz`);
      assert.equal(res.status, 200);
      assert.deepEqual(await res.json(), { success: true, data: { ready: true, database: true, migrations: true } });
    });
  });

  describe('request bodies', () => {
    // Bodies that pass the body stage fail later on the missing store and product (400), never 413/415.
    const orderPath = '/api/orders/create';

    test('a body of exactly 64 KiB is read and parsed', async () => {
      const res = await raw(server.url, 'POST', orderPath, { 'content-type': 'application/json' }, [paddedJson(MAX_BODY_BYTES)]);
      assert.equal(res.status, 400, res.body);
      const body = assertErrorShape(JSON.parse(res.body));
      assert.deepEqual(body.details?.map((d) => d.field).sort(), ['product_id', 'store_id']);
    });

    test('a body of 64 KiB plus one byte answers 413 in the ErrorResponse shape', async () => {
      const res = await raw(server.url, 'POST', orderPath, { 'content-type': 'application/json' }, [paddedJson(MAX_BODY_BYTES + 1)]);
      assert.equal(res.status, 413);
      assertErrorShape(JSON.parse(res.body));
      assert.match(String(res.headers['x-request-id']), UUID);
    });

    test('a chunked body without Content-Length is limited the same way', async () => {
      const exact = paddedJson(MAX_BODY_BYTES);
      const half = MAX_BODY_BYTES / 2;
      const ok = await raw(server.url, 'POST', orderPath, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, [
        exact.subarray(0, half),
        exact.subarray(half),
      ]);
      assert.equal(ok.status, 400, ok.body);
      const over = paddedJson(MAX_BODY_BYTES + 1);
      const refused = await raw(server.url, 'POST', orderPath, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, [
        over.subarray(0, half),
        over.subarray(half),
      ]);
      assert.equal(refused.status, 413);
      assertErrorShape(JSON.parse(refused.body));
    });

    test('a declared Content-Length over the limit answers 413 before the body is read', async () => {
      const res = await new Promise<Raw>((resolve, reject) => {
        const req = request(`${server.url}${orderPath}`, {
          method: 'POST',
          agent: false,
          headers: { 'content-type': 'application/json', 'content-length': String(10 * 1024 * 1024) },
        });
        req.on('response', (r) => {
          let body = '';
          r.setEncoding('utf8');
          r.on('data', (c: string) => (body += c));
          r.on('end', () => {
            req.destroy();
            resolve({ status: r.statusCode ?? 0, headers: r.headers, body });
          });
        });
        req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' || error.code === 'EPIPE' ? undefined : reject(error)));
        req.write('{"pad":"');
        req.flushHeaders();
      });
      assert.equal(res.status, 413);
      assertErrorShape(JSON.parse(res.body));
    });

    test('JSON content types with parameters or a +json suffix are accepted', async () => {
      for (const type of ['application/json; charset=utf-8', 'application/vnd.api+json', 'APPLICATION/JSON', 'application/merge-patch+json;charset=UTF-8']) {
        const res = await postOrder(server.url, { nombre: 'Ana' }, { 'content-type': type });
        assert.equal(res.status, 400, type);
        const body = assertErrorShape(await res.json());
        assert.deepEqual(body.details?.map((d) => d.field).sort(), ['product_id', 'store_id'], type);
      }
    });

    test('other content types answer 415 in the ErrorResponse shape', async () => {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/jsonx', 'multipart/form-data; boundary=x']) {
        const res = await postOrder(server.url, '{}', { 'content-type': type });
        assert.equal(res.status, 415, type);
        assertErrorShape(await res.json());
      }
      const none = await raw(server.url, 'POST', orderPath, {}, [Buffer.from('{}')]);
      assert.equal(none.status, 415);
      assertErrorShape(JSON.parse(none.body));
    });

    test('a body that is not a JSON object answers 400 in the ErrorResponse shape', async () => {
      for (const text of ['{"nombre":', '[]', 'null', '"text"', '42', '']) {
        const res = await postOrder(server.url, text);
        assert.equal(res.status, 400, JSON.stringify(text));
        assertErrorShape(await res.json());
      }
    });
  });

  describe('logging', () => {
    test('credentials sent in headers never reach the log', async () => {
      const secret = `svc_live_secret_${'S'.repeat(40)}`;
      const publishable = `svc_live_pub_${'P'.repeat(32)}`;
      const sent = server.logs.length;
      await postOrder(server.url, orderBody(shop), { authorization: `Bearer ${secret}`, origin: 'https://shop.example.com' });
      await postOrder(server.url, orderBody(shop), { 'x-svc-api-key': publishable, cookie: 'session=abc123secret' });
      await fetch(`${server.url}/nope`, { headers: { authorization: `Bearer ${secret}` } });
      const written = JSON.stringify(server.logs.slice(sent));
      assert.ok(server.logs.length > sent, 'the requests were logged');
      for (const needle of [secret, publishable, 'abc123secret']) assert.ok(!written.includes(needle), `${needle} is in the log`);
    });

    test('the logger redacts credential headers, passwords, tokens and keys wherever they are logged', () => {
      const lines: Record<string, unknown>[] = [];
      const stream = new Writable({
        write(chunk: Buffer, _enc, done) {
          for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
          done();
        },
      });
      const log = createLogger('info', stream);
      log.info({ req: { headers: { authorization: 'Bearer svc_live_secret_x', 'x-svc-api-key': 'svc_live_pub_y', cookie: 'c=1', 'user-agent': 'ua/1' } } }, 'in');
      log.info({ password: 'p' }, 'pw');
      log.info({ headers: { authorization: 'Bearer z' }, account: { password: 'q', token: 't', key: 'k', secret: 's', name: 'visible' } }, 'nested');
      log.info({ grant: { access_token: 'at', refresh_token: 'rt' } }, 'oauth');
      assert.equal(lines.length, 4);
      const [first, second, third, fourth] = lines as [
        { req: { headers: Record<string, string> } },
        { password: string },
        { headers: Record<string, string>; account: Record<string, string> },
        { grant: Record<string, string> },
      ];
      assert.deepEqual(first.req.headers, { authorization: '[redacted]', 'x-svc-api-key': '[redacted]', cookie: '[redacted]', 'user-agent': 'ua/1' });
      assert.equal(second.password, '[redacted]');
      assert.equal(third.headers.authorization, '[redacted]');
      assert.deepEqual(third.account, { password: '[redacted]', token: '[redacted]', key: '[redacted]', secret: '[redacted]', name: 'visible' });
      assert.deepEqual(fourth.grant, { access_token: '[redacted]', refresh_token: '[redacted]' });
      const text = JSON.stringify(lines);
      for (const needle of ['svc_live_secret_x', 'svc_live_pub_y', '"p"', 'Bearer z']) assert.ok(!text.includes(needle), needle);
      assert.ok(REDACT_PATHS.includes('req.headers.authorization'));
    });
  });
});

describe('a server whose database is gone', () => {
  let broken: TestServer;
  let shop: Shop;
  let api: OpenApiChecker;

  before(async () => {
    broken = await startServer();
    shop = await seedShop(broken.deps);
    api = new OpenApiChecker(buildOpenApi(broken.url) as unknown as OpenApiDoc);
    await broken.app.db.destroy();
  });
  after(() => broken.close());

  test('/readyz answers 503 in the ErrorResponse shape', async () => {
    const res = await fetch(`${broken.url}/readyz`);
    assert.equal(res.status, 503);
    const body = await res.json();
    api.assertResponse('/readyz', 'get', 503, body);
    assert.equal(assertErrorShape(body).details?.[0]?.field, 'database');
    assert.equal(res.headers.get('cache-control'), 'no-store');
  });

  test('/healthz still answers 200: the process is alive', async () => {
    const res = await fetch(`${broken.url}/healthz`);
    assert.equal(res.status, 200);
  });

  test('an order answers 500 that reveals nothing, while the log keeps the error under the request id', async () => {
    const res = await postOrder(broken.url, orderBody(shop), { 'x-svc-api-key': shop.testKey, origin: 'http://localhost' });
    assert.equal(res.status, 500);
    const text = await res.text();
    assert.deepEqual(JSON.parse(text), { success: false, error: 'Internal server error' });
    api.assertResponse('/api/orders/create', 'post', 500, JSON.parse(text));
    for (const leak of ['stack', 'destroyed', 'driver', 'SELECT', 'sqlite', 'kysely', '.ts', 'at ']) assert.ok(!text.includes(leak), `body leaks "${leak}"`);
    const id = res.headers.get('x-request-id');
    assert.match(id ?? '', UUID);
    const line = broken.logs.find((l) => l.reqId === id && l.level === 50);
    assert.ok(line, 'an error line carries the request id');
    const err = line.err as { message?: string; stack?: string } | undefined;
    assert.match(err?.message ?? '', /destroyed/);
    assert.ok(err?.stack, 'the log has the stack');
    assert.ok(!JSON.stringify(broken.logs).includes(shop.testKey), 'the key is not logged');
  });

  test('a city listing that needs the database answers 500 in the ErrorResponse shape', async () => {
    const res = await fetch(`${broken.url}/api/geo/cities?country=AR`);
    assert.equal(res.status, 500);
    const body = await res.json();
    assert.deepEqual(body, { success: false, error: 'Internal server error' });
    api.assertResponse('/api/geo/cities', 'get', 500, body);
    assert.ok(broken.logs.some((l) => l.reqId === res.headers.get('x-request-id') && l.level === 50));
  });
});

describe('codrail serve', () => {
  test('SIGTERM lets the request in flight finish, then exits 0', async () => {
    const tmp = tempDbFile();
    const serve = await spawnServe(tmp.file, ['--log-level', 'info'], 20_000);
    const { child, base, exited } = serve;
    try {
      assert.equal((await fetch(`${base}/healthz`)).status, 200);

      // A request whose body is half sent when the signal arrives.
      const body = Buffer.from(JSON.stringify({ nombre: 'Ana', direccion: 'Calle 1' }));
      let req!: ReturnType<typeof request>;
      const answer = new Promise<Raw>((resolve, reject) => {
        req = request(`${base}/api/orders/create`, {
          method: 'POST',
          agent: false,
          headers: { 'content-type': 'application/json', 'content-length': String(body.length), expect: '100-continue' },
        });
        req.on('response', (r) => {
          let text = '';
          r.setEncoding('utf8');
          r.on('data', (c: string) => (text += c));
          r.on('end', () => resolve({ status: r.statusCode ?? 0, headers: r.headers, body: text }));
        });
        req.on('error', reject);
      });
      // In flight for certain: the server has read the headers and answered 100 Continue.
      const continued = new Promise((r) => req.once('continue', r));
      req.flushHeaders();
      await continued;
      req.write(body.subarray(0, 5));
      child.kill('SIGTERM');
      await waitFor(() => serve.output().stdout.includes('shutting down'), 30_000);
      req.end(body.subarray(5));
      const res = await answer;
      assert.equal(res.status, 400, res.body);
      assertErrorShape(JSON.parse(res.body));

      assert.equal(await exited, 0, serve.output().stderr);
      const lines = serve
        .output()
        .stdout
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      assert.ok(lines.some((l) => l.msg === 'shutting down: draining requests' && l.signal === 'SIGTERM'));
      assert.ok(lines.some((l) => l.msg === 'request' && l.path === '/api/orders/create' && l.status === 400));
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      tmp.cleanup();
    }
  });
});

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}
