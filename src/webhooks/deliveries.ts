// The webhooks outbox (issue 21 §6; SPEC 17): each delivery is one event to one endpoint, POSTed
// through the guarded outbound path (public addresses only unless the operator allows private ones;
// a 10 s deadline; the answer's body capped and ignored), signed `Codrail-Signature: t=…,v1=…`. It is
// one kind of the one outbox machinery, which claims (one order's events in order: a later event
// waits while an earlier one is pending for that endpoint), retries timeouts, 5xx and 429 with
// backoff for 72 hours, keeps a circuit per endpoint and settles; this file holds only the POST and
// the delivery log. At least once: a delivery whose answer was lost is sent again, and receivers
// deduplicate by event id (Codrail-Event-Id). An endpoint failing for days is disabled.
import { writeTransaction, type Tx } from '../db/transaction.ts';
import { settleAs, type OutboxTable } from '../db/queries/outbox.queries.ts';
import { cancelPendingDeliveries, findEndpoint, findWebhookEvent, recordDeliveryTry, updateEndpoint, type DeliveryRow } from '../db/queries/webhooks.queries.ts';
import { signEvent } from '../domain/webhook-signature.ts';
import {
  WEBHOOK_ANSWER_MAX_BYTES,
  WEBHOOK_BACKOFF_MAX_MS,
  WEBHOOK_CONCURRENCY,
  WEBHOOK_DISABLE_AFTER_MS,
  WEBHOOK_GIVE_UP_AFTER_MS,
  WEBHOOK_POLL_MS,
} from '../limits.ts';
import type { AttemptFailure } from '../outbox/attempt-failure.ts';
import { Outbox, type Attempt, type KindDeps, type OutboxKind } from '../outbox/outbox.ts';
import { signingSecrets } from './endpoint-secrets.ts';

export const WEBHOOK_DELIVERIES: OutboxTable = {
  name: 'webhook_deliveries',
  state: 'state',
  waiting: ['queued', 'failed'],
  inFlight: 'in_flight',
  retrying: 'failed',
  done: 'delivered',
  dead: 'dead',
  over: ['delivered', 'dead', 'cancelled'],
  // A delivery interrupted mid-flight goes again: at least once, deduplicated by the receiver.
  expiredLease: { reclaim: true },
  ordered: { key: 'ordering_key', seq: 'event_seq' },
  once: 'once',
};

/** Where a delivery goes, for the outbox's circuit: its endpoint. */
export const endpointDestination = (endpointId: string) => `webhook:${endpointId}`;

async function deliver(deps: KindDeps, attempt: Attempt<DeliveryRow>): Promise<void> {
  const { db, clock, config, log } = deps;
  const d = attempt.job;
  // The try's time, as the log shows it (a failed try's is measured by the outbox, from the same start).
  const started = performance.now();
  const endpoint = await findEndpoint(db, d.endpoint_id);
  if (!endpoint || endpoint.status !== 'enabled') {
    await settleAs(db, WEBHOOK_DELIVERIES, d, 'cancelled', clock.now().toISOString());
    return;
  }
  const event = (await findWebhookEvent(db, d.event_id))!;
  const now = clock.now();
  const header = signEvent(signingSecrets(deps.secrets, endpoint, now.toISOString()), event.body, Math.floor(now.getTime() / 1000));
  // A failure's try is logged by `failed`, in the settle's lease-guarded transaction.
  const status = (
    await attempt.act(() =>
      deps.outbound.send({
        url: endpoint.url,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'codrail-webhooks/1', 'codrail-signature': header, 'codrail-event-id': event.id, 'codrail-event-type': event.type },
        body: event.body,
        // A seller's URL is from outside: never the operator's network, unless the operator allows it.
        addresses: config.webhooksAllowPrivate ? 'any' : 'public',
        deadlineMs: config.webhookTimeoutMs,
        maxBytes: WEBHOOK_ANSWER_MAX_BYTES,
        what: 'POST webhook endpoint',
      }),
    )
  ).status;
  const at = clock.now().toISOString();
  const ms = Math.round(performance.now() - started);
  await writeTransaction(db, async (tx) => {
    if (!(await attempt.done(tx, { delivered_at: at, last_status: status, last_latency_ms: ms }))) return;
    await recordDeliveryTry(tx, { delivery_id: d.id, attempt: d.attempts, at, status, latency_ms: ms, error: null });
    await updateEndpoint(tx, endpoint.id, { last_success_at: at, failing_since: null });
  });
  log.debug({ deliveryId: d.id, eventId: event.id, endpointId: endpoint.id, status, ms }, 'webhooks: delivered');
}

