// The one guarded outbound HTTP path (issue 19 §1) against real servers on port 0: the deadline
// covers the body, the byte cap aborts a stream the moment it is passed, redirects are followed only
// when asked and each hop is resolved and checked again, the address rule applies to the address
// the socket connects to, and every failure is one OutboundError the outbox reads the same way.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net';
import type { LookupAddress } from 'node:dns';
import { OUTBOUND_IDLE_SOCKET_MS, OutboundClient, type OutboundRequest, type Resolver } from '../../../src/http/outbound/outbound-client.ts';
import { OutboundError, retryAfterMs } from '../../../src/http/outbound/outbound-error.ts';
import { classifyFailure } from '../../../src/outbox/attempt-failure.ts';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A server whose answer each test sets; it counts requests and the bytes it managed to write. */
class Peer {
  handler: Handler = (_req, res) => void res.end('{}');
  requests = 0;
  written = 0;
  readonly #server: Server;
  port = 0;

  constructor() {
    this.#server = createServer((req, res) => {
      this.requests++;
      const write = res.write.bind(res);
      res.write = ((chunk: Buffer | string, ...rest: never[]) => {
        this.written += Buffer.byteLength(chunk);
        return write(chunk, ...rest);
      }) as typeof res.write;
      req.resume();
      this.handler(req, res);
    });
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    await new Promise<void>((ok) => this.#server.listen(0, '127.0.0.1', ok));
    this.port = (this.#server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise((ok) => this.#server.close(ok));
  }
}

/** Streams `total` bytes (default: 500 MB) in chunked encoding, as fast as the reader takes them. */
function stream(res: ServerResponse, total = 500 * 1024 * 1024, status = 200): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  let sent = 0;
  const pump = () => {
    while (sent < total && !res.destroyed) {
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    if (!res.destroyed) res.end();
  };
  res.on('close', () => (sent = total));
  pump();
}

async function failure(call: Promise<unknown>): Promise<OutboundError> {
  try {
    await call;
  } catch (error) {
    assert.ok(error instanceof OutboundError, `expected an OutboundError, got ${String(error)}`);
    return error;
  }
  assert.fail('the call should fail');
}

