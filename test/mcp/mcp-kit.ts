// Real seams for the MCP tests: the server on port 0 with a seeded shop, and the SDK's own Client
// over Streamable HTTP carrying a Bearer credential.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export async function connect(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'codrail-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/api/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}

export type Structured = Record<string, any>;

/** tools/call, returning the structured result and checking the text block repeats it (MCP-TOOLS.md §5.9). */
export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<{ isError: boolean; value: Structured }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content[0];
  if (!text || text.type !== 'text') throw new Error('no text block');
  const value = result.structuredContent as Structured;
  if (JSON.stringify(value) !== text.text) throw new Error('text block differs from structuredContent');
  return { isError: result.isError === true, value };
}

/** A raw JSON-RPC POST to /api/mcp, as a client without the SDK sends it. */
export function rawPost(url: string, body: unknown, headers: Record<string, string> = {}, path = '/api/mcp'): Promise<Response> {
  return fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
}

export const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

export const buyer = (over: Record<string, unknown> = {}) => ({
  nombre: 'Ana Gómez',
  telefono: '3001234567',
  departamento: 'Antioquia',
  ciudad: 'Medellín',
  direccion: 'Calle 10 # 43-12',
  ...over,
});
