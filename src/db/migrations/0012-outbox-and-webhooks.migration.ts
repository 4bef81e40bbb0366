// Frozen: never edit a migration that has shipped; add a new one.
// Issue 21: one outbox machinery and outbound webhooks.
// - Every outbox row names its destination (a store's platform connection, a store's WhatsApp
//   sender, a webhook endpoint): the machinery keeps one circuit per destination. WhatsApp messages
//   gain the machinery's give-up clock and intent count, like the fulfillment jobs.
// - Webhook endpoints per store (the signing secret sealed), the events they may receive (the body
//   as delivered, numbered so one order's events go out in order), one delivery per event and
//   endpoint on the outbox machinery, and each delivery's tries (the delivery log).
import { sql, type Kysely } from 'kysely';

const statements = [
  sql`ALTER TABLE fulfillment_jobs ADD COLUMN destination TEXT NOT NULL DEFAULT ''`,
  sql`UPDATE fulfillment_jobs SET destination = 'platform:' || (SELECT store_id FROM orders WHERE orders.id = fulfillment_jobs.order_id)`,
  sql`CREATE INDEX fulfillment_jobs_destination ON fulfillment_jobs(destination, state)`,
  sql`ALTER TABLE whatsapp_messages ADD COLUMN first_attempt_at TEXT`,
  sql`ALTER TABLE whatsapp_messages ADD COLUMN unknown_outcome INTEGER NOT NULL DEFAULT 0`,
  sql`ALTER TABLE whatsapp_messages ADD COLUMN destination TEXT NOT NULL DEFAULT ''`,
  sql`UPDATE whatsapp_messages SET destination = 'whatsapp:' || store_id, first_attempt_at = CASE WHEN attempts > 0 THEN updated_at END`,
  sql`CREATE TABLE webhook_endpoints (
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
  ) STRICT`,
  sql`CREATE INDEX webhook_endpoints_store ON webhook_endpoints(store_id)`,
  sql`CREATE TABLE webhook_events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    store_id TEXT NOT NULL REFERENCES stores(id),
    order_id TEXT REFERENCES orders(id),
    type TEXT NOT NULL,
    livemode INTEGER NOT NULL,
    body TEXT NOT NULL,
    created_at TEXT NOT NULL
  ) STRICT`,
  sql`CREATE INDEX webhook_events_store ON webhook_events(store_id, created_at)`,
  sql`CREATE TABLE webhook_deliveries (
    id TEXT PRIMARY KEY,
    event_id TEXT NOT NULL REFERENCES webhook_events(id),
    event_seq INTEGER NOT NULL,
    endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints(id),
    ordering_key TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('queued','in_flight','failed','delivered','dead','cancelled')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT NOT NULL,
    lease_until TEXT,
    last_error TEXT,
    first_attempt_at TEXT,
    unknown_outcome INTEGER NOT NULL DEFAULT 0,
    destination TEXT NOT NULL,
    last_status INTEGER,
    last_latency_ms INTEGER,
    delivered_at TEXT,
    once INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  ) STRICT`,
  sql`CREATE INDEX webhook_deliveries_due ON webhook_deliveries(state, next_attempt_at)`,
  sql`CREATE INDEX webhook_deliveries_order ON webhook_deliveries(destination, ordering_key, event_seq)`,
  sql`CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries(endpoint_id, created_at)`,
  sql`CREATE TABLE webhook_attempts (
    delivery_id TEXT NOT NULL REFERENCES webhook_deliveries(id),
    attempt INTEGER NOT NULL,
    at TEXT NOT NULL,
    status INTEGER,
    latency_ms INTEGER NOT NULL,
    error TEXT,
    PRIMARY KEY (delivery_id, attempt)
  ) STRICT, WITHOUT ROWID`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await statement.execute(db);
}
