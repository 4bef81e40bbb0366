// A store's fulfillment connection and its products' links (MCP-TOOLS.md §6.8 rows 43-48; issues 12, 22).
// A connection names its platform (`generic`, `dropi`) and may name a base URL; it does not depend on
// the calling process's environment (the CLI reads the platform URL `codrail serve` recorded).
// Credentials are saved only after the platform accepted them (a live call), sealed with AES-256-GCM
// (src/secret-keys.ts) and shown as their last four characters; the token itself is never returned,
// logged or stored in clear. Stores without credentials use the server's configured platform account.
import type * as v from 'valibot';
import type { Deps } from '../../app.ts';
import { writeTransaction } from '../../db/transaction.ts';
import { findConnection, findStoreCountry, retryFailedPushesOfStore, upsertConnection } from '../../db/queries/fulfillment.queries.ts';
import { HOOK_TOKEN_CHARS } from '../../limits.ts';
import { updateProduct } from '../../db/queries/products.queries.ts';
import type { PlatformSession } from '../../platforms/platform.ts';
import { platformNamed, PLATFORM_NAMES } from '../../platforms/index.ts';
import { hashKey, randomBase62 } from '../../domain/keys.ts';
import { OutboundError } from '../../http/outbound/outbound-error.ts';
import { AttemptFailure } from '../../outbox/attempt-failure.ts';
import { connectionContext, connectionTarget, hookTokenContext, openSession, operatorUrls, patiently, platformFor } from '../../platforms/connections.ts';
import { AppError, fieldError, fulfillmentError } from '../../errors.ts';
import type { Caller } from '../caller.ts';
import { clampLimit, decodeCursor, encodeCursor } from '../pagination.ts';
import { reloadProduct } from '../products/product-view.ts';
import { productOf, storeOf } from '../tenancy.ts';
import type {
  ConnectionTest,
  FulfillmentConnection,
  FulfillmentProductPage,
  LinkProductInput,
  ListFulfillmentProductsInput,
  SetFulfillmentCredentialsInput,
  StoreOnlyInput,
  UnlinkProductInput,
} from './fulfillment.schemas.ts';

type Out<S extends v.GenericSchema> = v.InferOutput<S>;
type ConnDeps = Pick<Deps, 'db' | 'config' | 'secrets' | 'outbound'>;
type ConnectionRow = NonNullable<Awaited<ReturnType<typeof findConnection>>>;

export const notConnected = () =>
  new AppError('fulfillment_not_connected', 'No fulfillment platform is configured on this server (CODRAIL_FULFILLMENT_URL)', [{ field: 'store_id', message: 'no platform configured' }]);

/** A platform failure on a caller's behalf: its message, retryable unless the request itself was wrong. */
export const platformFailure = (error: unknown, field?: string): AppError => {
  if (error instanceof OutboundError) return fulfillmentError(`The fulfillment platform failed: ${error.message}`, error.retryable, field);
  if (error instanceof AttemptFailure) return fulfillmentError(`The fulfillment platform failed: ${error.message}`, error.kind !== 'permanent', field);
  throw error;
};

async function access(deps: ConnDeps, storeId: string): Promise<PlatformSession> {
  let found;
  try {
    found = await platformFor(deps, storeId);
  } catch (error) {
    throw platformFailure(error);
  }
  if (!found) throw notConnected();
  return found.session;
}

/** Where a store's platform reports statuses when its webhooks are unsigned: the connection's own path under the public base URL. */
const hookUrl = (deps: Pick<Deps, 'config' | 'secrets'>, row: ConnectionRow) =>
  row.hook_token_sealed ? `${deps.config.baseUrl}/api/fulfillment/hooks/${deps.secrets.box().open(row.hook_token_sealed, hookTokenContext(row.store_id))}` : null;

export async function connectionView(deps: ConnDeps, storeId: string): Promise<Out<typeof FulfillmentConnection>> {
  const row = await findConnection(deps.db, storeId);
  const fallback = (await operatorUrls(deps)).fulfillmentUrl;
  const platform = row ? platformNamed(row.platform) : undefined;
  const target = row && platform ? await connectionTarget(deps, platform, { ...row, country: (await findStoreCountry(deps.db, storeId)) ?? '' }) : undefined;
  const url = row ? target?.url : fallback;
  return {
    store_id: storeId,
    source: row ? 'store' : fallback ? 'default' : 'none',
    platform: url ? new URL(url).origin : null,
    platform_name: row ? (row.platform as Out<typeof FulfillmentConnection>['platform_name']) : fallback ? 'generic' : null,
    base_url: row?.base_url ?? null,
    test: row?.test === 1,
    credential: row ? { masked: `••••${row.token_last4}`, account_id: row.platform_account_id, account_name: row.platform_account_name } : null,
    verified_at: row?.verified_at ?? null,
    last_ok_at: row?.last_ok_at ?? null,
    last_error: row?.last_error ?? null,
    last_error_at: row?.last_error_at ?? null,
    paused: row?.paused_at ? { since: row.paused_at, reason: row.paused_reason ?? 'the platform refused the token' } : null,
    webhook_url: row && platform?.webhook.auth === 'path' ? hookUrl(deps, row) : null,
  };
}

