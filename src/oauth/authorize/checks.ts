// The authorization request, checked one rule at a time (OAUTH.md decisions 3, 4, 5, 12, 15 and
// checklist T31–T37). A bad client_id or redirect_uri is answered on a page and never redirects
// (RFC 6749 §4.1.2.1); every later failure is sent back to the client's redirect URI.
import type { Deps } from '../../app.ts';
import type { ErrorCode } from '../../errors.ts';
import { OAUTH_STATE_MAX } from '../../limits.ts';
import { validChallenge } from '../../domain/oauth/pkce.ts';
import { redirectMatches } from '../../domain/oauth/redirect-uris.ts';
import { requestedScopes, type Scope } from '../../domain/oauth/scopes.ts';
import { clientRedirects, findLiveClient, type ClientDeps, type ClientRow } from '../../use-cases/oauth/clients.use-case.ts';
import { checkResource } from '../../use-cases/oauth/resource.ts';

export interface AuthorizationRequest {
  client: ClientRow;
  redirectUri: string;
  state: string | undefined;
  codeChallenge: string;
  scopes: Scope[];
  resource: string;
}

export type CheckedRequest =
  | { kind: 'ok'; request: AuthorizationRequest }
  | { kind: 'page'; message: 'unknown_client' | 'bad_redirect_uri' }
  | { kind: 'redirect'; redirectUri: string; state: string | undefined; error: ErrorCode; description: string };

const PARAMS = ['client_id', 'redirect_uri', 'response_type', 'code_challenge', 'code_challenge_method', 'resource', 'scope', 'state'] as const;

/** RFC 6749 §3.1: "Request and response parameters MUST NOT be included more than once." */
function checkDuplicates(params: URLSearchParams): string | undefined {
  return PARAMS.find((name) => params.getAll(name).length > 1);
}

/** RFC 6749 §4.1.1: a registered, live client. */
async function checkClient(deps: ClientDeps, params: URLSearchParams, ip: string | null) {
  if (params.getAll('client_id').length !== 1) return undefined;
  return findLiveClient(deps, params.get('client_id') ?? undefined, ip);
}

/** RFC 9700 §2.1 / RFC 8252 §7.3: exact match, loopback on any port; absent only with one registered URI. */
function checkRedirectUri(client: ClientRow, params: URLSearchParams): string | undefined {
  const all = params.getAll('redirect_uri');
  const registered = clientRedirects(client);
  if (all.length === 0) return registered.length === 1 ? registered[0] : undefined;
  if (all.length > 1) return undefined;
  return redirectMatches(all[0]!, registered) ? all[0] : undefined;
}

/** RFC 6749 §4.1.1: only `code`. */
function checkResponseType(params: URLSearchParams): [ErrorCode, string] | undefined {
  const type = params.get('response_type');
  if (!type) return ['invalid_request', 'response_type is required'];
  return type === 'code' ? undefined : ['unsupported_response_type', 'Only response_type=code is supported'];
}

/** Seed §5 rule 1, RFC 9700 §2.1.1, RFC 7636 §4.3: S256 challenge required; plain refused. */
function checkPkce(params: URLSearchParams): [ErrorCode, string] | undefined {
  if (!params.get('code_challenge')) return ['invalid_request', 'code_challenge is required (PKCE S256)'];
  if (params.get('code_challenge_method') !== 'S256') return ['invalid_request', 'code_challenge_method must be S256'];
  if (!validChallenge(params.get('code_challenge') ?? undefined)) return ['invalid_request', 'code_challenge is malformed'];
  return undefined;
}

/** RFC 8707 §2: the one protected resource, or absent. */
function checkResourceParam(deps: Pick<Deps, 'config'>, params: URLSearchParams) {
  return checkResource(deps, params.get('resource') ?? undefined);
}

/** Seed §5 / OAUTH.md 12: known scopes, never ai:generate, mcp:invoke always. */
function checkScope(params: URLSearchParams) {
  return requestedScopes(params.get('scope') ?? undefined);
}

/** `state` is echoed verbatim (OAUTH.md T37), within a sane length. */
function checkState(params: URLSearchParams): boolean {
  const state = params.get('state');
  return state === null || state.length <= OAUTH_STATE_MAX;
}

export async function checkAuthorizationRequest(deps: ClientDeps, params: URLSearchParams, ip: string | null = null): Promise<CheckedRequest> {
  const client = await checkClient(deps, params, ip);
  if (!client) return { kind: 'page', message: 'unknown_client' };
  const redirectUri = checkRedirectUri(client, params);
  if (!redirectUri) return { kind: 'page', message: 'bad_redirect_uri' };
  const stateOk = checkState(params);
  const state = stateOk && params.getAll('state').length === 1 ? (params.get('state') ?? undefined) : undefined;
  const fail = (error: ErrorCode, description: string): CheckedRequest => ({ kind: 'redirect', redirectUri, state, error, description });
  const duplicate = checkDuplicates(params);
  if (duplicate) return fail('invalid_request', `${duplicate} was sent more than once`);
  if (!stateOk) return fail('invalid_request', 'state is too long');
  const responseType = checkResponseType(params);
  if (responseType) return fail(...responseType);
  const pkce = checkPkce(params);
  if (pkce) return fail(...pkce);
  const resource = checkResourceParam(deps, params);
  if (!resource.ok) return fail('invalid_target', 'resource must be this server\'s MCP endpoint');
  const scope = checkScope(params);
  if (!scope.ok) return fail('invalid_scope', scope.reason);
  return { kind: 'ok', request: { client, redirectUri, state, codeChallenge: params.get('code_challenge')!, scopes: scope.scopes, resource: resource.resource } };
}
