import type { AccountsTable, UsersTable } from './accounts.table.ts';
import type { BlockListTable, LandingPagesTable, ProductPacksTable, ProductsTable, StoreOrderNumbersTable, StoresTable } from './stores.table.ts';
import type { ApiKeysTable } from './keys.table.ts';
import type { ImagesTable, ImageVariantsTable } from './images.table.ts';
import type { FulfillmentJobsTable, IdempotencyRecordsTable, OrderEventsTable, OrdersTable } from './orders.table.ts';
import type {
  OAuthAccessTokensTable,
  OAuthClientsTable,
  OAuthCodesTable,
  OAuthFamiliesTable,
  OAuthRedirectsTable,
  OAuthRefreshTokensTable,
  OAuthSessionsTable,
  OAuthSigningKeysTable,
} from './oauth.table.ts';
import type { CatalogVersionsTable, CityCatalogsTable, FulfillmentConnectionsTable, FulfillmentWebhookEventsTable, OutboxCircuitsTable, PaceSlotsTable, PlatformCatalogVersionsTable, PlatformCityCatalogsTable, RateLimitsTable, ServerSettingsTable, WebhookAttemptsTable, WebhookDeliveriesTable, WebhookEndpointsTable, WebhookEventsTable, WhatsappEarlyStatusesTable, WhatsappInboundTable, WhatsappMessagesTable, WhatsappNumbersTable, WhatsappSettingsTable } from './platform.table.ts';

export type * from './accounts.table.ts';
export type * from './stores.table.ts';
export type * from './keys.table.ts';
export type * from './images.table.ts';
export type * from './orders.table.ts';
export { ORDER_STATUSES } from './orders.table.ts';
export type * from './platform.table.ts';
export type * from './oauth.table.ts';

export interface Database {
  accounts: AccountsTable;
  users: UsersTable;
  stores: StoresTable;
  store_order_numbers: StoreOrderNumbersTable;
  products: ProductsTable;
  product_packs: ProductPacksTable;
  images: ImagesTable;
  image_variants: ImageVariantsTable;
  landing_pages: LandingPagesTable;
  block_list: BlockListTable;
  api_keys: ApiKeysTable;
  orders: OrdersTable;
  order_events: OrderEventsTable;
  fulfillment_jobs: FulfillmentJobsTable;
  idempotency_records: IdempotencyRecordsTable;
  city_catalogs: CityCatalogsTable;
  catalog_versions: CatalogVersionsTable;
  rate_limits: RateLimitsTable;
  server_settings: ServerSettingsTable;
  platform_city_catalogs: PlatformCityCatalogsTable;
  platform_catalog_versions: PlatformCatalogVersionsTable;
  fulfillment_webhook_events: FulfillmentWebhookEventsTable;
  whatsapp_settings: WhatsappSettingsTable;
  whatsapp_messages: WhatsappMessagesTable;
  whatsapp_inbound: WhatsappInboundTable;
  whatsapp_early_statuses: WhatsappEarlyStatusesTable;
  outbox_circuits: OutboxCircuitsTable;
  pace_slots: PaceSlotsTable;
  whatsapp_numbers: WhatsappNumbersTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  fulfillment_connections: FulfillmentConnectionsTable;
  oauth_redirects: OAuthRedirectsTable;
  oauth_clients: OAuthClientsTable;
  oauth_sessions: OAuthSessionsTable;
  oauth_families: OAuthFamiliesTable;
  oauth_codes: OAuthCodesTable;
  oauth_refresh_tokens: OAuthRefreshTokensTable;
  oauth_access_tokens: OAuthAccessTokensTable;
  oauth_signing_keys: OAuthSigningKeysTable;
}
