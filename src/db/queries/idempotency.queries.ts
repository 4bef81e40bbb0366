import type { Db } from '../connect.ts';
import type { Tx } from '../transaction.ts';

/** A claim on a key before the work runs: status 0 until the answer is recorded. */
export const PENDING = 0;

/** Inserts the claim unless the key exists; true when this request owns it now. */
export async function claimIdempotencyKey(db: Db | Tx, row: { scope: string; key: string; request_hash: string; created_at: string }): Promise<boolean> {
  const result = await db
    .insertInto('idempotency_records')
    .values({ ...row, status: PENDING, body: '' })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export const recordIdempotentAnswer = (db: Db | Tx, scope: string, key: string, status: number, body: string) =>
  db.updateTable('idempotency_records').set({ status, body }).where('scope', '=', scope).where('key', '=', key).execute();

export const releaseIdempotencyKey = (db: Db | Tx, scope: string, key: string) =>
  db.deleteFrom('idempotency_records').where('scope', '=', scope).where('key', '=', key).where('status', '=', PENDING).execute();

export const findIdempotencyRecord = (db: Db | Tx, scope: string, key: string) =>
  db.selectFrom('idempotency_records').selectAll().where('scope', '=', scope).where('key', '=', key).executeTakeFirst();
