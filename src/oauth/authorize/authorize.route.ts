// GET and POST /api/oauth/authorize (seed 4.3; OAUTH.md decisions 7, 14–16; T31–T41): the
// request is checked, the user signs in and consents, and the answer is a 302/303 to the client.
// No CORS here, ever (RFC 9700 §2.6); framing forbidden; nothing cached.
import { randomBytes } from 'node:crypto';
import type { RequestContext } from '../../http/context.ts';
import type { ErrorCode } from '../../errors.ts';
import { AppError } from '../../errors.ts';
import { isLoopbackRedirect } from '../../domain/oauth/redirect-uris.ts';
import { issuerUrl } from '../../use-cases/oauth/access-tokens.ts';
import { approveAuthorization } from '../../use-cases/oauth/consent.use-case.ts';
import { sessionUser, signIn, signOut } from '../../use-cases/oauth/sign-in.use-case.ts';
import { OAUTH_SESSION_TTL_S } from '../../limits.ts';
import { parseCookies, readForm, sameSecret } from '../oauth-http.ts';
import { checkAuthorizationRequest, type AuthorizationRequest } from './checks.ts';
import { consentPage, errorPage, pickLang, signInPage, type FormContext, type Lang } from './pages.ts';

const PATH = '/api/oauth/authorize';
const SESSION_COOKIE = 'codrail_session';
const CSRF_COOKIE = 'codrail_csrf';

const PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  Pragma: 'no-cache',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
};

function cookie(ctx: RequestContext, name: string, value: string, maxAge: number): string {
  const secure = ctx.deps.config.baseUrl.startsWith('https:') ? '; Secure' : '';
  return `${name}=${value}; Path=/api/oauth; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure}`;
}

interface PageState {
  lang: Lang;
  csrf: string;
  setCookies: string[];
}

/** The double-submit CSRF token (OAUTH.md decision 7): a cookie, echoed in every form. */
function pageState(ctx: RequestContext, query: URLSearchParams): PageState {
  const cookies = parseCookies(ctx.req.headers.cookie);
  const lang = pickLang(query.get('ui_locales'), ctx.req.headers['accept-language']);
  let csrf = cookies.get(CSRF_COOKIE);
  const setCookies: string[] = [];
  if (!csrf || !/^[A-Za-z0-9_-]{43}$/.test(csrf)) {
    csrf = randomBytes(32).toString('base64url');
    setCookies.push(cookie(ctx, CSRF_COOKIE, csrf, OAUTH_SESSION_TTL_S));
  }
  return { lang, csrf, setCookies };
}

/**
 * The pages' forms post to this endpoint, whose answer may redirect to the client's callback, and
 * browsers check that redirect against form-action too: the callback's origin (or its private-use
 * scheme) is allowed next to 'self' on the pages of a known client, nothing else.
 */
function csp(redirectUri?: string): string {
  let target = '';
  if (redirectUri) {
    const url = new URL(redirectUri);
    target = url.protocol === 'http:' || url.protocol === 'https:' ? ` ${url.origin}` : ` ${url.protocol}`;
  }
  return `default-src 'none'; style-src 'unsafe-inline'; form-action 'self'${target}; frame-ancestors 'none'; base-uri 'none'`;
}

function sendPage(ctx: RequestContext, status: number, html: string, setCookies: string[] = [], redirectUri?: string): void {
  const headers: Record<string, string | string[]> = { ...PAGE_HEADERS, 'Content-Security-Policy': csp(redirectUri), 'Content-Length': String(Buffer.byteLength(html)) };
  if (setCookies.length) headers['Set-Cookie'] = setCookies;
  ctx.res.writeHead(status, headers);
  ctx.res.end(html);
}

/** RFC 6749 §4.1.2 / RFC 9207: parameters added to the redirect URI; `iss` on every answer. */
function redirectTo(ctx: RequestContext, status: 302 | 303, redirectUri: string, params: Record<string, string | undefined>, setCookies: string[] = []): void {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  url.searchParams.set('iss', issuerUrl(ctx.deps));
  const headers: Record<string, string | string[]> = { Location: url.href, 'Cache-Control': 'no-store', 'Content-Length': '0' };
  if (setCookies.length) headers['Set-Cookie'] = setCookies;
  ctx.res.writeHead(status, headers);
  ctx.res.end();
}

function redirectError(ctx: RequestContext, status: 302 | 303, redirectUri: string, state: string | undefined, error: ErrorCode, description?: string) {
  redirectTo(ctx, status, redirectUri, { error, error_description: description, state });
}

function form(req: AuthorizationRequest, state: PageState, query: URLSearchParams): FormContext {
  return { lang: state.lang, csrf: state.csrf, request: query.toString(), action: PATH, clientName: req.client.client_name };
}

