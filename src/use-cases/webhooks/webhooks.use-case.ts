// A store's webhook endpoints (issue 21 §5, §7): add one (its signing secret shown once), list, change,
// rotate the secret with a grace period in which both sign, disable and enable, remove, send a test
// event, read the delivery log, and replay events. The URL must be https on a public address (the
// operator's CODRAIL_WEBHOOKS_ALLOW_PRIVATE=1 admits private addresses and http on loopback, for
// development); it is checked when saved and again on every delivery's connection.
import type * as v from 'valibot';
import type { Deps } from '../../app.ts';
import { writeTransaction } from '../../db/transaction.ts';
import {
  cancelPendingDeliveries,
  countEndpointsOfStore,
  deleteEndpoint,
  enabledEndpointsOfStore,
  eventsSince,
  findDelivery,
  findEndpoint,
  findWebhookEvent,
  insertDelivery,
  insertEndpoint,
  listDeliveryPage,
  listEndpointPage,
  listEventPage,
  triesOf,
  updateEndpoint,
  type EndpointRow,
} from '../../db/queries/webhooks.queries.ts';
import { TEST_EVENT_TYPE, subscribes } from '../../domain/webhook-events.ts';
import { AppError, fieldError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { WEBHOOK_ENDPOINTS_PER_STORE, WEBHOOK_REPLAY_MAX_EVENTS, WEBHOOK_ROTATION_GRACE_DEFAULT_MIN, WEBHOOK_TEST_WAIT_MS } from '../../limits.ts';
import { endpointSecretContext, newEndpointSecret } from '../../webhooks/endpoint-secrets.ts';
import { WebhookWorker } from '../../webhooks/deliveries.ts';
import { sees, type Caller } from '../caller.ts';
import { clampLimit, keysetPage, pageAfter } from '../pagination.ts';
import { notFoundIn, storeOf } from '../tenancy.ts';
import { newDelivery, writeEvent } from './webhook-events.ts';
import type {
  CreateWebhookEndpointInput,
  EndpointOnlyInput,
  ListWebhookDeliveriesInput,
  ListWebhookEndpointsInput,
  ListWebhookEventsInput,
  ReplayWebhookEventsInput,
  RotateWebhookSecretInput,
  UpdateWebhookEndpointInput,
  WebhookDeliveryPage,
  WebhookEndpoint,
  WebhookEventPage,
  WebhookTestResult,
} from './webhook.schemas.ts';

type Out<S extends v.GenericSchema> = v.InferOutput<S>;

export function endpointView(e: EndpointRow): Out<typeof WebhookEndpoint> {
  return {
    id: e.id,
    store_id: e.store_id,
    url: e.url,
    description: e.description,
    event_types: JSON.parse(e.event_types) as string[],
    status: e.status,
    disabled_reason: e.disabled_reason,
    disabled_at: e.disabled_at,
    failing_since: e.failing_since,
    last_success_at: e.last_success_at,
    previous_secret_expires_at: e.previous_secret_expires_at,
    created_at: e.created_at,
    updated_at: e.updated_at,
  };
}

async function endpointOf(deps: Pick<Deps, 'db'>, caller: Caller, id: string): Promise<EndpointRow> {
  const endpoint = await findEndpoint(deps.db, id.toLowerCase());
  if (!endpoint || !sees(caller, endpoint.account_id)) throw notFoundIn('endpoint_id', 'Webhook endpoint');
  return endpoint;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** A URL events may be POSTed to: https on a public address, unless the operator allows private ones (then http on loopback too). */
async function endpointUrl(deps: Pick<Deps, 'config' | 'outbound'>, text: string): Promise<string> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw fieldError('url', 'url must be an absolute URL such as https://erp.example.com/codrail/webhooks');
  }
  const allowPrivate = deps.config.webhooksAllowPrivate;
  const httpLoopback = url.protocol === 'http:' && allowPrivate && LOOPBACK.has(url.hostname);
  if (url.protocol !== 'https:' && !httpLoopback) throw fieldError('url', 'url must use https (http is accepted only on loopback for development, with CODRAIL_WEBHOOKS_ALLOW_PRIVATE=1)');
  if (url.username || url.password) throw fieldError('url', 'url must not carry credentials: verify Codrail-Signature instead');
  if (url.hash) throw fieldError('url', 'url must not have a fragment');
  if (!allowPrivate) {
    const check = await deps.outbound.hostAllowed(url.hostname, 'public');
    if (!check.ok) throw fieldError('url', `url must be on a public address: ${check.reason} (an operator may allow private addresses for development with CODRAIL_WEBHOOKS_ALLOW_PRIVATE=1)`);
  }
  return url.href;
}

