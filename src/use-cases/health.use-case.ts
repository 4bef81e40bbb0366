import { sql } from 'kysely';
import type { Deps } from '../app.ts';
import { migrationsCurrent } from '../db/migrate.ts';

/** Readiness (SPEC 4.3): the database answers and every migration has run. */
export async function readiness(deps: Pick<Deps, 'db'>): Promise<{ ready: boolean; database: boolean; migrations: boolean }> {
  let database = false;
  let migrations = false;
  try {
    await sql`SELECT 1`.execute(deps.db);
    database = true;
    migrations = await migrationsCurrent(deps.db);
  } catch {
    // reported as not ready
  }
  return { ready: database && migrations, database, migrations };
}
