// Fulfillment operations (MCP-TOOLS.md §6.8 rows 43-51): a store's platform connection, the platform
// catalog and product links, and pushes through the outbox. Inputs and outputs.
import * as v from 'valibot';
import { PUSH_BATCH_MAX, SYNC_MAX_ORDERS } from '../../limits.ts';
import { booleanInput, integerInput, orderRefInput, textInput, uuidInput } from '../fields.ts';
import { cursorInput, limitInput } from '../pagination.ts';
import { PLATFORM_NAMES } from '../../platforms/platform.ts';
import type { FulfillmentJobState } from '../../db/tables/index.ts';

const storeId = uuidInput('store_id', 'Store id (see list_stores).');
const productId = uuidInput('product_id', 'Product id (from list_products).');
const orderId = orderRefInput('order_id', 'Order id or number (1001, TD-1001).');
const platformId = (field: string, description: string) => textInput(field, 1, 100, description);

export const StoreOnlyInput = v.strictObject({ store_id: storeId });

export const SetFulfillmentCredentialsInput = v.strictObject({
  store_id: storeId,
  api_token: textInput('api_token', 8, 1024, "The platform's integration token; checked live, stored encrypted, never shown again."),
  account_id: v.optional(platformId('account_id', 'Expected platform account id; refused if the token belongs to another.')),
  platform: v.optional(v.pipe(v.picklist(PLATFORM_NAMES, `platform must be one of ${PLATFORM_NAMES.join(', ')}`), v.description('generic (default) or dropi.'))),
  base_url: v.optional(
    v.pipe(
      v.string('base_url must be a string'),
      v.maxLength(500, 'base_url must be at most 500 characters'),
      v.regex(/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/, 'base_url must be an http(s) URL without query or fragment'),
      v.transform((u) => u.replace(/\/+$/, '')),
      v.description("Omitted: the platform's default."),
    ),
  ),
  test: v.optional(booleanInput('test', "The platform's test host.")),
});

export const FulfillmentConnection = v.object({
  store_id: v.string(),
  source: v.pipe(v.picklist(['store', 'default', 'none']), v.description("store: its own credentials; default: the server's platform account; none: no platform configured.")),
  platform: v.pipe(v.nullable(v.string()), v.description('Platform origin.')),
  platform_name: v.nullable(v.picklist(PLATFORM_NAMES)),
  base_url: v.nullable(v.string()),
  test: v.boolean(),
  credential: v.nullable(v.object({ masked: v.string(), account_id: v.nullable(v.string()), account_name: v.nullable(v.string()) })),
  verified_at: v.nullable(v.string()),
  last_ok_at: v.nullable(v.string()),
  last_error: v.nullable(v.string()),
  last_error_at: v.nullable(v.string()),
  paused: v.pipe(v.nullable(v.object({ since: v.string(), reason: v.string() })), v.description('Token refused: pushes wait for new credentials.')),
  webhook_url: v.pipe(v.nullable(v.string()), v.description('Register with the platform; keep private.')),
});

export const ConnectionTest = v.object({
  store_id: v.string(),
  ok: v.boolean(),
  source: v.picklist(['store', 'default']),
  account: v.nullable(v.object({ id: v.nullable(v.string()), name: v.nullable(v.string()) })),
  error: v.nullable(v.string()),
  latency_ms: v.number(),
});

export const ListFulfillmentProductsInput = v.strictObject({
  store_id: storeId,
  query: v.optional(textInput('query', 1, 100, 'Name or SKU to search for.')),
  cursor: cursorInput,
  limit: limitInput,
});

export const FulfillmentProduct = v.object({
  id: v.pipe(v.string(), v.description('Platform product id for link_product_to_fulfillment.')),
  name: v.string(),
  sku: v.nullable(v.string()),
  price: v.nullable(v.number()),
  stock: v.nullable(v.number()),
  variants: v.array(v.object({ id: v.string(), name: v.string() })),
});

export const FulfillmentProductPage = v.object({
  items: v.array(FulfillmentProduct),
  has_more: v.boolean(),
  next_cursor: v.optional(v.string()),
});

export const LinkProductInput = v.strictObject({
  product_id: productId,
  fulfillment_product_id: platformId('fulfillment_product_id', 'Platform product id (from list_fulfillment_products).'),
  fulfillment_variant_id: v.optional(platformId('fulfillment_variant_id', 'Platform variant id, when the product has variants.')),
});

