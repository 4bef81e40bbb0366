// How long a client address waits before it may try another password for one email (issue 19 §7).
// Failures count per (email, address), never per email alone: a per-email lock lets anyone switch
// sign-in off for its owner (OWASP Authentication Cheat Sheet, "Account Lockout"; NIST SP 800-63B
// §5.2.2 asks for rate limiting that does not deny the legitimate subscriber). The first failures
// are free, each further one doubles the wait, up to a cap; a quiet window forgets the run.
import { OAUTH_SIGNIN_FIRST_WAIT_MS, OAUTH_SIGNIN_FREE_FAILURES, OAUTH_SIGNIN_MAX_WAIT_MS, OAUTH_SIGNIN_WINDOW_MS } from '../../limits.ts';

export interface FailureRun {
  /** Wrong passwords in a row. */
  count: number;
  /** When the last one was, epoch milliseconds. */
  lastAt: number;
}

/** Whether the run is over: a window passed since its last failure. */
export const forgotten = (run: FailureRun | undefined, now: number): boolean => !run || now - run.lastAt >= OAUTH_SIGNIN_WINDOW_MS;

/** The wait a run imposes after its last failure, in milliseconds (0 while the failures are free). */
export function waitAfter(count: number): number {
  const beyond = count - OAUTH_SIGNIN_FREE_FAILURES;
  if (beyond <= 0) return 0;
  // 2^beyond overflows to Infinity long after the cap is reached; Math.min still answers the cap.
  return Math.min(OAUTH_SIGNIN_FIRST_WAIT_MS * 2 ** (beyond - 1), OAUTH_SIGNIN_MAX_WAIT_MS);
}

/** Milliseconds the address must still wait before its next attempt for this email; 0 when it may try now. */
export function remainingWait(run: FailureRun | undefined, now: number): number {
  if (!run || forgotten(run, now)) return 0;
  return Math.max(0, run.lastAt + waitAfter(run.count) - now);
}
