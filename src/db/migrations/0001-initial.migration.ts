// Frozen: never edit a migration that has shipped; add a new one.
import { sql, type Kysely } from 'kysely';

const statements = [
  sql`CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    created_at TEXT NOT NULL
  ) STRICT`,
  sql`CREATE TABLE users (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    email TEXT NOT NULL COLLATE NOCASE UNIQUE,
    password_hash TEXT NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('owner','admin','support')),
    created_at TEXT NOT NULL,
    disabled_at TEXT
  ) STRICT`,
  sql`CREATE TABLE stores (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    name TEXT NOT NULL,
    country TEXT NOT NULL CHECK (length(country) = 2),
    currency TEXT NOT NULL CHECK (length(currency) = 3),
    max_discount_pct INTEGER NOT NULL DEFAULT 30 CHECK (max_discount_pct BETWEEN 0 AND 100),
    allowed_domains TEXT NOT NULL DEFAULT '[]',
    next_order_number INTEGER NOT NULL DEFAULT 1001,
    created_at TEXT NOT NULL,
    archived_at TEXT
  ) STRICT`,
  sql`CREATE INDEX stores_account ON stores(account_id)`,
  sql`CREATE TABLE products (
    id TEXT PRIMARY KEY,
    store_id TEXT NOT NULL REFERENCES stores(id),
    name TEXT NOT NULL,
    sku TEXT,
    status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active','draft','archived')),
    fulfillment_product_ref TEXT,
    created_at TEXT NOT NULL
  ) STRICT`,
  sql`CREATE UNIQUE INDEX products_store_sku ON products(store_id, sku) WHERE sku IS NOT NULL`,
  sql`CREATE TABLE product_packs (
    id TEXT PRIMARY KEY,
    product_id TEXT NOT NULL REFERENCES products(id) ON DELETE CASCADE,
    code TEXT NOT NULL,
    units INTEGER NOT NULL CHECK (units >= 1),
    price_minor INTEGER NOT NULL CHECK (price_minor >= 0),
    min_price_minor INTEGER CHECK (min_price_minor >= 0),
    position INTEGER NOT NULL DEFAULT 0,
    UNIQUE (product_id, code)
  ) STRICT`,
  sql`CREATE TABLE landing_pages (
    id TEXT PRIMARY KEY,
    store_id TEXT NOT NULL REFERENCES stores(id),
    product_id TEXT NOT NULL REFERENCES products(id),
    slug TEXT NOT NULL UNIQUE,
    title TEXT NOT NULL,
    published INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  ) STRICT`,
  sql`CREATE TABLE block_list (
    store_id TEXT NOT NULL REFERENCES stores(id),
    kind TEXT NOT NULL CHECK (kind IN ('phone','ip')),
    value TEXT NOT NULL,
    reason TEXT,
    created_at TEXT NOT NULL,
    PRIMARY KEY (store_id, kind, value)
  ) STRICT, WITHOUT ROWID`,
  sql`CREATE TABLE api_keys (
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
    replaced_by TEXT
  ) STRICT`,
  sql`CREATE INDEX api_keys_store ON api_keys(store_id)`,
  sql`CREATE TABLE orders (
    id TEXT PRIMARY KEY,
    store_id TEXT NOT NULL REFERENCES stores(id),
    product_id TEXT NOT NULL REFERENCES products(id),
    landing_page_id TEXT REFERENCES landing_pages(id),
    api_key_id TEXT REFERENCES api_keys(id),
    order_number INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending','confirmed','processing','shipped','delivered','returned','cancelled')),
    sandbox INTEGER NOT NULL,
    needs_review INTEGER NOT NULL DEFAULT 0,
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
    pack_units INTEGER NOT NULL,
    quantity INTEGER NOT NULL,
    unit_price_minor INTEGER NOT NULL,
    total_price_minor INTEGER NOT NULL,
    currency TEXT NOT NULL,
    client_ip TEXT,
    fulfillment_status TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (store_id, order_number)
  ) STRICT`,
  sql`CREATE INDEX orders_duplicate ON orders(store_id, telefono_e164, created_at)`,
  sql`CREATE INDEX orders_created ON orders(created_at)`,
  sql`CREATE INDEX orders_review ON orders(needs_review) WHERE needs_review = 1`,
  sql`CREATE TABLE order_events (
    id TEXT PRIMARY KEY,
    order_id TEXT REFERENCES orders(id),
    store_id TEXT NOT NULL REFERENCES stores(id),
    type TEXT NOT NULL,
    actor TEXT NOT NULL,
    data TEXT NOT NULL DEFAULT '{}',
    created_at TEXT NOT NULL
  ) STRICT`,
  sql`CREATE INDEX order_events_order ON order_events(order_id, created_at)`,
  sql`CREATE INDEX order_events_store ON order_events(store_id, created_at)`,
  sql`CREATE TABLE fulfillment_jobs (
    id TEXT PRIMARY KEY,
    order_id TEXT NOT NULL UNIQUE REFERENCES orders(id),
    state TEXT NOT NULL CHECK (state IN ('queued','held','in_flight','failed','dead','done')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT NOT NULL,
    lease_until TEXT,
    last_error TEXT,
    remote_id TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  ) STRICT`,
  sql`CREATE INDEX fulfillment_jobs_due ON fulfillment_jobs(state, next_attempt_at)`,
  sql`CREATE TABLE idempotency_records (
    scope TEXT NOT NULL,
    key TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    status INTEGER NOT NULL,
    body TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (scope, key)
  ) STRICT, WITHOUT ROWID`,
  sql`CREATE TABLE city_catalogs (
    country TEXT NOT NULL,
    catalog TEXT NOT NULL CHECK (catalog IN ('official','fulfillment')),
    region TEXT NOT NULL,
    city TEXT NOT NULL,
    code TEXT,
    PRIMARY KEY (country, catalog, region, city)
  ) STRICT, WITHOUT ROWID`,
  sql`CREATE TABLE catalog_versions (
    country TEXT NOT NULL,
    catalog TEXT NOT NULL,
    version INTEGER NOT NULL,
    source TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (country, catalog)
  ) STRICT, WITHOUT ROWID`,
  sql`CREATE TABLE rate_limits (
    bucket TEXT PRIMARY KEY,
    window_start INTEGER NOT NULL,
    count INTEGER NOT NULL
  ) STRICT, WITHOUT ROWID`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await statement.execute(db);
}
