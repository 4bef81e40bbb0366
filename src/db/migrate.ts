import { Migrator, type MigrationProvider, type Migration } from 'kysely';
import type { Db } from './connect.ts';
import { migrations } from './migrations/index.ts';

const provider: MigrationProvider = {
  getMigrations: async (): Promise<Record<string, Migration>> => migrations,
};

const migrator = (db: Db) => new Migrator({ db, provider });

/** Runs every pending migration; returns the names it applied. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const { error, results } = await migrator(db).migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** True when every known migration has run (used by /readyz). */
export async function migrationsCurrent(db: Db): Promise<boolean> {
  const list = await migrator(db).getMigrations();
  return list.every((m) => m.executedAt !== undefined);
}