describe('OutboundClient', () => {
  const peer = new Peer();
  const client = new OutboundClient();
  const request = (extra: Partial<OutboundRequest> = {}): OutboundRequest => ({ url: `${peer.url}/doc`, addresses: 'any', deadlineMs: 2_000, maxBytes: 16 * 1024, what: 'GET /doc', ...extra });
  before(() => peer.start());
  after(async () => {
    client.close();
    await peer.stop();
  });

  test('a 2xx answer within the cap resolves with its status, headers and bytes', async () => {
    peer.handler = (_req, res) => void res.writeHead(201, { 'content-type': 'application/json', 'x-seen': 'yes' }).end('{"ok":true}');
    const answer = await client.send(request({ method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } }));
    assert.equal(answer.status, 201);
    assert.equal(answer.headers['x-seen'], 'yes');
    assert.equal(answer.body.toString(), '{"ok":true}');
    assert.deepEqual((await client.sendJson(request())).json, { ok: true });
  });

  test('a body streamed without Content-Length is cut the moment it passes the cap: too_large, and the peer stops writing', async () => {
    let closed!: () => void;
    const peerDone = new Promise<void>((r) => (closed = r));
    peer.handler = (_req, res) => {
      res.on('close', closed);
      stream(res);
    };
    peer.written = 0;
    const error = await failure(client.send(request()));
    assert.equal(error.kind, 'too_large');
    assert.match(error.message, /^GET \/doc: the answer exceeds 16384 bytes \(HTTP 200\)$/);
    // The peer's side of the connection closes (the abort reached it); what it wrote by then is all it wrote.
    await peerDone;
    assert.ok(peer.written < 8 * 1024 * 1024, `the peer could write only what the socket buffers hold before the abort (${peer.written} bytes), not 500 MB`);
  });

  test('a Content-Length over the cap is refused unread', async () => {
    peer.handler = (_req, res) => {
      res.writeHead(200, { 'content-length': String(50 * 1024 * 1024) });
      res.write(Buffer.alloc(1024));
    };
    const error = await failure(client.send(request()));
    assert.equal(error.kind, 'too_large');
    assert.match(error.message, /announces 52428800 bytes, more than 16384/);
  });

  // The test's timeout only stops a run whose deadline never fires.
  test('the deadline covers the body: an answer that trickles in under the cap fails at the deadline', { timeout: 30_000 }, async () => {
    peer.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => res.write(' '), 20);
      res.on('close', () => clearInterval(timer));
    };
    const started = Date.now();
    const error = await failure(client.send(request({ deadlineMs: 300 })));
    const took = Date.now() - started;
    // The trickle never ends: only the deadline ends the call, and not before it (timers never fire early).
    assert.equal(error.kind, 'timeout');
    assert.equal(error.message, 'GET /doc: no answer within 300 ms');
    assert.ok(took >= 280, `answered after ${took} ms`);
    assert.equal(error.sent, true);
    assert.equal(classifyFailure(error).kind, 'unknown', 'a complete request whose answer never came may have been acted on');
  });

  test('a peer that never answers fails at the deadline, and the outbox reads it as unknown', async () => {
    peer.handler = () => {};
    const error = await failure(client.send(request({ method: 'POST', body: '{}', deadlineMs: 200 })));
    assert.equal(error.kind, 'timeout');
    assert.equal(error.mayHaveActed, true);
    assert.equal(error.retryable, true);
  });

  test('a redirect is not followed by default: it is a status error and the target is never asked', async () => {
    const target = await new Peer().start();
    try {
      peer.handler = (_req, res) => void res.writeHead(302, { location: `${target.url}/elsewhere` }).end();
      const error = await failure(client.send(request()));
      assert.equal(error.kind, 'status');
      assert.equal(error.status, 302);
      assert.equal(error.retryable, false);
      assert.equal(target.requests, 0);
    } finally {
      await target.stop();
    }
  });

  test('redirects asked for are followed, each hop resolved again, credentials dropped on another origin, a 303 continues as GET', async () => {
    const target = await new Peer().start();
    const resolved: string[] = [];
    const resolve: Resolver = (hostname, callback) => {
      resolved.push(hostname);
      callback(null, [{ address: '127.0.0.1', family: 4 }]);
    };
    const counting = new OutboundClient({ resolve });
    let seen: IncomingMessage | undefined;
    try {
      peer.handler = (_req, res) => void res.writeHead(303, { location: `http://second.test:${target.port}/final` }).end();
      target.handler = (req, res) => {
        seen = req;
        res.end('{"final":true}');
      };
      const answer = await counting.send(request({ url: `http://first.test:${peer.port}/start`, method: 'POST', body: '{"x":1}', headers: { authorization: 'Bearer secret', 'content-type': 'application/json' }, redirects: 2 }));
      assert.equal(answer.body.toString(), '{"final":true}');
      assert.equal(answer.url, `http://second.test:${target.port}/final`);
      assert.deepEqual(resolved, ['first.test', 'second.test'], 'each hop is resolved (and checked) on its own');
      assert.equal(seen?.method, 'GET');
      assert.equal(seen?.headers.authorization, undefined, 'the token does not travel to another origin');
      assert.equal(seen?.headers.host, `second.test:${target.port}`);
    } finally {
      counting.close();
      await target.stop();
    }
  });

  test('a redirect loop stops at the number of redirects asked for', async () => {
    peer.handler = (_req, res) => void res.writeHead(307, { location: '/again' }).end();
    peer.requests = 0;
    const error = await failure(client.send(request({ redirects: 3 })));
    assert.equal(error.status, 307);
    assert.equal(peer.requests, 4);
  });

  test('under the public policy, a literal private address, a name resolving to one, or a name resolving to a mix is blocked before any connection', async () => {
    const answers: Record<string, LookupAddress[]> = {
      'inside.test': [{ address: '127.0.0.1', family: 4 }],
      'mixed.test': [
        { address: '93.184.216.34', family: 4 },
        { address: '10.0.0.7', family: 4 },
      ],
      'mapped.test': [{ address: '::ffff:127.0.0.1', family: 6 }],
    };
    const guarded = new OutboundClient({ resolve: (hostname, callback) => callback(null, answers[hostname] ?? []) });
    peer.requests = 0;
    try {
      for (const url of [`${peer.url}/doc`, `http://[::1]:${peer.port}/doc`, `http://[::ffff:127.0.0.1]:${peer.port}/doc`, `http://inside.test:${peer.port}/doc`, `http://mixed.test:${peer.port}/doc`, `http://mapped.test:${peer.port}/doc`]) {
        const error = await failure(guarded.send(request({ url, addresses: 'public' })));
        assert.equal(error.kind, 'blocked', url);
        assert.equal(error.retryable, false, url);
        assert.equal(error.mayHaveActed, false, url);
      }
      assert.equal(peer.requests, 0, 'nothing reached the private address');
    } finally {
      guarded.close();
    }
  });

  test('the socket connects to the address the guarded look-up returned: no second look-up of the name', async () => {
    let lookups = 0;
    // `rebind.test` does not exist for the system resolver: reaching the peer proves the socket used this answer.
    const pinned = new OutboundClient({
      resolve: (_hostname, callback) => {
        lookups++;
        callback(null, [{ address: '127.0.0.1', family: 4 }]);
      },
    });
    peer.handler = (req, res) => void res.end(JSON.stringify({ host: req.headers.host }));
    try {
      const answer = await pinned.sendJson(request({ url: `http://rebind.test:${peer.port}/doc` }));
      assert.deepEqual(answer.json, { host: `rebind.test:${peer.port}` });
      assert.equal(lookups, 1);
    } finally {
      pinned.close();
    }
  });

  test('only http and https URLs without credentials are fetched', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://example.com/x', 'gopher://127.0.0.1:70/', 'not a url', `http://user:pw@127.0.0.1:${peer.port}/`]) {
      const error = await failure(client.send(request({ url })));
      assert.equal(error.kind, 'blocked', url);
    }
  });

  test('error answers carry their status, the described body and Retry-After; the outbox reads them in one way', async () => {
    const cases: [number, Record<string, string>, 'retry' | 'permanent'][] = [
      [500, {}, 'retry'],
      [503, { 'retry-after': '7' }, 'retry'],
      [429, { 'retry-after': '2' }, 'retry'],
      [401, {}, 'retry'],
      [400, {}, 'permanent'],
      [404, {}, 'permanent'],
      [422, {}, 'permanent'],
    ];
    for (const [status, headers, kind] of cases) {
      peer.handler = (_req, res) => void res.writeHead(status, { 'content-type': 'application/json', ...headers }).end('{"error":"nope"}');
      const error = await failure(client.send(request({ describeError: (body) => ` ${(JSON.parse(body) as { error: string }).error}` })));
      assert.equal(error.kind, 'status');
      assert.equal(error.status, status);
      assert.equal(error.message, `GET /doc: HTTP ${status} nope`);
      assert.equal(error.retryAfterMs, headers['retry-after'] ? Number(headers['retry-after']) * 1000 : undefined);
      assert.equal(error.mayHaveActed, false);
      assert.equal(classifyFailure(error).kind, kind, String(status));
    }
  });

  test('a refused connection or an unknown host never left: retry, and nothing may have happened', async () => {
    const gone = await new Peer().start();
    await gone.stop();
    const refused = await failure(client.send(request({ url: `${gone.url}/x` })));
    assert.equal(refused.kind, 'refused');
    assert.equal(classifyFailure(refused).kind, 'retry');
    const unknownHost = new OutboundClient({ resolve: (hostname, callback) => callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []) });
    try {
      const notFound = await failure(unknownHost.send(request({ url: 'http://nowhere.test/x' })));
      assert.equal(notFound.kind, 'refused');
      assert.equal(notFound.message, 'GET /doc: host not found (ENOTFOUND)');
      assert.equal(classifyFailure(notFound).kind, 'retry');
    } finally {
      unknownHost.close();
    }
  });

  test('a peer that resets after reading the request may have acted: unknown; a 2xx that is not JSON too', async () => {
    peer.handler = (req) => req.socket.destroy();
    const reset = await failure(client.send(request({ method: 'POST', body: '{}' })));
    assert.equal(reset.kind, 'network');
    assert.equal(classifyFailure(reset).kind, 'unknown');
    peer.handler = (_req, res) => void res.writeHead(200).end('<html>');
    const notJson = await failure(client.sendJson(request()));
    assert.equal(notJson.kind, 'bad_answer');
    assert.equal(classifyFailure(notJson).kind, 'unknown');
  });

  test('twenty concurrent 500 MB streams grow this process by far less than 100 MB and each is cut at the cap before its deadline', async () => {
    peer.handler = (_req, res) => stream(res);
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => client.send(request({ deadlineMs: 5_000 }))));
    clearInterval(sampler);
    // too_large, not timeout: each ended at the byte cap, before its deadline.
    for (const r of results) assert.equal(r.status === 'rejected' && (r.reason as OutboundError).kind, 'too_large');
    assert.ok(peak - before < 100 * 1024 * 1024, `grew by ${Math.round((peak - before) / 1024 / 1024)} MB`);
  });
});

