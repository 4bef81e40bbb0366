// The REST shell of the account operations (SPEC 4.3 `/api/v1/…`): each operation's `http` binding
// becomes a route. Input is the path parameters plus the query string (GET, DELETE) or the JSON body
// (an upload: the query string, and the raw body as its file), read as the operation's input schema
// types it; the answer is `{success: true, data}` (201 for a create), every error the ErrorResponse.
// A secret key is the only credential (seed OAuth rule 2).
import type { Deps } from '../../app.ts';
import type { Route, RequestContext, Method } from '../../http/context.ts';
import { readBody, readJsonObject } from '../../http/body.ts';
import { sendJson } from '../../http/respond.ts';
import { AppError } from '../../errors.ts';
import { scalarFromText, type JsonSchemaLike } from '../../domain/text-values.ts';
import type { Operation } from '../../use-cases/operations/index.ts';
import type { Caller } from '../../use-cases/caller.ts';
import { authenticateAccountKey } from '../../use-cases/keys/authenticate-key.ts';
import { idempotencyKeyHeader, runIdempotent } from '../../use-cases/idempotency.use-case.ts';
import { parseWith } from '../../use-cases/validate.ts';
import { inputJsonSchema } from './operation-schemas.ts';

export const V1 = '/api/v1';

const header = (ctx: RequestContext, name: string): string | undefined => {
  const v = ctx.req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/** An action POST (publish, archive) may come with no body at all, with or without a content type. */
async function bodyOf(ctx: RequestContext): Promise<Record<string, unknown>> {
  const length = header(ctx, 'content-length');
  const chunked = header(ctx, 'transfer-encoding') !== undefined;
  if (length === '0' || (!chunked && length === undefined && header(ctx, 'content-type') === undefined)) {
    ctx.req.resume();
    return {};
  }
  return readJsonObject(ctx);
}

function queryOf(ctx: RequestContext, schema: JsonSchemaLike): Record<string, unknown> {
  // The names are the caller's: no prototype to write through (`__proto__`) or read from
  // (`constructor`), so every unknown name reaches the strict schema (issue 19 §5).
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const props = schema.properties ?? {};
  for (const name of new Set(ctx.url.searchParams.keys())) {
    const all = ctx.url.searchParams.getAll(name);
    const prop = Object.hasOwn(props, name) ? props[name] : undefined;
    // Unknown parameters reach the strict schema as they are and are refused by name.
    if (!prop) out[name] = all.length === 1 ? all[0] : all;
    else if (prop.type === 'array') out[name] = all.flatMap((v) => v.split(',')).map((v) => scalarFromText(prop.items ?? {}, v));
    else out[name] = all.length === 1 ? scalarFromText(prop, all[0]!) : all;
  }
  return out;
}

/**
 * An upload's file is the raw request body (no multipart, no base64 in JSON): one of the declared
 * media types, cut at its byte limit while it streams (413), never buffered past it.
 */
async function uploadOf(ctx: RequestContext, upload: NonNullable<Operation['upload']>): Promise<Uint8Array> {
  const type = (header(ctx, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (!upload.mediaTypes.includes(type)) {
    ctx.req.resume();
    throw new AppError('unsupported_media_type', `Content-Type must be one of ${upload.mediaTypes.join(', ')}`);
  }
  return readBody(ctx, upload.maxBytes);
}

async function authenticate(ctx: RequestContext): Promise<Caller> {
  try {
    return await authenticateAccountKey(ctx.deps, header(ctx, 'authorization'));
  } catch (error) {
    ctx.req.resume();
    if (error instanceof AppError && error.code === 'unauthorized') ctx.headers['WWW-Authenticate'] = 'Bearer realm="codrail account API"';
    throw error;
  }
}

function handlerFor(op: Operation, method: Method): (ctx: RequestContext) => Promise<void> {
  const schema = inputJsonSchema(op);
  const readsBody = method === 'POST' || method === 'PATCH' || method === 'PUT';
  const ownKey = 'idempotency_key' in (schema.properties ?? {});
  return async (ctx) => {
    ctx.headers['Cache-Control'] = 'no-store';
    const caller = await authenticate(ctx);
    if (!caller.scopes.has(op.scope)) throw new AppError('forbidden', `This key lacks the scope ${op.scope}`);
    // An upload takes its other fields from the query string, its file from the body.
    const sent = readsBody && !op.upload ? await bodyOf(ctx) : queryOf(ctx, schema);
    // find-my-way has already decoded the path parameters.
    const raw: Record<string, unknown> = { ...sent, ...Object.fromEntries(Object.entries(ctx.params).filter(([, v]) => v !== undefined)) };
    if (op.upload) raw[op.upload.field] = await uploadOf(ctx, op.upload);
    const idemKey = idempotencyKeyHeader(header(ctx, 'idempotency-key'));
    // An operation that takes its own idempotency_key (create_order) gets the header there.
    if (ownKey && idemKey !== undefined && raw.idempotency_key === undefined) raw.idempotency_key = idemKey;
    const input = parseWith(op.input, raw);
    const deps: Deps = { ...ctx.deps, log: ctx.log };
    const run = () => op.run(deps, caller, input);
    const status = op.creates ? 201 : 200;
    if (op.creates && !ownKey && idemKey !== undefined) {
      const { value, replayed } = await runIdempotent(deps, { scope: `v1:${caller.accountId}`, key: idemKey, request: [op.name, input], secret: op.revealsSecret !== undefined }, run);
      sendJson(ctx, replayed ? 200 : status, { success: true, data: value }, replayed ? { 'Idempotent-Replayed': 'true' } : {});
      return;
    }
    const value = await run();
    const replayed = typeof value === 'object' && value !== null && (value as { replayed?: unknown }).replayed === true;
    sendJson(ctx, replayed ? 200 : status, { success: true, data: value }, replayed ? { 'Idempotent-Replayed': 'true' } : {});
  };
}

/** One route per operation, in the table's order. */
export function operationRoutes(operations: readonly Operation[]): Route[] {
  return operations.map((op) => {
    const [method, path] = op.http.split(' ') as [Method, string];
    return { method, path: `${V1}${path}`, handler: handlerFor(op, method) };
  });
}
