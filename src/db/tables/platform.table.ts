import type { Generated } from 'kysely';
export type CatalogKind = 'official' | 'fulfillment';

/** A store's WhatsApp notification settings (issue 12). */
export interface WhatsappSettingsTable {
  store_id: string;
  enabled: number;
  /** The sender's number as buyers see it, E.164. */
  sender_number: string | null;
  /** The WhatsApp Cloud API phone-number id messages are sent from. */
  phone_number_id: string | null;
  /** JSON `{order_created?, order_confirmed?, order_shipped?, order_delivered?}` of booleans. */
  events: string;
  /** JSON of the same keys: template texts; a missing key uses the default text. */
  templates: string;
  updated_at: string;
  /** The store's own Cloud API access token, sealed (AES-256-GCM); null: the server-wide token. */
  token_sealed: string | null;
  token_last4: string | null;
  /** The WhatsApp Business Account whose numbers that token may send from. */
  business_account_id: string | null;
  /** When the live check proved phone_number_id is a number of that business account. */
  credentials_verified_at: string | null;
}

/** Which account a WhatsApp phone-number id belongs to (issue 19 §4): one account each. */
export interface WhatsappNumbersTable {
  phone_number_id: string;
  account_id: string;
  /** `operator`: assigned with `codrail whatsapp numbers assign` (the server-wide token may send from it); `store`: proven by a store's own credentials. */
  source: 'operator' | 'store';
  /** The store whose credentials proved it (source `store`). */
  store_id: string | null;
  business_account_id: string | null;
  display_phone_number: string | null;
  verified_name: string | null;
  created_at: string;
}

export interface CityCatalogsTable {
  country: string;
  catalog: CatalogKind;
  region: string;
  city: string;
  code: string | null;
}

export interface CatalogVersionsTable {
  country: string;
  catalog: CatalogKind;
  version: number;
  source: string;
  updated_at: string;
}

export interface RateLimitsTable {
  bucket: string;
  window_start: number;
  count: number;
}

export interface FulfillmentWebhookEventsTable {
  event_id: string;
  remote_id: string;
  order_id: string | null;
  status: string;
  received_at: string;
}

/** A store's own fulfillment platform credentials (issue 12); stores without one use the configured default. */
export interface FulfillmentConnectionsTable {
  store_id: string;
  /** The API token sealed with AES-256-GCM (src/domain/secret-box.ts); never in clear. */
  token_sealed: string;
  token_last4: string;
  platform_account_id: string | null;
  platform_account_name: string | null;
  /** When the live validation call of set_fulfillment_credentials succeeded. */
  verified_at: string;
  last_ok_at: string | null;
  last_error: string | null;
  last_error_at: string | null;
  created_at: string;
  updated_at: string;
  /** Which platform module speaks to it (src/platforms): `generic`, `dropi` (issue 22). */
  platform: string;
  /** Null: the platform's default (the server's --fulfillment-url; Dropi's host for the store's country). */
  base_url: string | null;
  /** 1: the platform's test host (Dropi's test-api). */
  test: number;
  /** Set when the platform said the token expired: the store's pushes wait for new credentials. */
  paused_at: string | null;
  paused_reason: string | null;
  /** The receiver path token of an unsigned platform's webhooks: its SHA-256 (the lookup) and sealed (shown again). */
  hook_token_hash: string | null;
  hook_token_sealed: string | null;
}

/** A store's platform's own cities (issue 22 §4): what its orders must carry, spelled as the platform spells them. */
export interface PlatformCityCatalogsTable {
  store_id: string;
  region: string;
  city: string;
  /** The official code (DANE for Colombia) when the platform gives one. */
  code: string | null;
}

export interface PlatformCatalogVersionsTable {
  store_id: string;
  platform: string;
  version: number;
  source: string;
  updated_at: string;
}

/** What `codrail serve` was started with that other processes on the database need (the platform URL). */
export interface ServerSettingsTable {
  name: string;
  value: string;
  updated_at: string;
}

export type WhatsappMessageStatus = 'queued' | 'sending' | 'sent' | 'delivered' | 'read' | 'failed' | 'cancelled';

