// Frozen: never edit a migration that has shipped; add a new one.
// Issue 23: the buyer's page says what a buyer trusts before ordering, from the store's own words:
// how long delivery takes and what the guarantee is (cash on delivery is every store's).
import { sql, type Kysely } from 'kysely';

const statements = [sql`ALTER TABLE stores ADD COLUMN delivery_time TEXT`, sql`ALTER TABLE stores ADD COLUMN guarantee TEXT`];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await statement.execute(db);
}
