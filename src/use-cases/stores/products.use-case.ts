import * as v from 'valibot';
import type { Deps } from '../../app.ts';
import { newId } from '../../ids.ts';
import { NAME_MAX, SLUG_PATTERN } from '../../limits.ts';
import { writeTransaction } from '../../db/transaction.ts';
import {
  findLandingBySlug,
  findProduct,
  findProductBySku,
  insertLanding,
  insertPack,
  insertProduct,
  listLandings,
  listPacks,
  listProducts,
} from '../../db/queries/stores.queries.ts';
import { toMajor, toMinor } from '../../domain/money.ts';
import { packFloorMinor } from '../../domain/pricing.ts';
import { conflict, fieldError, notFound } from '../../errors.ts';
import { parseWith } from '../validate.ts';
import { getStore } from './stores.use-case.ts';

const money = (field: string) =>
  v.pipe(
    v.number(`${field} must be a number`),
    v.check((n) => toMinor(n) !== undefined, `${field} must be a non-negative amount with at most 2 decimals`),
  );

export const PackSchema = v.object({
  code: v.pipe(v.string(), v.trim(), v.regex(/^[1-9]\d{0,2}x$/, 'pack code must look like 1x, 2x, 12x')),
  price: money('price'),
  min_price: v.optional(money('min_price')),
});

export const CreateProductSchema = v.object({
  store_id: v.pipe(v.string(), v.uuid('store must be a UUID')),
  name: v.pipe(v.string(), v.trim(), v.minLength(1, 'name is required'), v.maxLength(NAME_MAX)),
  sku: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(64))),
  packs: v.pipe(v.array(PackSchema), v.minLength(1, 'at least one pack is required'), v.maxLength(20)),
});

/** Parses `CODE:PRICE[:MIN_PRICE]` as the CLI takes it. */
export function parsePackSpec(spec: string): { code: string; price: number; min_price?: number } {
  const [code, price, min, ...rest] = spec.split(':');
  if (!code || price === undefined || rest.length > 0) throw fieldError('pack', `"${spec}" is not CODE:PRICE[:MIN_PRICE]`);
  const num = (s: string) => (s.trim() === '' ? NaN : Number(s));
  return min === undefined ? { code, price: num(price) } : { code, price: num(price), min_price: num(min) };
}

export async function createProduct(deps: Pick<Deps, 'db' | 'clock'>, raw: unknown) {
  const input = parseWith(CreateProductSchema, raw);
  const store = await getStore(deps, input.store_id);
  if (input.sku && (await findProductBySku(deps.db, store.id, input.sku))) throw conflict(`SKU ${input.sku} already exists in this store`);
  const codes = input.packs.map((p) => p.code);
  if (new Set(codes).size !== codes.length) throw fieldError('pack', 'pack codes must be unique');
  const id = newId();
  await writeTransaction(deps.db, async (tx) => {
    await insertProduct(tx, { id, store_id: store.id, name: input.name, sku: input.sku ?? null, status: 'active', fulfillment_product_ref: null, created_at: deps.clock.now().toISOString() });
    let position = 0;
    for (const pack of input.packs)
      await insertPack(tx, {
        id: newId(),
        product_id: id,
        code: pack.code,
        units: Number.parseInt(pack.code, 10),
        price_minor: toMinor(pack.price)!,
        min_price_minor: pack.min_price === undefined ? null : toMinor(pack.min_price)!,
        position: position++,
      });
  });
  return getProduct(deps, id);
}

export async function getProduct(deps: Pick<Deps, 'db'>, id: string) {
  const product = await findProduct(deps.db, id);
  if (!product) throw notFound('Product');
  const store = await getStore(deps, product.store_id);
  const packs = (await listPacks(deps.db, id)).map((p) => ({
    code: p.code,
    units: p.units,
    price: toMajor(p.price_minor),
    min_price: p.min_price_minor === null ? null : toMajor(p.min_price_minor),
    floor: toMajor(packFloorMinor(p, store.max_discount_pct)),
  }));
  return { ...product, currency: store.currency, packs };
}

export const listStoreProducts = (deps: Pick<Deps, 'db'>, storeId?: string) => listProducts(deps.db, storeId);

export const CreateLandingSchema = v.object({
  product_id: v.pipe(v.string(), v.uuid('product must be a UUID')),
  slug: v.pipe(v.string(), v.trim(), v.toLowerCase(), v.regex(SLUG_PATTERN, 'slug must be lower-case letters, digits and dashes (1–80)')),
  title: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(NAME_MAX))),
  publish: v.optional(v.boolean(), false),
});

export async function createLanding(deps: Pick<Deps, 'db' | 'clock' | 'config'>, raw: unknown) {
  const input = parseWith(CreateLandingSchema, raw);
  const product = await findProduct(deps.db, input.product_id);
  if (!product) throw notFound('Product');
  if (await findLandingBySlug(deps.db, input.slug)) throw conflict(`Slug ${input.slug} is taken`);
  const now = deps.clock.now().toISOString();
  const row = {
    id: newId(),
    store_id: product.store_id,
    product_id: product.id,
    slug: input.slug,
    title: input.title ?? product.name,
    published: input.publish ? 1 : 0,
    created_at: now,
    updated_at: now,
  };
  await insertLanding(deps.db, row);
  return landingView(deps, row);
}

export function landingView<L extends { slug: string; published: number }>(deps: Pick<Deps, 'config'>, l: L): Omit<L, 'published'> & { published: boolean; url: string } {
  return { ...l, published: l.published === 1, url: `${deps.config.baseUrl}/l/${l.slug}` };
}

export const listStoreLandings = async (deps: Pick<Deps, 'db' | 'config'>, storeId?: string) =>
  (await listLandings(deps.db, storeId)).map((l) => landingView(deps, l));
