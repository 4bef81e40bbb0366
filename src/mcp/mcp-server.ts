// The one adapter to the SDK's low-level Server (STYLE: protocol and transport kept apart): tools/list
// answers the precomputed catalog; tools/call parses the input with the tool's valibot schema and runs
// it for the principal the HTTP layer authenticated (carried in `authInfo.extra.principal`).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Deps } from '../app.ts';
import type { Principal } from '../domain/oauth/principal.ts';
import { parseWith } from '../use-cases/validate.ts';
import { fromPrincipal } from '../use-cases/caller.ts';
import { LISTED_TOOLS, TOOL_BY_NAME } from './tools/tool-catalog.ts';
import { toolFailure, toolResult } from './tools/tool-results.ts';

export const SERVER_INFO = { name: 'codrail', title: 'codrail', version: '0.1.0' } as const;

export const LIST_ANSWER = { tools: LISTED_TOOLS };
/**
 * The SDK builds a fresh Ajv instance per Server unless given one (it validates elicitation forms,
 * which we never send): one shared validator keeps the per-request Server cheap.
 */
const SCHEMA_VALIDATOR = new AjvJsonSchemaValidator();
const SERVER_OPTIONS = { capabilities: { tools: { listChanged: false } }, jsonSchemaValidator: SCHEMA_VALIDATOR };

/** What the HTTP layer hands to the SDK transport as `req.auth`. */
export function authInfo(token: string, principal: Principal): AuthInfo {
  return { token, clientId: principal.clientId ?? principal.subjectId, scopes: [...principal.scopes], extra: { principal } };
}

function principalOf(info: AuthInfo | undefined): Principal {
  const principal = info?.extra?.principal as Principal | undefined;
  // The route always authenticates first; a missing principal is a wiring bug, never a caller error.
  if (!principal) throw new McpError(ErrorCode.InternalError, 'Not authenticated');
  return principal;
}

/** A fresh Server per request (stateless Streamable HTTP): only these objects are built per call. */
export function createMcpServer(deps: Deps): Server {
  const server = new Server(SERVER_INFO, SERVER_OPTIONS);
  server.setRequestHandler(ListToolsRequestSchema, () => LIST_ANSWER);
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = TOOL_BY_NAME.get(request.params.name);
    // A plain error with a code: McpError would put "MCP error -32602:" in the message, and SDK
    // clients add that prefix again when they show it (issue 13 §3).
    if (!tool) throw Object.assign(new Error(`Unknown tool: ${request.params.name}`), { code: ErrorCode.InvalidParams });
    const principal = principalOf(extra.authInfo);
    try {
      const input = parseWith(tool.input, request.params.arguments ?? {});
      return toolResult((await tool.run(deps, fromPrincipal(principal), input)) as object);
    } catch (error) {
      return toolFailure(tool, error, deps.log);
    }
  });
  return server;
}
