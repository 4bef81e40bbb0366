// Which platform a store's orders go to, and with which credentials (issues 12, 22): the store's own
// connection — its platform module, its base URL or the platform's default, its token sealed at
// rest and opened only here — or else the server's default (`generic` at --fulfillment-url with
// CODRAIL_FULFILLMENT_TOKEN). Everything above this file gets a PlatformAccess and never asks
// which platform it is.
import type { Config } from '../config.ts';
import type { Db } from '../db/connect.ts';
import type { Tx } from '../db/transaction.ts';
import { findConnection, findStoreCountry } from '../db/queries/fulfillment.queries.ts';
import { serverSetting } from '../db/queries/server-settings.queries.ts';
import type { SecretKeys } from '../secret-keys.ts';
import type { OutboundClient } from '../http/outbound/outbound-client.ts';
import { AttemptFailure } from '../outbox/attempt-failure.ts';
import { OutboundError } from '../http/outbound/outbound-error.ts';
import { PLATFORM_READ_FIRST_WAIT_MS, PLATFORM_READ_MAX_WAIT_MS, PLATFORM_READ_TRIES } from '../limits.ts';
import { platformNamed, type Platform } from './index.ts';
import { generic } from './generic/generic.ts';
import type { PlatformSession } from './platform.ts';

export interface PlatformDeps {
  config: Config;
  db: Db;
  secrets: SecretKeys;
  outbound: OutboundClient;
}

export interface PlatformAccess {
  platform: Platform;
  session: PlatformSession;
  /** `store`: the store's own connection; `default`: the server's platform account. */
  source: 'store' | 'default';
  /** Where it goes (an origin: never a path or query that could carry a secret). */
  origin: string;
}

/** Where a store's pushes go, for the outbox's circuit (src/outbox/circuit.ts): its platform connection. */
export const platformDestination = (storeId: string) => `platform:${storeId}`;
export const storeOfDestination = (destination: string) => destination.slice('platform:'.length);

/** The additional authenticated data of a store's sealed token: it opens on this row only. */
export const connectionContext = (storeId: string) => `fulfillment_connections.token_sealed:${storeId}`;
export const hookTokenContext = (storeId: string) => `fulfillment_connections.hook_token_sealed:${storeId}`;

/**
 * The platform URLs the operator configured: this process's settings, else what `codrail serve`
 * recorded in the database (so the CLI connects stores to the server's platform without its
 * environment: issue 22 §1).
 */
export async function operatorUrls(deps: { config: Config; db: Db | Tx }): Promise<Pick<Config, 'fulfillmentUrl' | 'dropiUrl'>> {
  const { config } = deps;
  return {
    fulfillmentUrl: config.fulfillmentUrl ?? (await serverSetting(deps.db, 'fulfillment_url')),
    dropiUrl: config.dropiUrl ?? (await serverSetting(deps.db, 'dropi_url')),
  };
}

/**
 * Where a connection goes and which addresses it may reach: a URL the operator configured may be
 * on this machine (a simulator); one a seller typed may not (unless the operator allows it).
 */
export async function connectionTarget(
  deps: { config: Config; db: Db | Tx },
  platform: Platform,
  c: { base_url: string | null; test: number | boolean; country: string },
): Promise<{ url: string; addresses: 'any' | 'public' } | undefined> {
  const configured = await operatorUrls(deps);
  const operator = new Set([configured.fulfillmentUrl, configured.dropiUrl].filter((u): u is string => u !== undefined));
  const url = c.base_url ?? platform.defaultUrl({ country: c.country, test: Boolean(c.test), config: configured });
  if (url === undefined) return undefined;
  return { url, addresses: operator.has(url) || deps.config.platformUrlsAllowPrivate ? 'any' : 'public' };
}

export function openSession(deps: Pick<PlatformDeps, 'config' | 'outbound'>, platform: Platform, target: { url: string; addresses: 'any' | 'public' }, token: string | undefined): PlatformSession {
  return platform.open({ url: target.url, token, timeoutMs: deps.config.fulfillmentTimeoutMs, outbound: deps.outbound, addresses: target.addresses, intervalMs: deps.config.dropiIntervalMs });
}

export async function platformFor(deps: PlatformDeps, storeId: string): Promise<PlatformAccess | undefined> {
  const connection = await findConnection(deps.db, storeId);
  if (!connection) {
    const url = (await operatorUrls(deps)).fulfillmentUrl;
    if (!url) return undefined;
    return { platform: generic, session: openSession(deps, generic, { url, addresses: 'any' }, deps.config.fulfillmentToken), source: 'default', origin: new URL(url).origin };
  }
  const platform = platformNamed(connection.platform);
  const target = await connectionTarget(deps, platform, { ...connection, country: (await findStoreCountry(deps.db, storeId)) ?? '' });
  if (!target) throw new AttemptFailure('retry', `the store's ${platform.label} connection has no URL: set it with set_fulfillment_credentials --base-url`);
  let token: string;
  try {
    token = deps.secrets.box().open(connection.token_sealed, connectionContext(storeId));
  } catch (error) {
    // A lost or wrong key: the pushes wait (retry) until the credentials are entered again.
    throw new AttemptFailure('retry', `the store's platform credentials cannot be opened (${(error as Error).message}); set them again with set_fulfillment_credentials`);
  }
  return { platform, session: openSession(deps, platform, target, token), source: 'store', origin: new URL(target.url).origin };
}

/**
 * A call made for a person waiting (connecting a store, linking a product, importing cities) that a
 * fragile platform may refuse for a moment (a 5xx, a 429 lockout): tried again a few times with a
 * doubling pause (or its Retry-After, up to the cap) instead of failing the person's command on one
 * hiccup. Only calls that change nothing at the platform go through here: repeating them is safe.
 */
export async function patiently<T>(read: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await read();
    } catch (error) {
      if (!(error instanceof OutboundError) || !error.retryable || error.status === 401 || error.status === 403 || attempt >= PLATFORM_READ_TRIES) throw error;
      const wait = Math.min(PLATFORM_READ_MAX_WAIT_MS, Math.max(PLATFORM_READ_FIRST_WAIT_MS * 2 ** (attempt - 1), error.retryAfterMs ?? 0));
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}
