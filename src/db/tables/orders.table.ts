import type { Generated } from 'kysely';
import type { OrderStatus } from '../../domain/order-status.ts';
export { ORDER_STATUSES, type OrderStatus } from '../../domain/order-status.ts';

export type CityMatch = 'exact' | 'unique_city' | 'alias' | 'fuzzy' | 'manual' | 'none' | 'not_applicable';

import type { ConfirmationState, ConfirmedBy } from '../../domain/confirmation.ts';

export interface OrdersTable {
  id: string;
  store_id: string;
  product_id: string;
  landing_page_id: string | null;
  api_key_id: string | null;
  order_number: number;
  status: OrderStatus;
  sandbox: number;
  needs_review: number;
  nombre: string;
  /** As submitted (trimmed). */
  telefono: string;
  telefono_e164: string;
  /** Canonical catalog spelling when matched, else the buyer's text. */
  departamento: string;
  ciudad: string;
  /** The buyer's text, always kept (SPEC 6). */
  departamento_input: string;
  ciudad_input: string;
  city_code: string | null;
  city_match: CityMatch;
  direccion: string;
  barrio: string | null;
  referencia: string | null;
  distrito: string | null;
  colonia: string | null;
  codigo_postal: string | null;
  pack: string;
  pack_units: number;
  quantity: number;
  unit_price_minor: number;
  total_price_minor: number;
  currency: string;
  client_ip: string | null;
  fulfillment_status: string | null;
  /** The carrier's tracking number (guía), as the platform reported it. */
  tracking_number: string | null;
  /** cancel_order's reason (buyer_declined, unreachable, duplicate, fraud, other). */
  cancel_reason: string | null;
  /** Where the buyer's confirmation stands (issue 25, src/domain/confirmation.ts); null: never asked. */
  confirmation: Generated<ConfirmationState | null>;
  confirmation_asked_at: Generated<string | null>;
  /** When the next step is due without an answer: the reminder, then the call queue. */
  confirmation_due_at: Generated<string | null>;
  confirmed_at: Generated<string | null>;
  confirmed_by: Generated<ConfirmedBy | null>;
  /** Return risk 0–100 and its reasons (JSON array, src/domain/return-risk.ts). */
  risk_score: Generated<number>;
  risk_reasons: Generated<string>;
  /** SHA-256 of the one-time address-correction link's token, and when it expires. */
  correction_token_hash: Generated<string | null>;
  correction_expires_at: Generated<string | null>;
  created_at: string;
  updated_at: string;
}

export interface OrderEventsTable {
  id: string;
  /** Null for a refused attempt that created no order (anti-bot rejections). */
  order_id: string | null;
  store_id: string;
  type: string;
  /** Who or what did it: `landing`, `key:<id>`, `cli`, `system`… */
  actor: string;
  /** JSON object. */
  data: string;
  created_at: string;
}

export type FulfillmentJobState = 'queued' | 'held' | 'in_flight' | 'failed' | 'dead' | 'done' | 'cancelled';
/** What an outbox job does at the platform: create the order, or cancel the order it created. */
export type FulfillmentAction = 'push' | 'cancel';

export interface FulfillmentJobsTable {
  id: string;
  order_id: string;
  action: FulfillmentAction;
  state: FulfillmentJobState;
  attempts: number;
  next_attempt_at: string;
  lease_until: string | null;
  last_error: string | null;
  remote_id: string | null;
  /** When the current run of tries began: the give-up clock (issue 13). */
  first_attempt_at: string | null;
  /**
   * Intent before effect (issue 20): how many requests that may have acted on the platform (a create,
   * a cancel) have no recorded outcome yet. Raised before each such request leaves, lowered only by
   * what is known; above 0 the next try looks the order up before it acts again.
   */
  unknown_outcome: number;
  /** The outbox destination (its circuit): `platform:<store id>`. */
  destination: string;
  created_at: string;
  updated_at: string;
}

export interface IdempotencyRecordsTable {
  /** The store the key belongs to: retries are matched per store. */
  scope: string;
  key: string;
  request_hash: string;
  status: number;
  body: string;
  created_at: string;
}
