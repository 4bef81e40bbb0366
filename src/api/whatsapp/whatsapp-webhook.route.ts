import type { RequestContext } from '../../http/context.ts';
import { readBody } from '../../http/body.ts';
import { sendJson } from '../../http/respond.ts';
import { WHATSAPP_WEBHOOK_MAX_BYTES } from '../../limits.ts';
import { receiveWhatsappWebhook, verifyWhatsappSubscription } from '../../use-cases/whatsapp/whatsapp-webhook.use-case.ts';

/** POST /api/whatsapp/webhook: the raw body is what X-Hub-Signature-256 covers. */
export async function whatsappWebhookRoute(ctx: RequestContext): Promise<void> {
  const raw = await readBody(ctx, WHATSAPP_WEBHOOK_MAX_BYTES);
  const header = ctx.req.headers['x-hub-signature-256'];
  const result = await receiveWhatsappWebhook({ ...ctx.deps, log: ctx.log }, raw, Array.isArray(header) ? header[0] : header);
  sendJson(ctx, 200, { success: true, data: result });
}

/** GET /api/whatsapp/webhook: Meta's subscription handshake answers hub.challenge as plain text. */
export async function whatsappWebhookVerifyRoute(ctx: RequestContext): Promise<void> {
  const challenge = verifyWhatsappSubscription(ctx.deps, ctx.url.searchParams);
  ctx.res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(challenge) }).end(challenge);
}
