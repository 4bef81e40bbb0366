// /openapi.json entries of the account API, derived from the same operation table and valibot
// schemas the routes validate with (SPEC 4.3): one path item per operation, its input as path and
// query parameters or a JSON body, its output inside `{success, data}`, the ErrorResponse otherwise.
import type { Operation } from '../../use-cases/operations/index.ts';
import { describedInput, openApiSchema } from './operation-schemas.ts';
import { V1 } from './operation.route.ts';

type Json = Record<string, unknown>;

const pascal = (name: string) => name.replace(/(^|_)([a-z])/g, (_m, _u, c: string) => c.toUpperCase());
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
/** REST readers are in no conversation: the CLI's words where an operation has them (issue 24 §7). */
const restText = (op: Operation) => (op.help ? `${op.help} Scope: ${op.scope}.` : op.description);

const error = (description: string) => ({ description, content: { 'application/json': { schema: ref('ErrorResponse') } } });

const ERRORS = {
  '400': error('Invalid input: one `details` item per bad field (also a price below the floor, a reused Idempotency-Key).'),
  '401': error('No secret key, or one that is unknown or revoked (OAuth tokens and publishable keys are refused here).'),
  '403': error('The key lacks the scope of this operation.'),
  '404': error('No such id in this account (another account’s id answers exactly the same).'),
  '409': error('Conflict (a slug or SKU taken, a key already revoked), an illegal state (publishing a page that is not ready, changing a pushed order) or no fulfillment platform connected (`fulfillment_not_connected`).'),
  '500': error('Internal error (details only in the server log).'),
};
/** Operations that call the fulfillment platform may relay its failure (MCP-TOOLS.md §5.10 `fulfillment_error`). */
const PLATFORM_ERRORS = { '502': error('The fulfillment platform refused or failed the call; the message carries its answer, and Retry-After says when a retry may succeed.') };
const BODY_ERRORS = { '413': error('Body over 64 KiB.'), '415': error('Content-Type is not application/json.') };

const uploadErrors = (upload: NonNullable<Operation['upload']>) => ({
  '413': error(`Body over ${upload.maxBytes} bytes.`),
  '415': error(`Content-Type is not one of ${upload.mediaTypes.join(', ')}.`),
});

export function operationPaths(operations: readonly Operation[]): { paths: Record<string, Json>; schemas: Record<string, Json> } {
  const paths: Record<string, Json> = {};
  const schemas: Record<string, Json> = {};
  for (const op of operations) {
    const [method, route] = op.http.split(' ') as [string, string];
    const pathParams = [...route.matchAll(/:(\w+)/g)].map((m) => m[1]!);
    const input = openApiSchema(describedInput(op)) as { properties?: Record<string, Json>; required?: string[] };
    const props = input.properties ?? {};
    const required = new Set(input.required ?? []);
    const parameters: Json[] = pathParams.map((name) => ({ name, in: 'path', required: true, description: props[name]?.description, schema: props[name] ?? { type: 'string' } }));
    const readsBody = method === 'POST' || method === 'PATCH' || method === 'PUT';
    const rest = Object.entries(props).filter(([name]) => !pathParams.includes(name));
    let requestBody: Json | undefined;
    if (op.upload) {
      // The file is the body itself; the other fields are query parameters.
      for (const [name, schema] of rest) parameters.push({ name, in: 'query', required: required.has(name), description: schema.description, schema });
      const file = { type: 'string', format: 'binary' };
      requestBody = { required: true, description: `The file, at most ${op.upload.maxBytes} bytes.`, content: Object.fromEntries(op.upload.mediaTypes.map((t) => [t, { schema: file }])) };
    } else if (!readsBody)
      for (const [name, schema] of rest)
        parameters.push({ name, in: 'query', required: required.has(name), description: schema.description, schema, ...(schema.type === 'array' && { style: 'form', explode: true }) });
    else if (rest.length > 0) {
      const bodyRequired = [...required].filter((r) => !pathParams.includes(r));
      schemas[`${pascal(op.name)}Request`] = { ...input, properties: Object.fromEntries(rest), ...(bodyRequired.length ? { required: bodyRequired } : { required: undefined }) };
      if (!bodyRequired.length) delete schemas[`${pascal(op.name)}Request`]!.required;
      requestBody = { required: bodyRequired.length > 0, content: { 'application/json': { schema: ref(`${pascal(op.name)}Request`) } } };
    }
    if (op.creates)
      parameters.push({ name: 'Idempotency-Key', in: 'header', required: false, description: 'A retry with the same key and input answers the first result.', schema: { type: 'string', minLength: 1, maxLength: 255 } });
    schemas[`${pascal(op.name)}Response`] = openApiSchema(op.output);
    const ok = {
      description: op.creates ? 'Created (or the first answer of an Idempotency-Key retry, 200 with Idempotent-Replayed).' : 'Done.',
      content: {
        'application/json': { schema: { type: 'object', required: ['success', 'data'], properties: { success: { type: 'boolean', enum: [true] }, data: ref(`${pascal(op.name)}Response`) } } },
      },
    };
    const path = `${V1}${route.replace(/:(\w+)/g, '{$1}')}`;
    paths[path] = {
      ...paths[path],
      [method.toLowerCase()]: {
        operationId: op.name,
        summary: op.title,
        description: op.mcp === false ? `${restText(op)} REST and CLI only (not an MCP tool).` : `${restText(op)} MCP tool: \`${op.name}\`.`,
        tags: [op.tag ?? 'account'],
        security: [{ secretKey: [] }],
        ...(parameters.length && { parameters }),
        ...(requestBody && { requestBody }),
        responses: {
          [op.creates ? '201' : '200']: ok,
          ...(op.creates && { '200': ok }),
          ...ERRORS,
          ...(op.annotations.openWorldHint && PLATFORM_ERRORS),
          ...(readsBody && (op.upload ? uploadErrors(op.upload) : BODY_ERRORS)),
        },
      },
    };
  }
  return { paths, schemas };
}
