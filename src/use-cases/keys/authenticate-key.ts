// Resolves the credential of a request to an API key row (SPEC 4.1 step 3, SPEC 5).
import type { Selectable } from 'kysely';
import type { Deps } from '../../app.ts';
import type { ApiKeysTable } from '../../db/tables/index.ts';
import { findKeyByHash, touchKey } from '../../db/queries/keys.queries.ts';
import { NEVER_GRANTED, splitScope } from '../../domain/oauth/scopes.ts';
import { KEY_TOUCH_INTERVAL_MS } from '../../limits.ts';
import type { Caller } from '../caller.ts';
import { classifyKey, hashKey } from '../../domain/keys.ts';
import { unauthorized } from '../../errors.ts';
import { bearerToken } from '../../domain/bearer.ts';

export type ApiKey = Selectable<ApiKeysTable>;

export interface PresentedCredential {
  /** The `x-svc-api-key` header. */
  apiKey?: string | undefined;
  /** The `Authorization` header. */
  authorization?: string | undefined;
}

export const credentialPresent = (c: PresentedCredential): boolean => Boolean(c.apiKey || c.authorization);

/** A key is live until its revocation time (which a `keys roll --grace` puts in the future). */
export const keyActive = (key: ApiKey, now: Date): boolean => key.revoked_at === null || key.revoked_at > now.toISOString();

/**
 * What a secret key may do: its stored scopes (issue 19 §2), enforced on /api/v1, /api/mcp and
 * order creation exactly as a token's. A key without stored scopes may do nothing (fail closed), and
 * never a scope OAuth cannot grant (issue 10).
 */
export const keyScopes = (key: Pick<ApiKey, 'scopes'>): ReadonlySet<string> => new Set(splitScope(key.scopes ?? undefined).filter((s) => !NEVER_GRANTED.has(s)));

/**
 * The key a request presents, checked: well-formed, known and not revoked; anything else is 401.
 * Publishable keys come in `x-svc-api-key` or Bearer; secret keys only as Bearer.
 */
export async function authenticateKey(deps: Pick<Deps, 'db' | 'clock'>, credential: PresentedCredential): Promise<ApiKey> {
  let text: string | undefined;
  let viaHeader = false;
  if (credential.apiKey !== undefined) {
    text = credential.apiKey.trim();
    viaHeader = true;
  } else if (credential.authorization !== undefined) {
    text = bearerToken(credential.authorization);
    if (!text) throw unauthorized('Authorization must be "Bearer <key>"');
  }
  if (!text) throw unauthorized('Missing credential: send a publishable key in x-svc-api-key or Authorization: Bearer');
  const kind = classifyKey(text);
  if (!kind) throw unauthorized('Malformed API key');
  if (kind.type === 'secret' && viaHeader) throw unauthorized('Secret keys are sent as Authorization: Bearer');
  const key = await findKeyByHash(deps.db, hashKey(text));
  if (!key || !keyActive(key, deps.clock.now())) throw unauthorized('Invalid or revoked API key');
  return key;
}

/**
 * The credential of the account API (/api/v1): a secret key as Bearer, acting on every store of its
 * account with its own scopes. An OAuth access token is valid only for /api/mcp (seed OAuth rule 2)
 * and a publishable key only creates orders: both are 401 here, as is anything missing, unknown or revoked.
 */
export async function authenticateAccountKey(deps: Pick<Deps, 'db' | 'clock'>, authorization: string | undefined): Promise<Caller> {
  if (!authorization?.trim()) throw unauthorized('Missing credential: send a secret key as Authorization: Bearer svc_live_secret_…');
  if (bearerToken(authorization)?.startsWith('svc_oauth_')) throw unauthorized('OAuth access tokens are valid only for /api/mcp: use a secret key here');
  const key = await authenticateKey(deps, { authorization });
  if (key.type !== 'secret') throw unauthorized('Publishable keys only create orders: the account API needs a secret key');
  const now = deps.clock.now();
  if (key.last_used_at === null || now.getTime() - Date.parse(key.last_used_at) > KEY_TOUCH_INTERVAL_MS) await touchKey(deps.db, key.id, now.toISOString());
  return { credential: 'secret_key', accountId: key.account_id, scopes: keyScopes(key), actor: `key:${key.id}`, subjectId: key.id, keyId: key.id };
}
