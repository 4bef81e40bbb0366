// WWW-Authenticate challenges of /api/mcp (OAUTH.md decisions 2 and 12, T1-T3, T10): exactly one
// Bearer challenge naming the path-suffixed protected-resource metadata (RFC 9728 §5.1) and the scopes
// to request; `error` only when a token was presented (RFC 6750 §3.1).
import type { Deps } from '../app.ts';
import { GRANTABLE_SCOPES, joinScopes } from '../domain/oauth/scopes.ts';

export const resourceMetadataUrl = (deps: Pick<Deps, 'config'>): string => `${deps.config.baseUrl}/.well-known/oauth-protected-resource/api/mcp`;

const quoted = (value: string) => `"${value.replace(/["\\]/g, '\\$&')}"`;

/** 401: no token (no error), or a token that is not valid (`invalid_token`). */
export function unauthorizedChallenge(deps: Pick<Deps, 'config'>, presented: boolean): string {
  const params = [`resource_metadata=${quoted(resourceMetadataUrl(deps))}`, `scope=${quoted(GRANTABLE_SCOPES.join(' '))}`];
  if (presented) params.unshift(`error=${quoted('invalid_token')}`);
  return `Bearer ${params.join(', ')}`;
}

/** 403: the scopes to ask for are those already granted plus the missing ones (MCP 2025-11-25, sdk#1582). */
export function insufficientScopeChallenge(deps: Pick<Deps, 'config'>, granted: Iterable<string>, missing: Iterable<string>): string {
  const scope = joinScopes([...granted, ...missing]);
  return `Bearer error="insufficient_scope", scope=${quoted(scope)}, resource_metadata=${quoted(resourceMetadataUrl(deps))}`;
}
