// JSON request bodies: content type, the 64 KiB limit and parsing (SPEC 4 / 4.1 step 1).
import type { RequestContext } from './context.ts';
import { AppError } from '../errors.ts';
import { MAX_BODY_BYTES } from '../limits.ts';
import { parseJson } from '../use-cases/json-text.ts';

/** `application/json` and `application/*+json`, with or without parameters. */
export const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/** Names the limit of this route (64 KiB, or 16 KiB for the OAuth forms). */
const tooLarge = (limit: number) => new AppError('payload_too_large', `Request body exceeds ${limit} bytes`);

/** Reads the raw body, refusing more than `limit` bytes without buffering them. */
export async function readBody(ctx: RequestContext, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const declared = ctx.req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) {
    ctx.res.setHeader('Connection', 'close');
    ctx.req.resume();
    throw tooLarge(limit);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      ctx.res.setHeader('Connection', 'close');
      ctx.req.resume();
      throw tooLarge(limit);
    }
    chunks.push(chunk);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
}

export { parseJson };

/** A JSON object body. 415 for another content type, 413 when too large, 400 when not an object. */
export async function readJsonObject(ctx: RequestContext): Promise<Record<string, unknown>> {
  const type = ctx.req.headers['content-type'];
  if (!type || !JSON_TYPE.test(type)) {
    ctx.req.resume();
    throw new AppError('unsupported_media_type', 'Content-Type must be application/json');
  }
  const value = parseJson(await readBody(ctx));
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new AppError('invalid_json', 'Body must be a JSON object');
  return value as Record<string, unknown>;
}
