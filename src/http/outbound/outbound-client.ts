// The one guarded outbound HTTP path (issue 19 §1; SPEC 17): every call codrail makes to another
// server — a client's metadata document, the fulfillment platform, the WhatsApp Cloud API, a seller's
// webhook endpoint — goes through `send`, which holds four promises:
//   - one deadline over connect, headers and body (a body that keeps arriving is cut at the deadline:
//     on Node 20 `AbortSignal.timeout` did not stop a body already streaming);
//   - the answer is read as a stream under a byte cap that aborts the moment it is passed, and an
//     announced Content-Length over the cap is refused unread;
//   - redirects are not followed unless the caller asks, and then each hop is checked again;
//   - the address policy is applied to the address the socket connects to: the name is resolved
//     once, each answer checked, and the socket connects to exactly those addresses (no second
//     look-up for DNS rebinding to exploit);
// and fails with one error type, OutboundError, so every caller classifies retries the same way.
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { addressAllowed, type AddressPolicy } from './address-policy.ts';
import { Pacer, type Pace, type PaceSlots } from './pacer.ts';
import { OutboundError, retryAfterMs } from './outbound-error.ts';

/** Resolves a host name to every address it has (the system resolver unless a test or an operator passes another). */
export type Resolver = (hostname: string, callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

const systemResolver: Resolver = (hostname, callback) => dnsLookup(hostname, { all: true, verbatim: true }, callback);

export interface OutboundRequest {
  url: string;
  method?: string;
  headers?: Readonly<Record<string, string>>;
  body?: string | Buffer;
  /** `public` for URLs that come from outside (client metadata, seller webhooks); `any` for what the operator configured. */
  addresses: AddressPolicy;
  /** One deadline for the whole call, redirects included. */
  deadlineMs: number;
  /** The largest answer body read; more aborts the call. */
  maxBytes: number;
  /** Redirects followed (each hop checked again); 0, the default, answers a 3xx as a status error. */
  redirects?: number;
  /** Names the call in error messages, e.g. `POST /orders` (never a full URL: a query may carry a secret). */
  what: string;
  /** A short reading of an error answer's body for the message (a platform's `error`, the Graph API's `error.message`). */
  describeError?: (body: string) => string;
  /** Paced with every other request of the same key in this process (a fragile platform's credential). */
  pace?: Pace | undefined;
}

export interface OutboundResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The URL that answered (after redirects). */
  url: string;
}

const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
/** Codes of a connection that never opened: the request cannot have been received. */
const NOT_CONNECTED: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_NODATA', 'EAI_NONAME', 'EAI_FAIL']);

function connectionError(error: NodeJS.ErrnoException, what: string, sent: boolean): OutboundError {
  if (error instanceof OutboundError) return error;
  const code = error.code ?? error.message;
  if (NOT_CONNECTED.has(code)) return new OutboundError('refused', `${what}: ${code === 'ECONNREFUSED' ? 'connection refused (ECONNREFUSED)' : `host not found (${code})`}`, { sent: false });
  return new OutboundError('network', `${what}: connection failed (${code})`, { sent });
}

/**
 * How long an outbound kept-alive socket may sit unused before this side closes it; shorter when the
 * other side announces its own idle timeout (`Keep-Alive: timeout=N`: N s less one). Below the
 * shortest common server idle timeout (Node's and Apache's 5 s), so a request is never written into a
 * connection the other side is closing: its reset would be an unknown outcome, one more try with a
 * look-up, and for a WhatsApp send a message given up. Node's own global agent does the same (5 s).
 * Here, not in limits.ts: this module imports nothing from src outside itself.
 */
export const OUTBOUND_IDLE_SOCKET_MS = 4_000;

export class OutboundClient {
  readonly #resolve: Resolver;
  readonly #agents: Record<AddressPolicy, { 'http:': http.Agent; 'https:': https.Agent }>;
  readonly #lookups: Record<AddressPolicy, LookupFunction>;
  readonly #pacer: Pacer;

