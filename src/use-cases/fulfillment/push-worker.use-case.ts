// Starts the outbox workers of `codrail serve`: the fulfillment pushes and cancellations when a
// platform is configured (SPEC 7), the WhatsApp messages when a Cloud API URL is, and the webhook
// deliveries always (their URLs are the sellers'). Without a platform or a Cloud API, rows stay
// queued: nothing is lost, and they go out once it is configured.
import type { Deps } from '../../app.ts';
import { OutboxWorker } from '../../fulfillment/worker.ts';
import { WhatsappWorker } from '../../whatsapp/worker.ts';
import { WebhookWorker } from '../../webhooks/deliveries.ts';

type WorkerDeps = Pick<Deps, 'config' | 'db' | 'log' | 'clock' | 'secrets' | 'nudge' | 'outbound' | 'failpoints' | 'orderEvents'>;

export function startPushWorker(deps: WorkerDeps): OutboxWorker | undefined {
  if (!deps.config.fulfillmentUrl) {
    deps.log.warn('fulfillment: no platform URL configured (CODRAIL_FULFILLMENT_URL); pushes stay queued');
    return undefined;
  }
  const worker = new OutboxWorker({ ...deps, log: deps.log.child({ component: 'fulfillment' }) });
  deps.nudge.fulfillment = () => worker.nudge();
  worker.start();
  return worker;
}

export function startWhatsappWorker(deps: WorkerDeps): WhatsappWorker | undefined {
  if (!deps.config.whatsappUrl) {
    deps.log.info('whatsapp: no Cloud API URL configured (CODRAIL_WHATSAPP_URL); messages stay queued');
    return undefined;
  }
  const worker = new WhatsappWorker({ ...deps, log: deps.log.child({ component: 'whatsapp' }) });
  deps.nudge.whatsapp = () => worker.nudge();
  worker.start();
  return worker;
}

export function startWebhookWorker(deps: WorkerDeps): WebhookWorker {
  const worker = new WebhookWorker({ ...deps, log: deps.log.child({ component: 'webhooks' }) });
  deps.nudge.webhooks = () => worker.nudge();
  worker.start();
  return worker;
}
