// Tool results and failures (MCP-TOOLS.md §5.9, §5.10): `structuredContent` plus the same JSON as a
// text block; a failure of a known tool is an `isError` result with {error:{code, message, field?,
// hint?, retryable}}. Unknown errors become `internal`, logged once with the request's logger.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AppError, type ErrorCode } from '../../errors.ts';
import type { Logger } from '../../log.ts';
import type { Operation } from '../../use-cases/operations/index.ts';

export type ToolErrorCode =
  | 'invalid_input'
  | 'invalid_cursor'
  | 'not_found'
  | 'conflict'
  | 'invalid_state'
  | 'price_below_floor'
  | 'fulfillment_not_connected'
  | 'fulfillment_error'
  | 'rate_limited'
  /** The call asks for more than the credential holds: a key broader than its creator (issue 19 §2). */
  | 'insufficient_scope'
  | 'internal';

export interface ToolError {
  code: ToolErrorCode;
  message: string;
  field?: string;
  hint?: string;
  retryable: boolean;
}

/** Our error codes as tool error codes; anything not listed is unexpected and becomes `internal`. */
const TOOL_CODE: Partial<Record<ErrorCode, ToolErrorCode>> = {
  invalid_input: 'invalid_input',
  invalid_json: 'invalid_input',
  // The anti-bot refusal says nothing more on any surface (SPEC 4.1 step 9).
  order_rejected: 'invalid_input',
  invalid_cursor: 'invalid_cursor',
  not_found: 'not_found',
  // A resource of another account (MCP-TOOLS.md §5.14).
  forbidden: 'not_found',
  conflict: 'conflict',
  idempotency_mismatch: 'conflict',
  invalid_state: 'invalid_state',
  price_below_floor: 'price_below_floor',
  rate_limited: 'rate_limited',
  fulfillment_not_connected: 'fulfillment_not_connected',
  fulfillment_error: 'fulfillment_error',
  insufficient_scope: 'insufficient_scope',
};

export function toolResult(value: object): CallToolResult {
  return { structuredContent: value as Record<string, unknown>, content: [{ type: 'text', text: JSON.stringify(value) }] };
}

export function toolFailure(tool: Pick<Operation, 'name' | 'hints'>, error: unknown, log: Logger): CallToolResult {
  const code = error instanceof AppError && error.expose ? TOOL_CODE[error.code] : undefined;
  let body: ToolError;
  if (!code || !(error instanceof AppError)) {
    log.error({ err: error, tool: tool.name }, 'tool failed');
    body = { code: 'internal', message: 'Internal error', retryable: false };
  } else {
    const first = error.details?.[0];
    // Several problems (each unmet publish check, each pack under the floor) are all worth fixing at once.
    const message = error.details && error.details.length > 1 ? error.details.map((d) => `${d.field}: ${d.message}`).join('; ') : (first?.message ?? error.message);
    body = { code, message, retryable: code === 'rate_limited' || (code === 'fulfillment_error' && error.headers?.['Retry-After'] !== undefined) };
    if (first) body.field = first.field;
    const hint = tool.hints?.[code];
    if (hint) body.hint = hint;
    const retryAfter = error.headers?.['Retry-After'];
    if (code === 'rate_limited' && retryAfter) body.hint = `Retry after ${retryAfter} seconds.`;
  }
  const value = { error: body };
  return { isError: true, structuredContent: value, content: [{ type: 'text', text: JSON.stringify(value) }] };
}