/** The WhatsApp outbox: each row is one message to an order's buyer (issue 12). */
export interface WhatsappMessagesTable {
  id: string;
  store_id: string;
  order_id: string;
  to_e164: string;
  type: 'text' | 'template';
  /** The template key (an order event name) of a template message. */
  template: string | null;
  /** The text the buyer reads, rendered when queued. */
  body: string;
  /** JSON array: a template message's body parameters, in placeholder order. */
  parameters: string;
  /** The order event that queued it automatically; null for a sent message. */
  event: string | null;
  idempotency_key: string | null;
  request_hash: string | null;
  status: WhatsappMessageStatus;
  attempts: number;
  next_attempt_at: string;
  lease_until: string | null;
  last_error: string | null;
  /** The Cloud API's message id (wamid…), the key of its status webhooks. */
  wa_message_id: string | null;
  actor: string;
  created_at: string;
  updated_at: string;
  sent_at: string | null;
  delivered_at: string | null;
  read_at: string | null;
  /** The outbox machinery's give-up clock and intent count (src/outbox). */
  first_attempt_at: string | null;
  unknown_outcome: number;
  /** The outbox destination (its circuit): `whatsapp:<store id>`. */
  destination: string;
}

/** A seller's webhook endpoint (issue 21): where a store's events are delivered, signed. */
export interface WebhookEndpointsTable {
  id: string;
  account_id: string;
  store_id: string;
  url: string;
  description: string | null;
  /** JSON array of event types, or ["*"] for every one. */
  event_types: string;
  /** The signing secret (whsec_…), sealed with AES-256-GCM: shown once, never stored in clear. */
  secret_sealed: string;
  /** During a rotation's grace period the old secret signs too, until this time. */
  previous_secret_sealed: string | null;
  previous_secret_expires_at: string | null;
  status: 'enabled' | 'disabled';
  disabled_reason: string | null;
  disabled_at: string | null;
  /** The first failed delivery since the last success; failing for days disables the endpoint. */
  failing_since: string | null;
  last_success_at: string | null;
  created_at: string;
  updated_at: string;
}

/** An event as delivered (issue 21): its body is written once, in the transaction of the change. */
export interface WebhookEventsTable {
  /** Order of events: one order's deliveries go out in this order. */
  seq: Generated<number>;
  id: string;
  account_id: string;
  store_id: string;
  order_id: string | null;
  type: string;
  livemode: number;
  body: string;
  created_at: string;
}

export type WebhookDeliveryState = 'queued' | 'in_flight' | 'failed' | 'delivered' | 'dead' | 'cancelled';

/** One event to one endpoint: a row of the webhooks outbox. */
export interface WebhookDeliveriesTable {
  id: string;
  event_id: string;
  event_seq: number;
  endpoint_id: string;
  /** The order id (its events go out in order), or the event id for an event without an order. */
  ordering_key: string;
  state: WebhookDeliveryState;
  attempts: number;
  next_attempt_at: string;
  lease_until: string | null;
  last_error: string | null;
  first_attempt_at: string | null;
  unknown_outcome: number;
  /** `webhook:<endpoint id>`. */
  destination: string;
  last_status: number | null;
  last_latency_ms: number | null;
  delivered_at: string | null;
  /** 1 for a `webhooks test` delivery: tried once, its failure is final and does not count against the endpoint. */
  once: number;
  created_at: string;
  updated_at: string;
}

/** The delivery log: one row per try. */
export interface WebhookAttemptsTable {
  delivery_id: string;
  attempt: number;
  at: string;
  /** The HTTP status the endpoint answered; null when it did not answer. */
  status: number | null;
  latency_ms: number;
  error: string | null;
}

/** Inbound WhatsApp messages already handled, by their id: Meta retries a webhook, an answer counts once (issue 25). */
export interface WhatsappInboundTable {
  wa_message_id: string;
  order_id: string | null;
  from_e164: string;
  /** `button`, `interactive`, `text`… as Meta names the message type. */
  type: string;
  received_at: string;
}

/**
 * One outbox destination's circuit (src/outbox/circuit.ts), shared by every process on the database
 * (issue 28). A row exists while the destination has failures in a row; it is open while probe_at is set.
 */
export interface OutboxCircuitsTable {
  /** The outbox: `fulfillment`, `whatsapp`, `webhooks`. */
  kind: string;
  destination: string;
  /** Failures in a row. */
  failures: number;
  /** The wait before the next probe, doubled by each failed probe up to a cap. */
  probe_ms: number;
  /** Open: when the next probe may go. */
  probe_at: string | null;
  /** A probe is in flight until then (its holder's lease: a holder that died does not block the next). */
  probing_until: string | null;
  updated_at: string;
}

/** The next start a paced credential may take, in epoch milliseconds (src/http/outbound/pacer.ts; issue 28). */
export interface PaceSlotsTable {
  /** A hash of the credential, never the credential. */
  key: string;
  next_start_ms: number;
}

/** A Cloud API status report about a message id not recorded yet: applied when its send is (issue 28). */
export interface WhatsappEarlyStatusesTable {
  wa_message_id: string;
  status: 'sent' | 'delivered' | 'read' | 'failed';
  error: string | null;
  received_at: string;
}
