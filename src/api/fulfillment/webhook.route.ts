import type { RequestContext } from '../../http/context.ts';
import { readBody } from '../../http/body.ts';
import { sendJson } from '../../http/respond.ts';
import { receiveWebhook } from '../../use-cases/fulfillment/webhook.use-case.ts';
import { receivePlatformHook } from '../../use-cases/fulfillment/platform-hook.use-case.ts';

/** POST /api/fulfillment/webhook: the raw body is what the signature covers. */
export async function webhookRoute(ctx: RequestContext): Promise<void> {
  const raw = await readBody(ctx);
  const header = ctx.req.headers['x-codrail-signature'];
  const result = await receiveWebhook({ ...ctx.deps, log: ctx.log }, raw, Array.isArray(header) ? header[0] : header);
  sendJson(ctx, 200, { success: true, data: result });
}

/** POST /api/fulfillment/hooks/:token: an unsigned platform's report (Dropi), acknowledged at once; the order is re-read through the API. */
export async function platformHookRoute(ctx: RequestContext): Promise<void> {
  const raw = await readBody(ctx);
  const result = await receivePlatformHook({ ...ctx.deps, log: ctx.log }, ctx.params.token ?? '', raw);
  sendJson(ctx, 200, { success: true, data: result });
}