export async function listWebhookEndpoints(deps: Pick<Deps, 'db'>, caller: Caller, input: Out<typeof ListWebhookEndpointsInput>) {
  if (input.store_id !== undefined) await storeOf(deps, caller, input.store_id);
  const limit = clampLimit(input.limit);
  const rows = await listEndpointPage(deps.db, { accountId: caller.accountId, storeId: input.store_id?.toLowerCase(), after: pageAfter(input.cursor), limit: limit + 1 });
  return keysetPage(rows, limit, endpointView);
}

export async function createWebhookEndpoint(deps: Pick<Deps, 'db' | 'clock' | 'config' | 'outbound' | 'secrets' | 'log'>, caller: Caller, input: Out<typeof CreateWebhookEndpointInput>) {
  const store = await storeOf(deps, caller, input.store_id);
  const url = await endpointUrl(deps, input.url);
  if ((await countEndpointsOfStore(deps.db, store.id)) >= WEBHOOK_ENDPOINTS_PER_STORE) throw new AppError('conflict', `A store has at most ${WEBHOOK_ENDPOINTS_PER_STORE} webhook endpoints: remove one first`, [{ field: 'store_id', message: 'too many endpoints' }]);
  const now = deps.clock.now().toISOString();
  const id = newId();
  const secret = newEndpointSecret();
  const row: EndpointRow = {
    id,
    account_id: store.account_id,
    store_id: store.id,
    url,
    description: input.description || null,
    event_types: JSON.stringify([...new Set(input.event_types)]),
    secret_sealed: deps.secrets.box().seal(secret, endpointSecretContext(id)),
    previous_secret_sealed: null,
    previous_secret_expires_at: null,
    status: 'enabled',
    disabled_reason: null,
    disabled_at: null,
    failing_since: null,
    last_success_at: null,
    created_at: now,
    updated_at: now,
  };
  await insertEndpoint(deps.db, row);
  deps.log.info({ endpointId: id, storeId: store.id, by: caller.actor }, 'webhooks: endpoint added');
  return { ...endpointView(row), secret };
}

export async function getWebhookEndpoint(deps: Pick<Deps, 'db'>, caller: Caller, input: Out<typeof EndpointOnlyInput>) {
  return endpointView(await endpointOf(deps, caller, input.endpoint_id));
}

export async function updateWebhookEndpoint(deps: Pick<Deps, 'db' | 'clock' | 'config' | 'outbound'>, caller: Caller, input: Out<typeof UpdateWebhookEndpointInput>) {
  const endpoint = await endpointOf(deps, caller, input.endpoint_id);
  const change: Partial<EndpointRow> = { updated_at: deps.clock.now().toISOString() };
  if (input.url !== undefined) change.url = await endpointUrl(deps, input.url);
  if (input.event_types !== undefined) change.event_types = JSON.stringify([...new Set(input.event_types)]);
  if (input.description !== undefined) change.description = input.description || null;
  await updateEndpoint(deps.db, endpoint.id, change);
  return endpointView((await findEndpoint(deps.db, endpoint.id))!);
}

/** A new secret, shown once; the old one keeps signing beside it for the grace period (both v1s are sent). */
export async function rotateWebhookSecret(deps: Pick<Deps, 'db' | 'clock' | 'secrets' | 'log'>, caller: Caller, input: Out<typeof RotateWebhookSecretInput>) {
  const endpoint = await endpointOf(deps, caller, input.endpoint_id);
  const now = deps.clock.now();
  const grace = input.grace_minutes ?? WEBHOOK_ROTATION_GRACE_DEFAULT_MIN;
  const secret = newEndpointSecret();
  const box = deps.secrets.box();
  await updateEndpoint(deps.db, endpoint.id, {
    secret_sealed: box.seal(secret, endpointSecretContext(endpoint.id)),
    previous_secret_sealed: grace > 0 ? endpoint.secret_sealed : null,
    previous_secret_expires_at: grace > 0 ? new Date(now.getTime() + grace * 60_000).toISOString() : null,
    updated_at: now.toISOString(),
  });
  deps.log.info({ endpointId: endpoint.id, graceMinutes: grace, by: caller.actor }, 'webhooks: signing secret rotated');
  return { ...endpointView((await findEndpoint(deps.db, endpoint.id))!), secret };
}

