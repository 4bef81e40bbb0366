// Frozen: never edit a migration that has shipped; add a new one (to both lists, under one name).
// Issue 28: SQLite's 0019 (what several instances must share: outbox circuits, pace slots, early
// WhatsApp status reports), for PostgreSQL. Why each table exists: ../0019-shared-across-instances.
import { sql, type Kysely } from 'kysely';

const statements = [
  sql`CREATE TABLE outbox_circuits (
    kind TEXT COLLATE "C" NOT NULL,
    destination TEXT COLLATE "C" NOT NULL,
    failures BIGINT NOT NULL,
    probe_ms BIGINT NOT NULL,
    probe_at TEXT COLLATE "C",
    probing_until TEXT COLLATE "C",
    updated_at TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (kind, destination)
  )`,
  sql`CREATE TABLE pace_slots (
    key TEXT COLLATE "C" PRIMARY KEY,
    next_start_ms BIGINT NOT NULL
  )`,
  sql`CREATE TABLE whatsapp_early_statuses (
    wa_message_id TEXT COLLATE "C" NOT NULL,
    status TEXT COLLATE "C" NOT NULL CHECK (status IN ('sent','delivered','read','failed')),
    error TEXT COLLATE "C",
    received_at TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (wa_message_id, status)
  )`,
  sql`CREATE INDEX whatsapp_early_statuses_received ON whatsapp_early_statuses(received_at)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await statement.execute(db);
}
