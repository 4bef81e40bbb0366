// A webhook endpoint's signing secrets (issue 21 §5): `whsec_` and random characters, shown once,
// sealed at rest like platform credentials (the endpoint id as additional data, so a value copied to
// another row does not open). During a rotation's grace period the previous secret signs too.
import type { EndpointRow } from '../db/queries/webhooks.queries.ts';
import { randomBase62 } from '../domain/keys.ts';
import type { SecretKeys } from '../secret-keys.ts';
import { WEBHOOK_SECRET_CHARS } from '../limits.ts';

export const SECRET_PREFIX = 'whsec_';

export const newEndpointSecret = () => SECRET_PREFIX + randomBase62(WEBHOOK_SECRET_CHARS);

/** The additional authenticated data of an endpoint's sealed secrets. */
export const endpointSecretContext = (endpointId: string) => `webhook_endpoints.secret:${endpointId}`;

/** The secrets that sign an event now: the current one first, then the previous one while its grace lasts. */
export function signingSecrets(secrets: SecretKeys, endpoint: Pick<EndpointRow, 'id' | 'secret_sealed' | 'previous_secret_sealed' | 'previous_secret_expires_at'>, now: string): string[] {
  const box = secrets.box();
  const context = endpointSecretContext(endpoint.id);
  const current = box.open(endpoint.secret_sealed, context);
  const previous = endpoint.previous_secret_sealed && endpoint.previous_secret_expires_at && endpoint.previous_secret_expires_at > now ? box.open(endpoint.previous_secret_sealed, context) : undefined;
  return previous ? [current, previous] : [current];
}
