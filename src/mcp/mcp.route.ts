// /api/mcp (SPEC 11, MCP-TOOLS.md protocol decisions, OAUTH.md 1A): Bearer authentication on every
// request (never the query string, never a session id), then the scope check on the parsed JSON-RPC
// body before anything runs, then a fresh stateless SDK Server + Streamable HTTP transport.
import type { IncomingMessage } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { SUPPORTED_PROTOCOL_VERSIONS, isJSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import type { RequestContext } from '../http/context.ts';
import { JSON_TYPE, parseJson, readBody } from '../http/body.ts';
import { sendEmpty, sendJson } from '../http/respond.ts';
import { AppError } from '../errors.ts';
import type { Principal } from '../domain/oauth/principal.ts';
import { INVOKE_SCOPE } from '../domain/oauth/scopes.ts';
import { authenticateBearer } from '../use-cases/oauth/authenticate-bearer.use-case.ts';
import { insufficientScopeChallenge, unauthorizedChallenge } from './bearer-challenge.ts';
import { LIST_ANSWER, authInfo, createMcpServer } from './mcp-server.ts';
import { TOOL_BY_NAME } from './tools/tool-catalog.ts';
import { refuseMalformed } from './json-rpc-check.ts';
import { bearerToken } from '../domain/bearer.ts';

/** What /api/mcp implements; the preflight and every 405 say the same (GET and DELETE answer 405: stateless, no SSE stream). */
const ALLOWED_METHODS = 'POST, OPTIONS';
const ALLOWED_HEADERS = 'authorization, content-type, mcp-protocol-version, mcp-session-id, last-event-id';
const EXPOSED_HEADERS = 'WWW-Authenticate, Mcp-Session-Id';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The MCP transport spec requires servers to validate Origin (DNS rebinding: a page on a foreign
 * site reaching a server through a name that resolves to it). Allowed: no Origin (not a browser),
 * the base URL's origin, loopback origins (local clients such as MCP Inspector), and
 * CODRAIL_MCP_ALLOWED_ORIGINS. Auth is a header, not a cookie, so an allowed origin is echoed.
 */
function originAllowed(ctx: RequestContext, origin: string): boolean {
  const allowed = ctx.deps.config.mcpAllowedOrigins;
  if (allowed.includes('*') || allowed.includes(origin)) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return url.origin === new URL(ctx.deps.config.baseUrl).origin || ((url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK.has(url.hostname));
}

/** CORS for an allowed origin; false (after a 403) for a foreign one. */
function cors(ctx: RequestContext): boolean {
  ctx.headers['Vary'] = 'Origin';
  const origin = header(ctx, 'origin');
  if (origin !== undefined && !originAllowed(ctx, origin)) {
    ctx.req.resume();
    sendJson(ctx, 403, jsonRpcError(-32000, `Forbidden: Origin ${origin.slice(0, 200)} is not allowed (set CODRAIL_MCP_ALLOWED_ORIGINS)`));
    return false;
  }
  ctx.headers['Access-Control-Allow-Origin'] = origin ?? '*';
  ctx.headers['Access-Control-Expose-Headers'] = EXPOSED_HEADERS;
  return true;
}

export function mcpPreflight(ctx: RequestContext): void {
  if (!cors(ctx)) return;
  sendEmpty(ctx, 204, {
    'Access-Control-Allow-Methods': ALLOWED_METHODS,
    'Access-Control-Allow-Headers': ALLOWED_HEADERS,
    'Access-Control-Max-Age': '600',
  });
}

/** GET (server-initiated SSE stream) and DELETE (session end) have no meaning for a stateless server. */
export function mcpMethodNotAllowed(ctx: RequestContext): void {
  if (!cors(ctx)) return;
  throw new AppError('method_not_allowed', `Method ${ctx.req.method} not allowed`, undefined, { Allow: ALLOWED_METHODS });
}

const header = (ctx: RequestContext, name: string): string | undefined => {
  const v = ctx.req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

async function authenticate(ctx: RequestContext): Promise<Principal | undefined> {
  const authorization = header(ctx, 'authorization');
  try {
    return await authenticateBearer(ctx.deps, authorization);
  } catch (error) {
    if (!(error instanceof AppError) || (error.code !== 'unauthorized' && error.code !== 'invalid_token')) throw error;
    ctx.req.resume();
    const presented = error.code === 'invalid_token';
    sendJson(
      ctx,
      401,
      { error: error.code, error_description: error.message },
      { 'WWW-Authenticate': unauthorizedChallenge(ctx.deps, presented), 'Cache-Control': 'no-store' },
    );
    return undefined;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Scopes the body needs and the principal lacks: mcp:invoke always, each called tool's own (§5.13). */
function missingScopes(principal: Principal, body: unknown): string[] {
  const needed = new Set<string>([INVOKE_SCOPE]);
  for (const message of Array.isArray(body) ? body : [body]) {
    if (!isObject(message) || message.method !== 'tools/call' || !isObject(message.params)) continue;
    const name = message.params.name;
    const tool = typeof name === 'string' ? TOOL_BY_NAME.get(name) : undefined;
    if (tool) needed.add(tool.scope);
  }
  return [...needed].filter((s) => !principal.scopes.has(s));
}

const jsonRpcError = (code: number, message: string) => ({ jsonrpc: '2.0', id: null, error: { code, message } });

/**
 * tools/list answers the same ~50 KB every time: its bytes are serialized once, around the request
 * id, exactly as the SDK's Protocol writes a result (`{result, jsonrpc, id}`). Only a request the
 * SDK transport would accept as it is takes this path (one valid JSON-RPC request, both media types
 * accepted, a supported protocol version or none); anything else, errors included, goes through the
 * SDK. A test checks both paths answer the same bytes.
 */
const LIST_HEAD = Buffer.from(`{"result":${JSON.stringify(LIST_ANSWER)},"jsonrpc":"2.0","id":`);
const LIST_TAIL = Buffer.from('}');

function answerToolsList(ctx: RequestContext, body: unknown): boolean {
  if (!isJSONRPCRequest(body) || body.method !== 'tools/list') return false;
  const accept = header(ctx, 'accept') ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return false;
  const version = header(ctx, 'mcp-protocol-version');
  if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return false;
  const id = Buffer.from(JSON.stringify(body.id));
  ctx.res.writeHead(200, { ...ctx.headers, 'Content-Type': 'application/json', 'Content-Length': LIST_HEAD.length + id.length + LIST_TAIL.length });
  ctx.res.end(Buffer.concat([LIST_HEAD, id, LIST_TAIL]));
  return true;
}

/** POST /api/mcp. */
export async function mcpRoute(ctx: RequestContext): Promise<void> {
  if (!cors(ctx)) return;
  const principal = await authenticate(ctx);
  if (!principal) return;

  const type = header(ctx, 'content-type');
  if (!type || !JSON_TYPE.test(type)) {
    ctx.req.resume();
    sendJson(ctx, 415, jsonRpcError(-32000, 'Unsupported Media Type: Content-Type must be application/json'));
    return;
  }
  const raw = await readBody(ctx);
  let body: unknown;
  try {
    body = parseJson(raw);
  } catch (error) {
    sendJson(ctx, 400, jsonRpcError(-32700, `Parse error: ${(error as Error).message === 'Body is not valid JSON' ? 'invalid JSON' : (error as Error).message}`));
    return;
  }

  const missing = missingScopes(principal, body);
  if (missing.length > 0) {
    sendJson(
      ctx,
      403,
      { error: 'insufficient_scope', error_description: `This call needs the scope ${missing.join(' ')}` },
      { 'WWW-Authenticate': insufficientScopeChallenge(ctx.deps, principal.scopes, missing), 'Cache-Control': 'no-store' },
    );
    return;
  }

  const refused = refuseMalformed(body);
  if (refused !== undefined) {
    sendJson(ctx, Array.isArray(body) && body.length === 0 ? 400 : 200, refused);
    return;
  }

  if (answerToolsList(ctx, body)) return;

  const token = bearerToken(header(ctx, 'authorization')) ?? '';
  const server = createMcpServer({ ...ctx.deps, log: ctx.log });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  ctx.res.once('close', () => {
    void transport.close();
    void server.close();
  });
  // The SDK writes the answer itself: the headers every answer of this request carries go on first.
  for (const [name, value] of Object.entries(ctx.headers)) ctx.res.setHeader(name, value);
  await server.connect(transport);
  const req = ctx.req as IncomingMessage & { auth?: AuthInfo };
  req.auth = authInfo(token, principal);
  await transport.handleRequest(req, ctx.res, body);
}
