// Order rate limits (SPEC 4.1 step 5): per client IP, per key and per phone, fixed windows kept in
// the database. The answer carries RateLimit-* headers for the tightest bucket, and Retry-After on 429.
import type { Deps } from '../../app.ts';
import { AppError } from '../../errors.ts';
import { hitBucket, peekBucket } from '../../db/queries/rate-limits.queries.ts';
import { writeTransaction, type Tx } from '../../db/transaction.ts';
import { RATE_WINDOW_IP_MS, RATE_WINDOW_KEY_MS, RATE_WINDOW_PHONE_MS } from '../../limits.ts';

export interface RateState {
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetS: number;
}

interface Bucket {
  name: string;
  limit: number;
  windowMs: number;
}

const windowStart = (now: number, windowMs: number) => Math.floor(now / windowMs) * windowMs;

function state(bucket: Bucket, count: number, now: number): RateState {
  const end = windowStart(now, bucket.windowMs) + bucket.windowMs;
  return { limit: bucket.limit, remaining: Math.max(0, bucket.limit - count), resetS: Math.max(1, Math.ceil((end - now) / 1000)) };
}

export function rateHeaders(s: RateState): Record<string, string> {
  return { 'RateLimit-Limit': String(s.limit), 'RateLimit-Remaining': String(s.remaining), 'RateLimit-Reset': String(s.resetS) };
}

const ipBucket = (deps: Pick<Deps, 'config'>, ip: string | null): Bucket => ({
  name: `order:ip:${ip ?? 'unknown'}`,
  limit: deps.config.rateIpPerMin,
  windowMs: RATE_WINDOW_IP_MS,
});

/** Who a request counts against: its IP (or, for an account caller, its subject), its key, its buyer's phone. */
export interface LimitSubject {
  ip: string | null;
  keyId?: string | undefined;
  subjectId?: string | undefined;
  storeId: string;
  phone?: string | undefined;
}

/** What counting one request found: the state to show (the tightest bucket), and the bucket it overran, if any. */
export interface Counted {
  shown: RateState;
  exceeded?: RateState;
}

/**
 * Counts this request in every bucket it belongs to, inside the caller's write (order creation
 * counts in the order's own transaction: one commit per order).
 */
export async function countOrderLimits(tx: Tx, deps: Pick<Deps, 'clock' | 'config'>, who: LimitSubject): Promise<Counted> {
  const now = deps.clock.now().getTime();
  // An account caller (MCP) comes from its assistant vendor's shared egress IPs: it is counted per
  // subject (key or token family) at the key rate instead of per IP.
  const buckets: Bucket[] = who.subjectId
    ? [{ name: `order:subject:${who.subjectId}`, limit: deps.config.rateKeyPerMin, windowMs: RATE_WINDOW_KEY_MS }]
    : [ipBucket(deps, who.ip)];
  if (who.keyId) buckets.push({ name: `order:key:${who.keyId}`, limit: deps.config.rateKeyPerMin, windowMs: RATE_WINDOW_KEY_MS });
  if (who.phone) buckets.push({ name: `order:phone:${who.storeId}:${who.phone}`, limit: deps.config.ratePhonePerHour, windowMs: RATE_WINDOW_PHONE_MS });
  let tightest: RateState | undefined;
  let exceeded: RateState | undefined;
  for (const bucket of buckets) {
    const count = await hitBucket(tx, bucket.name, windowStart(now, bucket.windowMs));
    const s = state(bucket, count, now);
    if (count > bucket.limit && (!exceeded || s.resetS > exceeded.resetS)) exceeded = s;
    if (!tightest || s.remaining < tightest.remaining) tightest = s;
  }
  return exceeded ? { shown: exceeded, exceeded } : { shown: tightest! };
}

/** The 429 of a request over one of its limits. */
export const rateLimited = (exceeded: RateState) => new AppError('rate_limited', 'Too many requests, retry later', undefined, { 'Retry-After': String(exceeded.resetS) });

/** Counts this request in a write of its own; throws 429 when one bucket is over its limit. */
export async function hitOrderLimits(deps: Pick<Deps, 'db' | 'clock' | 'config'>, who: LimitSubject, report: (s: RateState) => void): Promise<void> {
  // Each counter is one atomic upsert: READ COMMITTED on PostgreSQL (concurrent requests of one key
  // wait on its row instead of failing to serialize).
  const counted = await writeTransaction(deps.db, (tx) => countOrderLimits(tx, deps, who), 'read committed');
  report(counted.shown);
  if (counted.exceeded) throw rateLimited(counted.exceeded);
}

/** The IP bucket as it stands, for answers given before step 5 (nothing is counted). */
export async function peekOrderLimit(deps: Pick<Deps, 'db' | 'clock' | 'config'>, ip: string | null): Promise<RateState> {
  const now = deps.clock.now().getTime();
  const bucket = ipBucket(deps, ip);
  return state(bucket, await peekBucket(deps.db, bucket.name, windowStart(now, bucket.windowMs)), now);
}
