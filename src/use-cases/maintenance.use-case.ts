// Housekeeping `serve` runs periodically: rate-limit windows that ended and idempotency records
// past their lifetime, expired OAuth access-token ids, sessions and unredeemed codes, and OAuth token
// families (with their refresh tokens) 30 days after they ended. These tables
// would otherwise grow with every request.
import type { Deps } from '../app.ts';
import { deleteStaleBuckets } from '../db/queries/rate-limits.queries.ts';
import { deleteIdempotencyBefore } from '../db/queries/orders.queries.ts';
import { deleteExpiredOAuthRows } from '../db/queries/oauth.queries.ts';
import { IDEMPOTENCY_TTL_MS, OAUTH_PRUNE_AFTER_S, RATE_WINDOW_PHONE_MS } from '../limits.ts';

export async function sweepExpired(deps: Pick<Deps, 'db' | 'clock'>): Promise<{ rateBuckets: number; idempotencyRecords: number; oauthRows: number }> {
  const now = deps.clock.now().getTime();
  // The longest window is the phone window: anything that started before it ended is dead.
  const buckets = await deleteStaleBuckets(deps.db, now - RATE_WINDOW_PHONE_MS);
  const records = await deleteIdempotencyBefore(deps.db, new Date(now - IDEMPOTENCY_TTL_MS).toISOString());
  const oauthRows = await deleteExpiredOAuthRows(deps.db, new Date(now).toISOString(), new Date(now - OAUTH_PRUNE_AFTER_S * 1000).toISOString());
  return { rateBuckets: Number(buckets[0]?.numDeletedRows ?? 0), idempotencyRecords: Number(records[0]?.numDeletedRows ?? 0), oauthRows };
}
