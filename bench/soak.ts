// A soak (issue 26 §4): codrail as shipped under ten minutes of steady mixed traffic, its memory
// sampled every 10 s. The claim it checks: memory stays flat.
//
// Set-up, all through the real CLI on a temp SQLite file: the demo shop (store, product, published
// landing page), a store domain and a live publishable key for the orders, a secret key with
// `mcp:invoke` + `orders:read` for the MCP reads, WhatsApp on for the store (`order_created` notices)
// sending through `codrail whatsapp sim` (a child process, whose signed status webhooks come back to
// codrail), and a webhook endpoint for `order.created` pointing at a receiver in this process that
// checks each delivery's signature, answers 200 and counts it. Then `codrail serve --port 0`.
//
// Traffic, open loop (requests leave on schedule whatever the answers do), from this process over
// node:http keep-alive agents, per second at the default SOAK_ORDERS_PER_S=200:
//   200 POST /api/orders/create (live, distinct phones: each one a WhatsApp message and a webhook delivery)
//   100 GET /api/geo/cities?country=CO (Accept-Encoding: gzip)
//    50 GET of the demo landing page (Accept-Encoding: gzip)
//    20 POST /api/mcp tools/call, list_orders and get_order in turn (raw JSON-RPC, stateless)
// The other rates follow SOAK_ORDERS_PER_S in those proportions (½, ¼, 1/10), so one knob scales
// the whole mix. Every answer is checked (200 and the right body); errors are counted by kind. A
// request due while 5 s of traffic still waits for answers is not sent, and is an error too.
//
// Every 10 s it prints serve's RSS (VmRSS of /proc/PID/status) and CPU over the last 10 s, the orders
// created, the webhook deliveries received and the messages the WhatsApp simulator accepted (its
// GET /_sim/messages), the requests in flight and the errors so far.
// After the traffic it waits (≤ 60 s) for the deliveries and messages to catch up with the orders,
// then prints a summary: first/last/max RSS, the slope of a least-squares line over the samples after
// the first minute, counts, latencies and errors. Verdict rule: "flat" when that slope is under
// 1 MB/min (a run shorter than 2 minutes fits the line over its second half instead). Exit code 0
// only when there were no errors (a backlog still there after 60 s counts as one).
//
//   npm run soak                                   (SOAK_MINUTES=10 SOAK_ORDERS_PER_S=200)
//   SOAK_MINUTES=1 SOAK_ORDERS_PER_S=100 SOAK_WRITE=soak.txt node --import tsx bench/soak.ts
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, createServer, request, type IncomingHttpHeaders } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { headlessOrderBody } from './bench-kit.ts';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const ORDERS_PER_S = Number(process.env.SOAK_ORDERS_PER_S ?? 200);
const SAMPLE_S = 10;
/** The warm-up left out of the slope: the first minute (half the run when it is shorter than 2 minutes). */
const WARMUP_S = Math.min(60, (MINUTES * 60) / 2);
/** "flat": the RSS line after the warm-up grows by less than this. */
const FLAT_MB_PER_MIN = 1;
const DRAIN_S = 60;
const REQUEST_TIMEOUT_MS = 30_000;

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin/codrail');
const PHONE_NUMBER_ID = '106540352242922';
const SHOP_DOMAIN = 'shop.example.com';
const dir = mkdtempSync(join(tmpdir(), 'codrail-soak-'));
const children: ChildProcess[] = [];
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const env = {
  ...process.env,
  CODRAIL_DB: join(dir, 'codrail.sqlite'),
  LOG_LEVEL: 'silent',
  CODRAIL_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
  CODRAIL_RATE_IP_PER_MIN: '1000000',
  CODRAIL_RATE_KEY_PER_MIN: '1000000',
  CODRAIL_RATE_PHONE_PER_HOUR: '1000000',
  // WhatsApp through the simulator, with the server's token, and its signed status webhooks.
  CODRAIL_WHATSAPP_TOKEN: 'soak-whatsapp-token',
  CODRAIL_WHATSAPP_APP_SECRET: 'soak-app-secret',
  // The webhook receiver is plain http on loopback.
  CODRAIL_WEBHOOKS_ALLOW_PRIVATE: '1',
};

// ---------------------------------------------------------------- processes

