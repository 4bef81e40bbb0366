// POST /api/oauth/token (seed 4.3 and §5 rules 3–4; OAUTH.md decisions 8, 10, 11, 17).
// authorization_code: atomic single use, PKCE S256, client/redirect/resource bound to the code.
// refresh_token: rotation on every use; presenting a rotated token revokes the whole family.
import type { Deps } from '../../app.ts';
import { AppError, oauthError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { writeTransaction, type Tx } from '../../db/transaction.ts';
import {
  consumeCode,
  findCode,
  findRefreshToken,
  insertFamily,
  insertRefreshToken,
  rotateRefreshToken,
  setCodeFamily,
  touchFamily,
} from '../../db/queries/oauth.queries.ts';
import { hashKey, randomBase62 } from '../../domain/keys.ts';
import { verifierMatches } from '../../domain/oauth/pkce.ts';
import { joinScopes, splitScope } from '../../domain/oauth/scopes.ts';
import { OAUTH_REFRESH_ABSOLUTE_S, OAUTH_REFRESH_IDLE_S, OAUTH_SECRET_CHARS } from '../../limits.ts';
import { findLiveClient, type ClientDeps, type ClientRow } from './clients.use-case.ts';
import { issueAccessToken, type Signer } from './access-tokens.ts';
import { checkResource } from './resource.ts';
import { revokeFamily } from './grants.use-case.ts';
import { findUserStanding } from '../../db/queries/accounts.queries.ts';

export const REFRESH_TOKEN_PREFIX = 'svc_refresh_';

/** RFC 6749 §5.1 plus `scope` always (OAUTH.md decision 17). */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

type TokenDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'signingKeys' | 'log' | 'outbound' | 'clientDocuments'>;

const invalidGrant = () => oauthError('invalid_grant');

/** Public clients authenticate by client_id alone; unknown or revoked → 401 invalid_client (clients re-register on it). */
export async function authenticateClient(deps: ClientDeps, clientId: string | undefined, ip: string | null = null): Promise<ClientRow> {
  const client = await findLiveClient(deps, clientId, ip);
  if (!client) throw new AppError('invalid_client', 'Client authentication failed');
  return client;
}

async function mintTokens(deps: TokenDeps, tx: Tx, signer: Signer, grant: { familyId: string; userId: string; clientId: string; resource: string; scope: string }): Promise<TokenResponse> {
  const now = deps.clock.now();
  const refresh = REFRESH_TOKEN_PREFIX + randomBase62(OAUTH_SECRET_CHARS);
  await insertRefreshToken(tx, {
    hash: hashKey(refresh),
    family_id: grant.familyId,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + OAUTH_REFRESH_IDLE_S * 1000).toISOString(),
    rotated_at: null,
  });
  const access = await issueAccessToken(deps, tx, grant, signer);
  return { access_token: access.token, token_type: 'Bearer', expires_in: access.expiresIn, refresh_token: refresh, scope: grant.scope };
}

export interface CodeExchange {
  clientId: string | undefined;
  /** The requester's address: a metadata-document client is fetched under its per-address limit. */
  ip?: string | null;
  code: string | undefined;
  codeVerifier: string | undefined;
  redirectUri: string | undefined;
  resource: string | undefined;
}

