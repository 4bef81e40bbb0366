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
