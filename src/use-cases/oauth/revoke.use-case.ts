// POST /api/oauth/revoke (RFC 7009). A refresh token revokes its whole family, with the API keys made
// through it (issue 19 §2); an access token revokes itself. Unknown tokens, and tokens of another
// client, are answered the same way (200) and change nothing (RFC 7009 §2.2).
import type { Deps } from '../../app.ts';
import { AppError } from '../../errors.ts';
import { findAccessTokenState, findRefreshToken, revokeAccessTokenRow } from '../../db/queries/oauth.queries.ts';
import { writeTransaction } from '../../db/transaction.ts';
import { revokeFamily } from './grants.use-case.ts';
import { ACCESS_TOKEN_PREFIX, verifyAccessTokenSignature } from './access-tokens.ts';
import { hashKey } from '../../domain/keys.ts';
import { REFRESH_TOKEN_PREFIX, authenticateClient } from './token.use-case.ts';

export async function revokeToken(
  deps: Pick<Deps, 'db' | 'clock' | 'config' | 'signingKeys' | 'log' | 'outbound' | 'clientDocuments'>,
  input: { clientId: string | undefined; token: string | undefined; ip?: string | null },
): Promise<void> {
  if (!input.token) throw new AppError('invalid_request', 'token is required');
  const client = await authenticateClient(deps, input.clientId, input.ip ?? null);
  const now = deps.clock.now().toISOString();
  if (input.token.startsWith(REFRESH_TOKEN_PREFIX)) {
    const rt = await findRefreshToken(deps.db, hashKey(input.token));
    if (rt && rt.client_id === client.id) {
      await writeTransaction(deps.db, (tx) => revokeFamily(tx, rt.family_id, now, 'revoked_by_client'));
      deps.log.info({ clientId: client.id, familyId: rt.family_id }, 'oauth refresh token revoked');
    }
    return;
  }
  if (input.token.startsWith(ACCESS_TOKEN_PREFIX)) {
    // An expired token may still be revoked: its signature is what proves it is ours.
    const claims = await verifyAccessTokenSignature(deps, input.token, { ignoreExpiry: true });
    if (!claims) return;
    const state = await findAccessTokenState(deps.db, claims.jti);
    if (state && state.client_id === client.id) await revokeAccessTokenRow(deps.db, claims.jti, now);
  }
}