export async function exchangeCode(deps: TokenDeps, input: CodeExchange): Promise<TokenResponse> {
  const client = await authenticateClient(deps, input.clientId, input.ip ?? null);
  if (!input.code || !input.codeVerifier || !input.redirectUri) throw new AppError('invalid_request', 'code, code_verifier and redirect_uri are required');
  const hash = hashKey(input.code);
  const signer = await deps.signingKeys.current();
  const now = deps.clock.now().toISOString();
  const outcome = await writeTransaction(deps.db, async (tx): Promise<{ tokens?: TokenResponse; error?: AppError }> => {
    if (!(await consumeCode(tx, hash, now))) {
      // RFC 9700 §2.1 / OAuth 2.1 §4.1.2: a replayed code revokes what was issued from it, keys included.
      const previous = await findCode(tx, hash);
      if (previous?.family_id && previous.used_at !== null) await revokeFamily(tx, previous.family_id, now, 'code_replayed');
      return { error: invalidGrant() };
    }
    const code = (await findCode(tx, hash))!;
    // The code is spent from here on, whatever follows: a failed redemption cannot be retried.
    if (code.client_id !== client.id || code.redirect_uri !== input.redirectUri || !verifierMatches(input.codeVerifier, code.code_challenge))
      return { error: invalidGrant() };
    const resource = checkResource(deps, input.resource, code.resource);
    if (!resource.ok) return { error: oauthError('invalid_target') };
    const familyId = newId();
    const user = await findUserStanding(tx, code.user_id);
    if (!user || user.disabled_at !== null) return { error: invalidGrant() };
    await insertFamily(tx, {
      id: familyId,
      client_id: client.id,
      user_id: code.user_id,
      account_id: user.account_id,
      scope: code.scope,
      resource: code.resource,
      created_at: now,
      expires_at: new Date(Date.parse(now) + OAUTH_REFRESH_ABSOLUTE_S * 1000).toISOString(),
      last_used_at: now,
      revoked_at: null,
      revoked_reason: null,
    });
    await setCodeFamily(tx, hash, familyId);
    return { tokens: await mintTokens(deps, tx, signer, { familyId, userId: code.user_id, clientId: client.id, resource: code.resource, scope: code.scope }) };
  });
  if (outcome.error) throw outcome.error;
  deps.log.info({ clientId: client.id }, 'oauth code exchanged');
  return outcome.tokens!;
}

export interface RefreshExchange {
  clientId: string | undefined;
  ip?: string | null;
  refreshToken: string | undefined;
  scope: string | undefined;
  resource: string | undefined;
}

export async function refreshTokens(deps: TokenDeps, input: RefreshExchange): Promise<TokenResponse> {
  const client = await authenticateClient(deps, input.clientId, input.ip ?? null);
  if (!input.refreshToken) throw new AppError('invalid_request', 'refresh_token is required');
  const hash = hashKey(input.refreshToken);
  const signer = await deps.signingKeys.current();
  const now = deps.clock.now().toISOString();
  const outcome = await writeTransaction(deps.db, async (tx): Promise<{ tokens?: TokenResponse; error?: AppError }> => {
    const rt = await findRefreshToken(tx, hash);
    if (!rt || rt.client_id !== client.id) return { error: invalidGrant() };
    if (rt.rotated_at !== null) {
      // Seed §5 rule 4, RFC 9700 §4.14.2: reuse of a rotated refresh token kills the family (and its keys).
      await revokeFamily(tx, rt.family_id, now, 'refresh_token_reused');
      deps.log.warn({ clientId: client.id, familyId: rt.family_id }, 'rotated refresh token presented again: family revoked');
      return { error: invalidGrant() };
    }
    if (rt.family_revoked_at !== null || rt.expires_at <= now || rt.family_expires_at <= now) return { error: invalidGrant() };
    const resource = checkResource(deps, input.resource, rt.resource);
    if (!resource.ok) return { error: oauthError('invalid_target') };
    const granted = splitScope(rt.scope);
    const asked = splitScope(input.scope);
    // RFC 6749 §6: a narrower scope is fine; anything beyond the original grant is not.
    if (asked.some((s) => !granted.includes(s))) return { error: oauthError('invalid_scope') };
    if (!(await rotateRefreshToken(tx, hash, now))) return { error: invalidGrant() };
    await touchFamily(tx, rt.family_id, now);
    const scope = asked.length > 0 ? joinScopes(asked) : rt.scope;
    const tokens = await mintTokens(deps, tx, signer, { familyId: rt.family_id, userId: rt.user_id, clientId: client.id, resource: rt.resource, scope });
    // The refresh token keeps the family's whole grant even when this access token is narrower.
    return { tokens: { ...tokens, scope } };
  });
  if (outcome.error) throw outcome.error;
  return outcome.tokens!;
}