/** `codrail --json …` through the real CLI; its JSON answer. */
function cli(...args: string[]): Record<string, any> {
  const r = spawnSync(process.execPath, [BIN, '--json', ...args], { env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`codrail ${args.join(' ')}: ${r.stderr || r.stdout}`);
  return JSON.parse(r.stdout) as Record<string, any>;
}

/** A codrail child process; resolves with the first match of `pattern` in its output. */
function startChild(args: string[], pattern: RegExp, extraEnv: Record<string, string> = {}): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  // Keep reading (a full pipe would stall the child) but remember only the tail, for a crash report.
  const onData = (chunk: Buffer) => void (out = (out + chunk.toString()).slice(-4000));
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  child.once('exit', (code, signal) => {
    if (!stopping) fail(`codrail ${args[0]} exited (${code ?? signal}) during the soak:\n${out}`);
  });
  return new Promise((resolve, reject) => {
    const poll = setInterval(() => {
      const match = pattern.exec(out);
      if (match) return clearInterval(poll), resolve({ child, match });
      if (child.exitCode !== null) return clearInterval(poll), reject(new Error(`codrail ${args.join(' ')} exited (${child.exitCode}):\n${out}`));
    }, 20);
  });
}

let stopping = false;
function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** A port nobody listens on now, for a process that must be named before it starts. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/** CPU seconds a process used so far: utime + stime of /proc/PID/stat, in Linux's 100 ticks a second. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

// ---------------------------------------------------------------- webhook receiver

/** The seller's endpoint: checks each delivery's signature, answers 200, counts. */
function startWebhookReceiver(): Promise<{ url: string; setSecret(s: string): void; deliveries(): number }> {
  let secret = '';
  let deliveries = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const type = req.headers['codrail-event-type'];
      if (!signed(secret, body, String(req.headers['codrail-signature'] ?? ''))) countError('webhook: bad signature', body.slice(0, 200));
      else if (type !== 'order.created') countError(`webhook: unexpected event ${String(type)}`, body.slice(0, 200));
      else deliveries++;
      res.writeHead(200).end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
      resolve({ url, setSecret: (s) => void (secret = s), deliveries: () => deliveries });
    }),
  );
}

/** Codrail-Signature: t=<unix s>,v1=<hex HMAC-SHA256 of "t.body"> (README, Webhooks). */
function signed(secret: string, body: string, header: string): boolean {
  const parts = header.split(',').map((p) => p.split('='));
  const t = parts.find(([k]) => k === 't')?.[1];
  if (!t) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  return parts.some(([k, v]) => k === 'v1' && /^[0-9a-f]{64}$/.test(v ?? '') && timingSafeEqual(expected, Buffer.from(v!, 'hex')));
}

// ---------------------------------------------------------------- WhatsApp simulator

/**
 * How many messages the simulator accepted: GET /_sim/messages answers them all (it grows with the
 * run), so the answer is counted as it streams — one `{"id":"wamid.` per message — and never parsed.
 */
function whatsappMessages(simUrl: string): Promise<number> {
  const mark = '{"id":"wamid.';
  return new Promise((resolve, reject) => {
    const req = request(`${simUrl}/_sim/messages`, (res) => {
      if (res.statusCode !== 200) return res.resume(), reject(new Error(`GET /_sim/messages: ${res.statusCode}`));
      let count = 0;
      let carry = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const text = carry + chunk;
        for (let i = text.indexOf(mark); i !== -1; i = text.indexOf(mark, i + mark.length)) count++;
        carry = text.slice(-(mark.length - 1));
      });
      res.on('end', () => resolve(count));
    });
    req.on('error', reject);
    req.end();
  });
}

// ---------------------------------------------------------------- set-up

interface Shop {
  base: string;
  pid: number;
  simUrl: string;
  storeId: string;
  productId: string;
  pack: { code: string; price: number };
  publishable: string;
  secret: string;
  landingPath: string;
  deliveries: () => number;
}

