// One MCP tool (MCP-TOOLS.md §5): its catalog entry (name, title, description, scope, annotations),
// its input as one valibot schema (the TypeScript type, the JSON Schema and the field errors, STYLE)
// and the use-case call it makes for an authenticated principal.
import type * as v from 'valibot';
import type { Deps } from '../../app.ts';
import type { Principal } from '../../domain/oauth/principal.ts';
import type { Scope } from '../../domain/oauth/scopes.ts';

/** The four behaviour hints of §5.12; `title` is copied from the tool (§5.2). */
export interface ToolHints {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** Read-only tools: no write, not destructive, idempotent, closed world (§5.12, like Stripe). */
export const READ_ONLY: ToolHints = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

export interface ToolDefinition<S extends v.GenericSchema = v.GenericSchema> {
  name: string;
  title: string;
  /** ≤ 350 characters, ending with `Scope: <scope>.` (§5.3). */
  description: string;
  /** The one scope the call needs besides `mcp:invoke`, or `mcp:invoke` itself for none (§5.13). */
  scope: Scope;
  annotations: ToolHints;
  input: S;
  /** What to tell the assistant next, by error code (e.g. which tool returns the missing id). */
  hints?: Partial<Record<string, string>>;
  run(deps: Deps, principal: Principal, input: v.InferOutput<S>): Promise<object>;
}

/** Keeps the input type of `run` tied to the schema while the catalog holds tools of any input. */
export const defineTool = <S extends v.GenericSchema>(tool: ToolDefinition<S>): ToolDefinition => tool as unknown as ToolDefinition;
