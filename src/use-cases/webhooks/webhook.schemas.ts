// Webhook endpoints, events and deliveries (issue 21 §5, §7): inputs and outputs of the operations
// behind /api/v1/webhook-endpoints and `codrail webhooks` (REST and CLI only: the MCP catalog stays at
// its 62 tools). A listing never carries a secret: only creation and rotation show one, once.
import * as v from 'valibot';
import { ALL_EVENTS, WEBHOOK_EVENT_TYPES } from '../../domain/webhook-events.ts';
import { WEBHOOK_DESCRIPTION_MAX, WEBHOOK_REPLAY_MAX_EVENTS, WEBHOOK_ROTATION_GRACE_MAX_MIN, WEBHOOK_URL_MAX } from '../../limits.ts';
import { integerInput, nullableTimestamp, optionalText, pageOf, timestamp, uuidInput } from '../fields.ts';
import { cursorInput, limitInput } from '../pagination.ts';
import { cleanText } from '../text-input.ts';

const endpointId = uuidInput('endpoint_id', 'Webhook endpoint id (from list_webhook_endpoints).');
const EVENT_CHOICES = [ALL_EVENTS, ...WEBHOOK_EVENT_TYPES] as const;

const url = v.pipe(
  cleanText('url', true),
  v.minLength(1, 'url must not be empty'),
  v.maxLength(WEBHOOK_URL_MAX, `url must be at most ${WEBHOOK_URL_MAX} characters`),
  v.description('Where events are POSTed: https (http only on loopback, when the operator allows private addresses).'),
);

const eventTypes = v.pipe(
  v.array(v.picklist(EVENT_CHOICES, `each event type must be ${ALL_EVENTS} or one of ${WEBHOOK_EVENT_TYPES.join(', ')}`)),
  v.minLength(1, 'event_types needs at least one type (or * for every one)'),
  v.maxLength(EVENT_CHOICES.length),
  v.description(`The event types delivered: ${WEBHOOK_EVENT_TYPES.join(', ')}, or * for every one.`),
);

export const ListWebhookEndpointsInput = v.strictObject({
  store_id: v.optional(uuidInput('store_id', 'Only endpoints of this store.')),
  cursor: cursorInput,
  limit: limitInput,
});

export const CreateWebhookEndpointInput = v.strictObject({
  store_id: uuidInput('store_id', 'The store whose events the endpoint receives.'),
  url,
  event_types: v.optional(eventTypes, [ALL_EVENTS]),
  description: optionalText('description', WEBHOOK_DESCRIPTION_MAX, 'A name to recognise the endpoint by.'),
});

export const EndpointOnlyInput = v.strictObject({ endpoint_id: endpointId });

export const UpdateWebhookEndpointInput = v.strictObject({
  endpoint_id: endpointId,
  url: v.optional(url),
  event_types: v.optional(eventTypes),
  description: optionalText('description', WEBHOOK_DESCRIPTION_MAX, 'A name to recognise the endpoint by; "" removes it.'),
});

export const RotateWebhookSecretInput = v.strictObject({
  endpoint_id: endpointId,
  grace_minutes: v.optional(integerInput('grace_minutes', 0, WEBHOOK_ROTATION_GRACE_MAX_MIN, 'How long the old secret keeps signing beside the new one (minutes; default a day, 0 = stop now).')),
});

export const ListWebhookDeliveriesInput = v.strictObject({
  endpoint_id: endpointId,
  state: v.optional(v.pipe(v.picklist(['queued', 'in_flight', 'failed', 'delivered', 'dead', 'cancelled'], 'state must be queued, in_flight, failed, delivered, dead or cancelled'), v.description('Only deliveries in this state.'))),
  cursor: cursorInput,
  limit: limitInput,
});

export const ListWebhookEventsInput = v.strictObject({
  store_id: v.optional(uuidInput('store_id', 'Only events of this store.')),
  type: v.optional(v.pipe(v.picklist(WEBHOOK_EVENT_TYPES, `type must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}`), v.description('Only events of this type.'))),
  cursor: cursorInput,
  limit: limitInput,
});

export const ReplayWebhookEventsInput = v.strictObject({
  event_id: v.optional(v.pipe(v.string('event_id must be a string'), v.regex(/^evt_[0-9a-f]{32}$/, 'event_id is an event id such as evt_0190…'), v.description('Send this event again.'))),
  since: v.optional(v.pipe(v.string('since must be a string'), v.isoTimestamp('since must be an ISO-8601 time such as 2026-11-27T10:00:00Z'), v.description('Or send again every event since this time.'))),
  endpoint_id: v.optional(uuidInput('endpoint_id', 'Only to this endpoint; omit for every enabled endpoint that takes the type.')),
});

export const WebhookEndpoint = v.object({
  id: v.string(),
  store_id: v.string(),
  url: v.string(),
  description: v.nullable(v.string()),
  event_types: v.array(v.string()),
  status: v.picklist(['enabled', 'disabled']),
  disabled_reason: v.nullable(v.string()),
  disabled_at: nullableTimestamp('When it was disabled.'),
  failing_since: nullableTimestamp('First failed delivery since the last success; failing for days disables the endpoint.'),
  last_success_at: nullableTimestamp('Last delivery the endpoint accepted.'),
  previous_secret_expires_at: nullableTimestamp('During a rotation: until when the old secret still signs.'),
  created_at: timestamp('Creation time.'),
  updated_at: timestamp('Last change.'),
});

export const WebhookEndpointWithSecret = v.object({
  ...WebhookEndpoint.entries,
  secret: v.pipe(v.string(), v.description('The signing secret (whsec_…), shown this once: verify Codrail-Signature with it.')),
});

export const DeletedWebhookEndpoint = v.object({ id: v.string(), deleted: v.literal(true) });

export const WebhookEndpointPage = pageOf(WebhookEndpoint);

export const WebhookDelivery = v.object({
  id: v.string(),
  event_id: v.string(),
  event_type: v.string(),
  order_id: v.nullable(v.string()),
  state: v.string(),
  attempts: v.number(),
  last_status: v.nullable(v.number()),
  last_latency_ms: v.nullable(v.number()),
  last_error: v.nullable(v.string()),
  next_attempt_at: v.nullable(v.string()),
  delivered_at: v.nullable(v.string()),
  created_at: v.string(),
  tries: v.array(v.object({ attempt: v.number(), at: v.string(), status: v.nullable(v.number()), latency_ms: v.number(), error: v.nullable(v.string()) })),
});

export const WebhookDeliveryPage = pageOf(WebhookDelivery);

export const WebhookTestResult = v.object({
  endpoint_id: v.string(),
  event_id: v.string(),
  delivered: v.boolean(),
  state: v.string(),
  status: v.nullable(v.number()),
  latency_ms: v.nullable(v.number()),
  error: v.nullable(v.string()),
});

export const WebhookEventView = v.object({
  id: v.string(),
  type: v.string(),
  store_id: v.string(),
  order_id: v.nullable(v.string()),
  livemode: v.boolean(),
  created_at: v.string(),
  data: v.unknown(),
});

export const WebhookEventPage = pageOf(WebhookEventView);

export const ReplayResult = v.object({
  events: v.pipe(v.number(), v.description('Events sent again (test events are never replayed).')),
  deliveries: v.pipe(v.number(), v.description('Deliveries queued again.')),
  has_more: v.pipe(v.boolean(), v.description(`With since: more events followed than one replay sends (${WEBHOOK_REPLAY_MAX_EVENTS}); replay again with since = last_event_at.`)),
  last_event_at: v.pipe(v.nullable(v.string()), v.description('When the last event replayed happened.')),
});
