// Which platform credentials an order's store pushes with (issue 12): the store's own connection,
// sealed at rest and opened only here, or else the configured default (CODRAIL_FULFILLMENT_TOKEN).
// The platform itself is one, configured by URL; without a URL nothing is connected.
import type { Config } from '../config.ts';
import type { Db } from '../db/connect.ts';
import { findConnection } from '../db/queries/fulfillment.queries.ts';
import type { SecretKeys } from '../secret-keys.ts';
import type { OutboundClient } from '../http/outbound/outbound-client.ts';
import { AttemptFailure } from '../outbox/attempt-failure.ts';
import { PlatformClient } from './client.ts';

export interface PlatformDeps {
  config: Config;
  db: Db;
  secrets: SecretKeys;
  outbound: OutboundClient;
}

export interface PlatformAccess {
  client: PlatformClient;
  /** `store`: the store's own credentials; `default`: the configured platform account. */
  source: 'store' | 'default';
}

/** Where a store's pushes go, for the outbox's circuit (src/outbox/circuit.ts): its platform connection. */
export const platformDestination = (storeId: string) => `platform:${storeId}`;

/** The additional authenticated data of a store's sealed token: it opens on this row only. */
export const connectionContext = (storeId: string) => `fulfillment_connections.token_sealed:${storeId}`;

export const clientWith = (deps: Pick<PlatformDeps, 'config' | 'outbound'>, token: string | undefined) =>
  new PlatformClient({ url: deps.config.fulfillmentUrl!, token, timeoutMs: deps.config.fulfillmentTimeoutMs, outbound: deps.outbound });

export async function platformFor(deps: PlatformDeps, storeId: string): Promise<PlatformAccess | undefined> {
  const { config } = deps;
  if (!config.fulfillmentUrl) return undefined;
  const connection = await findConnection(deps.db, storeId);
  if (!connection) return { client: clientWith(deps, config.fulfillmentToken), source: 'default' };
  let token: string;
  try {
    token = deps.secrets.box().open(connection.token_sealed, connectionContext(storeId));
  } catch (error) {
    // A lost or wrong key: the pushes wait (retry) until the credentials are entered again.
    throw new AttemptFailure('retry', `the store's platform credentials cannot be opened (${(error as Error).message}); set them again with set_fulfillment_credentials`);
  }
  return { client: clientWith(deps, token), source: 'store' };
}
