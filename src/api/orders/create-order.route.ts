import type { RequestContext } from '../../http/context.ts';
import { readJsonObject } from '../../http/body.ts';
import { sendJson } from '../../http/respond.ts';
import { allowOrigin } from '../../http/cors.ts';
import { requestHost } from '../../domain/domains.ts';
import { createOrder, type OrderTrace } from '../../use-cases/orders/create-order.use-case.ts';
import { peekOrderLimit, rateHeaders } from '../../use-cases/orders/order-rate-limits.ts';

const header = (ctx: RequestContext, name: string): string | undefined => {
  const v = ctx.req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/** POST /api/orders/create (seed 4.1, SPEC 4.1). */
export async function createOrderRoute(ctx: RequestContext): Promise<void> {
  // Every answer here depends on the Origin (allowed, refused, or a landing page's): caches must key on it.
  ctx.headers.Vary = 'Origin';
  const trace: OrderTrace = {};
  try {
    const body = await readJsonObject(ctx);
    // The request's child logger: refusal reasons and new orders are logged under the request id.
    const outcome = await createOrder(
      { ...ctx.deps, log: ctx.log },
      {
        body,
        apiKey: header(ctx, 'x-svc-api-key'),
        authorization: header(ctx, 'authorization'),
        origin: header(ctx, 'origin'),
        referer: header(ctx, 'referer'),
        ip: ctx.ip,
        idempotencyKey: header(ctx, 'idempotency-key'),
      },
      trace,
    );
    await decorate(ctx, trace);
    sendJson(ctx, 200, outcome.body, outcome.replayed ? { 'Idempotent-Replayed': 'true' } : {});
  } catch (error) {
    await decorate(ctx, trace);
    if (!trace.corsOrigin && trace.refusalOrigin && requestHost(trace.refusalOrigin, undefined)) allowOrigin(ctx, trace.refusalOrigin);
    throw error;
  }
}

/** RateLimit-* on every answer of this route; CORS reflection when the caller's origin passed. */
async function decorate(ctx: RequestContext, trace: OrderTrace): Promise<void> {
  if (trace.corsOrigin) allowOrigin(ctx, trace.corsOrigin);
  const rate = trace.rate ?? (await peekOrderLimit(ctx.deps, ctx.ip).catch(() => undefined));
  if (rate) Object.assign(ctx.headers, rateHeaders(rate));
}
