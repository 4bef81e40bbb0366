// The outbox destinations' circuits (src/outbox/circuit.ts holds their rule), one row per destination
// with failures in a row, shared by every process on the database (issue 28).
import type { Selectable } from 'kysely';
import type { Db } from '../connect.ts';
import type { Tx } from '../transaction.ts';
import type { OutboxCircuitsTable } from '../tables/index.ts';

export type CircuitRow = Selectable<OutboxCircuitsTable>;

export const findCircuit = (tx: Tx, kind: string, destination: string) =>
  tx.selectFrom('outbox_circuits').selectAll().where('kind', '=', kind).where('destination', '=', destination).executeTakeFirst();

export async function saveCircuit(tx: Tx, row: CircuitRow): Promise<void> {
  const { kind, destination, ...change } = row;
  await tx.insertInto('outbox_circuits').values(row).onConflict((oc) => oc.columns(['kind', 'destination']).doUpdateSet(change)).execute();
}

/** Destinations of this outbox whose circuit is open. */
export const openCircuits = async (db: Db, kind: string): Promise<string[]> =>
  (await db.selectFrom('outbox_circuits').select('destination').where('kind', '=', kind).where('probe_at', 'is not', null).execute()).map((r) => r.destination);

/** Open destinations whose probe may go now and that no live probe holds. */
export const probeCandidates = async (db: Db, kind: string, now: string): Promise<string[]> =>
  (
    await db
      .selectFrom('outbox_circuits')
      .select('destination')
      .where('kind', '=', kind)
      .where('probe_at', '<=', now)
      .where((eb) => eb.or([eb('probing_until', 'is', null), eb('probing_until', '<=', now)]))
      .execute()
  ).map((r) => r.destination);

/** Takes a destination's probe until `until`, unless another process took it first: true when taken here. */
export async function takeProbe(db: Db, kind: string, destination: string, now: string, until: string): Promise<boolean> {
  const r = await db
    .updateTable('outbox_circuits')
    .set({ probing_until: until, updated_at: now })
    .where('kind', '=', kind)
    .where('destination', '=', destination)
    .where('probe_at', '<=', now)
    .where((eb) => eb.or([eb('probing_until', 'is', null), eb('probing_until', '<=', now)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export const releaseProbe = (db: Db, kind: string, destination: string, now: string) =>
  db.updateTable('outbox_circuits').set({ probing_until: null, updated_at: now }).where('kind', '=', kind).where('destination', '=', destination).execute();

/** A success: the destination's row goes. Answers whether it was open. */
export async function closeCircuit(db: Db, kind: string, destination: string): Promise<boolean> {
  // Most successes find no row: a read, not a write (on SQLite a write waits for the write lock).
  // A failure counted between the two is one that came after this success.
  if (!(await db.selectFrom('outbox_circuits').select('kind').where('kind', '=', kind).where('destination', '=', destination).executeTakeFirst())) return false;
  const gone = await db.deleteFrom('outbox_circuits').where('kind', '=', kind).where('destination', '=', destination).returning('probe_at').executeTakeFirst();
  return gone?.probe_at != null;
}
