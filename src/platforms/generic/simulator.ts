// A local fulfillment platform that speaks docs/fulfillment-platform.md, for development and tests
// (`codrail fulfillment sim`). Like the real COD platforms it has no idempotency, and it can be told
// to misbehave (429, 5xx, answers that come after the client gave up) so the outbox's exactly-once
// rules can be exercised against a real HTTP server. node:http only: it must start in milliseconds.
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as v from 'valibot';
import { signWebhook } from '../../domain/webhook-signature.ts';
import { CreatePlatformOrderSchema, PLATFORM_STATUSES } from './contract.ts';
import { checkRate, readCappedBody, startSimServer, type SimServer } from '../../simulators/sim-server.ts';

export interface SimulatorOptions {
  port?: number;
  host?: string;
  /** The one token accepted (SPEC 7's single platform account). */
  token?: string;
  /** Several accepted tokens, each its own platform account (per-store connections). Neither = any token. */
  tokens?: readonly string[];
  /** The product catalog; a default one of common COD products otherwise. */
  products?: readonly SimProduct[];
  failRate?: number;
  timeoutRate?: number;
  latencyMs?: number;
  rateLimit?: number;
  lateMs?: number;
  webhookUrl?: string;
  webhookSecret?: string;
  /** Orders the platform already holds when it starts (made before an upgrade, a restart, a crash), with the token that made them. */
  existing?: readonly { id: string; external_ref: string; status?: string; token?: string }[];
  random?: () => number;
  log?: (line: string) => void;
}

export interface SimProduct {
  id: string;
  name: string;
  sku: string | null;
  price: number;
  stock: number;
  variants: { id: string; name: string }[];
}

/** Which credential made a request: a hash and the last four characters, never the token. */
export interface SimCredential {
  hash: string;
  last4: string;
}

export interface SimOrder {
  id: string;
  external_ref: string;
  status: string;
  /** The credential that created it; null when the request carried no token. */
  credential: SimCredential | null;
  tracking_number: string | null;
  /** Set once `POST /orders/{id}/cancel` cancelled it. */
  cancellation: { status: 'cancelled'; at: string; calls: number } | null;
  /**
   * How many `POST /orders` requests carried this order's external_ref: every such request whose
   * body is JSON with a string `external_ref`, whatever it was answered (201, late 201, 400, 401,
   * 429, injected 5xx). It is counted per ref, so every platform order with that ref shows the same
   * number. It answers "how many times did codrail try to create this order".
   */
  create_calls: number;
  created_at: string;
  updated_at: string;
  request: unknown;
}

export interface Simulator {
  url: string;
  port: number;
  orders(): SimOrder[];
  /** Sets a status and, with a webhook configured, resolves once its delivery succeeded or gave up. */
  advance(id: string, status: string, trackingNumber?: string): Promise<void>;
  close(): Promise<void>;
}

const DEFAULT_LATE_MS = 15_000;
const MAX_BODY_BYTES = 1024 * 1024;
const WEBHOOK_ATTEMPTS = 4;
const WEBHOOK_RETRY_BASE_MS = 250;
const WEBHOOK_TIMEOUT_MS = 5_000;

// Real platforms want the contract's core and tolerate the rest missing: the core is required, every
// other contract field is optional, and all keep the contract's types (one shape, contract.ts).
const REQUIRED = ['external_ref', 'name', 'phone', 'state', 'city', 'address', 'total_to_collect', 'currency', 'products'] as const;
const SimCreateSchema = v.object({
  ...v.pick(CreatePlatformOrderSchema, REQUIRED).entries,
  ...v.partial(v.omit(CreatePlatformOrderSchema, REQUIRED)).entries,
});

const STATUSES: readonly string[] = PLATFORM_STATUSES;
/** Past these the parcel has left: the platform refuses to cancel (409), as real ones do. */
const NOT_CANCELLABLE = new Set(['EN_TRANSITO', 'EN_REPARTO', 'NOVEDAD', 'ENTREGADO', 'DEVOLUCION']);

export const credentialOf = (token: string): SimCredential => ({ hash: createHash('sha256').update(token).digest('hex').slice(0, 16), last4: token.slice(-4) });