  /** `paceSlots`: where paced keys reserve their starts, shared with the other processes on the database. */
  constructor(options: { resolve?: Resolver; paceSlots?: PaceSlots } = {}) {
    this.#resolve = options.resolve ?? systemResolver;
    this.#pacer = new Pacer({ slots: options.paceSlots });
    // Kept-alive sockets per policy: a socket opened under one policy never serves the other. An idle
    // one is let go before the other side's idle timeout (OUTBOUND_IDLE_SOCKET_MS: Node applies the
    // Keep-Alive hint only with a timeout set). On a socket in use the timeout only emits an event no
    // one listens to: a request's own deadline is `deadlineMs`.
    const kept = { keepAlive: true, scheduling: 'lifo', timeout: OUTBOUND_IDLE_SOCKET_MS } as const;
    const agents = () => ({ 'http:': new http.Agent(kept), 'https:': new https.Agent(kept) });
    this.#agents = { public: agents(), any: agents() };
    this.#lookups = { public: this.#guardedLookup('public'), any: this.#guardedLookup('any') };
  }

  /** The look-up the socket connects with: resolve once, check every address, hand over only those. */
  #guardedLookup(policy: AddressPolicy): LookupFunction {
    return ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
      this.#resolve(hostname, (error, addresses) => {
        if (error) return callback(error);
        // One forbidden answer refuses the name: a host that resolves to both kinds is not trusted with either.
        const refused = addresses.find((a) => !addressAllowed(policy, a.address));
        if (addresses.length === 0 || refused)
          return callback(new OutboundError('blocked', `${hostname} resolves to ${refused?.address ?? 'no address'}, which this call may not reach`, { sent: false }));
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      });
    }) as unknown as LookupFunction;
  }

  /**
   * Whether every address a host has now is one this policy may reach: the check of a URL when it is
   * saved (a webhook endpoint). Each request checks again on the address it connects to.
   */
  async hostAllowed(hostname: string, policy: AddressPolicy): Promise<{ ok: true } | { ok: false; reason: string }> {
    const host = hostname.replace(/^\[|\]$/g, '');
    if (isIP(host)) return addressAllowed(policy, host) ? { ok: true } : { ok: false, reason: `${host} is not a public address` };
    return new Promise((resolve) =>
      this.#resolve(host, (error, addresses) => {
        if (error || addresses.length === 0) return resolve({ ok: false, reason: `${host} does not resolve (${error?.code ?? 'no address'})` });
        const refused = addresses.find((a) => !addressAllowed(policy, a.address));
        resolve(refused ? { ok: false, reason: `${host} resolves to ${refused.address}, which is not a public address` } : { ok: true });
      }),
    );
  }

  /** Sends a request; resolves with a 2xx answer, or fails with OutboundError. */
  async send(request: OutboundRequest): Promise<OutboundResponse> {
    return request.pace ? this.#pacer.run(request.pace, () => this.#send(request)) : this.#send(request);
  }

  async #send(request: OutboundRequest): Promise<OutboundResponse> {
    const deadline = Date.now() + request.deadlineMs;
    let url = parseUrl(request.url, request.what);
    let method = request.method ?? 'GET';
    let body = request.body;
    let headers: Record<string, string> = { 'user-agent': 'codrail', ...request.headers };
    for (let hop = 0; ; hop++) {
      const answer = await this.#hop(url, method, headers, body, request, deadline);
      const location = answer.headers.location;
      if (REDIRECTS.has(answer.status) && hop < (request.redirects ?? 0) && location) {
        const next = parseUrl(new URL(location, url).href, request.what);
        if (url.protocol === 'https:' && next.protocol === 'http:') throw new OutboundError('blocked', `${request.what}: redirected from https to http`, { sent: true });
        if (next.origin !== url.origin) headers = withoutCredentials(headers);
        // RFC 9110 §15.4: 303 (and, by long practice, 301/302 after a POST) continue as GET without the body.
        if (answer.status === 303 || ((answer.status === 301 || answer.status === 302) && method === 'POST')) {
          method = 'GET';
          body = undefined;
          headers = Object.fromEntries(Object.entries(headers).filter(([k]) => k.toLowerCase() !== 'content-type'));
        }
        url = next;
        continue;
      }
      if (answer.status < 200 || answer.status >= 300) {
        const detail = request.describeError?.(answer.body.toString('utf8')) ?? '';
        throw new OutboundError('status', `${request.what}: HTTP ${answer.status}${detail}`, { status: answer.status, retryAfterMs: retryAfterMs(answer.headers['retry-after']) });
      }
      return answer;
    }
  }

  /** `send`, then the body as JSON; a 2xx answer that is not JSON is a `bad_answer` (the other side may have acted). */
  async sendJson(request: OutboundRequest): Promise<{ status: number; headers: IncomingHttpHeaders; json: unknown }> {
    const answer = await this.send({ ...request, headers: { accept: 'application/json', ...request.headers } });
    try {
      return { status: answer.status, headers: answer.headers, json: JSON.parse(answer.body.toString('utf8')) as unknown };
    } catch {
      throw new OutboundError('bad_answer', `${request.what}: answer is not JSON (HTTP ${answer.status})`, { status: answer.status });
    }
  }

  #hop(url: URL, method: string, headers: Record<string, string>, body: string | Buffer | undefined, request: OutboundRequest, deadline: number): Promise<OutboundResponse> {
    const { what, maxBytes, addresses } = request;
    return new Promise((resolve, reject) => {
      const host = url.hostname.replace(/^\[|\]$/g, '');
      // A literal address is connected to without a look-up: it is checked here.
      if (isIP(host) && !addressAllowed(addresses, host)) return reject(new OutboundError('blocked', `${what}: ${host} is an address this call may not reach`, { sent: false }));
      const remaining = deadline - Date.now();
      if (remaining <= 0) return reject(new OutboundError('timeout', `${what}: no answer within ${request.deadlineMs} ms`, { sent: false }));
      const payload = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(body);
      let sent = false;
      let settled = false;
      const lib = url.protocol === 'https:' ? https : http;
      const req = lib.request({
        protocol: url.protocol,
        hostname: host,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method,
        headers: { ...headers, 'accept-encoding': 'identity', ...(payload ? { 'content-length': String(payload.length) } : {}) },
        agent: this.#agents[addresses][url.protocol as 'http:' | 'https:'],
        lookup: this.#lookups[addresses],
      });
      const fail = (error: OutboundError) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        req.destroy();
        reject(error);
      };
      const timer = setTimeout(() => fail(new OutboundError('timeout', `${what}: no answer within ${request.deadlineMs} ms`, { sent })), remaining);
      req.on('finish', () => (sent = true));
      req.on('error', (error: NodeJS.ErrnoException) => fail(connectionError(error, what, sent)));
      req.on('response', (res) => {
        sent = true;
        const status = res.statusCode ?? 0;
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > maxBytes) return fail(new OutboundError('too_large', `${what}: the answer announces ${declared} bytes, more than ${maxBytes} (HTTP ${status})`, { status }));
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) fail(new OutboundError('too_large', `${what}: the answer exceeds ${maxBytes} bytes (HTTP ${status})`, { status }));
          else chunks.push(chunk);
        });
        res.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve({ status, headers: res.headers, body: Buffer.concat(chunks, size), url: url.href });
        });
        res.on('close', () => {
          if (!res.complete) fail(new OutboundError('network', `${what}: answer cut off (HTTP ${status})`, { status, sent: true }));
        });
        res.on('error', () => undefined);
      });
      req.end(payload);
    });
  }

  /** Closes the kept-alive sockets (at shutdown). */
  close(): void {
    for (const pair of Object.values(this.#agents)) for (const agent of Object.values(pair)) agent.destroy();
  }
}

function parseUrl(text: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new OutboundError('blocked', `${what}: not a URL`, { sent: false });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundError('blocked', `${what}: only http and https URLs are fetched`, { sent: false });
  if (url.username || url.password) throw new OutboundError('blocked', `${what}: URLs with credentials are not fetched`, { sent: false });
  return url;
}

/** A redirect to another origin does not carry our credentials there. */
const withoutCredentials = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).filter(([k]) => !['authorization', 'cookie', 'proxy-authorization'].includes(k.toLowerCase())));
