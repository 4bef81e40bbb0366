// One account operation, declared once (STYLE; the stripe/ai agent toolkit's tool list): its catalog
// entry (name, title, description, scope, annotations), its input and output as valibot schemas, the
// use-case it runs, and where each shell exposes it. The MCP tool, the /api/v1 route, the OpenAPI
// entry and the CLI command are all derived from this; no shell re-implements a rule.
import type * as v from 'valibot';
import type { Deps } from '../../app.ts';
import type { Scope } from '../../domain/oauth/scopes.ts';
import type { Caller } from '../caller.ts';

/** The four behaviour hints of MCP-TOOLS.md §5.12 (`title` is copied from the operation, §5.2). */
export interface OperationHints {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** No write at all: not destructive, idempotent, closed world (§5.12, like Stripe). */
export const READ_ONLY: OperationHints = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
/** A create: running it twice makes two. */
export const CREATES: OperationHints = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
/** A patch, a `set` or an add: running it twice leaves the same state. */
export const CHANGES: OperationHints = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false };
/** Something live stops working: archive, remove, revoke, unpublish, delete (§5.12). */
export const DESTROYS: OperationHints = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface Operation<I extends v.GenericSchema = v.GenericSchema, O extends v.GenericSchema = v.GenericSchema> {
  /** The catalog name (MCP-TOOLS.md §6): the MCP tool name and the OpenAPI operationId. */
  name: string;
  title: string;
  /** ≤ 350 characters ending with `Scope: <scope>.` (§5.3). */
  description: string;
  /** The one scope besides `mcp:invoke` the call needs, or `mcp:invoke` for none (§5.13). */
  scope: Scope;
  annotations: OperationHints;
  /** A strict object schema: the TypeScript type, the JSON Schema and the field errors. */
  input: I;
  /** What a successful call returns: the OpenAPI response schema, and the type `run` must return. */
  output: O;
  /** What to tell an assistant next, by error code (e.g. which tool returns the missing id). */
  hints?: Partial<Record<string, string>>;
  /** `METHOD /path` under /api/v1; each `:param` is an input field read from the path. */
  http: `${HttpMethod} /${string}`;
  /**
   * The CLI's own words, where the description speaks to an assistant (of "this conversation"):
   * descriptions are written per surface (issue 24 §7). The CLI uses the description otherwise.
   */
  help?: string;
  /** The command words and `<field>` positionals, e.g. `products update <product_id>`; no CLI command when absent. */
  cli?: string;
  /**
   * false: REST and CLI only, not an MCP tool (the tool catalog is exactly MCP-TOOLS.md's 62; an
   * operator-side list such as the block list stays off it).
   */
  mcp?: false;
  /** The resource it belongs to: its OpenAPI tag and its group in the docs (set by the table, operations/index.ts). */
  tag?: string;
  /**
   * The input field that carries a file's bytes (a `Uint8Array` schema): REST reads it from the raw
   * request body of one of these media types (the other fields from the path and query string), the
   * CLI from the file its `<field>` positional names; at most `maxBytes` either way, cut while
   * reading. JSON cannot carry it, so such an operation is never an MCP tool (`mcp: false`).
   */
  upload?: { field: string; mediaTypes: readonly string[]; maxBytes: number };
  /** A POST that creates: REST answers 201 and replays an `Idempotency-Key` retry. */
  creates?: boolean;
  /**
   * The answer shows a secret once (a new key, a webhook signing secret): never kept for an idempotent
   * replay. The text is the CLI's warning, which says how the secret is kept.
   */
  revealsSecret?: string;
  run(deps: Deps, caller: Caller, input: v.InferOutput<I>): Promise<v.InferOutput<O>>;
}

/** Keeps `run` typed by the schemas while the table holds operations of any shape. */
export const defineOperation = <I extends v.GenericSchema, O extends v.GenericSchema>(op: Operation<I, O>): Operation => {
  if (op.upload && (op.mcp !== false || !op.http.startsWith('POST ') || !op.cli?.includes(`<${op.upload.field}>`)))
    throw new Error(`operation ${op.name}: an upload is REST (POST) and CLI (<${op.upload.field}> positional) only, never an MCP tool`);
  return op as unknown as Operation;
};
