// The JSON Schemas of an operation, computed once per operation: the input as the REST shell reads
// query strings with it, and the OpenAPI 3.0 documents of input and output (SPEC 4.3).
import type * as v from 'valibot';
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

/** valibot → OpenAPI 3.0 schema object. */
export function openApiSchema(schema: v.GenericSchema): Record<string, unknown> {
  return toJsonSchema(schema, { target: 'openapi-3.0', typeMode: 'ignore', errorMode: 'throw', ignoreActions: IGNORED_ACTIONS }) as Record<string, unknown>;
}
