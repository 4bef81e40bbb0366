import type { Deps } from '../app.ts';
import { migrationsCurrent } from '../db/migrate.ts';
import { pingDatabase } from '../db/queries/health.queries.ts';

/** Readiness (SPEC 4.3): the database answers and every migration has run. */
export async function readiness(deps: Pick<Deps, 'db' | 'log'>): Promise<{ ready: boolean; database: boolean; migrations: boolean }> {
  let database = false;
  let migrations = false;
  try {
    await pingDatabase(deps.db);
    database = true;
    migrations = await migrationsCurrent(deps.db);
  } catch (error) {
    // Reported as not ready; the cause is for the operator, once, in the log (issue 13 §5).
    deps.log.error({ err: error }, 'readiness: the database does not answer');
  }
  return { ready: database && migrations, database, migrations };
}
