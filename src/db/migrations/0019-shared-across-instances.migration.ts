// Frozen: never edit a migration that has shipped; add a new one (to both lists, under one name).
// Issue 28: what several `codrail serve` processes on one database must share, moved out of each
// process's memory into tables (and written the same way on SQLite, where one process serves):
// - outbox_circuits: each outbox destination's circuit (src/outbox/circuit.ts). A platform down for
//   one instance is down for all: they open, probe and close it together, and only one probes.
// - pace_slots: the next start each paced credential may take (src/http/outbound/pacer.ts): Dropi's
//   least gap between two requests of one key holds across instances, not per instance.
// - whatsapp_early_statuses: a Cloud API status report that arrives before the send that produced
//   its message id has been recorded (another instance, or this one a moment later). Kept, and
//   applied when the send is recorded, instead of dropped.
import { sql, type Kysely } from 'kysely';

const statements = [
  sql`CREATE TABLE outbox_circuits (
    kind TEXT NOT NULL,
    destination TEXT NOT NULL,
    failures INTEGER NOT NULL,
    probe_ms INTEGER NOT NULL,
    probe_at TEXT,
    probing_until TEXT,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (kind, destination)
  ) STRICT, WITHOUT ROWID`,
  sql`CREATE TABLE pace_slots (
    key TEXT PRIMARY KEY,
    next_start_ms INTEGER NOT NULL
  ) STRICT, WITHOUT ROWID`,
  sql`CREATE TABLE whatsapp_early_statuses (
    wa_message_id TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('sent','delivered','read','failed')),
    error TEXT,
    received_at TEXT NOT NULL,
    PRIMARY KEY (wa_message_id, status)
  ) STRICT, WITHOUT ROWID`,
  sql`CREATE INDEX whatsapp_early_statuses_received ON whatsapp_early_statuses(received_at)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await statement.execute(db);
}
