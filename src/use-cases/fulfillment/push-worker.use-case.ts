// Starts the outbox worker of `codrail serve` when a platform is configured (SPEC 7). Without a
// platform URL pushes stay queued: nothing is lost, and they go out once one is configured.
import type { Deps } from '../../app.ts';
import { OutboxWorker } from '../../fulfillment/worker.ts';

export function startPushWorker(deps: Pick<Deps, 'config' | 'db' | 'log' | 'clock'>): OutboxWorker | undefined {
  if (!deps.config.fulfillmentUrl) {
    deps.log.warn('fulfillment: no platform URL configured (CODRAIL_FULFILLMENT_URL); pushes stay queued');
    return undefined;
  }
  const worker = new OutboxWorker({ ...deps, log: deps.log.child({ component: 'fulfillment' }) });
  worker.start();
  return worker;
}
