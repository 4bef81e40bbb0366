// The paced credentials' next starts (src/http/outbound/pacer.ts), shared by every process on the
// database (issue 28): Dropi's least gap between two requests of one key holds across instances.
import { sql } from 'kysely';
import type { Db } from '../connect.ts';
import type { PaceSlots } from '../../http/outbound/pacer.ts';

/**
 * One statement, atomic on both databases: the key's next start moves one gap past the later of
 * now and where it stood, and the start this caller may take is one gap before that.
 */
export function databasePaceSlots(db: Db): PaceSlots {
  return {
    async reserve(key, intervalMs, nowMs) {
      const row = await db
        .insertInto('pace_slots')
        .values({ key, next_start_ms: nowMs + intervalMs })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({
            next_start_ms: sql<number>`case when pace_slots.next_start_ms > ${nowMs} then pace_slots.next_start_ms + ${intervalMs} else ${nowMs + intervalMs} end`,
          }),
        )
        .returning('next_start_ms')
        .executeTakeFirstOrThrow();
      return Number(row.next_start_ms) - intervalMs;
    },
  };
}