export async function disableWebhookEndpoint(deps: Pick<Deps, 'db' | 'clock'>, caller: Caller, input: Out<typeof EndpointOnlyInput>) {
  const endpoint = await endpointOf(deps, caller, input.endpoint_id);
  if (endpoint.status === 'disabled') return endpointView(endpoint);
  const now = deps.clock.now().toISOString();
  await writeTransaction(deps.db, async (tx) => {
    await updateEndpoint(tx, endpoint.id, { status: 'disabled', disabled_reason: `disabled by ${caller.actor}`, disabled_at: now, updated_at: now });
    // Waiting deliveries do not wait for it: replay sends them again once it is enabled.
    await cancelPendingDeliveries(tx, endpoint.id, now, 'the endpoint was disabled');
  });
  return endpointView((await findEndpoint(deps.db, endpoint.id))!);
}

export async function enableWebhookEndpoint(deps: Pick<Deps, 'db' | 'clock'>, caller: Caller, input: Out<typeof EndpointOnlyInput>) {
  const endpoint = await endpointOf(deps, caller, input.endpoint_id);
  if (endpoint.status === 'enabled') return endpointView(endpoint);
  await updateEndpoint(deps.db, endpoint.id, { status: 'enabled', disabled_reason: null, disabled_at: null, failing_since: null, updated_at: deps.clock.now().toISOString() });
  return endpointView((await findEndpoint(deps.db, endpoint.id))!);
}

export async function deleteWebhookEndpoint(deps: Pick<Deps, 'db'>, caller: Caller, input: Out<typeof EndpointOnlyInput>) {
  const endpoint = await endpointOf(deps, caller, input.endpoint_id);
  await writeTransaction(deps.db, (tx) => deleteEndpoint(tx, endpoint.id));
  return { id: endpoint.id, deleted: true as const };
}

type WorkerDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'log' | 'outbound' | 'secrets' | 'failpoints' | 'orderEvents'>;

/**
 * Sends a `webhook.test` event to this endpoint now, through the same delivery as every event (the
 * same signature, deadline and address rule), and answers with what the endpoint said.
 */
