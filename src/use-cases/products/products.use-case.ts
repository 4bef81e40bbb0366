// Products (MCP-TOOLS.md §6.4): created as drafts, sold once active, archived out of checkout;
// duplicated into the same or another store; stock is informational (checkout does not count it).
import type * as v from 'valibot';
import type { Deps } from '../../app.ts';
import { newId } from '../../ids.ts';
import { writeTransaction, type Tx } from '../../db/transaction.ts';
import { answeringUnique } from '../../db/unique-violation.ts';
import { findProductBySku, insertPack, insertProduct, listPacks, listPacksOf, listProductPage, updateProduct as writeProduct } from '../../db/queries/products.queries.ts';
import { landingsOfProduct, unpublishLandingsWhere } from '../../db/queries/landings.queries.ts';
import { belowUnitFloor } from '../../domain/pricing.ts';
import { conflict, invalidState } from '../../errors.ts';
import type { Caller } from '../caller.ts';
import { clampLimit, keysetPage, pageAfter } from '../pagination.ts';
import { storeMoney } from '../stores/store-money.ts';
import { productOf, storeOf, type ProductRow } from '../tenancy.ts';
import { ladderRows, type PackFields } from './pack-ladder.ts';
import { productDetail, productSummary, reloadProduct } from './product-view.ts';
import { hostImageInputs, storedImages, storeEncoded, type HostDeps } from './image-hosting.use-case.ts';
import type {
  ArchiveProductInput,
  CreateProductInput,
  DuplicateProductInput,
  GetProductInput,
  ListProductsInput,
  Product,
  ProductPage,
  SetProductStockInput,
  UpdateProductInput,
} from './product.schemas.ts';

type Out<S extends v.GenericSchema> = v.InferOutput<S>;

const skuTaken = (sku: string) => conflict(`SKU ${sku} already exists in this store`, [{ field: 'sku', message: 'already used by another product of the store' }]);

/**
 * The early answer, before images are fetched. The unique index decides (two requests may both
 * pass here): each write below turns its refusal into the same 409 (answeringUnique).
 */
async function freeSku(db: Deps['db'] | Tx, storeId: string, sku: string | null, exceptId?: string): Promise<void> {
  if (!sku) return;
  const other = await findProductBySku(db, storeId, sku);
  if (other && other.id !== exceptId) throw skuTaken(sku);
}

async function insertPacks(tx: Tx, productId: string, rows: readonly PackFields[]): Promise<void> {
  for (const row of rows) await insertPack(tx, { id: newId(), product_id: productId, ...row });
}

export async function createProduct(deps: HostDeps, caller: Caller, input: Out<typeof CreateProductInput>): Promise<Out<typeof Product>> {
  const store = await storeOf(deps, caller, input.store_id);
  const money = storeMoney(deps, store);
  const floor = input.price_floor === undefined ? 0 : money.minor('price_floor', input.price_floor);
  const packs = ladderRows(money, floor, input.packs ?? []);
  const sku = input.sku || null;
  await freeSku(deps.db, store.id, sku);
  // Last, as the slowest check: images are fetched and re-encoded only for an otherwise valid product.
  const images = await hostImageInputs(deps, input.images ?? []);
  const id = newId();
  const now = deps.clock.now().toISOString();
  await answeringUnique(writeTransaction(deps.db, async (tx) => {
    await storeEncoded(tx, images.encoded, now);
    await insertProduct(tx, {
      id,
      store_id: store.id,
      name: input.name,
      sku,
      status: input.status,
      fulfillment_product_ref: null,
      fulfillment_variant_ref: null,
      fulfillment_product_name: null,
      fulfillment_unlinked_at: null,
      description: input.description || null,
      images: JSON.stringify(images.entries),
      stock: input.stock ?? null,
      stock_note: null,
      stock_updated_at: input.stock === undefined ? null : now,
      min_unit_price_minor: floor,
      created_at: now,
      updated_at: now,
    });
    await insertPacks(tx, id, packs);
  }), { 'products(store_id,sku)': () => skuTaken(String(sku)) });
  return reloadProduct(deps, id);
}

export async function getProduct(deps: Pick<Deps, 'db' | 'config'>, caller: Caller, input: Out<typeof GetProductInput>) {
  const { product, store } = await productOf(deps, caller, input.product_id);
  return productDetail(deps, product, store);
}

export async function listProducts(deps: Pick<Deps, 'db'>, caller: Caller, input: Out<typeof ListProductsInput>): Promise<Out<typeof ProductPage>> {
  if (input.store_id !== undefined) await storeOf(deps, caller, input.store_id);
  const limit = clampLimit(input.limit);
  const rows = await listProductPage(deps.db, {
    accountId: caller.accountId,
    storeId: input.store_id?.toLowerCase(),
    status: input.status,
    text: input.query,
    linked: input.linked,
    stockBelow: input.stock_below,
    after: pageAfter(input.cursor),
    limit: limit + 1,
  });
  const packs = await listPacksOf(deps.db, rows.slice(0, limit).map((r) => r.id));
  return keysetPage(rows, limit, (r) =>
    productSummary(
      r,
      r.currency,
      packs.filter((p) => p.product_id === r.id),
    ),
  );
}

