// Checks live answers against the served OpenAPI 3.0 document: the status must be documented for
// the operation, and the JSON body must match the documented schema (validated with ajv).
import assert from 'node:assert/strict';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

type Json = Record<string, unknown>;

export interface OpenApiResponse {
  description?: string;
  headers?: Record<string, Json>;
  content?: Record<string, { schema?: Json }>;
  $ref?: string;
}

export interface OpenApiOperation {
  operationId?: string;
  security?: Record<string, string[]>[];
  parameters?: Json[];
  requestBody?: Json;
  responses: Record<string, OpenApiResponse>;
}

export interface OpenApiDoc {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: {
    schemas: Record<string, Json>;
    securitySchemes?: Record<string, Json>;
    responses?: Record<string, OpenApiResponse>;
  };
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

// ajv-formats is CommonJS: under NodeNext its default import is the module object.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (ajv: Ajv) => Ajv;

const COMPONENTS_ID = 'openapi-components.json';
const SCHEMA_REF = /^#\/components\/schemas\/(.+)$/;
/** Keywords whose values are data, copied as they are. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'example', 'required', 'description', 'title', 'pattern', 'format']);
/** Keywords whose values map names to schemas. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions']);

/**
 * An OpenAPI 3.0 schema object as JSON Schema draft-07: `nullable` becomes a `null` type (or enum
 * member), boolean `exclusiveMinimum/Maximum` become numbers, and component refs point at the
 * schema registered under COMPONENTS_ID.
 */
export function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node as Json)) {
    if (key === 'nullable') continue;
    if (key === '$ref' && typeof value === 'string') {
      const match = SCHEMA_REF.exec(value);
      assert.ok(match, `unsupported $ref ${value}`);
      out.$ref = `${COMPONENTS_ID}#/definitions/${match[1]}`;
    } else if (DATA_KEYWORDS.has(key)) out[key] = value;
    else if (SCHEMA_MAPS.has(key) && value !== null && typeof value === 'object')
      out[key] = Object.fromEntries(Object.entries(value as Json).map(([name, schema]) => [name, toJsonSchema(schema)]));
    else out[key] = toJsonSchema(value);
  }
  const source = node as Json;
  if (source.exclusiveMinimum === true) {
    out.exclusiveMinimum = source.minimum;
    delete out.minimum;
  } else if (source.exclusiveMinimum === false) delete out.exclusiveMinimum;
  if (source.exclusiveMaximum === true) {
    out.exclusiveMaximum = source.maximum;
    delete out.maximum;
  } else if (source.exclusiveMaximum === false) delete out.exclusiveMaximum;
  if (source.nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    if (out.type === undefined && out.enum === undefined) return { anyOf: [out, { type: 'null' }] };
  }
  return out;
}

export class OpenApiChecker {
  readonly #ajv: Ajv;
  readonly #compiled = new Map<string, ValidateFunction>();

  constructor(readonly doc: OpenApiDoc) {
    this.#ajv = new Ajv({ strict: true, allErrors: true, strictTypes: false });
    addFormats(this.#ajv);
    // OpenAPI 3.0 schema annotations that are not JSON Schema keywords.
    this.#ajv.addVocabulary(['example', 'xml', 'externalDocs', 'discriminator']);
    const definitions: Json = {};
    for (const [name, schema] of Object.entries(doc.components.schemas)) definitions[name] = toJsonSchema(schema);
    this.#ajv.addSchema({ $id: COMPONENTS_ID, definitions });
  }

  /** The operation at this path and method; fails the test when the document lacks it. */
  operation(path: string, method: string): OpenApiOperation {
    const item = this.doc.paths[path];
    assert.ok(item, `path ${path} is not in the OpenAPI document`);
    const op = item[method.toLowerCase()];
    assert.ok(op, `${method.toUpperCase()} ${path} is not in the OpenAPI document`);
    return op;
  }

  /** The documented response for a status: exact code, else its range (`4XX`); fails when undocumented. */
  response(path: string, method: string, status: number): OpenApiResponse {
    const op = this.operation(path, method);
    const found = op.responses[String(status)] ?? op.responses[`${String(status)[0]}XX`];
    assert.ok(found, `${method.toUpperCase()} ${path} does not document status ${status} (documents ${Object.keys(op.responses).join(', ')})`);
    return this.deref(found);
  }

  /** Follows a `#/components/responses/…` reference. */
  deref(response: OpenApiResponse): OpenApiResponse {
    if (!response.$ref) return response;
    const name = /^#\/components\/responses\/(.+)$/.exec(response.$ref)?.[1];
    const target = name ? this.doc.components.responses?.[name] : undefined;
    assert.ok(target, `unresolvable response $ref ${response.$ref}`);
    return target;
  }

  /**
   * Asserts that a live answer matches the document: the status is documented for the operation
   * and the parsed JSON body matches the response schema (or there is no body when none is documented).
   */
  assertResponse(path: string, method: string, status: number, body: unknown): void {
    this.assertAgainst(this.response(path, method, status), `${method.toUpperCase()} ${path} ${status}`, body);
  }

  /** Same check against a response object (for answers outside any operation, such as 404). */
  assertAgainst(response: OpenApiResponse, label: string, body: unknown): void {
    const content = response.content;
    if (body === undefined) {
      assert.equal(content, undefined, `${label}: the document promises a body but the answer has none`);
      return;
    }
    const media = content?.['application/json'];
    assert.ok(media?.schema, `${label}: no application/json schema is documented`);
    const validate = this.compile(media.schema);
    const valid = validate(body);
    assert.equal(valid, true, `${label}: body does not match the document: ${this.#ajv.errorsText(validate.errors)}\n${JSON.stringify(body)}`);
  }

  /** A compiled validator for one schema object of the document (component refs resolved). */
  compile(schema: Json): ValidateFunction {
    const key = JSON.stringify(schema);
    let fn = this.#compiled.get(key);
    if (!fn) this.#compiled.set(key, (fn = this.#ajv.compile(toJsonSchema(schema) as Json)));
    return fn;
  }

  /** A component schema by name, as a validator. */
  component(name: string): ValidateFunction {
    assert.ok(this.doc.components.schemas[name], `component schema ${name} is missing`);
    return this.compile({ $ref: `#/components/schemas/${name}` });
  }
}