export async function getFulfillmentConnection(deps: ConnDeps, caller: Caller, input: Out<typeof StoreOnlyInput>) {
  const store = await storeOf(deps, caller, input.store_id);
  return connectionView(deps, store.id);
}

export async function setFulfillmentCredentials(deps: ConnDeps & Pick<Deps, 'clock' | 'log' | 'nudge' | 'orderEvents'>, caller: Caller, input: Out<typeof SetFulfillmentCredentialsInput>) {
  const store = await storeOf(deps, caller, input.store_id);
  const existing = await findConnection(deps.db, store.id);
  const name = input.platform ?? existing?.platform ?? 'generic';
  const platform = platformNamed(name);
  // A new platform starts from its own defaults; the same platform keeps what was set unless given again.
  const same = existing?.platform === name;
  const baseUrl = input.base_url ?? (same ? existing.base_url : null);
  const test = input.test ?? (same ? existing.test === 1 : false);
  const target = await connectionTarget(deps, platform, { base_url: baseUrl, test, country: store.country });
  if (!target)
    throw name === 'generic'
      ? notConnected()
      : fieldError('base_url', `${platform.label} has no host for ${store.country}: give base_url`);
  let account;
  try {
    account = await patiently(() => openSession(deps, platform, target, input.api_token).account());
  } catch (error) {
    if (error instanceof OutboundError && (error.status === 401 || error.status === 403)) throw fieldError('api_token', `${platform.label} refused this token (HTTP ${error.status}${error.message.includes(':') ? `${error.message.slice(error.message.lastIndexOf(':'))}` : ''}); nothing was saved`);
    throw platformFailure(error, 'api_token');
  }
  if (input.account_id !== undefined && account.id === null) throw fieldError('account_id', `${platform.label} does not say whose token it is: omit account_id`);
  if (input.account_id !== undefined && input.account_id !== account.id)
    throw fieldError('account_id', `this token belongs to platform account ${account.id}, not ${input.account_id}; nothing was saved`);
  const now = deps.clock.now().toISOString();
  const sealed = deps.secrets.box().seal(input.api_token, connectionContext(store.id));
  // An unsigned platform reports to a path only it knows; the path stays when credentials change (the seller registered it once).
  let hook = existing?.hook_token_hash ? { hash: existing.hook_token_hash, sealed: existing.hook_token_sealed } : { hash: null, sealed: null };
  if (platform.webhook.auth === 'path' && hook.hash === null) {
    const token = randomBase62(HOOK_TOKEN_CHARS);
    hook = { hash: hashKey(token), sealed: deps.secrets.box().seal(token, hookTokenContext(store.id)) };
  }
  await writeTransaction(deps.db, async (tx) => {
    await upsertConnection(tx, {
      store_id: store.id,
      token_sealed: sealed,
      token_last4: input.api_token.slice(-4),
      platform_account_id: account.id,
      platform_account_name: account.name,
      verified_at: now,
      last_ok_at: now,
      last_error: null,
      last_error_at: null,
      created_at: existing?.created_at ?? now,
      updated_at: now,
      platform: name,
      base_url: baseUrl,
      test: test ? 1 : 0,
      paused_at: null,
      paused_reason: null,
      hook_token_hash: hook.hash,
      hook_token_sealed: hook.sealed,
    });
    // Pushes that failed (a bad or expired token, most likely) are tried again now with the new credentials.
    const retried = await retryFailedPushesOfStore(tx, store.id, now);
    if (existing?.paused_at)
      await deps.orderEvents.record(tx, { order_id: null, store_id: store.id, type: 'fulfillment.resumed', actor: caller.actor, data: { platform: name, released: Number(retried.numUpdatedRows) }, created_at: now });
  });
  deps.log.info({ storeId: store.id, platform: name, platformAccount: account.id, by: caller.actor, resumed: Boolean(existing?.paused_at) }, 'fulfillment: store credentials saved');
  deps.nudge.fulfillment();
  return connectionView(deps, store.id);
}

