// What a publishable key may do from a browser (SPEC 4.1 step 4): its own store, its allowed
// products, and only from an origin among its domains — the store's, or the key's own list, which
// counts only while the store still allows it (a removed store domain never widens a key). Order
// creation and the embedded checkout's product read ask the same question here.
import type { Deps } from '../../app.ts';
import { findStore } from '../../db/queries/stores.queries.ts';
import { domainCovered, hostAllowed, requestHost } from '../../domain/domains.ts';
import { forbidden } from '../../errors.ts';
import type { StoreRow } from '../tenancy.ts';
import type { ApiKey } from './authenticate-key.ts';

export interface CheckoutRequest {
  storeId: string;
  productId: string;
  origin?: string | undefined;
  referer?: string | undefined;
}

/** The store the key may sell for from this origin; 403 otherwise. */
export async function publishableAccess(deps: Pick<Deps, 'db'>, key: ApiKey, req: CheckoutRequest): Promise<StoreRow> {
  if (key.store_id !== req.storeId) throw forbidden('This key cannot create orders for this store');
  const allowedProducts = JSON.parse(key.allowed_products) as string[];
  if (allowedProducts.length > 0 && !allowedProducts.includes(req.productId)) throw forbidden('This key cannot create orders for this product');
  const store = await findStore(deps.db, req.storeId);
  if (!store || store.archived_at !== null) throw forbidden('This key cannot create orders for this store');
  const storeDomains = JSON.parse(store.allowed_domains) as string[];
  const domains = key.inherit_domains === 1 ? storeDomains : (JSON.parse(key.allowed_domains) as string[]).filter((d) => domainCovered(d, storeDomains));
  const host = requestHost(req.origin, req.referer);
  // A publishable key lives in a browser page, which always says where it is: a request that says
  // nothing is a server calling, and servers use a secret key.
  if (!host)
    throw forbidden('Origin is missing: a publishable key works only from a web page of an allowed domain (its browser sends Origin); server-to-server calls use a secret key (Authorization: Bearer svc_live_secret_…)');
  if (!hostAllowed(host, domains, key.env === 'test')) throw forbidden(`Origin ${host} is not allowed for this key: add the domain to the store (and the key), or call from an allowed one`);
  return store;
}
