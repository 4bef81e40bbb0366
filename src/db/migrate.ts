import { Migrator, type MigrationProvider, type Migration } from 'kysely';
import { dialectOf, type Db } from './connect.ts';
import { migrations, postgresMigrations } from './migrations/index.ts';
import { invalidState } from '../errors.ts';

const providers: Record<'sqlite' | 'postgres', MigrationProvider> = {
  sqlite: { getMigrations: async (): Promise<Record<string, Migration>> => migrations },
  postgres: { getMigrations: async (): Promise<Record<string, Migration>> => postgresMigrations },
};

// On PostgreSQL kysely takes a transaction-scoped advisory lock while it migrates: two instances
// started together run each migration once.
const migrator = (db: Db) => new Migrator({ db, provider: providers[dialectOf(db)] });

/** Runs every pending migration; returns the names it applied. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const { error, results } = await migrator(db).migrateToLatest();
  // A database a newer release migrated (an upgrade rolled back without its backup): said plainly.
  const unknown = error instanceof Error ? /previously executed migration (\S+) is missing/.exec(error.message) : null;
  if (unknown)
    throw invalidState(
      `This database was migrated by a newer codrail (its migration ${unknown[1]} is unknown to this release): run that release again, or restore the backup taken before the upgrade (${dialectOf(db) === 'postgres' ? 'pg_restore of the dump' : 'codrail restore FILE'})`,
    );
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** True when every known migration has run (used by /readyz). */
export async function migrationsCurrent(db: Db): Promise<boolean> {
  const list = await migrator(db).getMigrations();
  return list.every((m) => m.executedAt !== undefined);
}
