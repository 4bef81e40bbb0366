// The one error of every outbound call (issue 19 §1): metadata documents, the fulfillment platform,
// the WhatsApp Cloud API and the seller webhooks all fail with this, so every caller decides
// "try again?" and "may they have acted?" by the same two answers instead of its own reading of
// error codes (a refused connection was retried by one client and failed for good by another).

export type OutboundKind =
  /** The address is not one this call may reach (a private address for a public-only call): nothing was sent. */
  | 'blocked'
  /** Connection refused, or the name did not resolve: nothing was sent. */
  | 'refused'
  /** The deadline over connect, headers and body passed. */
  | 'timeout'
  /** The connection broke (reset, TLS failure, closed mid-answer). */
  | 'network'
  /** The answer is larger than the caller's byte cap (announced or streamed). */
  | 'too_large'
  /** An answer other than 2xx (a redirect not followed included). */
  | 'status'
  /** A 2xx answer that is not what the contract says (not JSON, missing fields). */
  | 'bad_answer';

/**
 * HTTP statuses worth another try later: server errors, throttling, timeouts, and refused
 * credentials (the operator or seller can fix a token while the job waits). Every other 4xx
 * refuses the request itself.
 */
const retryableStatus = (status: number) => status >= 500 || status === 401 || status === 403 || status === 408 || status === 425 || status === 429;

export interface OutboundErrorInit {
  /** HTTP status, when the other side answered. */
  status?: number | undefined;
  /** From Retry-After, when the other side said how long to wait. */
  retryAfterMs?: number | undefined;
  /** Whether the whole request was handed to the network before the failure. */
  sent?: boolean | undefined;
}

export class OutboundError extends Error {
  override readonly name = 'OutboundError';
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;
  readonly sent: boolean;

  constructor(
    readonly kind: OutboundKind,
    message: string,
    init: OutboundErrorInit = {},
  ) {
    super(message);
    this.status = init.status;
    this.retryAfterMs = init.retryAfterMs;
    this.sent = init.sent ?? (kind === 'status' || kind === 'too_large' || kind === 'bad_answer');
  }

  /**
   * Whether the other side may have acted on the request (created the order, sent the message):
   * then a retry must first find out (look up before create), or not be made blind. A complete
   * request whose answer never came may have been acted on; an answer with an error status says
   * it was not; a 2xx answer we cannot read was.
   */
  get mayHaveActed(): boolean {
    switch (this.kind) {
      case 'blocked':
      case 'refused':
      case 'status':
        return false;
      case 'timeout':
      case 'network':
        return this.sent;
      case 'too_large':
        return this.status === undefined || (this.status >= 200 && this.status < 300);
      case 'bad_answer':
        return true;
    }
  }

  /** Whether trying again later can succeed: everything but a refusal of the request itself. */
  get retryable(): boolean {
    if (this.kind === 'blocked') return false;
    if (this.kind === 'status' || (this.kind === 'too_large' && this.status !== undefined && (this.status < 200 || this.status >= 300)))
      return retryableStatus(this.status!);
    return true;
  }
}

/** Retry-After as delay-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  // An HTTP date names its month ("Fri, 27 Nov 2026 10:00:30 GMT"); "-5" or "1.5" is neither form.
  const date = /[a-z]{3}/i.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
