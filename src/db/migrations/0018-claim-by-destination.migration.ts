// Frozen: never edit a migration that has shipped; add a new one.
// Issue 26: the push worker claims the jobs of given destinations (the stores with their own
// platform connection, when the server has no default platform) one destination at a time, in
// next_attempt_at order. Through the (state, next_attempt_at) index every claim walked past every
// other destination's due job: with 57,000 orders queued for a store that has nowhere to push, each
// claim took 3 ms, on every order's nudge. This index answers it as one short range.
import { sql, type Kysely } from 'kysely';

const statements = [
  sql`DROP INDEX fulfillment_jobs_destination`,
  sql`CREATE INDEX fulfillment_jobs_destination ON fulfillment_jobs(destination, state, next_attempt_at)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await statement.execute(db);
}
