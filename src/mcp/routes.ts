// The MCP tool endpoint (SPEC 11, MCP-TOOLS.md), as a table.
import type { Route } from '../http/context.ts';
import { mcpMethodNotAllowed, mcpPreflight, mcpRoute } from './mcp.route.ts';

export const mcpRoutes: readonly Route[] = [
  { method: 'POST', path: '/api/mcp', handler: mcpRoute },
  { method: 'OPTIONS', path: '/api/mcp', handler: mcpPreflight },
  { method: 'GET', path: '/api/mcp', handler: mcpMethodNotAllowed },
  { method: 'DELETE', path: '/api/mcp', handler: mcpMethodNotAllowed },
];
