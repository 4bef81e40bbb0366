// The paced credentials' next starts (src/http/outbound/pacer.ts), shared by every process on the
// database (issue 28): Dropi's least gap between two requests of one key holds across instances.
import type { Db } from '../connect.ts';
import type { PaceSlots } from '../../http/outbound/pacer.ts';

/**
 * One statement, atomic on both databases: the key's next start moves to one gap from now, only if
 * it has come (a first start inserts it). No row back means another process started within the gap.
 */
export function databasePaceSlots(db: Db): PaceSlots {
  return {
    async tryStart(key, intervalMs, nowMs) {
      const taken = await db
        .insertInto('pace_slots')
        .values({ key, next_start_ms: nowMs + intervalMs })
        .onConflict((oc) => oc.column('key').doUpdateSet({ next_start_ms: nowMs + intervalMs }).where('pace_slots.next_start_ms', '<=', nowMs))
        .returning('next_start_ms')
        .executeTakeFirst();
      if (taken) return 0;
      const slot = await db.selectFrom('pace_slots').select('next_start_ms').where('key', '=', key).executeTakeFirst();
      // Gone meanwhile (never deleted today): try again at once.
      return Math.max(1, Number(slot?.next_start_ms ?? nowMs) - nowMs);
    },
  };
}
