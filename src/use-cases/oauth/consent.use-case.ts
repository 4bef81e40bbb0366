// The user's decision on the consent page (OAUTH.md decisions 7, 8): an authorization code bound
// to the client, redirect URI, PKCE challenge, granted scopes and resource; random, stored as a
// hash, single use, 60 seconds.
import type { Deps } from '../../app.ts';
import { insertCode } from '../../db/queries/oauth.queries.ts';
import { INVOKE_SCOPE, ROLE_CEILING, joinScopes, type Scope } from '../../domain/oauth/scopes.ts';
import type { UserRole } from '../../db/tables/index.ts';
import { OAUTH_CODE_TTL_S, OAUTH_SECRET_CHARS } from '../../limits.ts';
import { hashKey, randomBase62 } from '../../domain/keys.ts';

export interface Approval {
  clientId: string;
  userId: string;
  redirectUri: string;
  codeChallenge: string;
  requested: readonly Scope[];
  /** The boxes the user left ticked; anything not requested is ignored. */
  ticked: readonly string[];
  /** The user's role: its ceiling bounds what they may grant, whatever the form says. */
  role: UserRole;
  resource: string;
}

/**
 * The user may grant fewer scopes than asked (RFC 6749 §3.3), and never more than their role's
 * ceiling (issue 13 §4); `mcp:invoke` is kept by the server.
 */
export function grantedScopes(requested: readonly Scope[], ticked: readonly string[], role: UserRole): string {
  const ceiling = ROLE_CEILING[role];
  return joinScopes([INVOKE_SCOPE, ...requested.filter((s) => ticked.includes(s) && ceiling.includes(s))]);
}

export async function approveAuthorization(deps: Pick<Deps, 'db' | 'clock'>, a: Approval): Promise<{ code: string; scope: string }> {
  const now = deps.clock.now();
  const code = randomBase62(OAUTH_SECRET_CHARS);
  const scope = grantedScopes(a.requested, a.ticked, a.role);
  await insertCode(deps.db, {
    hash: hashKey(code),
    client_id: a.clientId,
    user_id: a.userId,
    redirect_uri: a.redirectUri,
    code_challenge: a.codeChallenge,
    scope,
    resource: a.resource,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + OAUTH_CODE_TTL_S * 1000).toISOString(),
    used_at: null,
    family_id: null,
  });
  return { code, scope };
}
