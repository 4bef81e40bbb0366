// `codrail secrets rotate` (README "Secrets at rest"): after CODRAIL_SECRET_KEY changed (the old key
// kept in CODRAIL_SECRET_KEY_PREVIOUS, or the key file next to the database), every stored secret
// sealed with an older key is opened and sealed again with the current one. Run it, check the
// count, then drop the old key.
import type { Deps } from '../app.ts';
import { allConnections, resealConnection } from '../db/queries/fulfillment.queries.ts';
import { connectionContext } from '../fulfillment/connections.ts';
import { allSigningKeySecrets, sealSigningKey } from '../db/queries/oauth.queries.ts';
import { signingKeyContext } from './oauth/signing-keys.ts';
import { allWhatsappTokens, resealWhatsappToken } from '../db/queries/whatsapp.queries.ts';
import { whatsappTokenContext } from '../whatsapp/senders.ts';
import { allEndpointSecrets, updateEndpoint } from '../db/queries/webhooks.queries.ts';
import { endpointSecretContext } from '../webhooks/endpoint-secrets.ts';

export async function rotateSecrets(deps: Pick<Deps, 'db' | 'secrets'>) {
  const box = deps.secrets.box();
  let resealed = 0;
  let current = 0;
  const failed: { store_id: string; error: string }[] = [];
  for (const row of await allConnections(deps.db)) {
    if (!box.isStale(row.token_sealed)) {
      current++;
      continue;
    }
    try {
      const context = connectionContext(row.store_id);
      await resealConnection(deps.db, row.store_id, box.seal(box.open(row.token_sealed, context), context));
      resealed++;
    } catch (error) {
      failed.push({ store_id: row.store_id, error: (error as Error).message });
    }
  }
  // Stores' own WhatsApp Cloud API tokens (issue 19 §4).
  for (const row of await allWhatsappTokens(deps.db)) {
    if (!box.isStale(row.token_sealed!)) {
      current++;
      continue;
    }
    try {
      const context = whatsappTokenContext(row.store_id);
      await resealWhatsappToken(deps.db, row.store_id, box.seal(box.open(row.token_sealed!, context), context));
      resealed++;
    } catch (error) {
      failed.push({ store_id: `${row.store_id} (WhatsApp token)`, error: (error as Error).message });
    }
  }
  // Webhook endpoints' signing secrets, the previous one of a rotation too (issue 21 §5).
  for (const row of await allEndpointSecrets(deps.db)) {
    const sealed = [row.secret_sealed, row.previous_secret_sealed].filter((x): x is string => x !== null);
    if (!sealed.some((x) => box.isStale(x))) {
      current++;
      continue;
    }
    try {
      const context = endpointSecretContext(row.id);
      const reseal = (x: string | null) => (x === null ? null : box.seal(box.open(x, context), context));
      await updateEndpoint(deps.db, row.id, { secret_sealed: reseal(row.secret_sealed)!, previous_secret_sealed: reseal(row.previous_secret_sealed) });
      resealed++;
    } catch (error) {
      failed.push({ store_id: `webhook endpoint ${row.id}`, error: (error as Error).message });
    }
  }
  // The OAuth signing keys' private halves (issue 13 §4), sealed in clear rows by older releases too.
  for (const row of await allSigningKeySecrets(deps.db)) {
    const context = signingKeyContext(row.kid);
    if (!row.private_jwk.startsWith('{') && !box.isStale(row.private_jwk)) {
      current++;
      continue;
    }
    try {
      await sealSigningKey(deps.db, row.kid, box.seal(row.private_jwk.startsWith('{') ? row.private_jwk : box.open(row.private_jwk, context), context));
      resealed++;
    } catch (error) {
      failed.push({ store_id: `oauth signing key ${row.kid}`, error: (error as Error).message });
    }
  }
  return { key: deps.secrets.source(), key_id: box.currentKeyId, resealed, already_current: current, failed };
}