export const UnlinkProductInput = v.strictObject({ product_id: productId });

export const PushOrderInput = v.strictObject({ order_id: orderId });

export const PushResult = v.object({
  order_id: v.string(),
  order_number: v.number(),
  pushed: v.pipe(v.boolean(), v.description('The platform has the order.')),
  already_pushed: v.pipe(v.boolean(), v.description('It was pushed before: nothing was sent again.')),
  remote_id: v.nullable(v.string()),
  state: v.pipe(v.string(), v.description('Outbox state: done, queued, failed (retried with backoff), dead, held, in_flight.')),
  attempts: v.number(),
  last_error: v.nullable(v.string()),
});

export const PushConfirmedOrdersInput = v.strictObject({
  store_id: storeId,
  max_orders: v.optional(integerInput('max_orders', 1, PUSH_BATCH_MAX, `At most this many orders, oldest first (default 20, max ${PUSH_BATCH_MAX}).`)),
  dry_run: v.optional(booleanInput('dry_run', 'List what would be pushed; send nothing.')),
});

export const PushBatchResult = v.object({
  store_id: v.string(),
  dry_run: v.boolean(),
  results: v.array(
    v.object({
      ...PushResult.entries,
      skipped: v.pipe(v.nullable(v.string()), v.description('Why it was not pushed (city needs review), if so.')),
    }),
  ),
  has_more: v.pipe(v.boolean(), v.description('More confirmed orders wait: call again.')),
});

export const SyncFulfillmentStatusInput = v.strictObject({
  store_id: storeId,
  order_ids: v.optional(v.pipe(v.array(orderId), v.minLength(1, 'order_ids must not be empty'), v.maxLength(SYNC_MAX_ORDERS, `order_ids takes at most ${SYNC_MAX_ORDERS}`), v.description('Only these pushed orders.'))),
  updated_since: v.optional(v.pipe(v.string('updated_since must be a string'), v.isoTimestamp('updated_since must be an ISO-8601 timestamp such as 2026-11-24T00:00:00.000Z'), v.description('Only orders changed since then (ISO-8601).'))),
  cursor: cursorInput,
});

export const SyncResult = v.object({
  store_id: v.string(),
  checked: v.number(),
  changed: v.number(),
  orders: v.array(v.object({ order_id: v.string(), order_number: v.number(), status: v.string(), platform_status: v.nullable(v.string()), tracking_number: v.nullable(v.string()), error: v.nullable(v.string()) })),
  has_more: v.pipe(v.boolean(), v.description('More pushed orders to read: call again with next_cursor.')),
  next_cursor: v.optional(v.string()),
});

/** The outbox states (SPEC 7): held waits for review or confirmation; dead needs a person. */
export const JOB_STATES: readonly FulfillmentJobState[] = ['queued', 'held', 'in_flight', 'failed', 'dead', 'done', 'cancelled'];

export const ListPushJobsInput = v.strictObject({
  state: v.optional(v.pipe(v.picklist(JOB_STATES, `state must be one of ${JOB_STATES.join(', ')}`), v.description('Only jobs in this state.'))),
  store_id: v.optional(storeId),
  limit: limitInput,
});

export const PushJobList = v.object({
  backlog: v.object({ pending: v.number(), oldest_pending_since: v.nullable(v.string()), oldest_pending_age_s: v.nullable(v.number()) }),
  counts: v.pipe(v.record(v.string(), v.number()), v.description('Jobs per state.')),
  jobs: v.array(
    v.object({
      action: v.pipe(v.string(), v.description('push, or cancel (the platform side of a cancellation).')),
      store_id: v.string(),
      store_name: v.string(),
      waiting_for: v.pipe(v.nullable(v.string()), v.description('What a held job waits for, and what releases it.')),
      order_id: v.string(),
      order_number: v.number(),
      state: v.string(),
      attempts: v.number(),
      next_attempt_at: v.nullable(v.string()),
      last_error: v.nullable(v.string()),
      remote_id: v.nullable(v.string()),
      updated_at: v.string(),
    }),
  ),
});

export const ReplayPushesInput = v.strictObject({
  order_id: v.optional(orderId),
  all_dead: v.optional(booleanInput('all_dead', 'Every dead push of the account (instead of order_id).')),
});

export const ReplayResult = v.object({
  replayed: v.pipe(v.number(), v.description('Jobs due again now, with a fresh attempt budget.')),
  orders: v.array(v.string()),
});
