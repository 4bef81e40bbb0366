// Frozen: never edit a migration that has shipped; add a new one.
// Issue 10: the merchant's account domain. Stores gain a timezone, a support phone, an order prefix
// and an archive reason; products a description, images, stock and the anti-fraud minimum unit price
// (the floor); packs a compare-at price, a label and a default flag; landing pages their sections,
// SEO and theme; keys their last four characters (masked listings) and an explicit "follow the
// store's domains" flag, so that removing a store domain can never widen a key.
import { sql, type Kysely } from 'kysely';

/** A store's default timezone is its country's main one (the migration fills existing stores). */
const COUNTRY_TIMEZONES: [string, string][] = [
  ['AR', 'America/Argentina/Buenos_Aires'],
  ['BO', 'America/La_Paz'],
  ['CL', 'America/Santiago'],
  ['CO', 'America/Bogota'],
  ['CR', 'America/Costa_Rica'],
  ['DO', 'America/Santo_Domingo'],
  ['EC', 'America/Guayaquil'],
  ['ES', 'Europe/Madrid'],
  ['GT', 'America/Guatemala'],
  ['HN', 'America/Tegucigalpa'],
  ['MX', 'America/Mexico_City'],
  ['NI', 'America/Managua'],
  ['PA', 'America/Panama'],
  ['PE', 'America/Lima'],
  ['PY', 'America/Asuncion'],
  ['SV', 'America/El_Salvador'],
  ['UY', 'America/Montevideo'],
];

const statements = [
  sql`ALTER TABLE stores ADD COLUMN timezone TEXT NOT NULL DEFAULT 'UTC'`,
  sql`ALTER TABLE stores ADD COLUMN support_phone TEXT`,
  sql`ALTER TABLE stores ADD COLUMN order_prefix TEXT`,
  sql`ALTER TABLE stores ADD COLUMN archive_reason TEXT`,
  sql`ALTER TABLE stores ADD COLUMN updated_at TEXT NOT NULL DEFAULT ''`,
  sql`UPDATE stores SET updated_at = created_at`,
  sql`ALTER TABLE products ADD COLUMN description TEXT`,
  sql`ALTER TABLE products ADD COLUMN images TEXT NOT NULL DEFAULT '[]'`,
  sql`ALTER TABLE products ADD COLUMN stock INTEGER CHECK (stock >= 0)`,
  sql`ALTER TABLE products ADD COLUMN stock_note TEXT`,
  sql`ALTER TABLE products ADD COLUMN stock_updated_at TEXT`,
  sql`ALTER TABLE products ADD COLUMN min_unit_price_minor INTEGER NOT NULL DEFAULT 0 CHECK (min_unit_price_minor >= 0)`,
  sql`ALTER TABLE products ADD COLUMN updated_at TEXT NOT NULL DEFAULT ''`,
  sql`UPDATE products SET updated_at = created_at`,
  sql`CREATE INDEX products_store_created ON products(store_id, created_at)`,
  sql`ALTER TABLE product_packs ADD COLUMN compare_at_price_minor INTEGER CHECK (compare_at_price_minor >= 0)`,
  sql`ALTER TABLE product_packs ADD COLUMN label TEXT`,
  sql`ALTER TABLE product_packs ADD COLUMN is_default INTEGER NOT NULL DEFAULT 0`,
  sql`ALTER TABLE landing_pages ADD COLUMN sections TEXT NOT NULL DEFAULT '[]'`,
  sql`ALTER TABLE landing_pages ADD COLUMN seo_title TEXT`,
  sql`ALTER TABLE landing_pages ADD COLUMN seo_description TEXT`,
  sql`ALTER TABLE landing_pages ADD COLUMN theme TEXT NOT NULL DEFAULT '{}'`,
  sql`ALTER TABLE landing_pages ADD COLUMN published_at TEXT`,
  sql`UPDATE landing_pages SET published_at = updated_at WHERE published = 1`,
  sql`CREATE INDEX landing_pages_store_created ON landing_pages(store_id, created_at)`,
  sql`CREATE INDEX landing_pages_product ON landing_pages(product_id)`,
  sql`ALTER TABLE api_keys ADD COLUMN last4 TEXT`,
  sql`ALTER TABLE api_keys ADD COLUMN inherit_domains INTEGER NOT NULL DEFAULT 0`,
  // Until now an empty list meant "the store's domains": say so explicitly.
  sql`UPDATE api_keys SET inherit_domains = 1 WHERE allowed_domains = '[]'`,
  sql`CREATE INDEX api_keys_account_created ON api_keys(account_id, created_at)`,
  sql`CREATE INDEX orders_store_created ON orders(store_id, created_at)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await statement.execute(db);
  for (const [country, timezone] of COUNTRY_TIMEZONES) await sql`UPDATE stores SET timezone = ${timezone} WHERE country = ${country}`.execute(db);
}