async function setUp(): Promise<Shop> {
  const demo = cli('demo');
  const storeId = demo.store.id as string;
  const accountId = demo.account.id as string;
  const product = cli('products', 'get', demo.product.id);
  const pack = product.packs.find((p: { quantity: number }) => p.quantity === 1) as { code: string; price: number };
  cli('stores', 'domains', 'add', storeId, SHOP_DOMAIN);
  const publishable = cli('keys', 'create', '--store', storeId, '--type', 'publishable', '--env', 'live').key as string;
  const secret = cli('keys', 'create', '--store', storeId, '--type', 'secret', '--label', 'soak mcp', '--scope', 'mcp:invoke', '--scope', 'orders:read').key as string;

  const landing = (cli('landings', 'list', '--store', storeId) as unknown as { id: string; published: boolean; url: string }[])[0]!;
  if (!landing.published) cli('landings', 'publish', landing.id);

  cli('whatsapp', 'numbers', 'assign', PHONE_NUMBER_ID, '--account', accountId);
  cli('whatsapp', 'settings', 'update', storeId, '--enabled', '--phone-number-id', PHONE_NUMBER_ID, '--events', '{"order_created":true}');

  const receiver = await startWebhookReceiver();
  receiver.setSecret(cli('webhooks', 'add', storeId, '--url', receiver.url, '--event', 'order.created', '--description', 'soak receiver').secret as string);

  // serve must know the simulator's URL, and the simulator serve's: the simulator's port is chosen first.
  const simPort = await freePort();
  const simUrl = `http://127.0.0.1:${simPort}`;
  const serve = await startChild(['serve', '--port', '0'], /http:\/\/127\.0\.0\.1:(\d+)/, { CODRAIL_WHATSAPP_URL: simUrl });
  const base = `http://127.0.0.1:${serve.match[1]}`;
  await startChild(['--json', 'whatsapp', 'sim', '--port', String(simPort), '--webhook-url', `${base}/api/whatsapp/webhook`], /"url"/);

  return {
    base,
    pid: serve.child.pid!,
    simUrl,
    storeId,
    productId: product.id as string,
    pack,
    publishable,
    secret,
    landingPath: new URL(landing.url).pathname,
    deliveries: receiver.deliveries,
  };
}

// ---------------------------------------------------------------- requests and their checks

type Kind = 'order' | 'cities' | 'landing' | 'mcp';
const KINDS: Kind[] = ['order', 'cities', 'landing', 'mcp'];
/** Requests per second of each kind, as shares of the order rate. */
const RATES: Record<Kind, number> = { order: ORDERS_PER_S, cities: ORDERS_PER_S / 2, landing: ORDERS_PER_S / 4, mcp: ORDERS_PER_S / 10 };

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

interface Call {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Throws when the answer is not the one expected. */
  check(a: Answer): void;
}

// serve closes a connection idle for 5 s (Keep-Alive: timeout=5). Node's agent honours that hint only
// when it has a timeout of its own, so without one a socket idle for 5 s is sometimes reused just as
// serve closes it (ECONNRESET): idle sockets are dropped here after 4 s.
const agent = new Agent({ keepAlive: true, maxSockets: 64, timeout: 4_000 });

function send(base: string, c: Call): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers = c.body === undefined ? c.headers : { ...c.headers, 'content-length': String(Buffer.byteLength(c.body)) };
    const req = request(`${base}${c.path}`, { method: c.method, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error(`no answer in ${REQUEST_TIMEOUT_MS / 1000} s`)));
    req.on('error', reject);
    req.end(c.body);
  });
}

class Refused extends Error {
  constructor(
    readonly kind: string,
    detail: string,
  ) {
    super(detail);
  }
}

function expect200(a: Answer): void {
  if (a.status !== 200) throw new Refused(`HTTP ${a.status}`, a.body.toString('utf8').slice(0, 300));
}

function expectGzip(a: Answer): void {
  expect200(a);
  if (a.headers['content-encoding'] !== 'gzip' || a.body.length < 500) throw new Refused('not gzip', `content-encoding ${a.headers['content-encoding']}, ${a.body.length} bytes`);
}

const json = (a: Answer) => JSON.parse(a.body.toString('utf8')) as Record<string, any>;
/** The newest order created, for get_order. */
let lastOrderId: string | undefined;

