import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import { dialectOf } from '../connect.ts';

/** A page position: the (created_at, id) of the last row of the previous page. */
export interface After {
  createdAt: string;
  id: string;
}

/**
 * Rows strictly after `after` in (created_at, id) descending order, as a row-value comparison both
 * SQLite and PostgreSQL evaluate on the (…, created_at) indexes (MCP-TOOLS.md §5.8 keyset).
 */
export const before = (createdAt: string, id: string, after: After): Expression<SqlBool> =>
  sql<SqlBool>`(${sql.ref(createdAt)}, ${sql.ref(id)}) < (${after.createdAt}, ${after.id})`;

// SQLite's LIKE ignores the case of ASCII letters; PostgreSQL's ILIKE does the same on our
// COLLATE "C" columns (the baseline migration), so a search finds the same rows on both.
const likeOf = (db: Kysely<any>) => sql.raw(dialectOf(db) === 'postgres' ? 'ilike' : 'like');

/** `%text%`, letters in either case, with LIKE's wildcards escaped (SQLite honours the backslash only with ESCAPE). */
export const containing = (db: Kysely<any>, column: string, text: string): Expression<SqlBool> =>
  sql<SqlBool>`${sql.ref(column)} ${likeOf(db)} ${`%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`} escape '\\'`;

/** Rows strictly after `after` in (created_at, id) ascending order (timelines read oldest first). */
export const after = (createdAt: string, id: string, position: After): Expression<SqlBool> =>
  sql<SqlBool>`(${sql.ref(createdAt)}, ${sql.ref(id)}) > (${position.createdAt}, ${position.id})`;
