// Starts the outbox workers of `codrail serve`: the fulfillment pushes and cancellations always (a
// store's own connection names its platform; without a default platform only those stores push),
// the WhatsApp messages when a Cloud API URL is, and the webhook deliveries always (their URLs are
// the sellers'). Rows that cannot go yet stay queued: nothing is lost, and they go out once
// configured.
import type { Deps } from '../../app.ts';
import { OutboxWorker } from '../../fulfillment/worker.ts';
import { recordServerSetting } from '../../db/queries/server-settings.queries.ts';
import { WhatsappWorker } from '../../whatsapp/worker.ts';
import { WebhookWorker } from '../../webhooks/deliveries.ts';

type WorkerDeps = Pick<Deps, 'config' | 'db' | 'log' | 'clock' | 'secrets' | 'nudge' | 'outbound' | 'failpoints' | 'orderEvents'>;

/** What the CLI and other processes on this database need of the server's configuration: its platform URLs and public base URL (issue 22 §1). */
export async function recordOperatorUrls(deps: Pick<Deps, 'db' | 'config' | 'clock'>): Promise<void> {
  const now = deps.clock.now().toISOString();
  await recordServerSetting(deps.db, 'fulfillment_url', deps.config.fulfillmentUrl, now);
  await recordServerSetting(deps.db, 'dropi_url', deps.config.dropiUrl, now);
  await recordServerSetting(deps.db, 'base_url', deps.config.baseUrl, now);
}

export function startPushWorker(deps: WorkerDeps): OutboxWorker {
  if (!deps.config.fulfillmentUrl) deps.log.warn('fulfillment: no default platform (CODRAIL_FULFILLMENT_URL); only stores with their own connection push, the others stay queued');
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
