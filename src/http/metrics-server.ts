// GET /metrics on its own port (issue 14 §3): off unless --metrics-port is set, and bound to
// 127.0.0.1 by default, so the numbers never sit on the public API. Prometheus text format.
import { createServer, type Server } from 'node:http';
import type { Deps } from '../app.ts';

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

export async function startMetricsServer(deps: Pick<Deps, 'metrics' | 'log'>, port: number, host: string): Promise<MetricsServer> {
  const { metrics } = deps;
  if (!metrics) throw new Error('this process does not count metrics (openApp with metrics: false)');
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://metrics').pathname;
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(path === '/metrics' ? 405 : 404, { 'content-type': 'text/plain; charset=utf-8', ...(path === '/metrics' ? { allow: 'GET, HEAD' } : {}) }).end(path === '/metrics' ? 'method not allowed\n' : 'not found: the metrics are at /metrics\n');
      return;
    }
    metrics.text().then(
      (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' }).end(text),
      (error: unknown) => {
        deps.log.error({ err: error }, 'metrics: collecting failed');
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('collecting the metrics failed\n');
      },
    );
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => (server.off('error', fail), ok()));
  });
  return {
    port: (server.address() as { port: number }).port,
    close: () => new Promise<void>((ok) => (server.close(() => ok()), server.closeAllConnections())),
  };
}
