// Frozen: never edit a migration that has shipped; add a new one.
// Issue 4: webhook deliveries seen (deduplication), and jobs by platform order id.
import { sql, type Kysely } from 'kysely';

const statements = [
  sql`CREATE TABLE fulfillment_webhook_events (
    event_id TEXT PRIMARY KEY,
    remote_id TEXT NOT NULL,
    order_id TEXT,
    status TEXT NOT NULL,
    received_at TEXT NOT NULL
  ) STRICT, WITHOUT ROWID`,
  sql`CREATE INDEX fulfillment_jobs_remote ON fulfillment_jobs (remote_id)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await statement.execute(db);
}
