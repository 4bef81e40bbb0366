// What a buyer sees at /l/<slug> (SPEC 13): a published landing page of an open store selling an
// active product with packs — anything else is not found, exactly like an unknown slug. And the
// order its plain HTML form posts when the buyer's browser runs no script: priced from the chosen
// pack (what the page showed), then every rule of POST /api/orders/create in mode 1.
import { createHash } from 'node:crypto';
import type { Deps } from '../../app.ts';
import { findLandingBySlug } from '../../db/queries/landings.queries.ts';
import { findProduct, listPacks } from '../../db/queries/products.queries.ts';
import { findStore } from '../../db/queries/stores.queries.ts';
import { countryProfile, OFFICIAL_COUNTRIES, POSTAL_CODE_REQUIRED } from '../../domain/countries.ts';
import { AppError } from '../../errors.ts';
import { DEFAULT_PACK } from '../../limits.ts';
import { storeMoney } from '../stores/store-money.ts';
import { defaultPack, type PackRow } from '../products/product-view.ts';
import { createOrder, type OrderOutcome, type OrderTrace } from '../orders/create-order.use-case.ts';
import type { LandingRow, ProductRow, StoreRow } from '../tenancy.ts';
import type { StoredSection } from './landings.use-case.ts';
import { imageSet, imageUrl, type ProductImage } from '../products/images.ts';
import type * as v from 'valibot';

export interface PublicPack {
  code: string;
  quantity: number;
  price: number;
  priceText: string;
  /** Major units; null when the pack shows no compare-at price. */
  compareAt: number | null;
  compareAtText: string | null;
  label: string | null;
  isDefault: boolean;
}

/** An image as the buyer's page renders it: hosted images carry their sizes and their AVIF/WebP/JPEG srcsets. */
export interface PageImage {
  src: string;
  alt?: string | undefined;
  width?: number;
  height?: number;
  srcset?: { avif: string; webp: string; jpeg: string };
}

/** A product as a buyer's checkout shows it: the landing page, or the embedded checkout. */
export interface PublicProduct {
  product: { id: string; name: string; description: string | null; images: { url: string; alt?: string }[] };
  /** The product's images as the page renders them, cover first. */
  pictures: PageImage[];
  packs: PublicPack[];
  store: { id: string; name: string; country: string; currency: string; orderPrefix: string; supportPhone: string | null; deliveryTime: string | null; guarantee: string | null };
  /** The checkout's label for `departamento`: Departamento, Estado, Provincia, Región. */
  regionLabel: string;
  /** Official countries get region → city selectors fed by /api/geo/cities. */
  citySelector: boolean;
  /** The official catalog's regions (empty elsewhere: free text). */
  regions: string[];
  postalCodeRequired: boolean;
  /** Changes whenever anything the page shows changes: the page's ETag. */
  version: string;
}

