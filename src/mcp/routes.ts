// The MCP tool endpoint (SPEC 11, MCP-TOOLS.md), as a table.
import type { Route } from '../http/context.ts';

export const mcpRoutes: readonly Route[] = [];
