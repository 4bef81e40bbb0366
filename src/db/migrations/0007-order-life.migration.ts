// Frozen: never edit a migration that has shipped; add a new one.
// Issue 12: the order's life after checkout.
// - The fulfillment outbox carries an action: a push, or the cancellation of a pushed order at the
//   platform. One table and one worker for both; each order has at most one job of each action.
//   A push that never started can be `cancelled` (the order was cancelled before it left).
// - Per-store platform connections: the token sealed with AES-256-GCM (src/domain/secret-box.ts),
//   only its last four characters in clear.
// - Products keep the platform variant they are linked to, and when they were explicitly unlinked
//   (pushes refuse them until they are linked again).
// - Orders keep the carrier's tracking number and why they were cancelled.
// - WhatsApp messages: the outbox row is the message (queued → sending → sent → delivered → read,
//   failed, cancelled); an automatic message exists at most once per order and event.
import { sql, type Kysely } from 'kysely';

const statements = [
  sql`CREATE TABLE fulfillment_jobs_v2 (
    id TEXT PRIMARY KEY,
    order_id TEXT NOT NULL REFERENCES orders(id),
    action TEXT NOT NULL CHECK (action IN ('push','cancel')),
    state TEXT NOT NULL CHECK (state IN ('queued','held','in_flight','failed','dead','done','cancelled')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT NOT NULL,
    lease_until TEXT,
    last_error TEXT,
    remote_id TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (order_id, action)
  ) STRICT`,
  sql`INSERT INTO fulfillment_jobs_v2 (id, order_id, action, state, attempts, next_attempt_at, lease_until, last_error, remote_id, created_at, updated_at)
    SELECT id, order_id, 'push', state, attempts, next_attempt_at, lease_until, last_error, remote_id, created_at, updated_at FROM fulfillment_jobs`,
  sql`DROP TABLE fulfillment_jobs`,
  sql`ALTER TABLE fulfillment_jobs_v2 RENAME TO fulfillment_jobs`,
  sql`CREATE INDEX fulfillment_jobs_due ON fulfillment_jobs(state, next_attempt_at)`,
  sql`CREATE INDEX fulfillment_jobs_remote ON fulfillment_jobs(remote_id)`,
  sql`CREATE TABLE fulfillment_connections (
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
    updated_at TEXT NOT NULL
  ) STRICT, WITHOUT ROWID`,
  sql`ALTER TABLE products ADD COLUMN fulfillment_variant_ref TEXT`,
  sql`ALTER TABLE products ADD COLUMN fulfillment_product_name TEXT`,
  sql`ALTER TABLE products ADD COLUMN fulfillment_unlinked_at TEXT`,
  sql`ALTER TABLE orders ADD COLUMN tracking_number TEXT`,
  sql`ALTER TABLE orders ADD COLUMN cancel_reason TEXT`,
  sql`CREATE TABLE whatsapp_messages (
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
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT NOT NULL,
    lease_until TEXT,
    last_error TEXT,
    wa_message_id TEXT,
    actor TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    sent_at TEXT,
    delivered_at TEXT,
    read_at TEXT
  ) STRICT`,
  sql`CREATE UNIQUE INDEX whatsapp_messages_event ON whatsapp_messages(order_id, event) WHERE event IS NOT NULL`,
  sql`CREATE UNIQUE INDEX whatsapp_messages_key ON whatsapp_messages(store_id, idempotency_key) WHERE idempotency_key IS NOT NULL`,
  sql`CREATE INDEX whatsapp_messages_due ON whatsapp_messages(status, next_attempt_at)`,
  sql`CREATE INDEX whatsapp_messages_wamid ON whatsapp_messages(wa_message_id)`,
  sql`CREATE INDEX whatsapp_messages_list ON whatsapp_messages(store_id, created_at, id)`,
  sql`CREATE INDEX whatsapp_messages_order ON whatsapp_messages(order_id, created_at)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await statement.execute(db);
}
