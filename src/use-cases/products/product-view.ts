// How a product looks to callers: packs in major units with their floors, the price floor, images
// (hosted ones by their URL on this server, src/use-cases/products/images.ts).
import type { Selectable } from 'kysely';
import type * as v from 'valibot';
import type { Deps } from '../../app.ts';
import type { ProductPacksTable } from '../../db/tables/index.ts';
import { findProduct, listPacks, productLandingCounts } from '../../db/queries/products.queries.ts';
import { findStore } from '../../db/queries/stores.queries.ts';
import { packFloorMinor } from '../../domain/pricing.ts';
import { storeMoney, type StoreMoney } from '../stores/store-money.ts';
import type { ProductRow, StoreRow } from '../tenancy.ts';
import type { Pack, Product, ProductSummary } from './product.schemas.ts';
import { imageUrl, isHosted, type ProductImage } from './images.ts';

type Out<S extends v.GenericSchema> = v.InferOutput<S>;
export type PackRow = Selectable<ProductPacksTable>;

/** The pack a landing page pre-selects: the flagged one, else the smallest. */
export const defaultPack = <P extends Pick<PackRow, 'is_default' | 'units'>>(packs: readonly P[]): P | undefined =>
  packs.find((p) => p.is_default === 1) ?? [...packs].sort((a, b) => a.units - b.units)[0];

export function packView(p: PackRow, store: StoreRow, unitFloorMinor: number, money: StoreMoney): Out<typeof Pack> {
  return {
    code: p.code,
    quantity: p.units,
    price: money.major(p.price_minor),
    price_formatted: money.format(p.price_minor),
    compare_at_price: p.compare_at_price_minor === null ? null : money.major(p.compare_at_price_minor),
    min_price: p.min_price_minor === null ? null : money.major(p.min_price_minor),
    floor: money.major(packFloorMinor(p, store.max_discount_pct, unitFloorMinor)),
    label: p.label,
    is_default: p.is_default === 1,
  };
}

export function productSummary(p: ProductRow, currency: string, packs: readonly PackRow[]): Out<typeof ProductSummary> {
  const shown = defaultPack(packs);
  return {
    id: p.id,
    store_id: p.store_id,
    name: p.name,
    sku: p.sku,
    status: p.status,
    currency,
    price: shown ? shown.price_minor / 100 : null,
    stock: p.stock,
    linked: p.fulfillment_product_ref !== null,
    created_at: p.created_at,
  };
}

/** An image as callers see it: a URL always (the largest JPEG of a hosted image), and a hosted image's id and size. */
export function imageView(entry: ProductImage, baseUrl: string): Out<typeof Product>['images'][number] {
  const alt = entry.alt === undefined || entry.alt === '' ? {} : { alt: entry.alt };
  if (!isHosted(entry)) return { url: entry.url, ...alt };
  return { url: imageUrl(entry, baseUrl), id: entry.id, ...alt, width: entry.width, height: entry.height, ...(entry.source !== undefined && { source: entry.source }) };
}

export async function productDetail(deps: Pick<Deps, 'db' | 'config'>, p: ProductRow, store: StoreRow): Promise<Out<typeof Product>> {
  const [packs, landings] = await Promise.all([listPacks(deps.db, p.id), productLandingCounts(deps.db, p.id)]);
  const money = storeMoney(deps, store);
  return {
    ...productSummary(p, store.currency, packs),
    description: p.description,
    images: (JSON.parse(p.images) as ProductImage[]).map((entry) => imageView(entry, deps.config.baseUrl)),
    stock_updated_at: p.stock_updated_at,
    price_floor: money.major(p.min_unit_price_minor),
    packs: packs.map((pack) => packView(pack, store, p.min_unit_price_minor, money)),
    default_pack: defaultPack(packs)?.code ?? null,
    fulfillment_product_ref: p.fulfillment_product_ref,
    fulfillment: {
      product_id: p.fulfillment_product_ref,
      variant_id: p.fulfillment_variant_ref,
      name: p.fulfillment_product_name,
      unlinked_at: p.fulfillment_unlinked_at,
    },
    landing_pages: landings,
    updated_at: p.updated_at || p.created_at,
  };
}

/** The product as it is now (after a write). */
export async function reloadProduct(deps: Pick<Deps, 'db' | 'config'>, id: string) {
  const product = (await findProduct(deps.db, id))!;
  return productDetail(deps, product, (await findStore(deps.db, product.store_id))!);
}