export interface PublicLanding extends PublicProduct {
  id: string;
  slug: string;
  title: string;
  seoTitle: string | null;
  seoDescription: string | null;
  sections: StoredSection[];
  theme: { primary_color?: string; font?: string };
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function publicPacks(deps: Pick<Deps, 'config'>, store: StoreRow, packs: readonly PackRow[]): PublicPack[] {
  const money = storeMoney(deps, store);
  const chosen = defaultPack(packs);
  return packs.map((p) => ({
    code: p.code,
    quantity: p.units,
    price: money.major(p.price_minor),
    priceText: money.format(p.price_minor),
    compareAt: p.compare_at_price_minor === null ? null : money.major(p.compare_at_price_minor),
    compareAtText: p.compare_at_price_minor === null ? null : money.format(p.compare_at_price_minor),
    label: p.label,
    isDefault: p === chosen,
  }));
}

async function sellable(deps: Pick<Deps, 'db'>, landing: LandingRow | undefined): Promise<{ landing: LandingRow; store: StoreRow; product: ProductRow; packs: PackRow[] } | undefined> {
  if (!landing || landing.published !== 1) return undefined;
  const [store, product, packs] = await Promise.all([findStore(deps.db, landing.store_id), findProduct(deps.db, landing.product_id), listPacks(deps.db, landing.product_id)]);
  if (!store || store.archived_at !== null || !product || product.status !== 'active' || packs.length === 0) return undefined;
  return { landing, store, product, packs };
}

/** The buyer-facing view of a sellable product; `extra` parts (the landing's edit time) enter its version. */
export async function publicProduct(deps: Pick<Deps, 'config' | 'catalogs'>, store: StoreRow, product: ProductRow, packs: readonly PackRow[], extra: readonly string[] = []): Promise<PublicProduct> {
  const profile = countryProfile(store.country);
  const citySelector = OFFICIAL_COUNTRIES.includes(store.country);
  const catalog = citySelector ? await deps.catalogs.get(store.country, 'official') : undefined;
  const version = createHash('sha256')
    .update([...extra, product.id, product.updated_at, store.updated_at, deps.config.baseUrl, catalog?.version ?? 0].join('|'))
    .digest('base64url')
    .slice(0, 22);
  const stored = JSON.parse(product.images) as ProductImage[];
  return {
    product: { id: product.id, name: product.name, description: product.description, images: stored.map((img) => ({ url: imageUrl(img, deps.config.baseUrl), ...(img.alt && { alt: img.alt }) })) },
    // Hosted images as <picture> sources relative to the page; one stored before hosting keeps its URL until `products images rehost`.
    pictures: stored.map((img) => {
      const set = imageSet(img);
      return set ? { src: set.src, alt: img.alt, width: set.width, height: set.height, srcset: set.srcset } : { src: (img as { url: string }).url, alt: img.alt };
    }),
    packs: publicPacks(deps, store, packs),
    store: { id: store.id, name: store.name, country: store.country, currency: store.currency, orderPrefix: store.order_prefix ?? '', supportPhone: store.support_phone, deliveryTime: store.delivery_time, guarantee: store.guarantee },
    regionLabel: capitalize(profile?.regionLabel ?? 'departamento'),
    citySelector: catalog !== undefined,
    regions: catalog ? Object.keys(catalog.regions) : [],
    postalCodeRequired: POSTAL_CODE_REQUIRED.has(store.country),
    version,
  };
}

export async function findPublicLanding(deps: Pick<Deps, 'db' | 'config' | 'catalogs'>, slug: string): Promise<PublicLanding | undefined> {
  const found = await sellable(deps, await findLandingBySlug(deps.db, slug.toLowerCase()));
  if (!found) return undefined;
  const { landing, store, product, packs } = found;
  return {
    ...(await publicProduct(deps, store, product, packs, [landing.id, landing.updated_at])),
    id: landing.id,
    slug: landing.slug,
    title: landing.title,
    seoTitle: landing.seo_title,
    seoDescription: landing.seo_description,
    sections: JSON.parse(landing.sections) as StoredSection[],
    theme: JSON.parse(landing.theme) as PublicLanding['theme'],
  };
}

/** The fields the page's form posts (application/x-www-form-urlencoded), all text. */
export type LandingFormFields = Record<string, string | undefined>;

const FORM_FIELDS = ['nombre', 'telefono', 'departamento', 'ciudad', 'direccion', 'barrio', 'referencia', 'distrito', 'colonia', 'codigo_postal', 'website'] as const;

/**
 * The no-script order: the page priced it from the chosen pack, so the server does the same
 * (unit = the pack's price, quantity 1), then runs createOrder in mode 1.
 */
export async function placeLandingFormOrder(
  deps: Deps,
  page: PublicLanding,
  fields: LandingFormFields,
  request: { ip: string | null; origin?: string | undefined; idempotencyKey?: string | undefined },
  trace: OrderTrace,
): Promise<OrderOutcome> {
  const code = fields.pack?.trim() || page.packs.find((p) => p.isDefault)?.code || DEFAULT_PACK;
  const pack = page.packs.find((p) => p.code === code);
  if (!pack) throw new AppError('invalid_input', 'Invalid data', [{ field: 'pack', message: `Unknown pack "${code}"` }]);
  const body: Record<string, unknown> = { landing_page_id: page.id, pack: pack.code, quantity: 1, unit_price: pack.price, total_price: pack.price };
  for (const name of FORM_FIELDS) if (fields[name] !== undefined && fields[name] !== '') body[name] = fields[name];
  for (const name of ['nombre', 'telefono', 'departamento', 'ciudad', 'direccion'] as const) body[name] ??= '';
  return createOrder(deps, { body, ip: request.ip, origin: request.origin, idempotencyKey: request.idempotencyKey }, trace);
}