/**
 * A failed delivery: its try joins the log (here, in the settle's transaction, so a holder that lost
 * its lease or whose endpoint was removed meanwhile writes nothing), and it marks its endpoint
 * failing; failing for days disables it, with an event and a log line. A test is not counted.
 */
async function failed(deps: KindDeps, tx: Tx, d: DeliveryRow, failure: AttemptFailure, _outcome: 'retry' | 'dead', at: string, tookMs: number): Promise<void> {
  await recordDeliveryTry(tx, { delivery_id: d.id, attempt: d.attempts, at, status: failure.status ?? null, latency_ms: tookMs, error: failure.message.slice(0, 500) });
  const endpoint = await findEndpoint(tx, d.endpoint_id);
  if (!endpoint || endpoint.status !== 'enabled' || d.once === 1) return;
  const since = endpoint.failing_since ?? at;
  if (!endpoint.failing_since) await updateEndpoint(tx, endpoint.id, { failing_since: at });
  if (Date.parse(at) - Date.parse(since) < WEBHOOK_DISABLE_AFTER_MS) return;
  const reason = `every delivery failed since ${since} (last: ${failure.message})`;
  await updateEndpoint(tx, endpoint.id, { status: 'disabled', disabled_reason: reason, disabled_at: at, updated_at: at });
  await cancelPendingDeliveries(tx, endpoint.id, at, 'the endpoint was disabled');
  await deps.orderEvents.record(tx, { order_id: null, store_id: endpoint.store_id, type: 'webhook.endpoint_disabled', actor: 'system', data: { endpoint_id: endpoint.id, url: endpoint.url, failing_since: since, error: failure.message }, created_at: at });
  deps.log.warn({ endpointId: endpoint.id, storeId: endpoint.store_id, failingSince: since }, 'webhooks: endpoint disabled after failing for days');
}

export function webhookKind(deps: KindDeps): OutboxKind<DeliveryRow> {
  return {
    name: 'webhooks',
    destinationNoun: 'endpoint',
    subject: (d) => ({ deliveryId: d.id, eventId: d.event_id, endpointId: d.endpoint_id }),
    table: WEBHOOK_DELIVERIES,
    policy: {
      concurrency: WEBHOOK_CONCURRENCY,
      pollMs: WEBHOOK_POLL_MS,
      leaseMs: deps.config.webhookTimeoutMs * 2 + 1_000,
      backoff: { baseMs: deps.config.webhookBackoffMs, maxMs: WEBHOOK_BACKOFF_MAX_MS },
      giveUp: { afterMs: WEBHOOK_GIVE_UP_AFTER_MS },
    },
    onUnknown: { repeat: true },
    // The claim is the intent: a delivery that may have arrived is sent again by design (at least once).
    intentAtClaim: true,
    run: (attempt) => deliver(deps, attempt),
    failed: (tx, d, failure, outcome, at, tookMs) => failed(deps, tx, d, failure, outcome, at, tookMs),
  };
}

/** The webhooks outbox of `codrail serve`, and of `codrail webhooks test` (claim, then runClaimed). */
export class WebhookWorker extends Outbox<DeliveryRow> {
  constructor(deps: KindDeps) {
    super(deps, webhookKind(deps));
  }
}
