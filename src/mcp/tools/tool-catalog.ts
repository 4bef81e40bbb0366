// The served catalog, computed once at load (STYLE: precomputed work): every account operation as an
// MCP tool, in the order of MCP-TOOLS.md §7, with its JSON Schema, a name index, and the §3.4 lint,
// which refuses to load a catalog that breaks it. The operations are declared in src/use-cases/operations.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { toJsonSchema } from '@valibot/to-json-schema';
import { TOOLS_LIST_MAX_BYTES } from '../../limits.ts';
import { OPERATIONS, type Operation } from '../../use-cases/operations/index.ts';
import { lintTools } from './lint-tools.ts';

/** How many tools exist today; MCP-TOOLS.md §7 ends at 62 (orders' life, fulfillment and WhatsApp come next). */
export const TOOL_COUNT = 62;

/** The operations served as tools: all but the REST- and CLI-only ones (`mcp: false`). */
export const TOOLS: readonly Operation[] = OPERATIONS.filter((op) => op.mcp !== false);

export const TOOL_BY_NAME: ReadonlyMap<string, Operation> = new Map(TOOLS.map((t) => [t.name, t]));

/** Actions a JSON Schema cannot say (trimming, case folding, normalizing transforms, custom checks). */
const IGNORED_ACTIONS = ['trim', 'to_lower_case', 'to_upper_case', 'transform', 'check', 'finite', 'url', 'starts_with'];

function inputSchema(tool: Operation): Tool['inputSchema'] {
  const { $schema: _drop, ...schema } = toJsonSchema(tool.input, { errorMode: 'throw', typeMode: 'output', ignoreActions: IGNORED_ACTIONS }) as Record<string, unknown>;
  // An empty object schema still lists `required: []` (§3.4: the root has properties and required).
  return { ...schema, type: 'object', required: schema.required ?? [] } as Tool['inputSchema'];
}

/** The tools/list answer: every tool on one page, no nextCursor (MCP-TOOLS.md protocol decisions). */
export const LISTED_TOOLS: readonly Tool[] = TOOLS.map((t) => ({
  name: t.name,
  title: t.title,
  description: t.description,
  inputSchema: inputSchema(t),
  annotations: { title: t.title, ...t.annotations },
}));

const problems = lintTools(LISTED_TOOLS as never, TOOL_COUNT);
const size = JSON.stringify({ tools: LISTED_TOOLS }).length;
if (size > TOOLS_LIST_MAX_BYTES) problems.push(`tools/list is ${size} bytes, over ${TOOLS_LIST_MAX_BYTES}`);
if (problems.length > 0) throw new Error(`MCP tool catalog refused (MCP-TOOLS.md §3.4):\n${problems.join('\n')}`);