/**
 * How a kept-alive connection ended, seen from the server: `byClient` when the client's FIN came
 * first (the server then only closes its side), false when the server closed it itself.
 */
function connectionEnd(server: Server | TcpServer): Promise<{ byClient: boolean; idleMs: number } | undefined> {
  // Nobody closing it within 15 s is an answer too (undefined), so the test fails instead of hanging.
  const never = delay(15_000, undefined, { ref: false });
  const ended = new Promise<{ byClient: boolean; idleMs: number }>((resolve) =>
    server.once('connection', (socket: Socket) => {
      let byClient = false;
      let last = Date.now();
      socket.on('data', () => (last = Date.now()));
      socket.once('end', () => (byClient = true));
      socket.once('close', () => resolve({ byClient, idleMs: Date.now() - last }));
    }),
  );
  return Promise.race([ended, never]);
}

async function listening<S extends Server | TcpServer>(server: S): Promise<S & { url: string }> {
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return Object.assign(server, { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
}

describe('kept-alive connections are let go before the other side closes them', () => {
  // A request written into a connection the other side is closing is reset: an unknown outcome, one
  // more try, and for a WhatsApp send a message given up. This side closes its idle ones first.
  test('a peer announcing a 2 s idle timeout (Keep-Alive: timeout=2): the client closes the idle connection first', { timeout: 30_000 }, async () => {
    const server = await listening(createServer((_req, res) => void res.end('{}')));
    server.keepAliveTimeout = 2_000;
    const client = new OutboundClient();
    try {
      const ended = connectionEnd(server);
      const answer = await client.send({ url: `${server.url}/x`, addresses: 'any', deadlineMs: 5_000, maxBytes: 1024, what: 'GET /x' });
      assert.match(String(answer.headers['keep-alive']), /^timeout=2\b/);
      const end = await ended;
      assert.ok(end, 'nobody closed the idle connection within 15 s');
      assert.ok(end.byClient, `the server closed the connection itself after ${end.idleMs} ms idle: the client kept it past the announced timeout`);
    } finally {
      client.close();
      server.closeAllConnections();
      server.close();
    }
  });

  test(`a peer announcing nothing: the client closes an idle connection after ${OUTBOUND_IDLE_SOCKET_MS} ms`, { timeout: 30_000 }, async () => {
    // A bare HTTP/1.1 server that answers without a Keep-Alive header and never closes a connection.
    const server = await listening(
      createTcpServer((socket) => socket.on('data', () => socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}'))),
    );
    const client = new OutboundClient();
    const ended = connectionEnd(server);
    try {
      await client.send({ url: `${server.url}/x`, addresses: 'any', deadlineMs: 5_000, maxBytes: 1024, what: 'GET /x' });
      const end = await ended;
      assert.ok(end, 'the client kept the idle connection 15 s');
      assert.ok(end.byClient);
      assert.ok(end.idleMs >= OUTBOUND_IDLE_SOCKET_MS - 100, `closed after ${end.idleMs} ms idle`);
    } finally {
      client.close();
      server.close();
    }
  });
});

test('retryAfterMs reads delay-seconds and HTTP dates and ignores what it cannot read', () => {
  const now = Date.parse('2026-11-27T10:00:00Z');
  assert.equal(retryAfterMs('120', now), 120_000);
  assert.equal(retryAfterMs(['3'], now), 3_000);
  assert.equal(retryAfterMs('Fri, 27 Nov 2026 10:00:30 GMT', now), 30_000);
  assert.equal(retryAfterMs('Fri, 27 Nov 2026 09:00:00 GMT', now), 0);
  for (const bad of [undefined, '', 'soon', '-5', '1.5']) assert.equal(retryAfterMs(bad, now), undefined, String(bad));
});
