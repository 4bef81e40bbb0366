// POST /api/fulfillment/webhook (issue 4): a signed status report from the platform, acknowledged
// fast, deduplicated by event id, and applied through the order state machine with an event.
import * as v from 'valibot';
import type { Deps } from '../../app.ts';
import { writeTransaction } from '../../db/transaction.ts';
import { orderOfRemote, rememberWebhookEvent } from '../../db/queries/fulfillment.queries.ts';
import { applyStatusReport } from '../../fulfillment/apply-status.ts';
import { SIGNED_WEBHOOKS } from '../../platforms/index.ts';
import { verifyWebhook } from '../../domain/webhook-signature.ts';
import { AppError } from '../../errors.ts';
import { parseJson } from '../json-text.ts';
import { WEBHOOK_TOLERANCE_S } from '../../limits.ts';
import { parseWith } from '../validate.ts';

export async function receiveWebhook(deps: Pick<Deps, 'db' | 'clock' | 'config' | 'log' | 'nudge' | 'orderEvents'>, raw: Buffer, signature: string | undefined) {
  const secret = deps.config.fulfillmentWebhookSecret;
  if (!secret) throw new AppError('not_ready', 'Fulfillment webhooks are not configured');
  const now = deps.clock.now();
  if (!verifyWebhook(secret, raw, signature, Math.floor(now.getTime() / 1000), WEBHOOK_TOLERANCE_S)) throw new AppError('unauthorized', 'Invalid or expired signature');
  const body = parseJson(raw);
  const event = parseWith(SIGNED_WEBHOOKS.schema, body) as v.InferOutput<typeof SIGNED_WEBHOOKS.schema>;
  const at = now.toISOString();
  const result = await writeTransaction(deps.db, async (tx) => {
    const orderId = (await orderOfRemote(tx, event.order_id, event.external_ref)) ?? null;
    if (!(await rememberWebhookEvent(tx, { event_id: event.event_id, remote_id: event.order_id, order_id: orderId, status: event.status, received_at: at }))) return { duplicate: true, applied: false };
    if (!orderId) {
      deps.log.warn({ remoteId: event.order_id, externalRef: event.external_ref }, 'fulfillment webhook for an unknown order');
      return { duplicate: false, applied: false };
    }
    const outcome = await applyStatusReport(deps, tx, orderId, SIGNED_WEBHOOKS.platform, event.status, { via: 'webhook', actor: 'platform', remoteId: event.order_id, eventId: event.event_id, tracking: event.tracking_number }, at);
    return { duplicate: false, applied: outcome?.moved ?? false };
  });
  deps.nudge.whatsapp();
  return result;
}
