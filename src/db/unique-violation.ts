// Uniqueness is the database's to enforce (issue 28): two processes that each looked first and saw
// nothing would both insert. A use case inserts, and turns the database's refusal into its own
// answer (409 conflict) here, in the same words on SQLite and PostgreSQL.

/** The unique index or constraint an insert or update broke: its table and columns. */
export interface UniqueViolation {
  table: string;
  columns: string[];
}

/**
 * SQLite: `SQLITE_CONSTRAINT_UNIQUE` (or `_PRIMARYKEY`), "UNIQUE constraint failed: t.a, t.b" (an
 * expression index says "index 'name'" instead). PostgreSQL: SQLSTATE 23505, with the table, and
 * the columns in "Key (a, b)=(…) already exists." (lower(email) read as email).
 */
export function uniqueViolation(error: unknown): UniqueViolation | undefined {
  const e = error as { code?: unknown; message?: unknown; table?: unknown; detail?: unknown } | null;
  if (!e || typeof e !== 'object') return undefined;
  if (e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    const m = /constraint failed: (.+)$/.exec(String(e.message));
    if (!m) return undefined;
    const columns = m[1]!.split(',').map((c) => c.trim());
    return { table: columns[0]!.split('.')[0]!, columns: columns.map((c) => c.split('.').slice(1).join('.')) };
  }
  if (e.code === '23505' && typeof e.table === 'string') {
    const m = /^Key \((.+?)\)=/.exec(String(e.detail ?? ''));
    return { table: e.table, columns: m ? m[1]!.split(',').map((c) => c.trim().replace(/^lower\((\w+)\)$/, '$1')) : [] };
  }
  return undefined;
}

/**
 * `work`, with a unique violation of one of the keys of `answers` ("table(a,b)") turned into that
 * answer's error; any other error as it was.
 */
export async function answeringUnique<T>(work: Promise<T>, answers: Record<string, () => Error>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    const v = uniqueViolation(error);
    const answer = v && answers[`${v.table}(${v.columns.join(',')})`];
    throw answer ? answer() : error;
  }
}
