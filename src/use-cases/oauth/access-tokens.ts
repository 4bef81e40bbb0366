// Access tokens (OAUTH.md decision 9): `svc_oauth_` + a compact JWS (ES256, typ at+jwt, RFC 9068)
// carrying iss, aud (= the resource), sub, client_id, scope, jti, iat, exp. Verification fails
// closed: signature, issuer, audience and expiry, then the token, its family, client and user
// must all still be live in the database.
import { jose } from './jose-lazy.ts';
import type { Deps } from '../../app.ts';
import type { Tx } from '../../db/transaction.ts';
import { findAccessTokenState, insertAccessToken } from '../../db/queries/oauth.queries.ts';
import { newId } from '../../ids.ts';
import { OAUTH_ACCESS_TOKEN_TTL_S, OAUTH_CLOCK_SKEW_S } from '../../limits.ts';
import { AppError } from '../../errors.ts';
import { splitScope } from '../../domain/oauth/scopes.ts';
import type { Principal } from '../../domain/oauth/principal.ts';
import { SIGNING_ALG, type VerifiedClaims } from './signing-keys.ts';

export const ACCESS_TOKEN_PREFIX = 'svc_oauth_';
/** A compact JWS of our claims is well under this; anything longer is not ours. */
const MAX_ACCESS_TOKEN_LENGTH = 4_096;
const JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

export const resourceUrl = (deps: Pick<Deps, 'config'>): string => `${deps.config.baseUrl}/api/mcp`;
export const issuerUrl = (deps: Pick<Deps, 'config'>): string => deps.config.baseUrl;

export interface AccessTokenGrant {
  familyId: string;
  userId: string;
  clientId: string;
  scope: string;
  resource: string;
}

export type Signer = Awaited<ReturnType<Deps['signingKeys']['current']>>;

/**
 * Signs a new access token and records its id (revocable one by one) in the same transaction.
 * The signer is fetched before the transaction: the database has one connection, held by `tx`.
 */
export async function issueAccessToken(deps: Pick<Deps, 'clock' | 'config'>, tx: Tx, grant: AccessTokenGrant, signer: Signer) {
  const now = deps.clock.now();
  const iat = Math.floor(now.getTime() / 1000);
  const exp = iat + OAUTH_ACCESS_TOKEN_TTL_S;
  const jti = newId();
  const { kid, key } = signer;
  const { SignJWT } = await jose();
  const jws = await new SignJWT({ client_id: grant.clientId, scope: grant.scope })
    .setProtectedHeader({ alg: SIGNING_ALG, kid, typ: 'at+jwt' })
    .setIssuer(issuerUrl(deps))
    .setAudience(grant.resource)
    .setSubject(grant.userId)
    .setJti(jti)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(key);
  await insertAccessToken(tx, {
    jti,
    family_id: grant.familyId,
    scope: grant.scope,
    created_at: now.toISOString(),
    expires_at: new Date(exp * 1000).toISOString(),
    revoked_at: null,
  });
  return { token: `${ACCESS_TOKEN_PREFIX}${jws}`, jti, expiresIn: OAUTH_ACCESS_TOKEN_TTL_S };
}

const invalidToken = () => new AppError('invalid_token', 'The access token is invalid, expired or revoked');

/** Signature, issuer, audience, expiry (with a little skew); returns the claims or undefined. */
export async function verifyAccessTokenSignature(
  deps: Pick<Deps, 'clock' | 'config' | 'signingKeys'>,
  token: string,
  options: { ignoreExpiry?: boolean } = {},
): Promise<VerifiedClaims | undefined> {
  if (!token.startsWith(ACCESS_TOKEN_PREFIX) || token.length > MAX_ACCESS_TOKEN_LENGTH) return undefined;
  if (!options.ignoreExpiry) {
    const known = await deps.signingKeys.recall(token);
    if (known) return known;
  }
  const jws = token.slice(ACCESS_TOKEN_PREFIX.length);
  if (!JWS.test(jws)) return undefined;
  const { decodeProtectedHeader, errors: joseErrors, jwtVerify } = await jose();
  try {
    const header = decodeProtectedHeader(jws);
    if (header.alg !== SIGNING_ALG || typeof header.kid !== 'string' || header.typ !== 'at+jwt') return undefined;
    const key = await deps.signingKeys.verifyingKey(header.kid);
    if (!key) return undefined;
    const { payload } = await jwtVerify(jws, key, {
      algorithms: [SIGNING_ALG],
      issuer: issuerUrl(deps),
      audience: resourceUrl(deps),
      typ: 'at+jwt',
      requiredClaims: ['jti', 'sub', 'exp', 'iat'],
      clockTolerance: OAUTH_CLOCK_SKEW_S,
      currentDate: options.ignoreExpiry ? new Date(0) : deps.clock.now(),
    });
    if (typeof payload.jti !== 'string' || typeof payload.sub !== 'string' || typeof payload.exp !== 'number') return undefined;
    const claims: VerifiedClaims = { jti: payload.jti, sub: payload.sub, client_id: payload.client_id, exp: payload.exp, kid: header.kid };
    if (!options.ignoreExpiry) deps.signingKeys.remember(token, claims);
    return claims;
  } catch (error) {
    if (error instanceof joseErrors.JOSEError || error instanceof TypeError || error instanceof SyntaxError) return undefined;
    throw error;
  }
}

/** The principal an OAuth access token stands for; any doubt is 401 invalid_token. */
export async function verifyAccessToken(deps: Pick<Deps, 'db' | 'clock' | 'config' | 'signingKeys'>, token: string): Promise<Principal> {
  const claims = await verifyAccessTokenSignature(deps, token);
  if (!claims) throw invalidToken();
  const state = await findAccessTokenState(deps.db, claims.jti);
  const now = deps.clock.now().toISOString();
  if (
    !state ||
    state.revoked_at !== null ||
    state.family_revoked_at !== null ||
    state.client_revoked_at !== null ||
    state.user_disabled_at !== null ||
    state.expires_at <= now ||
    state.resource !== resourceUrl(deps) ||
    state.user_id !== claims.sub ||
    state.client_id !== claims.client_id
  )
    throw invalidToken();
  return {
    kind: 'oauth',
    accountId: state.account_id,
    scopes: new Set(splitScope(state.scope)),
    subjectId: state.family_id,
    actor: `oauth:${state.client_id}`,
    clientId: state.client_id,
    userId: state.user_id,
    familyId: state.family_id,
  };
}

