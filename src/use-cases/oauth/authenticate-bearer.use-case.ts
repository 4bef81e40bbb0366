// The credential of an account operation on /api/mcp (SPEC 11): `Authorization: Bearer` with a
// secret key (its stored scopes) or an OAuth access token (its granted scopes). Never the query string,
// never a session id (OAUTH.md T7, T9). Missing → 401 without an error code; anything presented
// but not valid → 401 invalid_token (RFC 6750 §3.1).
import type { Deps } from '../../app.ts';
import { AppError } from '../../errors.ts';
import { findKeyByHash } from '../../db/queries/keys.queries.ts';
import { classifyKey, hashKey } from '../../domain/keys.ts';
import type { Principal } from '../../domain/oauth/principal.ts';
import { keyActive, keyScopes } from '../keys/authenticate-key.ts';
import { ACCESS_TOKEN_PREFIX, verifyAccessToken } from './access-tokens.ts';
import { bearerToken } from '../../domain/bearer.ts';

/** No credential at all: the challenge carries no `error` (RFC 6750 §3.1). */
export const missingToken = () => new AppError('unauthorized', 'Missing access token');
const invalidToken = () => new AppError('invalid_token', 'The access token is invalid, expired or revoked');

export async function authenticateBearer(deps: Pick<Deps, 'db' | 'clock' | 'config' | 'signingKeys'>, authorization: string | undefined): Promise<Principal> {
  if (authorization === undefined || authorization.trim() === '') throw missingToken();
  const token = bearerToken(authorization);
  if (!token) throw invalidToken();
  if (token.startsWith(ACCESS_TOKEN_PREFIX)) return verifyAccessToken(deps, token);
  const kind = classifyKey(token);
  if (!kind || kind.type !== 'secret') throw invalidToken();
  const key = await findKeyByHash(deps.db, hashKey(token));
  if (!key || !keyActive(key, deps.clock.now())) throw invalidToken();
  // Its stored scopes, checked like a token's (issue 19 §2): without mcp:invoke, /api/mcp is 403.
  return { kind: 'secret_key', accountId: key.account_id, scopes: keyScopes(key), subjectId: key.id, actor: `key:${key.id}`, keyId: key.id };
}
