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
import { findOrder, type OrderRow } from '../db/queries/orders.queries.ts';
import { AppError } from '../errors.ts';
import { sees, type Caller } from './caller.ts';

export type StoreRow = Selectable<StoresTable>;
export type ProductRow = Selectable<ProductsTable>;
export type LandingRow = Selectable<LandingPagesTable>;
export type KeyRow = Selectable<ApiKeysTable>;

export const notFoundIn = (field: string, what: string) => new AppError('not_found', `${what} not found`, [{ field, message: `Unknown ${what.toLowerCase()} in this account` }]);

const lower = (id: string) => id.toLowerCase();

export async function storeOf(deps: Pick<Deps, 'db'>, caller: Caller, id: string, field = 'store_id'): Promise<StoreRow> {
  const store = await findStore(deps.db, lower(id));
  if (!store || !sees(caller, store.account_id)) throw notFoundIn(field, 'Store');
  return store;
}

export async function productOf(deps: Pick<Deps, 'db'>, caller: Caller, id: string, field = 'product_id'): Promise<{ product: ProductRow; store: StoreRow }> {
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

export async function orderOf(deps: Pick<Deps, 'db'>, caller: Caller, id: string, field = 'order_id'): Promise<{ order: OrderRow; store: StoreRow }> {
  const order = await findOrder(deps.db, lower(id));
  const store = order && (await findStore(deps.db, order.store_id));
  if (!order || !store || !sees(caller, store.account_id)) throw notFoundIn(field, 'Order');
  return { order, store };
}
