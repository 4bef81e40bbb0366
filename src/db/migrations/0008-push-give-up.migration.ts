// Frozen: never edit a migration that has shipped; add a new one.
// Issue 13: a push gives up by time, not by count, and looks the order up only when an earlier try
// may have created it. `first_attempt_at` starts the give-up clock (reset when a push is released
// again by hand); `unknown_outcome` says whether the platform may hold the order already (a lost
// answer, a crash mid-push). Jobs that failed before this migration are assumed unknown.
import { sql, type Kysely } from 'kysely';

const statements = [
  sql`ALTER TABLE fulfillment_jobs ADD COLUMN first_attempt_at TEXT`,
  sql`ALTER TABLE fulfillment_jobs ADD COLUMN unknown_outcome INTEGER NOT NULL DEFAULT 0`,
  sql`UPDATE fulfillment_jobs SET first_attempt_at = updated_at, unknown_outcome = 1 WHERE attempts > 0 AND state NOT IN ('done', 'cancelled')`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await statement.execute(db);
}
