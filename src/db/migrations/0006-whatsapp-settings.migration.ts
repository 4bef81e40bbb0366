// Frozen: never edit a migration that has shipped; add a new one.
// Issue 12: a store's WhatsApp notification settings — on or off, the sender, which order events
// message the buyer, and the templates (fixed keys, the catalog's placeholders).
import { sql, type Kysely } from 'kysely';

const statements = [
  sql`CREATE TABLE whatsapp_settings (
    store_id TEXT PRIMARY KEY REFERENCES stores(id),
    enabled INTEGER NOT NULL DEFAULT 0,
    sender_number TEXT,
    phone_number_id TEXT,
    events TEXT NOT NULL DEFAULT '{}',
    templates TEXT NOT NULL DEFAULT '{}',
    updated_at TEXT NOT NULL
  ) STRICT, WITHOUT ROWID`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await statement.execute(db);
}
