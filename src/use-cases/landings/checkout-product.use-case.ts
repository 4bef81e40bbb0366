// The embedded checkout's read (SPEC 13; issue 11): a product's packs and prices for a publishable
// key, from an origin the key allows — what checkout.js renders its form from. Public data, but
// read through the key so that only the merchant's domains embed it.
import type { Deps } from '../../app.ts';
import { findProduct, listPacks } from '../../db/queries/products.queries.ts';
import { AppError, unauthorized } from '../../errors.ts';
import { UUID_PATTERN } from '../../ids.ts';
import { authenticateKey, type PresentedCredential } from '../keys/authenticate-key.ts';
import { publishableAccess } from '../keys/checkout-access.ts';
import { publicProduct, type PublicProduct } from './public-landing.use-case.ts';

export interface CheckoutProductRequest extends PresentedCredential {
  storeId: string;
  productId: string;
  origin?: string | undefined;
  referer?: string | undefined;
}

const unknownProduct = () => new AppError('not_found', 'Product not found', [{ field: 'product_id', message: 'Unknown or unavailable product' }]);

export async function checkoutProduct(deps: Pick<Deps, 'db' | 'clock' | 'config' | 'catalogs'>, req: CheckoutProductRequest): Promise<PublicProduct & { sandbox: boolean }> {
  for (const [field, id] of [['store_id', req.storeId], ['product_id', req.productId]] as const)
    if (!UUID_PATTERN.test(id)) throw new AppError('invalid_input', 'Invalid data', [{ field, message: `${field} must be a UUID` }]);
  const key = await authenticateKey(deps, req);
  if (key.type !== 'publishable') throw unauthorized('The embedded checkout takes a publishable key: a secret key never goes on a web page');
  const store = await publishableAccess(deps, key, { storeId: req.storeId.toLowerCase(), productId: req.productId.toLowerCase(), origin: req.origin, referer: req.referer });
  const product = await findProduct(deps.db, req.productId.toLowerCase());
  if (!product || product.store_id !== store.id || product.status !== 'active') throw unknownProduct();
  const packs = await listPacks(deps.db, product.id);
  if (packs.length === 0) throw unknownProduct();
  return { ...(await publicProduct(deps, store, product, packs, [key.id])), sandbox: key.env === 'test' };
}
