// One error family for every surface (STYLE: errors as classes with stable `code` strings).
// Each shell maps AppError to its own shape: REST ErrorResponse, CLI exit code, later OAuth and MCP.

export interface FieldIssue {
  field: string;
  message: string;
}

export type ErrorCode =
  | 'invalid_json'
  | 'unsupported_media_type'
  | 'payload_too_large'
  | 'invalid_input'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  /** An HTTP method no route implements (RFC 9110 §15.6.2). */
  | 'not_implemented'
  | 'uri_too_long'
  | 'conflict'
  /** An illegal transition: publishing a page that is not ready, deleting a published one (MCP-TOOLS.md §5.10). */
  | 'invalid_state'
  | 'rate_limited'
  | 'price_below_floor'
  | 'order_rejected'
  | 'idempotency_mismatch'
  | 'invalid_cursor'
  | 'not_ready'
  /** The store has no platform to push to (no CODRAIL_FULFILLMENT_URL), or no credentials it accepts. */
  | 'fulfillment_not_connected'
  /** The fulfillment platform refused or failed a call made for the caller; the message has its status. */
  | 'fulfillment_error'
  | 'internal'
  // OAuth 2.1 (RFC 6749 §4.1.2.1, §5.2; RFC 7591 §3.2.2; RFC 8707 §2; RFC 6750 §3.1)
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'access_denied'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'invalid_token'
  | 'insufficient_scope';

const STATUS: Record<ErrorCode, number> = {
  invalid_json: 400,
  unsupported_media_type: 415,
  payload_too_large: 413,
  invalid_input: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  not_implemented: 501,
  uri_too_long: 414,
  conflict: 409,
  invalid_state: 409,
  rate_limited: 429,
  price_below_floor: 400,
  order_rejected: 400,
  idempotency_mismatch: 400,
  invalid_cursor: 400,
  not_ready: 503,
  fulfillment_not_connected: 409,
  fulfillment_error: 502,
  internal: 500,
  invalid_request: 400,
  invalid_client: 401,
  invalid_grant: 400,
  unauthorized_client: 400,
  unsupported_grant_type: 400,
  unsupported_response_type: 400,
  invalid_scope: 400,
  invalid_target: 400,
  access_denied: 403,
  invalid_redirect_uri: 400,
  invalid_client_metadata: 400,
  invalid_token: 401,
  insufficient_scope: 403,
};

export class AppError extends Error {
  override readonly name = 'AppError';
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: FieldIssue[],
    /** Headers the HTTP shell adds to the answer (Retry-After, Allow…). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.status = STATUS[code];
  }

  /** Whether the message may be shown to the caller (everything but internal errors). */
  get expose(): boolean {
    return this.code !== 'internal';
  }
}

export const invalidInput = (message: string, details?: FieldIssue[]): AppError =>
  new AppError('invalid_input', message, details);

export const fieldError = (field: string, message: string): AppError =>
  new AppError('invalid_input', 'Invalid data', [{ field, message }]);

export const notFound = (what: string): AppError => new AppError('not_found', `${what} not found`);

export const unauthorized = (message = 'Missing or invalid credential'): AppError =>
  new AppError('unauthorized', message);

export const forbidden = (message: string): AppError => new AppError('forbidden', message);

export const conflict = (message: string, details?: FieldIssue[]): AppError => new AppError('conflict', message, details);

export const invalidState = (message: string, details?: FieldIssue[]): AppError => new AppError('invalid_state', message, details);

/** An OAuth error (RFC 6749 §5.2): the code is the answer; the description stays generic. */
export const oauthError = (code: ErrorCode, description?: string): AppError => new AppError(code, description ?? code);

/**
 * A platform failure seen by a tool's caller. A failure worth retrying carries Retry-After (seconds),
 * which REST sends as a header and MCP turns into `retryable: true`.
 */
export const fulfillmentError = (message: string, retryable: boolean, field = 'fulfillment'): AppError =>
  new AppError('fulfillment_error', message, [{ field, message }], retryable ? { 'Retry-After': '5' } : undefined);
