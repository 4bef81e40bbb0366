export type CatalogKind = 'official' | 'fulfillment';

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
