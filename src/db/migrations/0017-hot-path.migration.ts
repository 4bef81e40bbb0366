// Frozen: never edit a migration that has shipped; add a new one.
// Issue 26, the order's hot path:
// - A store's order number counter moves out of `stores` into a table of its own. Every order
//   takes a number; the store's configuration is read on every order and kept in memory
//   (src/db/read-cache.ts), which a counter changing with each order would empty each time.
// - orders_duplicate goes: the duplicate check reads the phone's orders through orders_phone
//   (the return-risk score reads them anyway), and every order paid for the extra index.
import { sql, type Kysely } from 'kysely';

const statements = [
  sql`CREATE TABLE store_order_numbers (
    store_id TEXT PRIMARY KEY REFERENCES stores(id),
    next_order_number INTEGER NOT NULL
  ) STRICT, WITHOUT ROWID`,
  sql`INSERT INTO store_order_numbers (store_id, next_order_number) SELECT id, next_order_number FROM stores`,
  sql`ALTER TABLE stores DROP COLUMN next_order_number`,
  sql`DROP INDEX orders_duplicate`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await statement.execute(db);
}
