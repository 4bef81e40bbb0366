// The JSON Schemas of an operation, computed once per operation: the input as the REST shell reads
// query strings with it, and the OpenAPI 3.0 documents of input and output (SPEC 4.3).
import * as v from 'valibot';
import { toJsonSchema } from '@valibot/to-json-schema';
import type { JsonSchemaLike } from '../../domain/text-values.ts';
import type { Operation } from '../../use-cases/operations/index.ts';

/** Actions JSON Schema cannot say: trimming, case folding, normalizing transforms, custom checks. */
export const IGNORED_ACTIONS = ['trim', 'to_lower_case', 'to_upper_case', 'transform', 'check', 'finite', 'url', 'starts_with', 'iso_timestamp'];

const inputs = new WeakMap<Operation, JsonSchemaLike>();

export function inputJsonSchema(op: Operation): JsonSchemaLike {
  let schema = inputs.get(op);
  if (!schema) inputs.set(op, (schema = toJsonSchema(op.input, { errorMode: 'ignore', typeMode: 'output', ignoreActions: IGNORED_ACTIONS }) as JsonSchemaLike));
  return schema;
}

/** OpenAPI 3.0 wants `required` absent rather than empty (an object of optional fields). */
function dropEmptyRequired(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(dropEmptyRequired);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) if (!(key === 'required' && Array.isArray(value) && value.length === 0)) out[key] = dropEmptyRequired(value);
  return out;
}

/** valibot → OpenAPI 3.0 schema object. */
export function openApiSchema(schema: v.GenericSchema): Record<string, unknown> {
  return dropEmptyRequired(toJsonSchema(schema, { target: 'openapi-3.0', typeMode: 'output', errorMode: 'throw', ignoreActions: IGNORED_ACTIONS })) as Record<string, unknown>;
}

/** The fields JSON Schema can describe: all but an upload's file, which travels as the raw body (operation.ts `upload`). */
export function describedInput(op: Operation): v.GenericSchema {
  if (!op.upload) return op.input;
  return v.omit(op.input as v.StrictObjectSchema<v.ObjectEntries, undefined>, [op.upload.field]);
}
