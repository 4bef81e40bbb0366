// The OAuth shell's HTTP helpers: form bodies, the RFC 6749 §5.2 error JSON, CORS where
// OAUTH.md decision 13 allows it (metadata, register, token, revoke; never authorize).
import { timingSafeEqual } from 'node:crypto';
import type { RequestContext } from '../http/context.ts';
import { readBody } from '../http/body.ts';
import { sendEmpty, sendJson } from '../http/respond.ts';
import { AppError } from '../errors.ts';
import { OAUTH_FORM_MAX_BYTES } from '../limits.ts';
import { parseForm } from '../use-cases/form-text.ts';

const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(?:;|$)/i;

/** OAuth answers are never cached (RFC 6749 §5.1). */
export const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' } as const;

/** An `application/x-www-form-urlencoded` body (RFC 6749 §3.2); anything else, or text that is not UTF-8 (Appendix B), is invalid_request. */
export async function readForm(ctx: RequestContext): Promise<URLSearchParams> {
  const type = ctx.req.headers['content-type'];
  if (!type || !FORM_TYPE.test(type)) {
    ctx.req.resume();
    throw new AppError('invalid_request', 'Content-Type must be application/x-www-form-urlencoded');
  }
  return parseForm(await readBody(ctx, OAUTH_FORM_MAX_BYTES));
}

/** One value of a parameter; sent more than once is invalid_request (RFC 6749 §3.1, §3.2). */
export function single(params: URLSearchParams, name: string): string | undefined {
  const all = params.getAll(name);
  if (all.length > 1) throw new AppError('invalid_request', `${name} was sent more than once`);
  return all[0] === '' ? undefined : all[0];
}

/** Generic HTTP failures, said in OAuth's vocabulary. */
const GENERIC: Partial<Record<string, string>> = {
  invalid_json: 'invalid_request',
  unsupported_media_type: 'invalid_request',
  payload_too_large: 'invalid_request',
  invalid_input: 'invalid_request',
  rate_limited: 'temporarily_unavailable',
};

/** `{error, error_description?}` with no-store; nothing internal is ever said (OAUTH.md decision 11). */
export function sendOAuthError(ctx: RequestContext, error: unknown): void {
  if (ctx.res.headersSent) {
    ctx.res.destroy();
    return;
  }
  if (error instanceof AppError && error.expose) {
    const code = GENERIC[error.code] ?? error.code;
    const body: Record<string, string> = { error: code };
    if (error.message && error.message !== code && error.code !== 'invalid_grant' && error.code !== 'invalid_client') body.error_description = error.message;
    sendJson(ctx, error.status, body, { ...NO_STORE, ...error.headers });
    return;
  }
  ctx.log.error({ err: error }, 'oauth endpoint failed');
  sendJson(ctx, 500, { error: 'server_error' }, NO_STORE);
}

export function allowAnyOrigin(ctx: RequestContext): void {
  ctx.headers['Access-Control-Allow-Origin'] = '*';
  ctx.headers['Access-Control-Expose-Headers'] = 'WWW-Authenticate, X-Request-Id, Retry-After';
}

export function oauthPreflight(methods: string) {
  return (ctx: RequestContext): void =>
    sendEmpty(ctx, 204, {
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Methods': methods,
      'Access-Control-Allow-Headers': 'authorization, content-type, mcp-protocol-version',
      'Access-Control-Max-Age': '600',
    });
}

/** A JSON OAuth endpoint: CORS for browsers, errors in the OAuth shape. */
export function oauthEndpoint(handler: (ctx: RequestContext) => Promise<void>) {
  return async (ctx: RequestContext): Promise<void> => {
    allowAnyOrigin(ctx);
    try {
      await handler(ctx);
    } catch (error) {
      sendOAuthError(ctx, error);
    }
  };
}

export function parseCookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at <= 0) continue;
    const name = part.slice(0, at).trim();
    if (!out.has(name)) out.set(name, part.slice(at + 1).trim());
  }
  return out;
}

export function sameSecret(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
