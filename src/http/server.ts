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
import { CONNECTIONS_CHECK_MS, KEEP_ALIVE_TIMEOUT_MS, MAX_URL_BYTES, REQUEST_TIMEOUT_MS } from '../limits.ts';

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

/** What a parser refusal means, as an HTTP status (RFC 9110 §15, RFC 6585 §5). */
function protocolError(err: NodeJS.ErrnoException & { rawPacket?: Buffer }): [number, string, string] {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW': {
      // The request line counts toward the header limit: a long URL is 414, many or large headers 431.
      const raw = err.rawPacket?.toString('latin1') ?? '';
      const end = raw.indexOf('\r\n');
      return end === -1 || end > MAX_URL_BYTES ? [414, 'URI Too Long', `The URL is longer than ${MAX_URL_BYTES} bytes`] : [431, 'Request Header Fields Too Large', 'The request headers are too large or too many'];
    }
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'HPE_HEADER_TIMEOUT':
      return [408, 'Request Timeout', 'The request was not received in time'];
    case 'HPE_INVALID_METHOD':
      return [501, 'Not Implemented', 'Unknown HTTP method'];
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return [400, 'Bad Request', 'Content-Length and Transfer-Encoding must not both be sent'];
    default:
      return [400, 'Bad Request', `Malformed HTTP request${err.code?.startsWith('HPE_') ? ` (${err.code.slice(4).toLowerCase().replace(/_/g, ' ')})` : ''}`];
  }
}

export function createHttpServer(initialDeps: Deps, routes: readonly Route[]): HttpServer {
  let deps = initialDeps;
  const router = FindMyWay({ ignoreTrailingSlash: false, caseSensitive: true, maxParamLength: 200 });
  // The route's pattern travels as the router's store: metrics count by pattern, never by raw path.
  for (const route of routes) router.on(route.method, route.path, route.handler as never, { route: route.path });
  // HEAD wherever GET is served (RFC 9110 §9.3.2): the same handler; Node sends the headers, not the body.
  for (const route of routes)
    if (route.method === 'GET' && !routes.some((r) => (r.method as string) === 'HEAD' && r.path === route.path)) router.on('HEAD', route.path, route.handler as never, { route: route.path });

  const notFound = (): never => {
    throw new AppError('not_found', 'Route not found');
  };

  function resolve(method: string, path: string): { handler: Found; params: Params; route?: string } {
    // A method no route of ours can take (PROPFIND, TRACE…): the server does not implement it (RFC 9110 §15.6.2).
    if (!METHODS.includes(method as HTTPMethod))
      return {
        handler: () => {
          throw new AppError('not_implemented', `Method ${method} is not implemented`);
        },
        params: {},
      };
    const found = router.find(method as HTTPMethod, path);
    if (found) return { handler: found.handler as unknown as Found, params: found.params, route: (found.store as { route?: string } | null)?.route };
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
    deps.freshReads?.();
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
    let route = 'unmatched';
    try {
      if ((req.url ?? '').length > MAX_URL_BYTES) throw new AppError('uri_too_long', `The URL is longer than ${MAX_URL_BYTES} bytes`);
      const found = resolve(req.method ?? 'GET', url.pathname);
      route = found.route ?? route;
      ctx = { ...base, params: found.params };
      await found.handler(ctx);
    } catch (error) {
      deps.metrics?.noteError(error);
      sendError(ctx, error);
    } finally {
      const done = () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        deps.metrics?.request(req.method ?? 'GET', route, res.statusCode, ms / 1000);
        log.info({ method: req.method, path: url.pathname, status: res.statusCode, ms: Math.round(ms * 100) / 100 }, 'request');
        inFlight--;
        if (inFlight === 0) drained?.();
      };
      if (res.writableFinished || res.destroyed) done();
      else res.once('close', done);
    }
  }

  const { headersTimeoutMs } = initialDeps.config;
  const server = createServer(
    {
      headersTimeout: headersTimeoutMs,
      requestTimeout: REQUEST_TIMEOUT_MS,
      keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
      // Node checks the two timeouts above only this often (30 s by default): a client stalling its
      // headers would otherwise hold the connection three times longer than the 10 s promised. A
      // shorter header timeout is checked as often as it lasts.
      connectionsCheckingInterval: Math.min(CONNECTIONS_CHECK_MS, headersTimeoutMs),
    },
    (req, res) => {
      void handle(req, res);
    },
  );
  // Requests Node's parser refuses never reach a route: answer them here, with the status that names
  // the problem and the ErrorResponse body every other refusal has, then close (issue 13 §2).
  server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket) => {
    if (!socket.writable || (err.code === 'ECONNRESET' && !err.rawPacket)) {
      socket.destroy();
      return;
    }
    const [status, reason, message] = protocolError(err);
    const body = JSON.stringify({ success: false, error: message });
    socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
    deps.log.debug({ code: err.code, status }, 'refused a malformed request');
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
        // SPEC 15: in-flight requests finish within the grace period (--shutdown-grace-ms); then they are cut.
        const graceMs = deps.config.shutdownGraceMs;
        const timer = setTimeout(() => {
          if (inFlight > 0) deps.log.warn({ graceMs, cut: inFlight }, 'shutdown grace period over: cutting the requests still in flight');
          server.closeAllConnections();
        }, graceMs);
        timer.unref();
        if (inFlight === 0) server.closeIdleConnections();
        else
          drained = () => {
            server.closeIdleConnections();
          };
      }),
  };
}
