// The node:http + find-my-way shell: fixed request stages (request id, child logger, client IP,
// routing, error mapping), 404/405 in the ErrorResponse shape, graceful shutdown.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import type { Deps } from '../app.ts';
import type { RequestContext, Route } from './context.ts';
import { sendError } from './respond.ts';
import { clientIp } from './client-ip.ts';
import { AppError } from '../errors.ts';
import { HEADERS_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS, REQUEST_TIMEOUT_MS, SHUTDOWN_GRACE_MS } from '../limits.ts';

const REQUEST_ID = /^[\w.:-]{1,128}$/;
const METHODS: HTTPMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

export interface HttpServer {
  server: Server;
  /** Swap the deps every later request sees (used once the real port, and so the base URL, is known). */
  useDeps(deps: Deps): void;
  listen(port: number, host: string): Promise<number>;
  /** Stop accepting, let in-flight requests finish (up to a grace period), then resolve. */
  close(): Promise<void>;
}

type Params = Record<string, string | undefined>;
type Found = (ctx: RequestContext) => Promise<void> | void;

export function createHttpServer(initialDeps: Deps, routes: readonly Route[]): HttpServer {
  let deps = initialDeps;
  const router = FindMyWay({ ignoreTrailingSlash: false, caseSensitive: true, maxParamLength: 200 });
  for (const route of routes) router.on(route.method, route.path, route.handler as never);

  const notFound = (): never => {
    throw new AppError('not_found', 'Route not found');
  };

  function resolve(method: string, path: string): { handler: Found; params: Params } {
    const found = router.find(method as HTTPMethod, path);
    if (found) return { handler: found.handler as unknown as Found, params: found.params };
    const allowed = METHODS.filter((m) => m !== method && router.find(m, path));
    if (allowed.length === 0) return { handler: notFound, params: {} };
    return {
      handler: () => {
        throw new AppError('method_not_allowed', `Method ${method} not allowed`, undefined, { Allow: allowed.join(', ') });
      },
      params: {},
    };
  }

  let inFlight = 0;
  let drained: (() => void) | undefined;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = process.hrtime.bigint();
    inFlight++;
    const sent = req.headers['x-request-id'];
    const id = typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : randomUUID();
    const log = deps.log.child({ reqId: id });
    res.setHeader('X-Request-Id', id);
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://localhost');
    } catch {
      url = new URL('http://localhost/');
    }
    const headers: Record<string, string> = {};
    const base = { req, res, deps, id, log, url, ip: clientIp(req, deps.config.trustProxy), headers };
    let ctx: RequestContext = { ...base, params: {} };
    try {
      const { handler, params } = resolve(req.method ?? 'GET', url.pathname);
      ctx = { ...base, params };
      await handler(ctx);
    } catch (error) {
      sendError(ctx, error);
    } finally {
      const done = () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        log.info({ method: req.method, path: url.pathname, status: res.statusCode, ms: Math.round(ms * 100) / 100 }, 'request');
        inFlight--;
        if (inFlight === 0) drained?.();
      };
      if (res.writableFinished || res.destroyed) done();
      else res.once('close', done);
    }
  }

  const server = createServer({ headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS, keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS }, (req, res) => {
    void handle(req, res);
  });
  server.on('clientError', (err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    else socket.destroy(err);
  });

  return {
    server,
    useDeps(next) {
      deps = next;
    },
    listen: (port, host) =>
      new Promise((ok, fail) => {
        server.once('error', fail);
        server.listen(port, host, () => {
          server.off('error', fail);
          const address = server.address();
          ok(typeof address === 'object' && address ? address.port : port);
        });
      }),
    close: () =>
      new Promise<void>((ok) => {
        server.close(() => ok());
        server.closeIdleConnections();
        const timer = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
        timer.unref();
        if (inFlight === 0) server.closeIdleConnections();
        else
          drained = () => {
            server.closeIdleConnections();
          };
      }),
  };
}
