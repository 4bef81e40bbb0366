// Issue 19 §1, as the attack run will repeat it against the real `codrail serve`: an unauthenticated
// request names an https client_id whose document server streams without end. Twenty at once, each
// streaming 500 MB, must grow the server's memory by less than 100 MB and each fetch end at the size
// cap, not at the fetch deadline (the server's log says how each ended); a document that trickles in
// is cut at the deadline; a failed URL is not fetched again at once; one address cannot make the
// server fetch without limit.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { spawnServe, type ServeProcess } from '../helpers/cli.ts';
import { tempDbFile } from '../helpers/server.ts';
import { authorizeUrl, pkcePair } from '../helpers/oauth.ts';
import { OAUTH_CIMD_FETCHES_PER_IP, OAUTH_CIMD_TIMEOUT_MS } from '../../src/limits.ts';
import { until } from '../helpers/wait.ts';

/** Resident memory of a process, from /proc (Linux). */
const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

/** The attacker's document host: each path answers as its prefix says; it counts requests per path and bytes written. */
class DocumentHost {
  readonly hits = new Map<string, number>();
  written = 0;
  readonly #server: Server;
  base = '';

  constructor() {
    this.#server = createServer((req, res) => {
      const path = req.url ?? '/';
      this.hits.set(path, (this.hits.get(path) ?? 0) + 1);
      if (path.startsWith('/flood/')) return this.#flood(res);
      if (path.startsWith('/trickle/')) return this.#trickle(res);
      res.writeHead(404).end();
    });
  }

  /** 500 MB in chunked encoding, without Content-Length, as fast as the reader takes it. */
  #flood(res: ServerResponse): void {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let left = 500 * 1024 * 1024;
    const pump = () => {
      while (left > 0 && !res.destroyed) {
        left -= chunk.length;
        this.written += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      if (!res.destroyed) res.end();
    };
    pump();
  }

  /** One byte every 100 ms: under the size cap for minutes. */
  #trickle(res: ServerResponse): void {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"client_id":');
    const timer = setInterval(() => res.write(' '), 100);
    res.on('close', () => clearInterval(timer));
  }

  count(prefix: string): number {
    return [...this.hits].filter(([p]) => p.startsWith(prefix)).reduce((n, [, c]) => n + c, 0);
  }

  async start(): Promise<void> {
    await new Promise<void>((ok) => this.#server.listen(0, '127.0.0.1', ok));
    this.base = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise((ok) => this.#server.close(ok));
  }
}

describe('client metadata documents under attack, against codrail serve', () => {
  const host = new DocumentHost();
  const tmp = tempDbFile();
  let serve: ServeProcess;
  before(async () => {
    await host.start();
    // The development switch lets the server fetch from this machine, where the attacker's host runs;
    // --trust-proxy lets the test speak for many client addresses.
    // Info level: the server logs why each document could not be read (the cap, the deadline).
    serve = await spawnServe(tmp.file, ['--trust-proxy', '--log-level', 'info'], 30_000, { CODRAIL_OAUTH_CIMD_ALLOW_PRIVATE: '1' });
  });
  after(async () => {
    serve.child.kill('SIGTERM');
    await serve.exited;
    await host.stop();
    tmp.cleanup();
  });

  /** How the server's fetch of each of these documents ended, from its log: the OutboundError kind and message. */
  function readFailures(paths: string[]): Map<string, { kind: string; message: string }> {
    const wanted = new Set(paths.map((p) => `${host.base}${p}`));
    const found = new Map<string, { kind: string; message: string }>();
    for (const text of serve.output().stdout.split('\n')) {
      if (!text.trim()) continue;
      const line = JSON.parse(text) as { msg?: string; clientId?: string; err?: { kind: string; message: string } };
      if (line.msg === 'oauth: client metadata document could not be read' && line.clientId && wanted.has(line.clientId)) found.set(line.clientId.slice(host.base.length), line.err!);
    }
    return found;
  }

  /** Waits until the server has logged how each fetch of these paths ended (the log arrives over a pipe, after the answer). */
  const failuresOf = async (paths: string[]) => (await until(`the server to log ${paths.length} failed fetches`, () => ((m) => (m.size === paths.length ? m : undefined))(readFailures(paths))))!;

  const authorize = (clientId: string, ip: string) =>
    fetch(
      authorizeUrl(serve.base, {
        response_type: 'code',
        client_id: clientId,
        redirect_uri: 'http://127.0.0.1:9/cb',
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
        state: 's',
        resource: `${serve.base}/api/mcp`,
      }),
      { redirect: 'manual', headers: { 'x-forwarded-for': ip } },
    );

  test('twenty concurrent fetches that each stream 500 MB grow the server by less than 100 MB, and each fetch is cut at the size cap, not left to its deadline', async () => {
    await (await fetch(`${serve.base}/healthz`)).text();
    const pid = serve.child.pid!;
    const before = rssOf(pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 10);
    const paths = Array.from({ length: 20 }, (_, i) => `/flood/${i}.json`);
    const statuses = await Promise.all(
      paths.map(async (path, i) => {
        const res = await authorize(`${host.base}${path}`, `198.51.100.${i + 1}`);
        await res.text();
        return res.status;
      }),
    );
    clearInterval(sampler);
    for (const status of statuses) assert.equal(status, 400, 'an unreadable document is an unknown client (a page, no redirect)');
    const fetched = paths.filter((p) => host.count(p) > 0);
    assert.ok(fetched.length >= 1, 'the server did try');
    // Every fetch the server made ended at the size cap: none waited for its deadline.
    const ends = await failuresOf(fetched);
    for (const path of fetched) assert.equal(ends.get(path)?.kind, 'too_large', `${path}: ${JSON.stringify(ends.get(path))}`);
    assert.ok(peak - before < 100 * 1024 * 1024, `the server grew by ${Math.round((peak - before) / 1024 / 1024)} MB`);
    assert.ok(host.written < 200 * 1024 * 1024, `the attacker could write ${Math.round(host.written / 1024 / 1024)} MB, not 20 × 500 MB`);
  });

  test('a failed document URL is not fetched again at once: the next requests are answered from memory', async () => {
    const url = `${host.base}/flood/again.json`;
    assert.equal((await authorize(url, '203.0.113.50')).status, 400);
    const fetched = host.count('/flood/again');
    assert.equal(fetched, 1);
    for (let i = 0; i < 5; i++) assert.equal((await authorize(url, `203.0.113.${60 + i}`)).status, 400);
    assert.equal(host.count('/flood/again'), 1, 'no new fetch within the failure cache time');
  });

  // The test's timeout only stops a run whose deadline never fires (the document trickles for minutes).
  test('a document that trickles in under the size cap is cut at the deadline', { timeout: 60_000 }, async () => {
    const started = Date.now();
    const res = await authorize(`${host.base}/trickle/slow.json`, '203.0.113.99');
    assert.equal(res.status, 400);
    // Not before the fetch deadline (a bound that load cannot break: timers never fire early)…
    assert.ok(Date.now() - started >= OAUTH_CIMD_TIMEOUT_MS - 500, `answered after ${Date.now() - started} ms`);
    // …and cut by it: the server's own account of how the fetch ended.
    const end = (await failuresOf(['/trickle/slow.json'])).get('/trickle/slow.json');
    assert.equal(end?.kind, 'timeout');
    assert.equal(end?.message, `GET client metadata document: no answer within ${OAUTH_CIMD_TIMEOUT_MS} ms`);
  });

  test('one client address makes the server fetch at most its per-minute share of documents', async () => {
    const ip = '192.0.2.77';
    for (let i = 0; i < OAUTH_CIMD_FETCHES_PER_IP + 5; i++) assert.equal((await authorize(`${host.base}/flood/ip-${i}.json`, ip)).status, 400);
    assert.equal(host.count('/flood/ip-'), OAUTH_CIMD_FETCHES_PER_IP);
  });

  test('the token endpoint reads a metadata-document client through the same guarded path, cut at the size cap', async () => {
    const res = await fetch(`${serve.base}/api/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '198.51.100.200' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: 'x', code_verifier: 'y'.repeat(43), client_id: `${host.base}/flood/token.json`, redirect_uri: 'http://127.0.0.1:9/cb' }),
    });
    assert.equal(res.status, 401);
    assert.equal(((await res.json()) as { error: string }).error, 'invalid_client');
    assert.equal(host.count('/flood/token'), 1);
    assert.equal((await failuresOf(['/flood/token.json'])).get('/flood/token.json')?.kind, 'too_large', 'the fetch ended at the size cap, not at its deadline');
  });
});
