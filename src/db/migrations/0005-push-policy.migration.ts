// Frozen: never edit a migration that has shipped; add a new one.
// Issue 12: a store's push policy — push each live order when it is created (today's behaviour), or
// only once a call centre has confirmed it.
import { sql, type Kysely } from 'kysely';

const statements = [sql`ALTER TABLE stores ADD COLUMN push_policy TEXT NOT NULL DEFAULT 'on_create' CHECK (push_policy IN ('on_create','on_confirm'))`];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await statement.execute(db);
}
