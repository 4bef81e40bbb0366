// The startup lint of MCP-TOOLS.md §3.4: the catalog is refused at load time when a tool or an
// input schema would trip a client (name charset, missing hints, keywords some clients reject).
import { TOOL_DESCRIPTION_MAX } from '../../limits.ts';

export interface ListedTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

const NAME = /^[a-z][a-z0-9_]{2,31}$/;
const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;
const ROOT_FORBIDDEN = ['anyOf', 'oneOf', 'allOf', 'not', 'if'] as const;
const FORBIDDEN = [
  '$schema',
  '$ref',
  '$defs',
  'definitions',
  'const',
  'nullable',
  'propertyNames',
  'patternProperties',
  'prefixItems',
  'exclusiveMinimum',
  'exclusiveMaximum',
] as const;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function walkSchema(node: unknown, path: string, out: string[]): void {
  if (Array.isArray(node)) {
    node.forEach((item, i) => walkSchema(item, `${path}[${i}]`, out));
    return;
  }
  if (!isObject(node)) return;
  for (const key of FORBIDDEN) if (key in node) out.push(`${path}: forbidden keyword ${key}`);
  if (node.type === 'array') {
    if (!('items' in node)) out.push(`${path}: array without items`);
    else if (Array.isArray(node.items)) out.push(`${path}: array-valued items`);
  }
  if (isObject(node.properties))
    for (const [name, property] of Object.entries(node.properties)) {
      if (!isObject(property) || typeof property.description !== 'string' || property.description === '')
        out.push(`${path}.properties.${name}: no description`);
    }
  for (const [key, value] of Object.entries(node)) {
    // Property names and enum values are data, not schemas.
    if (key === 'enum' || key === 'required' || key === 'default' || key === 'examples') continue;
    if (key === 'properties' && isObject(value)) {
      for (const [name, property] of Object.entries(value)) walkSchema(property, `${path}.properties.${name}`, out);
      continue;
    }
    walkSchema(value, `${path}.${key}`, out);
  }
}

/** Every violation of §3.4 as one line; an empty list means the catalog may be served. */
export function lintTools(tools: readonly ListedTool[], expectedCount?: number): string[] {
  const out: string[] = [];
  if (expectedCount !== undefined && tools.length !== expectedCount) out.push(`expected ${expectedCount} tools, found ${tools.length}`);
  const seen = new Set<string>();
  for (const tool of tools) {
    const at = `tool ${tool.name}`;
    if (!NAME.test(tool.name)) out.push(`${at}: name must match ${NAME.source}`);
    if (seen.has(tool.name)) out.push(`${at}: duplicate name`);
    seen.add(tool.name);
    const description = tool.description ?? '';
    if (description.length > TOOL_DESCRIPTION_MAX) out.push(`${at}: description longer than ${TOOL_DESCRIPTION_MAX} characters`);
    if (!description.includes('Scope: ')) out.push(`${at}: description does not name its scope`);
    if (!tool.title) out.push(`${at}: no title`);
    const a = tool.annotations ?? {};
    if (!a.title) out.push(`${at}: no annotations.title`);
    for (const hint of HINTS) if (typeof a[hint] !== 'boolean') out.push(`${at}: annotations.${hint} missing`);
    if (a.readOnlyHint === true && a.destructiveHint === true) out.push(`${at}: readOnlyHint and destructiveHint`);
    const s = tool.inputSchema;
    if (s.type !== 'object') out.push(`${at}: inputSchema.type must be object`);
    if (!isObject(s.properties)) out.push(`${at}: inputSchema has no properties`);
    if (!Array.isArray(s.required)) out.push(`${at}: inputSchema has no required`);
    if (s.additionalProperties !== false) out.push(`${at}: inputSchema.additionalProperties must be false`);
    for (const key of ROOT_FORBIDDEN) if (key in s) out.push(`${at}: inputSchema root has ${key}`);
    walkSchema(s, `${at}: inputSchema`, out);
  }
  return out;
}