/** A small catalog of what COD stores in the region sell, so linking can be tried out of the box. */
export const DEFAULT_SIM_PRODUCTS: readonly SimProduct[] = [
  ['Faja colombiana reductora', 'FAJA-01', 89900, ['S', 'M', 'L', 'XL']],
  ['Cepillo alisador 3 en 1', 'CEP-3EN1', 69900, []],
  ['Reloj inteligente deportivo', 'SMART-W8', 119900, ['Negro', 'Rosa']],
  ['Audífonos inalámbricos', 'AUD-PRO', 59900, []],
  ['Masajeador de cuello', 'MASA-CU', 79900, []],
  ['Lámpara solar de exterior', 'LAMP-SOL', 49900, []],
  ['Organizador de maquillaje giratorio', 'ORG-360', 54900, []],
  ['Corrector de postura', 'POST-01', 39900, ['S/M', 'L/XL']],
  ['Mini proyector portátil', 'PROY-MINI', 189900, []],
  ['Set de ollas antiadherentes', 'OLLA-SET', 229900, []],
  ['Crema hidratante de colágeno', 'COLAG-50', 45900, []],
  ['Cámara de seguridad WiFi', 'CAM-WIFI', 99900, []],
].map(([name, sku, price, variants], i) => ({
  id: `DP-${1001 + i}`,
  name: name as string,
  sku: sku as string,
  price: price as number,
  stock: 50 + i * 7,
  variants: (variants as string[]).map((v, j) => ({ id: `DP-${1001 + i}-V${j + 1}`, name: v })),
}));

type Stored = Omit<SimOrder, 'create_calls'>;
/** A caller's platform account: its credential hash, or '' without a token. */
type Account = string;
type Answer = { status: number; body: unknown; headers?: Record<string, string> };

class HttpAnswer extends Error {
  constructor(readonly answer: Answer) {
    super(String((answer.body as { error?: string }).error));
  }
}
const fail = (status: number, error: string): HttpAnswer => new HttpAnswer({ status, body: { error } });

