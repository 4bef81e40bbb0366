// A real HTTP proxy on 127.0.0.1 in front of a simulator (the fulfillment platform, the Cloud API):
// what the other side does during an outage — drop the connection, answer 503 with Retry-After,
// refuse a request — is decided per request by the test, and every request is counted. Nothing of
// codrail is replaced: its guarded outbound client talks to a real server that misbehaves.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxiedRequest {
  method: string;
  /** Path and query, as received. */
  url: string;
  body: Buffer;
}

/** Pass the request on, destroy the connection (no answer at all), or answer this instead. */
export type ProxyAnswer = 'forward' | 'drop' | { status: number; headers?: Record<string, string>; body?: unknown };

export interface FlakyProxy {
  url: string;
  /** From now on, every request is answered as `decide` says (every one is forwarded until set). */
  behave(decide: (request: ProxiedRequest) => ProxyAnswer): void;
  /** Requests seen so far, with what was done with each: `forward <status>`, `drop`, `answer <status>`. */
  seen(): { request: ProxiedRequest; outcome: string }[];
  /** How many connections were dropped so far. */
  dropped(): number;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['host', 'connection', 'content-length', 'keep-alive', 'transfer-encoding']);

export async function startFlakyProxy(target: string): Promise<FlakyProxy> {
  let decide: (request: ProxiedRequest) => ProxyAnswer = () => 'forward';
  const seen: { request: ProxiedRequest; outcome: string }[] = [];
  const proxy: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const request: ProxiedRequest = { method: req.method ?? 'GET', url: req.url ?? '/', body: Buffer.concat(chunks) };
    const answer = decide(request);
    if (answer === 'drop') {
      seen.push({ request, outcome: 'drop' });
      return void res.socket?.destroy();
    }
    if (answer !== 'forward') {
      seen.push({ request, outcome: `answer ${answer.status}` });
      const text = JSON.stringify(answer.body ?? { error: `HTTP ${answer.status}` });
      return void res.writeHead(answer.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...answer.headers }).end(text);
    }
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !HOP_BY_HOP.has(name))) as Record<string, string>;
    try {
      const upstream = await fetch(`${target}${request.url}`, { method: request.method, headers, ...(request.body.length > 0 && { body: request.body }) });
      const body = Buffer.from(await upstream.arrayBuffer());
      seen.push({ request, outcome: `forward ${upstream.status}` });
      const passed: Record<string, string> = { 'content-type': upstream.headers.get('content-type') ?? 'application/json' };
      const retryAfter = upstream.headers.get('retry-after');
      if (retryAfter !== null) passed['retry-after'] = retryAfter;
      res.writeHead(upstream.status, passed).end(body);
    } catch {
      seen.push({ request, outcome: 'forward failed' });
      res.socket?.destroy();
    }
  });
  await new Promise<void>((ok) => proxy.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    behave: (next) => void (decide = next),
    seen: () => [...seen],
    dropped: () => seen.filter((s) => s.outcome === 'drop').length,
    close: () => new Promise<void>((ok) => (proxy.closeAllConnections(), proxy.close(() => ok()))),
  };
}
