// Every id an account operation receives is resolved here, inside the caller's account: an unknown
// id and another account's id give the same not_found, with the field and a hint naming the tool
// that returns such ids (MCP-TOOLS.md §5.4, §5.14).
import type { Selectable } from 'kysely';
import type { Deps } from '../app.ts';
import type { ApiKeysTable, LandingPagesTable, ProductsTable, StoresTable } from '../db/tables/index.ts';
import { findStore } from '../db/queries/stores.queries.ts';
import { findProduct } from '../db/queries/products.queries.ts';
import { findLanding } from '../db/queries/landings.queries.ts';
import { findKey } from '../db/queries/keys.queries.ts';
import { findOrder, findOrdersByNumbers, type OrderRow } from '../db/queries/orders.queries.ts';
import { UUID_PATTERN } from '../ids.ts';
import { AppError } from '../errors.ts';
import { sees, type Caller } from './caller.ts';

export type StoreRow = Selectable<StoresTable>;
export type ProductRow = Selectable<ProductsTable>;
export type LandingRow = Selectable<LandingPagesTable>;
export type KeyRow = Selectable<ApiKeysTable>;

export const notFoundIn = (field: string, what: string) => new AppError('not_found', `${what} not found`, [{ field, message: `Unknown ${what.toLowerCase()} in this account` }]);

const lower = (id: string) => id.toLowerCase();

export async function storeOf(deps: Pick<Deps, 'db'>, caller: Pick<Caller, 'accountId'>, id: string, field = 'store_id'): Promise<StoreRow> {
  const store = await findStore(deps.db, lower(id));
  if (!store || !sees(caller, store.account_id)) throw notFoundIn(field, 'Store');
  return store;
}

export async function productOf(deps: Pick<Deps, 'db'>, caller: Pick<Caller, 'accountId'>, id: string, field = 'product_id'): Promise<{ product: ProductRow; store: StoreRow }> {
  const product = await findProduct(deps.db, lower(id));
  const store = product && (await findStore(deps.db, product.store_id));
  if (!product || !store || !sees(caller, store.account_id)) throw notFoundIn(field, 'Product');
  return { product, store };
}

export async function landingOf(deps: Pick<Deps, 'db'>, caller: Caller, id: string, field = 'landing_page_id'): Promise<{ landing: LandingRow; store: StoreRow }> {
  const landing = await findLanding(deps.db, lower(id));
  const store = landing && (await findStore(deps.db, landing.store_id));
  if (!landing || !store || !sees(caller, store.account_id)) throw notFoundIn(field, 'Landing page');
  return { landing, store };
}

export async function keyOf(deps: Pick<Deps, 'db'>, caller: Caller, id: string, field = 'key_id'): Promise<KeyRow> {
  const key = await findKey(deps.db, lower(id));
  if (!key || !sees(caller, key.account_id)) throw notFoundIn(field, 'Key');
  return key;
}

/**
 * An order as support staff and buyers name it (issue 24 §7): its id, or its order number — 1001,
 * or TD-1001 with the store's prefix — resolved inside the caller's account like any id. A number
 * several of the account's stores have is refused, naming how to say which (or the CLI's `--store`).
 */
export async function orderOf(deps: Pick<Deps, 'db'>, caller: Pick<Caller, 'accountId'>, ref: string, field = 'order_id', storeId?: string): Promise<{ order: OrderRow; store: StoreRow }> {
  const text = ref.trim();
  let order: OrderRow | undefined;
  if (UUID_PATTERN.test(text)) order = await findOrder(deps.db, lower(text));
  else {
    const digits = /\d+$/.exec(text)?.[0] ?? '';
    // "T21001" may be store T2's 1001 or store T's 21001: each split whose number has no leading zero.
    const splits = [...digits].map((_, i) => ({ prefix: text.slice(0, text.length - digits.length + i).toUpperCase(), number: digits.slice(i) })).filter((s) => !s.number.startsWith('0') && s.number.length <= 12);
    const found = splits.length === 0 ? [] : await findOrdersByNumbers(deps.db, [...new Set(splits.map((s) => Number(s.number)))], caller.accountId);
    // The CLI's `--store` says which store's number it is.
    const matches = found.filter((o) => (storeId === undefined || o.store_id === lower(storeId)) && splits.some((s) => Number(s.number) === o.order_number && (s.prefix === '' || s.prefix === (o.store_prefix ?? '').toUpperCase())));
    if (matches.length > 1)
      throw new AppError('invalid_input', `Order number ${text} is in ${matches.length} stores`, [
        { field, message: `${text} is an order number of ${matches.length} stores: give the order id${matches.every((m) => m.store_prefix) ? `, or the number with its store's prefix (${matches.map((m) => `${m.store_prefix}${m.order_number}`).join(', ')})` : ''}` },
      ]);
    const { store_prefix: _prefix, ...row } = matches[0] ?? ({} as { store_prefix?: unknown });
    order = matches[0] ? (row as OrderRow) : undefined;
  }
  const store = order && (await findStore(deps.db, order.store_id));
  if (!order || !store || !sees(caller, store.account_id)) throw notFoundIn(field, 'Order');
  return { order, store };
}

/** An order's number as its buyer and store see it: with the store's prefix (TD-1001), or #1001. */
export const displayNumber = (order: { order_number: number }, store: { order_prefix: string | null }): string => `${store.order_prefix || '#'}${order.order_number}`;