function orderCall(shop: Shop, n: number): Call {
  const price = shop.pack.price;
  return {
    method: 'POST',
    path: '/api/orders/create',
    headers: { 'content-type': 'application/json', 'x-svc-api-key': shop.publishable, origin: `https://${SHOP_DOMAIN}` },
    body: headlessOrderBody({ storeId: shop.storeId, productId: shop.productId, pack: shop.pack.code, price }, n),
    check(a) {
      expect200(a);
      const data = json(a).data as { id?: string; sandbox?: boolean; needs_review?: boolean } | undefined;
      if (!data?.id || data.sandbox !== false || data.needs_review !== false) throw new Refused('unexpected order', a.body.toString('utf8').slice(0, 300));
      lastOrderId = data.id;
    },
  };
}

const citiesCall = (): Call => ({ method: 'GET', path: '/api/geo/cities?country=CO', headers: { 'accept-encoding': 'gzip' }, check: expectGzip });

const landingCall = (shop: Shop): Call => ({ method: 'GET', path: shop.landingPath, headers: { 'accept-encoding': 'gzip' }, check: expectGzip });

/** A tools/call as a stateless MCP client sends it: list_orders, then get_order of the newest order. */
function mcpCall(shop: Shop, n: number): Call {
  const orderId = n % 2 === 1 ? lastOrderId : undefined;
  const params = orderId ? { name: 'get_order', arguments: { order_id: orderId } } : { name: 'list_orders', arguments: { store_id: shop.storeId, limit: 20 } };
  return {
    method: 'POST',
    path: '/api/mcp',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${shop.secret}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: n, method: 'tools/call', params }),
    check(a) {
      expect200(a);
      const { result, error } = json(a) as { result?: { isError?: boolean; structuredContent?: Record<string, any> }; error?: unknown };
      if (error !== undefined || !result) throw new Refused('JSON-RPC error', a.body.toString('utf8').slice(0, 300));
      if (result.isError) throw new Refused(`${params.name} failed`, JSON.stringify(result.structuredContent).slice(0, 300));
      const ok = orderId ? result.structuredContent?.id === orderId : Array.isArray(result.structuredContent?.items);
      if (!ok) throw new Refused(`${params.name}: unexpected result`, JSON.stringify(result.structuredContent).slice(0, 300));
    },
  };
}

function callOf(shop: Shop, kind: Kind, n: number): Call {
  if (kind === 'order') return orderCall(shop, n);
  if (kind === 'cities') return citiesCall();
  if (kind === 'landing') return landingCall(shop);
  return mcpCall(shop, n);
}

// ---------------------------------------------------------------- tallies

/** Errors by kind, with the first example of each. */
const errors = new Map<string, { count: number; example: string }>();
function countError(kind: string, example: string): void {
  const e = errors.get(kind) ?? { count: 0, example };
  e.count++;
  errors.set(kind, e);
}
const errorTotal = () => [...errors.values()].reduce((n, e) => n + e.count, 0);