/** A live check with the credentials the store pushes with; persists nothing. */
export async function testFulfillmentConnection(deps: ConnDeps & Pick<Deps, 'clock'>, caller: Caller, input: Out<typeof StoreOnlyInput>): Promise<Out<typeof ConnectionTest>> {
  const store = await storeOf(deps, caller, input.store_id);
  const source = (await findConnection(deps.db, store.id)) ? 'store' : 'default';
  const started = performance.now();
  const result = { store_id: store.id, source, account: null, error: null } as const;
  try {
    const account = await (await access(deps, store.id)).account();
    // A live check that passes ends nothing by itself: a paused connection resumes with set_fulfillment_credentials.
    return { ...result, ok: true, account, latency_ms: Math.round(performance.now() - started) };
  } catch (error) {
    if (error instanceof AppError && error.code === 'fulfillment_not_connected') throw error;
    const message = error instanceof AppError || error instanceof OutboundError || error instanceof AttemptFailure ? error.message : String(error);
    return { ...result, ok: false, error: message, latency_ms: Math.round(performance.now() - started) };
  }
}

export async function listFulfillmentProducts(deps: ConnDeps, caller: Caller, input: Out<typeof ListFulfillmentProductsInput>): Promise<Out<typeof FulfillmentProductPage>> {
  const store = await storeOf(deps, caller, input.store_id);
  const key = decodeCursor(input.cursor, 3);
  // The cursor carries the query and page size it was made for (the platform pages by number): a
  // later page keeps that size, so changing `limit` midway neither skips nor repeats products.
  if (key && key[1] !== (input.query ?? '')) throw new AppError('invalid_cursor', 'This cursor belongs to another query', [{ field: 'cursor', message: 'made for another query' }]);
  const page = key ? Number(key[0]) : 1;
  const limit = key ? Number(key[2]) : clampLimit(input.limit);
  if (!Number.isInteger(page) || page < 1 || !Number.isInteger(limit) || limit !== clampLimit(limit)) throw new AppError('invalid_cursor', 'Invalid cursor', [{ field: 'cursor', message: 'invalid' }]);
  let answer;
  try {
    const session = await access(deps, store.id);
    answer = await patiently(() => session.products(input.query, page, limit));
  } catch (error) {
    throw error instanceof AppError ? error : platformFailure(error);
  }
  return {
    items: answer.products,
    has_more: answer.has_more,
    ...(answer.has_more ? { next_cursor: encodeCursor([String(page + 1), input.query ?? '', String(limit)]) } : {}),
  };
}

export async function linkProductToFulfillment(deps: ConnDeps & Pick<Deps, 'clock'>, caller: Caller, input: Out<typeof LinkProductInput>) {
  const { product, store } = await productOf(deps, caller, input.product_id);
  let remote;
  try {
    const session = await access(deps, store.id);
    remote = await patiently(() => session.product(input.fulfillment_product_id));
  } catch (error) {
    if (error instanceof OutboundError && error.kind === 'status' && error.status === 404) throw fieldError('fulfillment_product_id', `the platform has no product ${input.fulfillment_product_id} (see list_fulfillment_products)`);
    throw error instanceof AppError ? error : platformFailure(error, 'fulfillment_product_id');
  }
  const variants = remote.variants ?? [];
  const variant = input.fulfillment_variant_id;
  if (variant !== undefined && !variants.some((x) => x.id === variant))
    throw fieldError('fulfillment_variant_id', variants.length ? `not a variant of ${remote.id}: use one of ${variants.map((x) => x.id).join(', ')}` : `${remote.id} has no variants: omit fulfillment_variant_id`);
  if (variant === undefined && variants.length > 0) throw fieldError('fulfillment_variant_id', `${remote.id} has variants: choose one of ${variants.map((x) => `${x.id} (${x.name})`).join(', ')}`);
  await updateProduct(deps.db, product.id, {
    fulfillment_product_ref: remote.id,
    fulfillment_variant_ref: variant ?? null,
    fulfillment_product_name: remote.name,
    fulfillment_unlinked_at: null,
    updated_at: deps.clock.now().toISOString(),
  });
  return reloadProduct(deps, product.id);
}

export async function unlinkProductFromFulfillment(deps: Pick<Deps, 'db' | 'config' | 'clock'>, caller: Caller, input: Out<typeof UnlinkProductInput>) {
  const { product } = await productOf(deps, caller, input.product_id);
  // A product that was never linked has nothing to remove (its pushes keep matching by SKU); unlinking twice changes nothing.
  if (product.fulfillment_product_ref !== null) {
    const now = deps.clock.now().toISOString();
    await updateProduct(deps.db, product.id, { fulfillment_product_ref: null, fulfillment_variant_ref: null, fulfillment_product_name: null, fulfillment_unlinked_at: now, updated_at: now });
  }
  return reloadProduct(deps, product.id);
}
