// Frozen: never edit a migration that has shipped; add a new one (to both lists, under one name).
// Issue 28: the schema of SQLite migrations 0001–0018 at once, for PostgreSQL, with the rows they add
// to a new database. No PostgreSQL
// installation predates it, so there is nothing to walk through step by step; from here on each
// change is a pair, `migrations/NNNN-*.ts` and `migrations/postgres/NNNN-*.ts`, of the same name,
// and test/db/schema-parity.test.ts checks that both give the same tables, columns, keys and indexes.
//
// The types keep the application's values as SQLite gives them, so no query and no row type
// differs: ids, times (ISO 8601 UTC, which sort as text), JSON documents and enumerations are text;
// every integer is bigint (money in minor units, counters, 0/1 flags), read back as a JavaScript
// number (src/db/connect.ts); image bytes are bytea. Every text column compares byte by byte
// (COLLATE "C", SQLite's BINARY), whatever the database's own collation: keyset pages, sorted lists
// and time comparisons come out the same on both. The e-mail address, case-insensitive in SQLite
// (COLLATE NOCASE), is unique by lower(email) here, and looked up that way on both.
import { sql, type Kysely } from 'kysely';
import { DEFAULT_REDIRECTS } from '../0003-oauth.migration.ts';

const schema = sql.raw(
  `
CREATE TABLE accounts (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE users (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  email TEXT NOT NULL,
  password_hash TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('owner','admin','support')),
  created_at TEXT NOT NULL,
  disabled_at TEXT
);
CREATE UNIQUE INDEX users_email ON users (lower(email));
CREATE TABLE stores (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  name TEXT NOT NULL,
  country TEXT NOT NULL CHECK (length(country) = 2),
  currency TEXT NOT NULL CHECK (length(currency) = 3),
  max_discount_pct BIGINT NOT NULL DEFAULT 30 CHECK (max_discount_pct BETWEEN 0 AND 100),
  allowed_domains TEXT NOT NULL DEFAULT '[]',
  created_at TEXT NOT NULL,
  archived_at TEXT,
  timezone TEXT NOT NULL DEFAULT 'UTC',
  support_phone TEXT,
  order_prefix TEXT,
  archive_reason TEXT,
  updated_at TEXT NOT NULL DEFAULT '',
  push_policy TEXT NOT NULL DEFAULT 'on_create' CHECK (push_policy IN ('on_create','on_confirm')),
  delivery_time TEXT,
  guarantee TEXT,
  confirmation TEXT NOT NULL DEFAULT 'off' CHECK (confirmation IN ('off','whatsapp')),
  confirmation_minutes BIGINT NOT NULL DEFAULT 120 CHECK (confirmation_minutes BETWEEN 1 AND 10080),
  risk_hold BIGINT CHECK (risk_hold BETWEEN 0 AND 100)
);
CREATE INDEX stores_account ON stores(account_id);
CREATE TABLE store_order_numbers (
  store_id TEXT PRIMARY KEY REFERENCES stores(id),
  next_order_number BIGINT NOT NULL
);
CREATE TABLE products (
  id TEXT PRIMARY KEY,
  store_id TEXT NOT NULL REFERENCES stores(id),
  name TEXT NOT NULL,
  sku TEXT,
  status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active','draft','archived')),
  fulfillment_product_ref TEXT,
  created_at TEXT NOT NULL,
  description TEXT,
  images TEXT NOT NULL DEFAULT '[]',
  stock BIGINT CHECK (stock >= 0),
  stock_note TEXT,
  stock_updated_at TEXT,
  min_unit_price_minor BIGINT NOT NULL DEFAULT 0 CHECK (min_unit_price_minor >= 0),
  updated_at TEXT NOT NULL DEFAULT '',
  fulfillment_variant_ref TEXT,
  fulfillment_product_name TEXT,
  fulfillment_unlinked_at TEXT
);
CREATE UNIQUE INDEX products_store_sku ON products(store_id, sku) WHERE sku IS NOT NULL;
CREATE INDEX products_store_created ON products(store_id, created_at);
CREATE TABLE product_packs (
  id TEXT PRIMARY KEY,
  product_id TEXT NOT NULL REFERENCES products(id) ON DELETE CASCADE,
  code TEXT NOT NULL,
  units BIGINT NOT NULL CHECK (units >= 1),
  price_minor BIGINT NOT NULL CHECK (price_minor >= 0),
  min_price_minor BIGINT CHECK (min_price_minor >= 0),
  position BIGINT NOT NULL DEFAULT 0,
  compare_at_price_minor BIGINT CHECK (compare_at_price_minor >= 0),
  label TEXT,
  is_default BIGINT NOT NULL DEFAULT 0,
  UNIQUE (product_id, code)
);
CREATE TABLE landing_pages (
  id TEXT PRIMARY KEY,
  store_id TEXT NOT NULL REFERENCES stores(id),
  product_id TEXT NOT NULL REFERENCES products(id),
  slug TEXT NOT NULL UNIQUE,
  title TEXT NOT NULL,
  published BIGINT NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  sections TEXT NOT NULL DEFAULT '[]',
  seo_title TEXT,
  seo_description TEXT,
  theme TEXT NOT NULL DEFAULT '{}',
  published_at TEXT
);
CREATE INDEX landing_pages_store_created ON landing_pages(store_id, created_at);
CREATE INDEX landing_pages_product ON landing_pages(product_id);
CREATE TABLE block_list (
  store_id TEXT NOT NULL REFERENCES stores(id),
  kind TEXT NOT NULL CHECK (kind IN ('phone','ip')),
  value TEXT NOT NULL,
  reason TEXT,
  created_at TEXT NOT NULL,
  PRIMARY KEY (store_id, kind, value)
);
CREATE TABLE oauth_redirects (
  uri TEXT PRIMARY KEY,
  label TEXT,
  created_at TEXT NOT NULL
);
CREATE TABLE oauth_clients (
  id TEXT PRIMARY KEY,
  client_name TEXT NOT NULL,
  redirect_uris TEXT NOT NULL,
  grant_types TEXT NOT NULL,
  client_uri TEXT,
  software_id TEXT,
  software_version TEXT,
  registered_via TEXT NOT NULL CHECK (registered_via IN ('dcr','cli')),
  registered_ip TEXT,
  created_at TEXT NOT NULL,
  revoked_at TEXT,
  metadata_fetched_at TEXT
);
CREATE TABLE oauth_sessions (
  hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id),
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
);
CREATE TABLE oauth_families (
  id TEXT PRIMARY KEY,
  client_id TEXT NOT NULL REFERENCES oauth_clients(id),
  user_id TEXT NOT NULL REFERENCES users(id),
  account_id TEXT NOT NULL REFERENCES accounts(id),
  scope TEXT NOT NULL,
  resource TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  last_used_at TEXT,
  revoked_at TEXT,
  revoked_reason TEXT
);
CREATE INDEX oauth_families_client ON oauth_families(client_id);
CREATE INDEX oauth_families_account ON oauth_families(account_id);
CREATE TABLE oauth_codes (
  hash TEXT PRIMARY KEY,
  client_id TEXT NOT NULL REFERENCES oauth_clients(id),
  user_id TEXT NOT NULL REFERENCES users(id),
  redirect_uri TEXT NOT NULL,
  code_challenge TEXT NOT NULL,
  scope TEXT NOT NULL,
  resource TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at TEXT,
  family_id TEXT REFERENCES oauth_families(id)
);
CREATE TABLE oauth_refresh_tokens (
  hash TEXT PRIMARY KEY,
  family_id TEXT NOT NULL REFERENCES oauth_families(id),
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  rotated_at TEXT
);
CREATE INDEX oauth_refresh_tokens_family ON oauth_refresh_tokens(family_id);
CREATE TABLE oauth_access_tokens (
  jti TEXT PRIMARY KEY,
  family_id TEXT NOT NULL REFERENCES oauth_families(id),
  scope TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE INDEX oauth_access_tokens_family ON oauth_access_tokens(family_id);
CREATE INDEX oauth_access_tokens_expiry ON oauth_access_tokens(expires_at);
CREATE TABLE oauth_signing_keys (
  kid TEXT PRIMARY KEY,
  alg TEXT NOT NULL,
  private_jwk TEXT NOT NULL,
  public_jwk TEXT NOT NULL,
  created_at TEXT NOT NULL,
  retired_at TEXT
);
CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  store_id TEXT NOT NULL REFERENCES stores(id),
  type TEXT NOT NULL CHECK (type IN ('publishable','secret')),
  env TEXT NOT NULL CHECK (env IN ('live','test')),
  hash TEXT NOT NULL UNIQUE,
  prefix TEXT NOT NULL,
  label TEXT,
  allowed_domains TEXT NOT NULL DEFAULT '[]',
  allowed_products TEXT NOT NULL DEFAULT '[]',
  created_at TEXT NOT NULL,
  last_used_at TEXT,
  revoked_at TEXT,
  replaced_by TEXT,
  last4 TEXT,
  inherit_domains BIGINT NOT NULL DEFAULT 0,
  scopes TEXT,
  created_via TEXT NOT NULL DEFAULT 'operator' CHECK (created_via IN ('operator','secret_key','oauth')),
  created_by_key TEXT REFERENCES api_keys(id),
  oauth_client_id TEXT REFERENCES oauth_clients(id),
  oauth_user_id TEXT REFERENCES users(id),
  oauth_family_id TEXT
);
CREATE INDEX api_keys_store ON api_keys(store_id);
CREATE INDEX api_keys_account_created ON api_keys(account_id, created_at);
CREATE INDEX api_keys_oauth_family ON api_keys(oauth_family_id) WHERE oauth_family_id IS NOT NULL;
CREATE INDEX api_keys_oauth_client ON api_keys(oauth_client_id) WHERE oauth_client_id IS NOT NULL;
CREATE TABLE orders (
  id TEXT PRIMARY KEY,
  store_id TEXT NOT NULL REFERENCES stores(id),
  product_id TEXT NOT NULL REFERENCES products(id),
  landing_page_id TEXT REFERENCES landing_pages(id),
  api_key_id TEXT REFERENCES api_keys(id),
  order_number BIGINT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending','confirmed','processing','shipped','delivered','returned','cancelled')),
  sandbox BIGINT NOT NULL,
  needs_review BIGINT NOT NULL DEFAULT 0,
  nombre TEXT NOT NULL,
  telefono TEXT NOT NULL,
  telefono_e164 TEXT NOT NULL,
  departamento TEXT NOT NULL,
  ciudad TEXT NOT NULL,
  departamento_input TEXT NOT NULL,
  ciudad_input TEXT NOT NULL,
  city_code TEXT,
  city_match TEXT NOT NULL,
  direccion TEXT NOT NULL,
  barrio TEXT,
  referencia TEXT,
  distrito TEXT,
  colonia TEXT,
  codigo_postal TEXT,
  pack TEXT NOT NULL,
  pack_units BIGINT NOT NULL,
  quantity BIGINT NOT NULL,
  unit_price_minor BIGINT NOT NULL,
  total_price_minor BIGINT NOT NULL,
  currency TEXT NOT NULL,
  client_ip TEXT,
  fulfillment_status TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  tracking_number TEXT,
  cancel_reason TEXT,
  confirmation TEXT CHECK (confirmation IN ('asked','reminded','call','replied','correcting','answered')),
  confirmation_asked_at TEXT,
  confirmation_due_at TEXT,
  confirmed_at TEXT,
  confirmed_by TEXT CHECK (confirmed_by IN ('buyer','support','store_policy')),
  risk_score BIGINT NOT NULL DEFAULT 0,
  risk_reasons TEXT NOT NULL DEFAULT '[]',
  correction_token_hash TEXT,
  correction_expires_at TEXT,
  UNIQUE (store_id, order_number)
);
CREATE INDEX orders_created ON orders(created_at);
CREATE INDEX orders_review ON orders(needs_review) WHERE needs_review = 1;
CREATE INDEX orders_store_created ON orders(store_id, created_at);
CREATE INDEX orders_confirmation_open ON orders(confirmation) WHERE confirmation IS NOT NULL AND confirmation != 'answered';
CREATE INDEX orders_confirmation_due ON orders(confirmation_due_at) WHERE confirmation_due_at IS NOT NULL;
CREATE INDEX orders_phone ON orders(telefono_e164, created_at);
CREATE INDEX orders_risk ON orders(store_id, risk_score);
CREATE UNIQUE INDEX orders_correction ON orders(correction_token_hash) WHERE correction_token_hash IS NOT NULL;
CREATE TABLE order_events (
  id TEXT PRIMARY KEY,
  order_id TEXT REFERENCES orders(id),
  store_id TEXT NOT NULL REFERENCES stores(id),
  type TEXT NOT NULL,
  actor TEXT NOT NULL,
  data TEXT NOT NULL DEFAULT '{}',
  created_at TEXT NOT NULL
);
CREATE INDEX order_events_order ON order_events(order_id, created_at);
CREATE INDEX order_events_store ON order_events(store_id, created_at);
CREATE TABLE idempotency_records (
  scope TEXT NOT NULL,
  key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  status BIGINT NOT NULL,
  body TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (scope, key)
);
CREATE TABLE city_catalogs (
  country TEXT NOT NULL,
  catalog TEXT NOT NULL CHECK (catalog IN ('official','fulfillment')),
  region TEXT NOT NULL,
  city TEXT NOT NULL,
  code TEXT,
  PRIMARY KEY (country, catalog, region, city)
);
CREATE TABLE catalog_versions (
  country TEXT NOT NULL,
  catalog TEXT NOT NULL,
  version BIGINT NOT NULL,
  source TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (country, catalog)
);
CREATE TABLE rate_limits (
  bucket TEXT PRIMARY KEY,
  window_start BIGINT NOT NULL,
  count BIGINT NOT NULL
);
CREATE TABLE fulfillment_webhook_events (
  event_id TEXT PRIMARY KEY,
  remote_id TEXT NOT NULL,
  order_id TEXT,
  status TEXT NOT NULL,
  received_at TEXT NOT NULL
);
CREATE TABLE whatsapp_settings (
  store_id TEXT PRIMARY KEY REFERENCES stores(id),
  enabled BIGINT NOT NULL DEFAULT 0,
  sender_number TEXT,
  phone_number_id TEXT,
  events TEXT NOT NULL DEFAULT '{}',
  templates TEXT NOT NULL DEFAULT '{}',
  updated_at TEXT NOT NULL,
  token_sealed TEXT,
  token_last4 TEXT,
  business_account_id TEXT,
  credentials_verified_at TEXT
);
CREATE TABLE fulfillment_jobs (
  id TEXT PRIMARY KEY,
  order_id TEXT NOT NULL REFERENCES orders(id),
  action TEXT NOT NULL CHECK (action IN ('push','cancel')),
  state TEXT NOT NULL CHECK (state IN ('queued','held','in_flight','failed','dead','done','cancelled')),
  attempts BIGINT NOT NULL DEFAULT 0,
  next_attempt_at TEXT NOT NULL,
  lease_until TEXT,
  last_error TEXT,
  remote_id TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  first_attempt_at TEXT,
  unknown_outcome BIGINT NOT NULL DEFAULT 0,
  destination TEXT NOT NULL DEFAULT '',
  UNIQUE (order_id, action)
);
CREATE INDEX fulfillment_jobs_due ON fulfillment_jobs(state, next_attempt_at);
CREATE INDEX fulfillment_jobs_remote ON fulfillment_jobs(remote_id);
CREATE INDEX fulfillment_jobs_destination ON fulfillment_jobs(destination, state, next_attempt_at);
CREATE TABLE fulfillment_connections (
  store_id TEXT PRIMARY KEY REFERENCES stores(id),
  token_sealed TEXT NOT NULL,
  token_last4 TEXT NOT NULL,
  platform_account_id TEXT,
  platform_account_name TEXT,
  verified_at TEXT NOT NULL,
  last_ok_at TEXT,
  last_error TEXT,
  last_error_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  platform TEXT NOT NULL DEFAULT 'generic',
  base_url TEXT,
  test BIGINT NOT NULL DEFAULT 0,
  paused_at TEXT,
  paused_reason TEXT,
  hook_token_hash TEXT,
  hook_token_sealed TEXT
);
CREATE UNIQUE INDEX fulfillment_connections_hook ON fulfillment_connections(hook_token_hash);
CREATE TABLE whatsapp_messages (
  id TEXT PRIMARY KEY,
  store_id TEXT NOT NULL REFERENCES stores(id),
  order_id TEXT NOT NULL REFERENCES orders(id),
  to_e164 TEXT NOT NULL,
  type TEXT NOT NULL CHECK (type IN ('text','template')),
  template TEXT,
  body TEXT NOT NULL,
  parameters TEXT NOT NULL DEFAULT '[]',
  event TEXT,
  idempotency_key TEXT,
  request_hash TEXT,
  status TEXT NOT NULL CHECK (status IN ('queued','sending','sent','delivered','read','failed','cancelled')),
  attempts BIGINT NOT NULL DEFAULT 0,
  next_attempt_at TEXT NOT NULL,
  lease_until TEXT,
  last_error TEXT,
  wa_message_id TEXT,
  actor TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  sent_at TEXT,
  delivered_at TEXT,
  read_at TEXT,
  first_attempt_at TEXT,
  unknown_outcome BIGINT NOT NULL DEFAULT 0,
  destination TEXT NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX whatsapp_messages_event ON whatsapp_messages(order_id, event) WHERE event IS NOT NULL;
CREATE UNIQUE INDEX whatsapp_messages_key ON whatsapp_messages(store_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE INDEX whatsapp_messages_due ON whatsapp_messages(status, next_attempt_at);
CREATE INDEX whatsapp_messages_wamid ON whatsapp_messages(wa_message_id);
CREATE INDEX whatsapp_messages_list ON whatsapp_messages(store_id, created_at, id);
CREATE INDEX whatsapp_messages_order ON whatsapp_messages(order_id, created_at);
CREATE TABLE whatsapp_numbers (
  phone_number_id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  source TEXT NOT NULL CHECK (source IN ('operator', 'store')),
  store_id TEXT REFERENCES stores(id),
  business_account_id TEXT,
  display_phone_number TEXT,
  verified_name TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX whatsapp_numbers_account ON whatsapp_numbers (account_id);
CREATE TABLE whatsapp_inbound (
  wa_message_id TEXT PRIMARY KEY,
  order_id TEXT REFERENCES orders(id),
  from_e164 TEXT NOT NULL,
  type TEXT NOT NULL,
  received_at TEXT NOT NULL
);
CREATE TABLE webhook_endpoints (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  store_id TEXT NOT NULL REFERENCES stores(id),
  url TEXT NOT NULL,
  description TEXT,
  event_types TEXT NOT NULL,
  secret_sealed TEXT NOT NULL,
  previous_secret_sealed TEXT,
  previous_secret_expires_at TEXT,
  status TEXT NOT NULL CHECK (status IN ('enabled','disabled')),
  disabled_reason TEXT,
  disabled_at TEXT,
  failing_since TEXT,
  last_success_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX webhook_endpoints_store ON webhook_endpoints(store_id);
CREATE TABLE webhook_events (
  seq BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  store_id TEXT NOT NULL REFERENCES stores(id),
  order_id TEXT REFERENCES orders(id),
  type TEXT NOT NULL,
  livemode BIGINT NOT NULL,
  body TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX webhook_events_store ON webhook_events(store_id, created_at);
CREATE TABLE webhook_deliveries (
  id TEXT PRIMARY KEY,
  event_id TEXT NOT NULL REFERENCES webhook_events(id),
  event_seq BIGINT NOT NULL,
  endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints(id),
  ordering_key TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('queued','in_flight','failed','delivered','dead','cancelled')),
  attempts BIGINT NOT NULL DEFAULT 0,
  next_attempt_at TEXT NOT NULL,
  lease_until TEXT,
  last_error TEXT,
  first_attempt_at TEXT,
  unknown_outcome BIGINT NOT NULL DEFAULT 0,
  destination TEXT NOT NULL,
  last_status BIGINT,
  last_latency_ms BIGINT,
  delivered_at TEXT,
  once BIGINT NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(state, next_attempt_at);
CREATE INDEX webhook_deliveries_order ON webhook_deliveries(destination, ordering_key, event_seq);
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries(endpoint_id, created_at);
CREATE TABLE webhook_attempts (
  delivery_id TEXT NOT NULL REFERENCES webhook_deliveries(id),
  attempt BIGINT NOT NULL,
  at TEXT NOT NULL,
  status BIGINT,
  latency_ms BIGINT NOT NULL,
  error TEXT,
  PRIMARY KEY (delivery_id, attempt)
);
CREATE TABLE server_settings (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE platform_city_catalogs (
  store_id TEXT NOT NULL REFERENCES stores(id),
  region TEXT NOT NULL,
  city TEXT NOT NULL,
  code TEXT,
  PRIMARY KEY (store_id, region, city)
);
CREATE TABLE platform_catalog_versions (
  store_id TEXT PRIMARY KEY REFERENCES stores(id),
  platform TEXT NOT NULL,
  version BIGINT NOT NULL,
  source TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE images (
  id TEXT PRIMARY KEY,
  width BIGINT NOT NULL CHECK (width > 0),
  height BIGINT NOT NULL CHECK (height > 0),
  source_format TEXT NOT NULL,
  source_bytes BIGINT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE image_variants (
  image_id TEXT NOT NULL REFERENCES images(id) ON DELETE CASCADE,
  width BIGINT NOT NULL CHECK (width > 0),
  format TEXT NOT NULL CHECK (format IN ('avif','webp','jpeg')),
  bytes BYTEA NOT NULL,
  byte_length BIGINT NOT NULL,
  digest TEXT NOT NULL,
  PRIMARY KEY (image_id, width, format)
);
`.replace(/\bTEXT\b/g, 'TEXT COLLATE "C"'),
);

export async function up(db: Kysely<unknown>): Promise<void> {
  await schema.execute(db);
  // The rows SQLite's migrations add to a new database: the MCP vendors' callbacks (0003).
  const now = new Date().toISOString();
  for (const [uri, label] of DEFAULT_REDIRECTS) await sql`INSERT INTO oauth_redirects (uri, label, created_at) VALUES (${uri}, ${label}, ${now})`.execute(db);
}
