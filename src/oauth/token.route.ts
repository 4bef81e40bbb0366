// POST /api/oauth/token (seed 4.3; OAUTH.md T42–T57).
import type { RequestContext } from '../http/context.ts';
import { sendJson } from '../http/respond.ts';
import { AppError } from '../errors.ts';
import { exchangeCode, refreshTokens } from '../use-cases/oauth/token.use-case.ts';
import { NO_STORE, oauthEndpoint, readForm, single } from './oauth-http.ts';
import { decodeFormComponent } from '../use-cases/form-text.ts';

/** RFC 6749 §2.3.1: a client_id may come in HTTP Basic (form-urlencoded), else in the body. */
export function clientIdOf(ctx: RequestContext, form: URLSearchParams): string | undefined {
  const fromBody = single(form, 'client_id');
  const auth = ctx.req.headers.authorization;
  const m = auth ? /^basic +([A-Za-z0-9+/]+=*) *$/i.exec(auth) : null;
  if (!m) return fromBody;
  const decoded = Buffer.from(m[1]!, 'base64');
  // Not UTF-8 or not percent-decodable is invalid_request, as in a form body (issue 19 §6).
  const id = decodeFormComponent(decoded.subarray(0, Math.max(0, decoded.indexOf(':'))));
  if (fromBody !== undefined && fromBody !== id) throw new AppError('invalid_request', 'client_id differs between the body and the Authorization header');
  return id || undefined;
}

export const tokenRoute = oauthEndpoint(async (ctx) => {
  const form = await readForm(ctx);
  const grantType = single(form, 'grant_type');
  const clientId = clientIdOf(ctx, form);
  const deps = { ...ctx.deps, log: ctx.log };
  let tokens;
  if (grantType === 'authorization_code') {
    tokens = await exchangeCode(deps, {
      clientId,
      ip: ctx.ip,
      code: single(form, 'code'),
      codeVerifier: single(form, 'code_verifier'),
      redirectUri: single(form, 'redirect_uri'),
      resource: single(form, 'resource'),
    });
  } else if (grantType === 'refresh_token') {
    tokens = await refreshTokens(deps, { clientId, ip: ctx.ip, refreshToken: single(form, 'refresh_token'), scope: single(form, 'scope'), resource: single(form, 'resource') });
  } else if (grantType === undefined) {
    throw new AppError('invalid_request', 'grant_type is required');
  } else {
    throw new AppError('unsupported_grant_type', 'Only authorization_code and refresh_token are supported');
  }
  sendJson(ctx, 200, tokens, NO_STORE);
});
