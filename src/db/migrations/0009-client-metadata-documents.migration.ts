// Frozen: never edit a migration that has shipped; add a new one.
// Issue 13 §4: OAuth clients identified by a Client ID Metadata Document (an https URL as client_id)
// are kept as client rows whose id is that URL; this is when the document was last fetched.
import { sql, type Kysely } from 'kysely';

const statements = [sql`ALTER TABLE oauth_clients ADD COLUMN metadata_fetched_at TEXT`];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await statement.execute(db);
}