export async function testWebhookEndpoint(deps: WorkerDeps, caller: Caller, input: Out<typeof EndpointOnlyInput>): Promise<Out<typeof WebhookTestResult>> {
  const endpoint = await endpointOf(deps, caller, input.endpoint_id);
  if (endpoint.status !== 'enabled') throw new AppError('invalid_state', 'The endpoint is disabled: enable it first', [{ field: 'endpoint_id', message: 'disabled' }]);
  const now = deps.clock.now().toISOString();
  const deliveryId = await writeTransaction(deps.db, async (tx) => {
    const event = await writeEvent(tx, { accountId: endpoint.account_id, storeId: endpoint.store_id, orderId: null, type: TEST_EVENT_TYPE, livemode: false, createdAt: now, data: { object: { endpoint_id: endpoint.id, message: 'A test event from codrail: verify its Codrail-Signature with the endpoint secret.' } } }, []);
    const delivery = newDelivery(endpoint.id, { id: event.id, seq: event.seq, orderId: null }, now, true);
    await insertDelivery(tx, delivery);
    return delivery.id;
  });
  const outbox = new WebhookWorker({ ...deps, log: deps.log.child({ component: 'webhooks' }) });
  const deadline = Date.now() + WEBHOOK_TEST_WAIT_MS;
  for (;;) {
    const claimed = await outbox.claim(deliveryId);
    if (claimed) await outbox.runClaimed(claimed);
    const d = (await findDelivery(deps.db, deliveryId))!;
    if (d.state !== 'in_flight' || Date.now() > deadline)
      return { endpoint_id: endpoint.id, event_id: d.event_id, delivered: d.state === 'delivered', state: d.state, status: d.last_status, latency_ms: d.last_latency_ms, error: d.last_error };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The delivery log of an endpoint: each delivery with its tries (status, latency, error). */
export async function listWebhookDeliveries(deps: Pick<Deps, 'db'>, caller: Caller, input: Out<typeof ListWebhookDeliveriesInput>): Promise<Out<typeof WebhookDeliveryPage>> {
  const endpoint = await endpointOf(deps, caller, input.endpoint_id);
  const limit = clampLimit(input.limit);
  const rows = await listDeliveryPage(deps.db, { endpointId: endpoint.id, state: input.state, after: pageAfter(input.cursor), limit: limit + 1 });
  const tries = await triesOf(
    deps.db,
    rows.slice(0, limit).map((r) => r.id),
  );
  return keysetPage(rows, limit, (d) => ({
    id: d.id,
    event_id: d.event_id,
    event_type: d.event_type,
    order_id: d.order_id,
    state: d.state,
    attempts: d.attempts,
    last_status: d.last_status,
    last_latency_ms: d.last_latency_ms,
    last_error: d.last_error,
    next_attempt_at: d.state === 'queued' || d.state === 'failed' ? d.next_attempt_at : null,
    delivered_at: d.delivered_at,
    created_at: d.created_at,
    tries: tries.filter((t) => t.delivery_id === d.id).map((t) => ({ attempt: t.attempt, at: t.at, status: t.status, latency_ms: t.latency_ms, error: t.error })),
  }));
}

export async function listWebhookEvents(deps: Pick<Deps, 'db'>, caller: Caller, input: Out<typeof ListWebhookEventsInput>): Promise<Out<typeof WebhookEventPage>> {
  if (input.store_id !== undefined) await storeOf(deps, caller, input.store_id);
  const limit = clampLimit(input.limit);
  const rows = await listEventPage(deps.db, { accountId: caller.accountId, storeId: input.store_id?.toLowerCase(), type: input.type, after: pageAfter(input.cursor), limit: limit + 1 });
  return keysetPage(rows, limit, (e) => ({ id: e.id, type: e.type, store_id: e.store_id, order_id: e.order_id, livemode: e.livemode === 1, created_at: e.created_at, data: (JSON.parse(e.body) as { data: unknown }).data }));
}

/**
 * Sends events again: one (`event_id`) or every one since a time (`since`), to one endpoint or to
 * every enabled endpoint of the event's store that takes its type. Each is a new delivery (the log
 * keeps the old ones); receivers deduplicate by event id.
 */
export async function replayWebhookEvents(deps: Pick<Deps, 'db' | 'clock' | 'nudge'>, caller: Caller, input: Out<typeof ReplayWebhookEventsInput>) {
  if ((input.event_id === undefined) === (input.since === undefined)) throw fieldError('event_id', 'send exactly one of event_id and since');
  const only = input.endpoint_id === undefined ? undefined : await endpointOf(deps, caller, input.endpoint_id);
  if (only && only.status !== 'enabled') throw new AppError('invalid_state', 'The endpoint is disabled: enable it first', [{ field: 'endpoint_id', message: 'disabled' }]);
  const found =
    input.event_id !== undefined
      ? [await findWebhookEvent(deps.db, input.event_id)].filter((e): e is NonNullable<typeof e> => e !== undefined && sees(caller, e.account_id))
      : await eventsSince(deps.db, { accountId: caller.accountId, since: new Date(input.since!).toISOString(), exceptType: TEST_EVENT_TYPE, limit: WEBHOOK_REPLAY_MAX_EVENTS + 1 });
  if (input.event_id !== undefined && found.length === 0) throw notFoundIn('event_id', 'Event');
  const events = found.slice(0, WEBHOOK_REPLAY_MAX_EVENTS).filter((e) => e.type !== TEST_EVENT_TYPE);
  const now = deps.clock.now().toISOString();
  let deliveries = 0;
  await writeTransaction(deps.db, async (tx) => {
    for (const event of events) {
      const endpoints = only ? (only.store_id === event.store_id ? [only] : []) : await enabledEndpointsOfStore(tx, event.store_id);
      for (const endpoint of endpoints) {
        if (!subscribes(JSON.parse(endpoint.event_types) as string[], event.type)) continue;
        await insertDelivery(tx, newDelivery(endpoint.id, { id: event.id, seq: event.seq, orderId: event.order_id }, now));
        deliveries++;
      }
    }
  });
  if (deliveries > 0) deps.nudge.webhooks();
  return { events: events.length, deliveries, has_more: found.length > WEBHOOK_REPLAY_MAX_EVENTS, last_event_at: events.at(-1)?.created_at ?? null };
}
