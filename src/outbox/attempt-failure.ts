// How an outbox attempt failed, decided once for every outbox (fulfillment pushes and cancels,
// WhatsApp messages, webhooks): `retry` (nothing happened on the other side: try again after the
// backoff), `unknown` (the other side may have acted: the next try must find out first, or not be
// made blind), `permanent` (the request itself is refused: retrying cannot help).
// Outbound calls fail with OutboundError (src/http/outbound); an outbox's own conditions (no
// platform configured, a product unlinked) fail with AttemptFailure directly.
import { OutboundError } from '../http/outbound/outbound-error.ts';

export type FailureClass = 'retry' | 'unknown' | 'permanent';

export class AttemptFailure extends Error {
  override readonly name = 'AttemptFailure';
  constructor(
    readonly kind: FailureClass,
    message: string,
    /** From Retry-After, when the other side said how long to wait. */
    readonly retryAfterMs?: number,
    /** The HTTP status, when the other side answered. */
    readonly status?: number,
  ) {
    super(message);
  }
}

/** The class of an outbound failure: the same reading for every destination. */
export function failureOf(error: OutboundError): AttemptFailure {
  const kind: FailureClass = !error.retryable ? 'permanent' : error.mayHaveActed ? 'unknown' : 'retry';
  return new AttemptFailure(kind, error.message, error.retryAfterMs, error.status);
}

/**
 * Any error of an attempt as a failure class. Not an outbound failure nor one of ours: a database
 * error or a bug, which may have struck after the request left, so the outcome is unknown.
 */
export function classifyFailure(error: unknown): AttemptFailure {
  if (error instanceof AttemptFailure) return error;
  if (error instanceof OutboundError) return failureOf(error);
  return new AttemptFailure('unknown', `internal error: ${error instanceof Error ? error.message : String(error)}`);
}
