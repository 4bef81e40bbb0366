import type { RequestContext } from '../../http/context.ts';
import { readBody } from '../../http/body.ts';
import { sendJson } from '../../http/respond.ts';
import { receiveWebhook } from '../../use-cases/fulfillment/webhook.use-case.ts';

/** POST /api/fulfillment/webhook: the raw body is what the signature covers. */
export async function webhookRoute(ctx: RequestContext): Promise<void> {
  const raw = await readBody(ctx);
  const header = ctx.req.headers['x-codrail-signature'];
  const result = await receiveWebhook({ ...ctx.deps, log: ctx.log }, raw, Array.isArray(header) ? header[0] : header);
  sendJson(ctx, 200, { success: true, data: result });
}
