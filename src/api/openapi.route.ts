import type { RequestContext } from '../http/context.ts';
import { buildOpenApi } from './openapi.ts';

const built = new Map<string, Buffer>();

export function openApiRoute(ctx: RequestContext): void {
  const base = ctx.deps.config.baseUrl;
  let body = built.get(base);
  if (!body) built.set(base, (body = Buffer.from(JSON.stringify(buildOpenApi(base)))));
  ctx.res.writeHead(200, { ...ctx.headers, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length, 'Access-Control-Allow-Origin': '*' });
  ctx.res.end(body);
}
