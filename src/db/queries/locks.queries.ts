import { sql } from 'kysely';
import { dialectOf } from '../connect.ts';
import type { Tx } from '../transaction.ts';

/**
 * Holds named locks until the transaction `tx` ends (issue 28). On PostgreSQL, transaction-scoped
 * advisory locks: two processes whose transactions read, then write, the same thing (one phone's
 * orders, one Idempotency-Key) take turns, the second reading what the first committed. Names are
 * hashed to the lock's number (a collision only makes two unrelated transactions take turns) and
 * taken in sorted order, so two transactions never wait on each other. SQLite runs one write
 * transaction at a time already: nothing to take.
 */
export async function lockForTransaction(tx: Tx, ...names: (string | undefined)[]): Promise<void> {
  if (dialectOf(tx) !== 'postgres') return;
  for (const name of [...new Set(names.filter((n): n is string => n !== undefined))].sort())
    await sql`select pg_advisory_xact_lock(hashtextextended(${name}, 0))`.execute(tx);
}