export async function updateProduct(deps: HostDeps, caller: Caller, input: Out<typeof UpdateProductInput>) {
  const { product, store } = await productOf(deps, caller, input.product_id);
  if (product.status === 'archived' && input.status !== undefined)
    throw invalidState('The product is archived', [{ field: 'status', message: 'an archived product stays archived; duplicate_product makes a new draft' }]);
  const sku = input.sku === undefined ? undefined : input.sku || null;
  if (sku !== undefined) await freeSku(deps.db, store.id, sku, product.id);
  // The product's own hosted images are kept by URL, never fetched again.
  const images = input.images === undefined ? undefined : await hostImageInputs(deps, input.images, storedImages(product.images));
  const now = deps.clock.now().toISOString();
  await answeringUnique(writeTransaction(deps.db, async (tx) => {
    if (images) await storeEncoded(tx, images.encoded, now);
    await writeProduct(tx, product.id, {
      ...(input.name !== undefined && { name: input.name }),
      ...(sku !== undefined && { sku }),
      ...(input.description !== undefined && { description: input.description || null }),
      ...(images !== undefined && { images: JSON.stringify(images.entries) }),
      ...(input.status !== undefined && { status: input.status }),
      updated_at: now,
    });
  }), { 'products(store_id,sku)': () => skuTaken(String(sku)) });
  return reloadProduct(deps, product.id);
}

/** Out of checkout for good; refused while a published landing page sells it, unless those go offline too. */
export async function archiveProduct(deps: Pick<Deps, 'db' | 'clock' | 'config'>, caller: Caller, input: Out<typeof ArchiveProductInput>) {
  const { product } = await productOf(deps, caller, input.product_id);
  if (product.status === 'archived') return reloadProduct(deps, product.id);
  const published = (await landingsOfProduct(deps.db, product.id)).filter((l) => l.published === 1);
  if (published.length > 0 && !input.unpublish_landings)
    throw invalidState(`${published.length} published landing page(s) sell this product: ${published.map((l) => l.slug).join(', ')}`, [
      { field: 'unpublish_landings', message: 'pass unpublish_landings: true to take them offline, or unpublish them first' },
    ]);
  const now = deps.clock.now().toISOString();
  await writeTransaction(deps.db, async (tx) => {
    await unpublishLandingsWhere(tx, { productId: product.id }, now);
    await writeProduct(tx, product.id, { status: 'archived', updated_at: now });
  });
  return reloadProduct(deps, product.id);
}

function copyName(name: string, sameStore: boolean): string {
  return sameStore ? `${name} (copia)`.slice(0, 200) : name;
}

/** A new draft with the content and images; packs and floor too when the currency matches; never the fulfillment link. */
export async function duplicateProduct(deps: Pick<Deps, 'db' | 'clock' | 'config'>, caller: Caller, input: Out<typeof DuplicateProductInput>) {
  const { product, store } = await productOf(deps, caller, input.product_id);
  const target = input.target_store_id === undefined ? store : await storeOf(deps, caller, input.target_store_id, 'target_store_id');
  if (target.account_id !== store.account_id) throw conflict('Products are copied within one account', [{ field: 'target_store_id', message: 'a store of the same account' }]);
  const sameStore = target.id === store.id;
  let sku: string | null = input.sku === undefined ? (sameStore ? null : product.sku) : input.sku || null;
  if (input.sku === undefined && sku && (await findProductBySku(deps.db, target.id, sku))) sku = null;
  await freeSku(deps.db, target.id, sku);
  const withPrices = input.copy_packs !== false && target.currency === store.currency;
  const money = storeMoney(deps, target);
  const packs = withPrices ? (await listPacks(deps.db, product.id)).map(({ id: _id, product_id: _p, ...rest }) => rest) : [];
  // The target store's currency may refuse decimals the source's allowed.
  packs.forEach((p, i) => money.minor(`packs.${i}.price`, p.price_minor / 100));
  const floor = withPrices ? product.min_unit_price_minor : 0;
  const id = newId();
  const now = deps.clock.now().toISOString();
  await answeringUnique(writeTransaction(deps.db, async (tx) => {
    const copy: ProductRow = {
      ...product,
      id,
      store_id: target.id,
      name: input.name ?? copyName(product.name, sameStore),
      sku,
      status: 'draft',
      fulfillment_product_ref: null,
      fulfillment_variant_ref: null,
      fulfillment_product_name: null,
      fulfillment_unlinked_at: null,
      stock: null,
      stock_note: null,
      stock_updated_at: null,
      min_unit_price_minor: floor,
      created_at: now,
      updated_at: now,
    };
    await insertProduct(tx, copy);
    await insertPacks(tx, id, packs.filter((p) => !belowUnitFloor(p, floor)));
  }), { 'products(store_id,sku)': () => skuTaken(String(sku)) });
  return reloadProduct(deps, id);
}

export async function setProductStock(deps: Pick<Deps, 'db' | 'clock' | 'config'>, caller: Caller, input: Out<typeof SetProductStockInput>) {
  const { product } = await productOf(deps, caller, input.product_id);
  const now = deps.clock.now().toISOString();
  await writeProduct(deps.db, product.id, { stock: input.quantity, stock_note: input.reason || null, stock_updated_at: now, updated_at: now });
  return reloadProduct(deps, product.id);
}
