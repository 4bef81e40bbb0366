// Frozen: never edit a migration that has shipped; add a new one.
// Issue 25: the buyer confirms on WhatsApp before a parcel ships, and every order carries a
// return-risk score with its reasons. Stores choose whether to ask (`confirmation`), how long to wait
// for an answer before the reminder and again before the call queue, and above which risk the push
// waits for a confirmation. Orders keep where their confirmation stands, who confirmed, the score,
// and the hash of a one-time address-correction link. Inbound WhatsApp messages are remembered by
// their id so Meta's retries of a webhook change nothing twice.
import { sql, type Kysely } from 'kysely';

const statements = [
  sql`ALTER TABLE stores ADD COLUMN confirmation TEXT NOT NULL DEFAULT 'off' CHECK (confirmation IN ('off','whatsapp'))`,
  sql`ALTER TABLE stores ADD COLUMN confirmation_minutes INTEGER NOT NULL DEFAULT 120 CHECK (confirmation_minutes BETWEEN 1 AND 10080)`,
  sql`ALTER TABLE stores ADD COLUMN risk_hold INTEGER CHECK (risk_hold BETWEEN 0 AND 100)`,
  sql`ALTER TABLE orders ADD COLUMN confirmation TEXT CHECK (confirmation IN ('asked','reminded','call','replied','correcting','answered'))`,
  sql`ALTER TABLE orders ADD COLUMN confirmation_asked_at TEXT`,
  sql`ALTER TABLE orders ADD COLUMN confirmation_due_at TEXT`,
  sql`ALTER TABLE orders ADD COLUMN confirmed_at TEXT`,
  sql`ALTER TABLE orders ADD COLUMN confirmed_by TEXT CHECK (confirmed_by IN ('buyer','support','store_policy'))`,
  sql`ALTER TABLE orders ADD COLUMN risk_score INTEGER NOT NULL DEFAULT 0`,
  sql`ALTER TABLE orders ADD COLUMN risk_reasons TEXT NOT NULL DEFAULT '[]'`,
  sql`ALTER TABLE orders ADD COLUMN correction_token_hash TEXT`,
  sql`ALTER TABLE orders ADD COLUMN correction_expires_at TEXT`,
  sql`CREATE INDEX orders_confirmation_open ON orders(confirmation) WHERE confirmation IS NOT NULL AND confirmation != 'answered'`,
  sql`CREATE INDEX orders_confirmation_due ON orders(confirmation_due_at) WHERE confirmation_due_at IS NOT NULL`,
  sql`CREATE INDEX orders_phone ON orders(telefono_e164, created_at)`,
  sql`CREATE INDEX orders_risk ON orders(store_id, risk_score)`,
  sql`CREATE UNIQUE INDEX orders_correction ON orders(correction_token_hash) WHERE correction_token_hash IS NOT NULL`,
  sql`CREATE TABLE whatsapp_inbound (
    wa_message_id TEXT PRIMARY KEY,
    order_id TEXT REFERENCES orders(id),
    from_e164 TEXT NOT NULL,
    type TEXT NOT NULL,
    received_at TEXT NOT NULL
  ) STRICT, WITHOUT ROWID`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await statement.execute(db);
}
