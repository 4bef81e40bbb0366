// JSON-RPC checks the SDK leaves to its handlers (issue 13 §3): malformed params of the methods we
// serve answer -32602 "Invalid params" with one short message (the SDK would answer -32603 with a
// validator's issue list), and an empty batch is an invalid request (-32600, JSON-RPC 2.0 §6).
import { CallToolRequestSchema, ErrorCode, InitializeRequestSchema, ListToolsRequestSchema, PingRequestSchema, isJSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';

type Schema = { safeParse(value: unknown): { success: true } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } } };

// A Map, not an object literal: the method is the caller's string, and `__proto__` or `constructor`
// would find Object.prototype's members (issue 19 §5).
const SCHEMAS = new Map<string, Schema>([
  ['initialize', InitializeRequestSchema as unknown as Schema],
  ['ping', PingRequestSchema as unknown as Schema],
  ['tools/list', ListToolsRequestSchema as unknown as Schema],
  ['tools/call', CallToolRequestSchema as unknown as Schema],
]);

type RpcId = string | number | null;
const rpcError = (id: RpcId, code: number, message: string) => ({ jsonrpc: '2.0' as const, id, error: { code, message } });

/** The error answer for one message, or undefined when the SDK may take it. */
function check(message: unknown): ReturnType<typeof rpcError> | undefined {
  if (!isJSONRPCRequest(message)) return undefined;
  const schema = SCHEMAS.get(message.method);
  if (!schema) return undefined;
  const parsed = schema.safeParse(message);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0]!;
  const where = issue.path.length ? issue.path.map(String).join('.') : 'params';
  return rpcError(message.id, ErrorCode.InvalidParams, `Invalid params for ${message.method}: ${where}: ${issue.message}`);
}

/** What to answer instead of handing the body to the SDK, if anything. */
export function refuseMalformed(body: unknown): unknown {
  if (Array.isArray(body)) {
    if (body.length === 0) return rpcError(null, ErrorCode.InvalidRequest, 'Invalid Request: an empty batch');
    const answers = body.map(check);
    if (answers.every((a) => a === undefined)) return undefined;
    // One bad request refuses the batch: each request gets an answer, the bad ones say why.
    return body.flatMap((message, i) =>
      answers[i] ?? (isJSONRPCRequest(message) ? [rpcError(message.id, ErrorCode.InvalidRequest, 'Invalid Request: not run, another request of the batch is invalid')] : []),
    );
  }
  return check(body);
}
