// `Idempotency-Key` on the account API's creates (SPEC 4.3): a retry with the same key and the same
// input gets the first answer; the same key with other input is refused; a key whose first request
// is still running is a conflict. The key is claimed before the work runs, so two racing requests
// cannot both create. A refused request records nothing (its retry is judged again, as for orders).
// An answer that shows a secret once (a new API key) is never stored: its replay is a conflict.
import { createHash } from 'node:crypto';
import type { Deps } from '../app.ts';
import { IDEMPOTENCY_KEY_MAX } from '../limits.ts';
import { claimIdempotencyKey, findIdempotencyRecord, PENDING, recordIdempotentAnswer, releaseIdempotencyKey } from '../db/queries/idempotency.queries.ts';
import { stableJson } from '../domain/stable-json.ts';
import { AppError, conflict, fieldError } from '../errors.ts';

export interface IdempotentCall {
  /** Who the key belongs to: keys are matched per account. */
  scope: string;
  key: string;
  /** What the request asked (operation and parsed input): the same key must ask the same. */
  request: unknown;
  /** The answer shows a secret once: keep only that it happened. */
  secret: boolean;
}

export function idempotencyKeyHeader(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  if (text.length < 1 || text.length > IDEMPOTENCY_KEY_MAX || !/^[\x21-\x7e]+$/.test(text))
    throw fieldError('Idempotency-Key', `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX} printable ASCII characters`);
  return text;
}

/** Runs `work` once per key; a replay answers `{ replayed: true, value }` with the first value. */
export async function runIdempotent<T>(deps: Pick<Deps, 'db' | 'clock'>, call: IdempotentCall, work: () => Promise<T>): Promise<{ value: T; replayed: boolean }> {
  const hash = createHash('sha256').update(stableJson(call.request)).digest('hex');
  const claimed = await claimIdempotencyKey(deps.db, { scope: call.scope, key: call.key, request_hash: hash, created_at: deps.clock.now().toISOString() });
  if (!claimed) {
    const previous = await findIdempotencyRecord(deps.db, call.scope, call.key);
    if (!previous) throw conflict('This Idempotency-Key was just released: retry', [{ field: 'Idempotency-Key', message: 'retry the request' }]);
    if (previous.request_hash !== hash)
      throw new AppError('idempotency_mismatch', 'Idempotency-Key was already used with a different request', [{ field: 'Idempotency-Key', message: 'already used with a different request' }]);
    if (previous.status === PENDING) throw conflict('A request with this Idempotency-Key is still in progress', [{ field: 'Idempotency-Key', message: 'in progress: retry shortly' }]);
    if (call.secret)
      throw conflict('This Idempotency-Key already created a key, and keys are shown only once: revoke it and create another', [{ field: 'Idempotency-Key', message: 'already used' }]);
    return { value: JSON.parse(previous.body) as T, replayed: true };
  }
  let value: T;
  try {
    value = await work();
  } catch (error) {
    await releaseIdempotencyKey(deps.db, call.scope, call.key).catch(() => undefined);
    throw error;
  }
  await recordIdempotentAnswer(deps.db, call.scope, call.key, 200, call.secret ? '{}' : JSON.stringify(value));
  return { value, replayed: false };
}
