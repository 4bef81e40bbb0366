// `codrail secrets rotate` (README "Secrets at rest"): after CODRAIL_SECRET_KEY changed (the old key
// kept in CODRAIL_SECRET_KEY_PREVIOUS, or the key file next to the database), every stored secret
// sealed with an older key is opened and sealed again with the current one. Run it, check the
// count, then drop the old key.
import type { Deps } from '../app.ts';
import { allConnections, resealConnection } from '../db/queries/fulfillment.queries.ts';
import { connectionContext, hookTokenContext } from '../platforms/connections.ts';
import { allSigningKeySecrets, sealSigningKey } from '../db/queries/oauth.queries.ts';
import { signingKeyContext } from './oauth/signing-keys.ts';
import { allWhatsappTokens, resealWhatsappToken } from '../db/queries/whatsapp.queries.ts';
import { whatsappTokenContext } from '../whatsapp/senders.ts';
import { allEndpointSecrets, updateEndpoint } from '../db/queries/webhooks.queries.ts';
import { endpointSecretContext } from '../webhooks/endpoint-secrets.ts';

/** One kind of stored secret: its rows, what each holds sealed, under which context, and how a row is written back. */
interface SealedKind<R> {
  rows: R[];
  label(row: R): string;
  context(row: R): string;
  /** The row's sealed values (null: none); an OAuth key of an older release may still be clear JSON. */
  sealed(row: R): (string | null)[];
  write(row: R, resealed: (string | null)[]): Promise<unknown>;
}

export async function rotateSecrets(deps: Pick<Deps, 'db' | 'secrets'>) {
  const box = deps.secrets.box();
  let resealed = 0;
  let current = 0;
  const failed: { store_id: string; error: string }[] = [];
  const isClear = (x: string) => x.startsWith('{');
  async function rotate<R>(kind: SealedKind<R>): Promise<void> {
    for (const row of kind.rows) {
      const values = kind.sealed(row);
      if (!values.some((x) => x !== null && (isClear(x) || box.isStale(x)))) {
        current++;
        continue;
      }
      try {
        const context = kind.context(row);
        await kind.write(row, values.map((x) => (x === null ? null : box.seal(isClear(x) ? x : box.open(x, context), context))));
        resealed++;
      } catch (error) {
        failed.push({ store_id: kind.label(row), error: (error as Error).message });
      }
    }
  }
  // Stores' platform tokens (issue 12) and their webhook receiver paths (issue 22). Both are sealed
  // with the connection's context, so one row opens and reseals as one.
  await rotate({
    rows: await allConnections(deps.db),
    label: (r) => r.store_id,
    context: (r) => connectionContext(r.store_id),
    sealed: (r) => [r.token_sealed],
    write: (r, [token]) => resealConnection(deps.db, r.store_id, { token_sealed: token!, hook_token_sealed: r.hook_token_sealed }),
  });
  await rotate({
    rows: (await allConnections(deps.db)).filter((r) => r.hook_token_sealed !== null),
    label: (r) => `${r.store_id} (platform webhook path)`,
    context: (r) => hookTokenContext(r.store_id),
    sealed: (r) => [r.hook_token_sealed],
    write: (r, [hook]) => resealConnection(deps.db, r.store_id, { token_sealed: r.token_sealed, hook_token_sealed: hook! }),
  });
  // Stores' own WhatsApp Cloud API tokens (issue 19 §4).
  await rotate({
    rows: await allWhatsappTokens(deps.db),
    label: (r) => `${r.store_id} (WhatsApp token)`,
    context: (r) => whatsappTokenContext(r.store_id),
    sealed: (r) => [r.token_sealed],
    write: (r, [token]) => resealWhatsappToken(deps.db, r.store_id, token!),
  });
  // Webhook endpoints' signing secrets, the previous one of a rotation too (issue 21 §5).
  await rotate({
    rows: await allEndpointSecrets(deps.db),
    label: (r) => `webhook endpoint ${r.id}`,
    context: (r) => endpointSecretContext(r.id),
    sealed: (r) => [r.secret_sealed, r.previous_secret_sealed],
    write: (r, [secret, previous]) => updateEndpoint(deps.db, r.id, { secret_sealed: secret!, previous_secret_sealed: previous ?? null }),
  });
  // The OAuth signing keys' private halves (issue 13 §4), sealed in clear rows by older releases too.
  await rotate({
    rows: await allSigningKeySecrets(deps.db),
    label: (r) => `oauth signing key ${r.kid}`,
    context: (r) => signingKeyContext(r.kid),
    sealed: (r) => [r.private_jwk],
    write: (r, [jwk]) => sealSigningKey(deps.db, r.kid, jwk!),
  });
  return { key: deps.secrets.source(), key_id: box.currentKeyId, resealed, already_current: current, failed };
}
