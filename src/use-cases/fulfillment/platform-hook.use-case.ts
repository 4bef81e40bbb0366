// POST /api/fulfillment/hooks/{token} (issue 22 §5): a platform whose webhooks are unsigned (Dropi)
// reports to its connection's own unguessable path. Its word is never trusted: the report is
// acknowledged at once (200 even when it cannot be read, or the platform retries forever), an
// unchanged status is a duplicate, and the order is read again through the platform's API before
// anything is applied — a forged report can at most make codrail ask. The re-reads run after the
// answer, a few at a time, on the store's paced connection; `fulfillment sync` catches up on any
// lost to a restart.
import PQueue from 'p-queue';
import type { Deps } from '../../app.ts';
import { writeTransaction } from '../../db/transaction.ts';
import { connectionByHook, orderOfRemoteInStore, rememberWebhookEvent } from '../../db/queries/fulfillment.queries.ts';
import { hashKey } from '../../domain/keys.ts';
import { AppError } from '../../errors.ts';
import { applyStatusReport } from '../../fulfillment/apply-status.ts';
import { platformFor } from '../../platforms/connections.ts';
import { platformNamed } from '../../platforms/index.ts';
import type { WebhookReport } from '../../platforms/platform.ts';
import { HOOK_REREAD_CONCURRENCY, HOOK_REREAD_QUEUE_MAX } from '../../limits.ts';
import { parseJson } from '../json-text.ts';

type HookDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'log' | 'nudge' | 'orderEvents' | 'secrets' | 'outbound'>;

/** One queue of re-reads per database (per serving process). */
const queues = new WeakMap<object, PQueue>();
const queueOf = (deps: HookDeps) => {
  let q = queues.get(deps.db);
  if (!q) queues.set(deps.db, (q = new PQueue({ concurrency: HOOK_REREAD_CONCURRENCY })));
  return q;
};

export async function receivePlatformHook(deps: HookDeps, token: string, raw: Buffer): Promise<{ accepted: boolean; duplicate: boolean }> {
  const connection = await connectionByHook(deps.db, hashKey(token));
  if (!connection) throw new AppError('not_found', 'Not found');
  const platform = platformNamed(connection.platform);
  let report: WebhookReport;
  try {
    report = platform.webhook.parse(parseJson(raw));
  } catch (error) {
    deps.log.warn({ storeId: connection.store_id, platform: platform.name, error: (error as Error).message.slice(0, 200) }, 'fulfillment: a platform webhook that cannot be read; acknowledged and ignored');
    return { accepted: false, duplicate: false };
  }
  const at = deps.clock.now().toISOString();
  const fresh = await writeTransaction(deps.db, async (tx) => {
    const orderId = (await orderOfRemoteInStore(tx, connection.store_id, report.remoteId, report.reference)) ?? null;
    return rememberWebhookEvent(tx, { event_id: `${connection.store_id}:${report.eventId}`, remote_id: report.remoteId, order_id: orderId, status: report.status.slice(0, 100), received_at: at });
  });
  if (!fresh) return { accepted: true, duplicate: true };
  const queue = queueOf(deps);
  if (queue.size >= HOOK_REREAD_QUEUE_MAX) deps.log.warn({ storeId: connection.store_id, remoteId: report.remoteId }, 'fulfillment: too many webhook re-reads waiting; this one is left to fulfillment sync');
  else void queue.add(() => reread(deps, connection.store_id, report));
  return { accepted: true, duplicate: false };
}

/** The platform's API says what the order's status is; the report only said to ask. */
async function reread(deps: HookDeps, storeId: string, report: WebhookReport): Promise<void> {
  try {
    const orderId = await orderOfRemoteInStore(deps.db, storeId, report.remoteId, report.reference);
    if (!orderId) return void deps.log.warn({ storeId, remoteId: report.remoteId }, 'fulfillment: a platform webhook about an order this store did not push; ignored');
    const access = await platformFor(deps, storeId);
    if (!access) return;
    const remote = await access.session.get(report.remoteId);
    if (remote.reference !== null && remote.reference !== orderId) return void deps.log.warn({ storeId, remoteId: report.remoteId, orderId }, 'fulfillment: the platform order carries another reference; nothing applied');
    await writeTransaction(deps.db, (tx) =>
      applyStatusReport(deps, tx, orderId, access.platform, remote.status, { via: 'webhook', actor: 'platform', remoteId: remote.id, eventId: report.eventId, tracking: remote.tracking_number }, deps.clock.now().toISOString()),
    );
    deps.nudge.whatsapp();
  } catch (error) {
    deps.log.warn({ storeId, remoteId: report.remoteId, error: (error as Error).message }, 'fulfillment: a webhook re-read failed; fulfillment sync will catch up');
  }
}

/** Waits for the re-reads in flight (tests, a graceful stop). */
export const hookRereadsIdle = (deps: Pick<Deps, 'db'>) => queues.get(deps.db)?.onIdle() ?? Promise.resolve();
