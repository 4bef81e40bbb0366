// Frozen: never edit a migration that has shipped; add a new one.
// Issue 19 §4: a WhatsApp sender is not a credential. A store may send with its own Cloud API
// credentials (the access token sealed like platform credentials, the business account whose
// numbers it may use); the server-wide token sends only from numbers the operator assigned to an
// account. `whatsapp_numbers` holds which account each phone-number id belongs to: one account each.
// Numbers already in use by exactly one account are assigned to it, so a running install keeps
// sending; a number two accounts named is assigned to neither (the operator decides).
import { sql, type Kysely } from 'kysely';

const statements = [
  sql`CREATE TABLE whatsapp_numbers (
    phone_number_id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    source TEXT NOT NULL CHECK (source IN ('operator', 'store')),
    store_id TEXT REFERENCES stores(id),
    business_account_id TEXT,
    display_phone_number TEXT,
    verified_name TEXT,
    created_at TEXT NOT NULL
  ) STRICT, WITHOUT ROWID`,
  sql`CREATE INDEX whatsapp_numbers_account ON whatsapp_numbers (account_id)`,
  sql`ALTER TABLE whatsapp_settings ADD COLUMN token_sealed TEXT`,
  sql`ALTER TABLE whatsapp_settings ADD COLUMN token_last4 TEXT`,
  sql`ALTER TABLE whatsapp_settings ADD COLUMN business_account_id TEXT`,
  sql`ALTER TABLE whatsapp_settings ADD COLUMN credentials_verified_at TEXT`,
  sql`INSERT INTO whatsapp_numbers (phone_number_id, account_id, source, created_at)
      SELECT w.phone_number_id, MIN(s.account_id), 'operator', MAX(w.updated_at)
      FROM whatsapp_settings w JOIN stores s ON s.id = w.store_id
      WHERE w.phone_number_id IS NOT NULL
      GROUP BY w.phone_number_id
      HAVING COUNT(DISTINCT s.account_id) = 1`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await statement.execute(db);
}