/** Latencies in 0.1 ms buckets up to the request timeout: percentiles without keeping every figure. */
class Latencies {
  readonly #buckets = new Uint32Array(REQUEST_TIMEOUT_MS * 10 + 1);
  count = 0;
  max = 0;
  add(ms: number): void {
    this.#buckets[Math.min(this.#buckets.length - 1, Math.round(ms * 10))]!++;
    this.count++;
    this.max = Math.max(this.max, ms);
  }
  at(q: number): number {
    let seen = 0;
    for (let i = 0; i < this.#buckets.length; i++) if ((seen += this.#buckets[i]!) >= q * this.count) return i / 10;
    return this.max;
  }
}
const ok = Object.fromEntries(KINDS.map((k) => [k, new Latencies()])) as Record<Kind, Latencies>;
let inFlight = 0;
/**
 * Five seconds of traffic waiting for answers: past that serve is not keeping up, and an open loop
 * would pile requests up without end (in this process's memory, not serve's). A request due then is
 * not sent, and counted as an error.
 */
const MAX_IN_FLIGHT = Math.ceil(5 * KINDS.reduce((n, k) => n + RATES[k], 0));

async function fire(shop: Shop, kind: Kind, n: number): Promise<void> {
  if (inFlight >= MAX_IN_FLIGHT) return countError(`${kind}: not sent, ${MAX_IN_FLIGHT} requests already waiting (serve is not keeping up)`, '');
  const call = callOf(shop, kind, n);
  const started = performance.now();
  inFlight++;
  try {
    call.check(await send(shop.base, call));
    ok[kind].add(performance.now() - started);
  } catch (error) {
    const e = error as Error & { code?: string };
    if (e instanceof Refused) countError(`${kind}: ${e.kind}`, e.message);
    else countError(`${kind}: ${e.code ?? e.message}`, e.message);
  } finally {
    inFlight--;
  }
}

// ---------------------------------------------------------------- the run

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

/** One request of each kind, and one delivery and one message back, before committing to minutes of load. */
async function smoke(shop: Shop): Promise<void> {
  for (const kind of KINDS) await fire(shop, kind, 0);
  const until = performance.now() + 15_000;
  while (performance.now() < until && (shop.deliveries() < 1 || (await whatsappMessages(shop.simUrl)) < 1)) await sleep(200);
  if (shop.deliveries() < 1) countError('webhook: no delivery of the first order within 15 s', '');
  if ((await whatsappMessages(shop.simUrl)) < 1) countError('whatsapp: no message for the first order within 15 s', '');
  if (errorTotal() > 0) fail(`the smoke test failed before the soak:\n${errorLines().join('\n')}`);
}

/** Open loop: each kind's n-th request leaves at n / rate seconds, whatever the answers do. */
async function drive(shop: Shop, seconds: number): Promise<void> {
  const start = performance.now();
  const sent: Record<Kind, number> = { order: 1, cities: 1, landing: 1, mcp: 1 }; // after the smoke test's
  for (;;) {
    const elapsed = Math.min(seconds, (performance.now() - start) / 1000);
    for (const kind of KINDS) {
      const due = Math.floor(RATES[kind] * elapsed) + 1;
      while (sent[kind] < due) void fire(shop, kind, sent[kind]++);
    }
    if (elapsed >= seconds) return;
    await sleep(5);
  }
}

interface Sample {
  s: number;
  rssMb: number;
  /** serve's CPU since the previous sample, % of one core. */
  cpuPct: number;
  orders: number;
  deliveries: number;
  whatsapp: number;
}

let cpuBefore = { at: 0, cpu: 0 };
async function sample(shop: Shop, s: number): Promise<Sample> {
  const rss = rssMb(shop.pid); // first: the figures of this instant, before the simulator's answer
  const now = { at: performance.now(), cpu: cpuSeconds(shop.pid) };
  const cpuPct = s === 0 ? 0 : ((now.cpu - cpuBefore.cpu) / ((now.at - cpuBefore.at) / 1000)) * 100;
  cpuBefore = now;
  const x: Sample = { s, rssMb: rss, cpuPct, orders: ok.order.count, deliveries: shop.deliveries(), whatsapp: await whatsappMessages(shop.simUrl) };
  console.log(
    `${String(s).padStart(5)} s  RSS ${rss.toFixed(1).padStart(6)} MB  CPU ${cpuPct.toFixed(0).padStart(3)}%  orders ${String(x.orders).padStart(7)}  webhook deliveries ${String(x.deliveries).padStart(7)}  whatsapp messages ${String(x.whatsapp).padStart(7)}  in flight ${String(inFlight).padStart(4)}  errors ${errorTotal()}`,
  );
  return x;
}

/** Samples at 0, 10, 20 … seconds from `start` until `seconds`. */
async function sampleEvery(shop: Shop, start: number, seconds: number, into: Sample[]): Promise<void> {
  for (let s = 0; s <= seconds; s += SAMPLE_S) {
    await sleep(start + s * 1000 - performance.now());
    into.push(await sample(shop, s));
  }
}

/** After the traffic: the answers still on their way, then the outboxes catching up with the orders. */
async function drain(shop: Shop): Promise<{ seconds: number; messages: number }> {
  const start = performance.now();
  while (inFlight > 0 && performance.now() - start < REQUEST_TIMEOUT_MS + 1000) await sleep(50);
  const orders = ok.order.count;
  const until = start + DRAIN_S * 1000;
  while (performance.now() < until && shop.deliveries() < orders) await sleep(250);
  let messages = await whatsappMessages(shop.simUrl);
  while (performance.now() < until && messages < orders) await sleep(1000), (messages = await whatsappMessages(shop.simUrl));
  if (shop.deliveries() < orders) countError(`webhook: deliveries behind orders ${DRAIN_S} s after the traffic`, `${shop.deliveries()} of ${orders}`);
  if (messages < orders) countError(`whatsapp: messages behind orders ${DRAIN_S} s after the traffic`, `${messages} of ${orders}`);
  return { seconds: (performance.now() - start) / 1000, messages };
}

// ---------------------------------------------------------------- summary

/** Least-squares slope of RSS against time, in MB per minute. */
function slopeMbPerMin(samples: Sample[]): number {
  const xs = samples.map((p) => p.s / 60);
  const ys = samples.map((p) => p.rssMb);
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  const sxy = xs.reduce((a, x, i) => a + (x - mx) * (ys[i]! - my), 0);
  const sxx = xs.reduce((a, x) => a + (x - mx) ** 2, 0);
  return sxx === 0 ? Number.NaN : sxy / sxx;
}

function errorLines(): string[] {
  return [...errors].map(([kind, e]) => `  ${String(e.count).padStart(7)}  ${kind}${e.example ? `  (first: ${e.example.replace(/\s+/g, ' ').slice(0, 200)})` : ''}`);
}

function summary(samples: Sample[], shop: Shop, drained: { seconds: number; messages: number }): string[] {
  const rss = samples.map((p) => p.rssMb);
  const after = samples.filter((p) => p.s >= WARMUP_S);
  const busy = samples.filter((p) => p.s > 0);
  const slope = slopeMbPerMin(after);
  const flat = slope < FLAT_MB_PER_MIN;
  // Within a minute or two the garbage collector's swings outweigh any trend: say so.
  const short = after.length < 6 ? ` — a short run (${after.length} samples): GC swings dominate, judge a 10-minute run` : '';
  const cpu = cpus();
  const mb = (n: number) => `${n.toFixed(1)} MB`;
  return [
    `machine: ${cpu.length} × ${cpu[0]?.model.trim() ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.versions.node}, ${process.platform} ${process.arch}`,
    `soak: ${MINUTES} min at ${KINDS.map((k) => `${RATES[k]} ${k}`).join(' + ')} requests/s (open loop)`,
    `RSS of serve: first ${mb(rss[0]!)}, last ${mb(rss[rss.length - 1]!)}, max ${mb(Math.max(...rss))}; its CPU under traffic: ${(busy.reduce((a, p) => a + p.cpuPct, 0) / Math.max(1, busy.length)).toFixed(0)}% of one core on average`,
    `RSS slope from ${WARMUP_S} s on (${after.length} samples, least squares): ${Number.isNaN(slope) ? 'n/a' : `${slope.toFixed(2)} MB/min`}`,
    `verdict: ${flat ? 'flat' : 'NOT flat'} (flat = slope under ${FLAT_MB_PER_MIN} MB/min after the warm-up)${short}`,
    `orders created: ${ok.order.count}; webhook deliveries received: ${shop.deliveries()}; whatsapp messages at the simulator: ${drained.messages} (after waiting ${drained.seconds.toFixed(1)} s for the outboxes)`,
    'answers checked, p50 / p99 / max ms:',
    ...KINDS.map((k) => `  ${k.padEnd(8)} ${String(ok[k].count).padStart(8)}  ${ok[k].at(0.5).toFixed(1)} / ${ok[k].at(0.99).toFixed(1)} / ${ok[k].max.toFixed(1)}`),
    `errors: ${errorTotal()}`,
    ...errorLines(),
  ];
}

// ---------------------------------------------------------------- main

const shop = await setUp();
await smoke(shop);
console.log(`codrail serve (pid ${shop.pid}) on ${shop.base}; WhatsApp simulator on ${shop.simUrl}; ${MINUTES} min of traffic, RSS every ${SAMPLE_S} s`);
const seconds = Math.round(MINUTES * 60);
const samples: Sample[] = [];
const start = performance.now();
await Promise.all([drive(shop, seconds), sampleEvery(shop, start, seconds, samples)]);
const drained = await drain(shop);
stopping = true;
const lines = summary(samples, shop, drained);
console.log(lines.join('\n'));
if (process.env.SOAK_WRITE) writeFileSync(process.env.SOAK_WRITE, `${lines.join('\n')}\n`);
process.exit(errorTotal() === 0 ? 0 : 1);
