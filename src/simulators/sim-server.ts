// What every local simulator of an outside service needs (`codrail fulfillment sim` in both
// dialects, `codrail whatsapp sim`): a node:http server that starts in milliseconds on a given or
// free port, answers a handler's crash with a 500 instead of hanging the client, reads bodies with a
// cap, pauses (latency, late answers) that close() cuts short, and a close() that leaves nothing
// running. Each simulator keeps only what is its service's: routes, answers, misbehaviour.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SimServerOptions {
  port?: number | undefined;
  host?: string | undefined;
  /** For the log line once listening: `dropi simulator`. */
  name: string;
  log: (line: string) => void;
  /** The body of the 500 a crashed handler answers, in the service's own error shape. */
  crashBody: string;
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Before the server closes: stop what the simulator runs itself (webhook deliveries in flight). */
  beforeClose?: () => Promise<void>;
}

export interface SimServer {
  url: string;
  port: number;
  /** Aborted by close(): work that would outlive the simulator stops. */
  closing: AbortSignal;
  /** A pause that close() cuts short, so nothing keeps the process alive after it. */
  later(ms: number): Promise<void>;
  close(): Promise<void>;
}

/** A share of requests to fail (0..1), checked when the simulator starts. */
export function checkRate(name: string, value: number | undefined): number {
  const n = value ?? 0;
  if (!(n >= 0 && n <= 1)) throw new RangeError(`${name} must be between 0 and 1`);
  return n;
}

/** A request body, refused with `tooLarge()` the moment it passes `maxBytes`. */
export async function readCappedBody(req: IncomingMessage, maxBytes: number, tooLarge: () => Error): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export async function startSimServer(o: SimServerOptions): Promise<SimServer> {
  const closing = new AbortController();
  const waits = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();
  const later = (ms: number) =>
    new Promise<void>((resolve) => {
      if (closing.signal.aborted) return resolve();
      const wait = { timer: setTimeout(() => (waits.delete(wait), resolve()), ms), resolve };
      waits.add(wait);
    });
  const server = createServer((req, res) => {
    o.handle(req, res).catch((error: unknown) => {
      o.log(`${req.method} ${new URL(req.url ?? '/', 'http://simulator').pathname} crashed: ${(error as Error).message}`);
      if (!res.headersSent && !res.destroyed) res.writeHead(500, { 'content-type': 'application/json' }).end(o.crashBody);
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, o.host ?? '127.0.0.1', () => (server.off('error', reject), resolve()));
  });
  const { address, port } = server.address() as AddressInfo;
  const url = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  o.log(`${o.name} listening on ${url}`);
  return {
    url,
    port,
    closing: closing.signal,
    later,
    async close() {
      closing.abort();
      for (const wait of waits) {
        clearTimeout(wait.timer);
        wait.resolve();
      }
      waits.clear();
      await o.beforeClose?.();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