export async function startSimulator(options: SimulatorOptions): Promise<Simulator> {
  const failRate = checkRate('failRate', options.failRate);
  const timeoutRate = checkRate('timeoutRate', options.timeoutRate);
  const latencyMs = Math.max(0, options.latencyMs ?? 0);
  const lateMs = Math.max(0, options.lateMs ?? DEFAULT_LATE_MS);
  const rateLimit = Math.max(0, options.rateLimit ?? 0);
  const random = options.random ?? Math.random;
  const log = options.log ?? (() => {});
  // codrail refuses unsigned reports, so a webhook without a secret could never be delivered.
  if (options.webhookUrl && !options.webhookSecret) throw new Error('webhookUrl needs webhookSecret');

  const orders = new Map<string, Stored>();
  for (const e of options.existing ?? []) {
    const at = new Date().toISOString();
    orders.set(e.id, { id: e.id, external_ref: e.external_ref, status: e.status ?? 'PENDIENTE', credential: e.token === undefined ? null : credentialOf(e.token), tracking_number: null, cancellation: null, created_at: at, updated_at: at, request: null });
  }
  const products = new Map((options.products ?? DEFAULT_SIM_PRODUCTS).map((p) => [p.id, structuredClone(p)]));
  let trackingSequence = 0;
  const createCalls = new Map<string, number>();
  const accepted: number[] = [];
  let sequence = 0;
  // The server (src/simulators/sim-server.ts), set once listening: before any request or webhook runs.
  let sim!: SimServer;
  const later = (ms: number) => sim.later(ms);

  const view = (o: Stored): SimOrder => ({ ...o, create_calls: createCalls.get(o.external_ref) ?? 0 });
  const contractView = (o: Stored) => ({ id: o.id, external_ref: o.external_ref, status: o.status, tracking_number: o.tracking_number, created_at: o.created_at, updated_at: o.updated_at });
  const accountOf = (o: Stored): Account => o.credential?.hash ?? '';

  /** Sliding one-second window over the requests let through; refused ones do not count. */
  function overRateLimit(now: number): boolean {
    if (!rateLimit) return false;
    while (accepted.length && accepted[0]! <= now - 1000) accepted.shift();
    if (accepted.length >= rateLimit) return true;
    accepted.push(now);
    return false;
  }

  const accepted_tokens = options.tokens ?? (options.token !== undefined ? [options.token] : undefined);
  /** The caller's account, or undefined when its token is refused. */
  function authorized(req: IncomingMessage): { account: Account; credential: SimCredential | null } | undefined {
    const m = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
    const token = m?.[1];
    if (accepted_tokens && (token === undefined || !accepted_tokens.includes(token))) return undefined;
    const credential = token === undefined ? null : credentialOf(token);
    return { account: credential?.hash ?? '', credential };
  }

  async function deliver(order: Stored): Promise<void> {
    const { webhookUrl, webhookSecret } = options;
    if (!webhookUrl || !webhookSecret) return;
    const event = { event_id: `evt_${randomUUID()}`, order_id: order.id, external_ref: order.external_ref, status: order.status, tracking_number: order.tracking_number, occurred_at: order.updated_at };
    const body = JSON.stringify(event);
    for (let attempt = 1; attempt <= WEBHOOK_ATTEMPTS && !sim.closing.aborted; attempt++) {
      try {
        // Signed at each attempt: a retry must stay inside codrail's ±5 min freshness window.
        const res = await fetch(webhookUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-codrail-signature': signWebhook(webhookSecret, body, Math.floor(Date.now() / 1000)) },
          body,
          signal: AbortSignal.any([sim.closing, AbortSignal.timeout(WEBHOOK_TIMEOUT_MS)]),
        });
        await res.body?.cancel();
        log(`webhook ${event.event_id} ${order.id} ${order.status} → ${res.status} (attempt ${attempt})`);
        if (res.ok) return;
      } catch (error) {
        log(`webhook ${event.event_id} ${order.id} failed (attempt ${attempt}): ${(error as Error).message}`);
      }
      if (attempt < WEBHOOK_ATTEMPTS) await later(WEBHOOK_RETRY_BASE_MS * 2 ** (attempt - 1));
    }
  }

  function setStatus(id: string, status: unknown, tracking?: unknown): Stored {
    const order = orders.get(id);
    if (!order) throw fail(404, `unknown order ${id}`);
    if (typeof status !== 'string' || !STATUSES.includes(status)) throw fail(400, `status must be one of ${STATUSES.join(', ')}`);
    if (tracking !== undefined && tracking !== null && typeof tracking !== 'string') throw fail(400, 'tracking_number must be a string');
    order.status = status;
    if (typeof tracking === 'string') order.tracking_number = tracking;
    // A label (guía) comes with a tracking number, as on the real platforms.
    else if (status === 'GUIA_GENERADA' && !order.tracking_number) order.tracking_number = `GUIA${String(++trackingSequence).padStart(8, '0')}`;
    order.updated_at = new Date().toISOString();
    log(`status ${id} → ${status}`);
    return order;
  }

  function parseJson(raw: Buffer): unknown {
    try {
      return JSON.parse(raw.toString('utf8'));
    } catch {
      throw fail(400, 'body is not valid JSON');
    }
  }

  function create(body: unknown, credential: SimCredential | null): Answer {
    const parsed = v.safeParse(SimCreateSchema, body);
    if (!parsed.success) {
      const issue = parsed.issues[0];
      throw fail(400, `${v.getDotPath(issue) ?? 'body'}: ${issue.message}`);
    }
    const now = new Date().toISOString();
    const id = `P-${String(++sequence).padStart(6, '0')}`;
    const order: Stored = { id, external_ref: parsed.output.external_ref, status: 'PENDIENTE', credential, tracking_number: null, cancellation: null, created_at: now, updated_at: now, request: parsed.output };
    orders.set(id, order);
    log(`create ${id} ref=${order.external_ref}`);
    return { status: 201, body: { id, external_ref: order.external_ref, status: order.status, created_at: now } };
  }

  /** The control plane for tests and the developer; never throttled or failed, and needs no token. */
  function control(method: string, path: string, raw: Buffer): Answer {
    if (path === '/_sim/orders' && method === 'GET') return { status: 200, body: [...orders.values()].map(view).map(({ request: _, ...o }) => o) };
    if (path === '/_sim/products' && method === 'GET') return { status: 200, body: [...products.values()] };
    if (path === '/_sim/products' && method === 'POST') {
      const p = parseJson(raw) as Partial<SimProduct> | null;
      if (!p || typeof p.name !== 'string' || !p.name) throw fail(400, 'name is required');
      const product: SimProduct = {
        id: typeof p.id === 'string' && p.id ? p.id : `DP-${1001 + products.size}`,
        name: p.name,
        sku: typeof p.sku === 'string' ? p.sku : null,
        price: typeof p.price === 'number' ? p.price : 0,
        stock: typeof p.stock === 'number' ? p.stock : 0,
        variants: Array.isArray(p.variants) ? p.variants.filter((x) => typeof x?.id === 'string').map((x) => ({ id: x.id, name: String(x.name ?? x.id) })) : [],
      };
      products.set(product.id, product);
      return { status: 201, body: product };
    }
    const m = /^\/_sim\/orders\/([^/]+)\/status$/.exec(path);
    if (m && method === 'POST') {
      const body = parseJson(raw) as { status?: unknown; tracking_number?: unknown } | null;
      const order = setStatus(decodeURIComponent(m[1]!), body?.status, body?.tracking_number);
      void deliver(order);
      const { request: _, ...entry } = view(order);
      return { status: 200, body: entry };
    }
    throw fail(404, 'not found');
  }

  /** The contract, behind the injected failures in the order the options document. */
  async function platform(method: string, url: URL, req: IncomingMessage, raw: Buffer): Promise<Answer> {
    const isCreate = method === 'POST' && url.pathname === '/orders';
    if (isCreate) {
      let ref: unknown;
      try {
        ref = (JSON.parse(raw.toString('utf8')) as { external_ref?: unknown } | null)?.external_ref;
      } catch {
        // counted only when the ref is readable; the 400 comes after the injected failures
      }
      if (typeof ref === 'string') createCalls.set(ref, (createCalls.get(ref) ?? 0) + 1);
    }
    if (overRateLimit(Date.now())) return { status: 429, body: { error: 'too many requests' }, headers: { 'retry-after': '1' } };
    const caller = authorized(req);
    if (!caller) throw fail(401, 'invalid or missing token');
    if (failRate > 0 && random() < failRate) throw fail(500, 'injected platform failure');
    if (isCreate) {
      const answer = create(parseJson(raw), caller.credential);
      // The order exists, but the answer comes after the client's timeout: its outcome is unknown.
      if (timeoutRate > 0 && random() < timeoutRate) await later(lateMs);
      return answer;
    }
    // Each credential is its own platform account: it sees and cancels only its own orders.
    const own = (id: string) => {
      const order = orders.get(id);
      return order && accountOf(order) === caller.account ? order : undefined;
    };
    const cancel = /^\/orders\/([^/]+)\/cancel$/.exec(url.pathname);
    if (cancel && method === 'POST') {
      const order = own(decodeURIComponent(cancel[1]!));
      if (!order) throw fail(404, 'not found');
      if (order.cancellation) order.cancellation.calls++;
      else {
        if (NOT_CANCELLABLE.has(order.status)) throw fail(409, `order ${order.id} is ${order.status} and can no longer be cancelled`);
        order.status = 'CANCELADO';
        order.updated_at = new Date().toISOString();
        order.cancellation = { status: 'cancelled', at: order.updated_at, calls: 1 };
        log(`cancel ${order.id}`);
      }
      return { status: 200, body: contractView(order) };
    }
    if (method !== 'GET') throw fail(405, 'method not allowed');
    if (url.pathname === '/account') {
      const c = caller.credential;
      return { status: 200, body: { id: c ? `acct_${c.hash.slice(0, 8)}` : 'acct_anonymous', name: c ? `Simulated account …${c.last4}` : 'Simulated account' } };
    }
    if (url.pathname === '/products') {
      const query = (url.searchParams.get('query') ?? '').toLowerCase();
      const page = Math.max(1, Number(url.searchParams.get('page')) || 1);
      const perPage = Math.min(100, Math.max(1, Number(url.searchParams.get('per_page')) || 20));
      const matching = [...products.values()].filter((p) => !query || p.name.toLowerCase().includes(query) || (p.sku ?? '').toLowerCase().includes(query));
      return { status: 200, body: { products: matching.slice((page - 1) * perPage, page * perPage), page, has_more: matching.length > page * perPage } };
    }
    const product = /^\/products\/([^/]+)$/.exec(url.pathname);
    if (product) {
      const p = products.get(decodeURIComponent(product[1]!));
      if (!p) throw fail(404, 'product not found');
      return { status: 200, body: p };
    }
    if (url.pathname === '/orders') {
      const ref = url.searchParams.get('external_ref');
      if (!ref) throw fail(400, 'external_ref is required');
      return { status: 200, body: { orders: [...orders.values()].filter((o) => o.external_ref === ref && accountOf(o) === caller.account).map(contractView) } };
    }
    const m = /^\/orders\/([^/]+)$/.exec(url.pathname);
    const order = m ? own(decodeURIComponent(m[1]!)) : undefined;
    if (!order) throw fail(404, 'not found');
    return { status: 200, body: contractView(order) };
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://simulator');
    const isControl = url.pathname.startsWith('/_sim/');
    let answer: Answer;
    try {
      const raw = await readCappedBody(req, MAX_BODY_BYTES, () => fail(413, 'body too large'));
      answer = isControl ? control(method, url.pathname, raw) : await platform(method, url, req, raw);
    } catch (error) {
      if (!(error instanceof HttpAnswer)) throw error;
      answer = error.answer;
    }
    if (!isControl && latencyMs > 0) await later(latencyMs);
    // A client that gave up (timeout) has closed its socket: the late answer goes nowhere.
    if (res.destroyed || sim.closing.aborted) return;
    const text = JSON.stringify(answer.body);
    res.writeHead(answer.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...answer.headers });
    res.end(text);
    log(`${method} ${url.pathname}${url.search} → ${answer.status}`);
  }

  sim = await startSimServer({ port: options.port, host: options.host, name: 'fulfillment simulator', log, crashBody: '{"error":"simulator error"}', handle });
  const { url, port } = sim;

  return {
    url,
    port,
    orders: () => [...orders.values()].map((o) => structuredClone(view(o))),
    async advance(id, status, trackingNumber) {
      let order: Stored;
      try {
        order = setStatus(id, status, trackingNumber);
      } catch (error) {
        throw error instanceof HttpAnswer ? new Error(error.message) : error;
      }
      await deliver(order);
    },
    close: () => sim.close(),
  };
}
