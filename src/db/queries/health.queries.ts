// The readiness probe's query: does the database answer at all.
import { sql } from 'kysely';
import type { Db } from '../connect.ts';

export const pingDatabase = async (db: Db): Promise<void> => {
  await sql`SELECT 1`.execute(db);
};
