// Frozen: never edit a migration that has shipped; add a new one.
// Issue 22: a store's connection names its platform (`generic`, `dropi`) and may name its base URL
// (else the platform's default: the server's --fulfillment-url, Dropi's host for the store's
// country); a connection whose token expired is paused until new credentials; a platform whose
// webhooks are unsigned reaches a receiver at the connection's own unguessable path. The server
// records the platform URL it was started with, so every process on the database (the CLI
// included) connects stores to the same platform. A store may hold its platform's own city
// catalog (`cities import --from-platform`): its orders then carry the platform's exact strings.
import { sql, type Kysely } from 'kysely';

const statements = [
  sql`ALTER TABLE fulfillment_connections ADD COLUMN platform TEXT NOT NULL DEFAULT 'generic'`,
  sql`ALTER TABLE fulfillment_connections ADD COLUMN base_url TEXT`,
  sql`ALTER TABLE fulfillment_connections ADD COLUMN test INTEGER NOT NULL DEFAULT 0`,
  sql`ALTER TABLE fulfillment_connections ADD COLUMN paused_at TEXT`,
  sql`ALTER TABLE fulfillment_connections ADD COLUMN paused_reason TEXT`,
  sql`ALTER TABLE fulfillment_connections ADD COLUMN hook_token_hash TEXT`,
  sql`ALTER TABLE fulfillment_connections ADD COLUMN hook_token_sealed TEXT`,
  sql`CREATE UNIQUE INDEX fulfillment_connections_hook ON fulfillment_connections(hook_token_hash)`,
  sql`CREATE TABLE server_settings (name TEXT PRIMARY KEY, value TEXT NOT NULL, updated_at TEXT NOT NULL)`,
  sql`CREATE TABLE platform_city_catalogs (
    store_id TEXT NOT NULL REFERENCES stores(id),
    region TEXT NOT NULL,
    city TEXT NOT NULL,
    code TEXT,
    PRIMARY KEY (store_id, region, city)
  ) STRICT, WITHOUT ROWID`,
  sql`CREATE TABLE platform_catalog_versions (
    store_id TEXT PRIMARY KEY REFERENCES stores(id),
    platform TEXT NOT NULL,
    version INTEGER NOT NULL,
    source TEXT NOT NULL,
    updated_at TEXT NOT NULL
  ) STRICT`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await statement.execute(db);
}
