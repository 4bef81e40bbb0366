// Sign-in for the consent pages (OAUTH.md decision 7): account users with scrypt password hashes,
// a server-side session stored as a hash, attempts rate-limited per IP, and wrong passwords slowed
// down per (email, client address) with growing waits (issue 19 §7): never per email alone, which
// would let twenty strangers lock its owner out.
import { createHash, randomBytes } from 'node:crypto';
import type { Deps } from '../../app.ts';
import { AppError } from '../../errors.ts';
import { findUserByEmail } from '../../db/queries/accounts.queries.ts';
import { deleteSession, findSessionUser, insertSession } from '../../db/queries/oauth.queries.ts';
import { addFailure, deleteBucket, findFailureRun, hitBucket } from '../../db/queries/rate-limits.queries.ts';
import { hashPassword, verifyPassword, PASSWORD_MAX } from '../../domain/password.ts';
import { OAUTH_SESSION_TTL_S, OAUTH_SIGNIN_PER_WINDOW, OAUTH_SIGNIN_WINDOW_MS } from '../../limits.ts';
import { remainingWait } from '../../domain/oauth/sign-in-wait.ts';
import { hashKey } from '../../domain/keys.ts';

/**
 * Compared against when the email is unknown, so both failures take the same time. Made on the
 * first sign-in, not at import: a scrypt hash costs every CLI command and the console ~40 ms.
 */
let dummyHash: string | undefined;
const unknownUserHash = () => (dummyHash ??= hashPassword('codrail-dummy-password'));

export type SessionUser = NonNullable<Awaited<ReturnType<typeof findSessionUser>>>;

/** 429 with how long to wait, in the message and in Retry-After (RFC 9110 §10.2.3). */
function tooMany(waitMs: number): AppError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new AppError('rate_limited', `Too many sign-in attempts: wait ${seconds} seconds`, undefined, { 'Retry-After': String(seconds) });
}

export async function signIn(deps: Pick<Deps, 'db' | 'clock'>, input: { email: string | undefined; password: string | undefined; ip: string | null }): Promise<{ sessionToken: string; userId: string }> {
  const email = (input.email ?? '').trim().toLowerCase();
  const password = input.password ?? '';
  // Made before the user is looked up: the first sign-in costs the same for a known and an unknown email.
  const unknownHash = unknownUserHash();
  const now = deps.clock.now().getTime();
  const window = Math.floor(now / OAUTH_SIGNIN_WINDOW_MS) * OAUTH_SIGNIN_WINDOW_MS;
  const address = input.ip ?? 'unknown';
  const byIp = await hitBucket(deps.db, `signin:ip:${address}`, window);
  if (byIp > OAUTH_SIGNIN_PER_WINDOW) throw tooMany(window + OAUTH_SIGNIN_WINDOW_MS - now);
  // Known and unknown emails count alike, so the waits say nothing about which emails exist. The
  // email goes into the key as its SHA-256: whatever was typed (a NUL, which PostgreSQL's text
  // refuses) makes a key of fixed size and form, and the table keeps no address in clear. An IP
  // address never holds a space, so the key is unambiguous.
  const failures = email ? `signin:fail:${address} ${createHash('sha256').update(email.slice(0, 254)).digest('hex')}` : undefined;
  if (failures) {
    const wait = remainingWait(await findFailureRun(deps.db, failures), now);
    if (wait > 0) throw tooMany(wait);
  }
  const user = email && email.length <= 254 ? await findUserByEmail(deps.db, email) : undefined;
  const ok = verifyPassword(password.slice(0, PASSWORD_MAX), user?.password_hash ?? unknownHash) && user !== undefined && user.disabled_at === null;
  if (!ok) {
    if (failures) await addFailure(deps.db, failures, now, now - OAUTH_SIGNIN_WINDOW_MS);
    throw new AppError('unauthorized', 'Wrong email or password');
  }
  if (failures) await deleteBucket(deps.db, failures);
  const sessionToken = randomBytes(32).toString('base64url');
  await insertSession(deps.db, {
    hash: hashKey(sessionToken),
    user_id: user.id,
    created_at: new Date(now).toISOString(),
    expires_at: new Date(now + OAUTH_SESSION_TTL_S * 1000).toISOString(),
  });
  return { sessionToken, userId: user.id };
}

export async function sessionUser(deps: Pick<Deps, 'db' | 'clock'>, sessionToken: string | undefined): Promise<SessionUser | undefined> {
  if (!sessionToken || sessionToken.length > 100) return undefined;
  return findSessionUser(deps.db, hashKey(sessionToken), deps.clock.now().toISOString());
}

export async function signOut(deps: Pick<Deps, 'db'>, sessionToken: string | undefined): Promise<void> {
  if (sessionToken && sessionToken.length <= 100) await deleteSession(deps.db, hashKey(sessionToken));
}
