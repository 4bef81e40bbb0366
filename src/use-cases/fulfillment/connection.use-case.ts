// A store's fulfillment connection and its products' links (MCP-TOOLS.md §6.8 rows 43-48; issue 12).
// Credentials are saved only after the platform accepted them (GET /account), sealed with AES-256-GCM
// (src/secret-keys.ts) and shown as their last four characters; the token itself is never returned,
// logged or stored in clear. Stores without credentials use the server's configured platform account.
import type * as v from 'valibot';
import type { Deps } from '../../app.ts';
import { writeTransaction } from '../../db/transaction.ts';
import { findConnection, retryFailedPushesOfStore, upsertConnection } from '../../db/queries/fulfillment.queries.ts';
import { updateProduct } from '../../db/queries/products.queries.ts';
import type { PlatformClient } from '../../fulfillment/client.ts';
import { OutboundError } from '../../http/outbound/outbound-error.ts';
import { AttemptFailure } from '../../outbox/attempt-failure.ts';
import { clientWith, connectionContext, platformFor } from '../../fulfillment/connections.ts';
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

export const notConnected = () =>
  new AppError('fulfillment_not_connected', 'No fulfillment platform is configured on this server (CODRAIL_FULFILLMENT_URL)', [{ field: 'store_id', message: 'no platform configured' }]);

/** A platform failure on a caller's behalf: its message, retryable unless the request itself was wrong. */
export const platformFailure = (error: unknown, field?: string): AppError => {
  if (error instanceof OutboundError) return fulfillmentError(`The fulfillment platform failed: ${error.message}`, error.retryable, field);
  if (error instanceof AttemptFailure) return fulfillmentError(`The fulfillment platform failed: ${error.message}`, error.kind !== 'permanent', field);
  throw error;
};

async function access(deps: ConnDeps, storeId: string): Promise<PlatformClient> {
  let found;
  try {
    found = await platformFor(deps, storeId);
  } catch (error) {
    throw platformFailure(error);
  }
  if (!found) throw notConnected();
  return found.client;
}

export async function connectionView(deps: ConnDeps, storeId: string): Promise<Out<typeof FulfillmentConnection>> {
  const url = deps.config.fulfillmentUrl;
  const row = url ? await findConnection(deps.db, storeId) : undefined;
  return {
    store_id: storeId,
    source: !url ? 'none' : row ? 'store' : 'default',
    platform: url ? new URL(url).origin : null,
    credential: row ? { masked: `••••${row.token_last4}`, account_id: row.platform_account_id, account_name: row.platform_account_name } : null,
    verified_at: row?.verified_at ?? null,
    last_ok_at: row?.last_ok_at ?? null,
    last_error: row?.last_error ?? null,
    last_error_at: row?.last_error_at ?? null,
  };
}

export async function getFulfillmentConnection(deps: ConnDeps, caller: Caller, input: Out<typeof StoreOnlyInput>) {
  const store = await storeOf(deps, caller, input.store_id);
  return connectionView(deps, store.id);
}

export async function setFulfillmentCredentials(deps: ConnDeps & Pick<Deps, 'clock' | 'log' | 'nudge'>, caller: Caller, input: Out<typeof SetFulfillmentCredentialsInput>) {
  const store = await storeOf(deps, caller, input.store_id);
  if (!deps.config.fulfillmentUrl) throw notConnected();
  let account;
  try {
    account = await clientWith(deps, input.api_token).account();
  } catch (error) {
    if (error instanceof OutboundError && (error.status === 401 || error.status === 403)) throw fieldError('api_token', `the platform refused this token (HTTP ${error.status}); nothing was saved`);
    throw platformFailure(error, 'api_token');
  }
  if (input.account_id !== undefined && input.account_id !== account.id)
    throw fieldError('account_id', `this token belongs to platform account ${account.id}, not ${input.account_id}; nothing was saved`);
  const now = deps.clock.now().toISOString();
  const sealed = deps.secrets.box().seal(input.api_token, connectionContext(store.id));
  const existing = await findConnection(deps.db, store.id);
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
    });
    // Pushes that failed (a bad token, most likely) are tried again now with the new credentials.
    await retryFailedPushesOfStore(tx, store.id, now);
  });
  deps.log.info({ storeId: store.id, platformAccount: account.id, by: caller.actor }, 'fulfillment: store credentials saved');
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
    answer = await (await access(deps, store.id)).products(input.query, page, limit);
  } catch (error) {
    throw error instanceof AppError ? error : platformFailure(error);
  }
  return {
    items: answer.products.map((p) => ({ id: p.id, name: p.name, sku: p.sku ?? null, price: p.price ?? null, stock: p.stock ?? null, variants: p.variants })),
    has_more: answer.has_more,
    ...(answer.has_more ? { next_cursor: encodeCursor([String(page + 1), input.query ?? '', String(limit)]) } : {}),
  };
}

export async function linkProductToFulfillment(deps: ConnDeps & Pick<Deps, 'clock'>, caller: Caller, input: Out<typeof LinkProductInput>) {
  const { product, store } = await productOf(deps, caller, input.product_id);
  let remote;
  try {
    remote = await (await access(deps, store.id)).product(input.fulfillment_product_id);
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
