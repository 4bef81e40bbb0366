// CORS for the public API (SPEC 4.1): preflight answers any origin; the real answer reflects
// Access-Control-Allow-Origin only for origins the handler decided to allow.
import type { RequestContext } from './context.ts';
import { sendEmpty } from './respond.ts';

export const ORDER_ALLOWED_HEADERS = 'content-type, x-svc-api-key, authorization, idempotency-key';
export const EXPOSED_HEADERS = 'X-Request-Id, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After';

export function preflight(methods: string, allowedHeaders: string) {
  return (ctx: RequestContext): void => {
    const origin = ctx.req.headers.origin;
    sendEmpty(ctx, 204, {
      'Access-Control-Allow-Origin': origin && origin !== 'null' ? origin : '*',
      'Access-Control-Allow-Methods': methods,
      'Access-Control-Allow-Headers': allowedHeaders,
      'Access-Control-Max-Age': '600',
      Vary: 'Origin',
    });
  };
}

/** Adds the reflection headers to every answer of this request (errors included). */
export function allowOrigin(ctx: RequestContext, origin: string): void {
  ctx.headers['Access-Control-Allow-Origin'] = origin;
  ctx.headers['Access-Control-Expose-Headers'] = EXPOSED_HEADERS;
  ctx.headers.Vary = 'Origin';
}