async function showStep(ctx: RequestContext, req: AuthorizationRequest, query: URLSearchParams, state: PageState, status = 200): Promise<void> {
  const user = await sessionUser(ctx.deps, parseCookies(ctx.req.headers.cookie).get(SESSION_COOKIE));
  if (!user) return sendPage(ctx, status, signInPage(form(req, state, query)), state.setCookies, req.redirectUri);
  sendPage(ctx, status, consentPage(form(req, state, query), { email: user.email, role: user.role, redirectUri: req.redirectUri, scopes: req.scopes, loopback: isLoopbackRedirect(req.redirectUri) }), state.setCookies, req.redirectUri);
}

/** Checks the request; answers the page or redirect of a failure and returns undefined. */
async function checked(ctx: RequestContext, query: URLSearchParams, state: PageState, status: 302 | 303): Promise<AuthorizationRequest | undefined> {
  const result = await checkAuthorizationRequest(ctx.deps, query, ctx.ip);
  if (result.kind === 'ok') return result.request;
  if (result.kind === 'page') {
    sendPage(ctx, 400, errorPage(state.lang, result.message === 'unknown_client' ? 'unknownClient' : 'badRedirect'), state.setCookies);
    return undefined;
  }
  redirectError(ctx, status, result.redirectUri, result.state, result.error, result.description);
  return undefined;
}

export async function authorizeGetRoute(ctx: RequestContext): Promise<void> {
  const query = ctx.url.searchParams;
  const state = pageState(ctx, query);
  const req = await checked(ctx, query, state, 302);
  if (req) await showStep(ctx, req, query, state);
}

export async function authorizePostRoute(ctx: RequestContext): Promise<void> {
  let body: URLSearchParams;
  try {
    body = await readForm(ctx);
  } catch (error) {
    if (error instanceof AppError && error.expose) return sendPage(ctx, error.status === 413 ? 413 : 400, errorPage('es', 'csrf'));
    throw error;
  }
  const query = new URLSearchParams(body.get('request') ?? '');
  const state = pageState(ctx, query);
  // A post without the CSRF token of this browser is refused and issues nothing (OAUTH.md 16, T38).
  if (!sameSecret(body.get('csrf') ?? undefined, parseCookies(ctx.req.headers.cookie).get(CSRF_COOKIE))) return sendPage(ctx, 403, errorPage(state.lang, 'csrf'), state.setCookies);
  const req = await checked(ctx, query, state, 303);
  if (!req) return;
  const step = body.get('step');
  const cookies = parseCookies(ctx.req.headers.cookie);
  if (step === 'signin') {
    try {
      const { sessionToken } = await signIn(ctx.deps, { email: body.get('email') ?? undefined, password: body.get('password') ?? undefined, ip: ctx.ip });
      ctx.log.info({ clientId: req.client.id }, 'oauth sign-in');
      // Post/redirect/get: the consent page is a fresh GET of the same authorization request.
      ctx.res.writeHead(303, { Location: `${PATH}?${query.toString()}`, 'Set-Cookie': [...state.setCookies, cookie(ctx, SESSION_COOKIE, sessionToken, OAUTH_SESSION_TTL_S)], 'Cache-Control': 'no-store', 'Content-Length': '0' });
      ctx.res.end();
    } catch (error) {
      if (!(error instanceof AppError) || (error.code !== 'unauthorized' && error.code !== 'rate_limited')) throw error;
      const retryAfter = error.headers?.['Retry-After'];
      if (retryAfter) ctx.res.setHeader('Retry-After', retryAfter);
      const status = error.code === 'rate_limited' ? 429 : 401;
      sendPage(ctx, status, signInPage(form(req, state, query), error.code === 'rate_limited' ? 'tooMany' : 'wrong', Number(retryAfter ?? 60)), state.setCookies);
    }
    return;
  }
  if (step === 'signout') {
    await signOut(ctx.deps, cookies.get(SESSION_COOKIE));
    return sendPage(ctx, 200, signInPage(form(req, state, query)), [...state.setCookies, cookie(ctx, SESSION_COOKIE, '', 0)]);
  }
  const user = await sessionUser(ctx.deps, cookies.get(SESSION_COOKIE));
  if (step !== 'consent' || !user) return showStep(ctx, req, query, state, 401);
  if (body.get('decision') !== 'allow') {
    ctx.log.info({ clientId: req.client.id }, 'oauth consent denied');
    return redirectError(ctx, 303, req.redirectUri, req.state, 'access_denied');
  }
  const { code, scope } = await approveAuthorization(ctx.deps, {
    clientId: req.client.id,
    userId: user.id,
    redirectUri: req.redirectUri,
    codeChallenge: req.codeChallenge,
    requested: req.scopes,
    ticked: body.getAll('grant'),
    role: user.role,
    resource: req.resource,
  });
  ctx.log.info({ clientId: req.client.id, scope }, 'oauth consent granted');
  redirectTo(ctx, 303, req.redirectUri, { code, state: req.state });
}
