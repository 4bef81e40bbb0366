// Prices and packs (MCP-TOOLS.md §6.5): the ladder, batch repricing (all or nothing), the floor,
// the quote checkout would make, and what sells under the floor.
import type * as v from 'valibot';
import type { Deps } from '../../app.ts';
import { newId } from '../../ids.ts';
import { FLOOR_VIOLATION_DAYS } from '../../limits.ts';
import { writeTransaction } from '../../db/transaction.ts';
import { deletePacks, insertPack, listPacks, ordersBelowFloor, packsBelowFloor, updatePackPrice, updateProduct } from '../../db/queries/products.queries.ts';
import { belowUnitFloor, packFloorMinor, quoteUnits } from '../../domain/pricing.ts';
import { fieldError, type FieldIssue } from '../../errors.ts';
import type { Caller } from '../caller.ts';
import { clampLimit, keysetPage, pageAfter } from '../pagination.ts';
import { storeMoney } from '../stores/store-money.ts';
import { productOf, storeOf, type ProductRow, type StoreRow } from '../tenancy.ts';
import { belowFloorError, floorMessage, ladderRows } from './pack-ladder.ts';
import { reloadProduct } from './product-view.ts';
import type {
  FloorViolations,
  ListPriceFloorViolationsInput,
  PriceQuote,
  QuoteProductPriceInput,
  SetPriceFloorInput,
  SetProductPacksInput,
  UpdatedProducts,
  UpdatePackPricesInput,
} from './product.schemas.ts';

type Out<S extends v.GenericSchema> = v.InferOutput<S>;

/** Replaces the whole ladder (the order of `packs` is the display order). */
export async function setProductPacks(deps: Pick<Deps, 'db' | 'clock' | 'config'>, caller: Caller, input: Out<typeof SetProductPacksInput>) {
  const { product, store } = await productOf(deps, caller, input.product_id);
  const rows = ladderRows(storeMoney(deps, store), product.min_unit_price_minor, input.packs);
  const now = deps.clock.now().toISOString();
  await writeTransaction(deps.db, async (tx) => {
    await deletePacks(tx, product.id);
    for (const row of rows) await insertPack(tx, { id: newId(), product_id: product.id, ...row });
    await updateProduct(tx, product.id, { updated_at: now });
  });
  return reloadProduct(deps, product.id);
}

/** Reprices existing packs of one or many products: every update is checked before any is written. */
export async function updatePackPrices(deps: Pick<Deps, 'db' | 'clock' | 'config'>, caller: Caller, input: Out<typeof UpdatePackPricesInput>): Promise<Out<typeof UpdatedProducts>> {
  const owners = new Map<string, { product: ProductRow; store: StoreRow }>();
  const writes: { productId: string; units: number; price: number; compareAt: number | null | undefined }[] = [];
  const under: FieldIssue[] = [];
  for (const [i, u] of input.updates.entries()) {
    const at = `updates.${i}`;
    const id = u.product_id.toLowerCase();
    const owner = owners.get(id) ?? (await productOf(deps, caller, id, `${at}.product_id`));
    owners.set(id, owner);
    const money = storeMoney(deps, owner.store);
    const packs = await listPacks(deps.db, id);
    const pack = packs.find((p) => p.units === u.quantity);
    if (!pack) throw fieldError(`${at}.quantity`, `the product has no ${u.quantity}x pack (packs: ${packs.map((p) => p.code).join(', ') || 'none'}); set_product_packs adds packs`);
    const price = money.minor(`${at}.price`, u.price);
    const compareAt = u.compare_at_price === undefined ? undefined : u.compare_at_price === 0 ? null : money.minor(`${at}.compare_at_price`, u.compare_at_price);
    const shownCompareAt = compareAt === undefined ? pack.compare_at_price_minor : compareAt;
    if (shownCompareAt !== null && shownCompareAt <= price) throw fieldError(`${at}.compare_at_price`, 'compare_at_price must be higher than price (0 removes it)');
    if (pack.min_price_minor !== null && pack.min_price_minor > price) throw fieldError(`${at}.price`, `price is below the pack's min_price ${money.format(pack.min_price_minor)}`);
    if (belowUnitFloor({ units: pack.units, price_minor: price }, owner.product.min_unit_price_minor))
      under.push({ field: `${at}.price`, message: floorMessage(money, pack.units, owner.product.min_unit_price_minor) });
    writes.push({ productId: id, units: u.quantity, price, compareAt });
  }
  if (under.length > 0) throw belowFloorError(under);
  const now = deps.clock.now().toISOString();
  await writeTransaction(deps.db, async (tx) => {
    for (const w of writes) await updatePackPrice(tx, w.productId, w.units, { price_minor: w.price, ...(w.compareAt !== undefined && { compare_at_price_minor: w.compareAt }) });
    for (const id of owners.keys()) await updateProduct(tx, id, { updated_at: now });
  });
  return { products: await Promise.all([...owners.keys()].map((id) => reloadProduct(deps, id))) };
}

/** Refused when a pack would sell below the new floor: reprice first (update_pack_prices). */
export async function setPriceFloor(deps: Pick<Deps, 'db' | 'clock' | 'config'>, caller: Caller, input: Out<typeof SetPriceFloorInput>) {
  const { product, store } = await productOf(deps, caller, input.product_id);
  const money = storeMoney(deps, store);
  const floor = money.minor('min_unit_price', input.min_unit_price);
  const under = (await listPacks(deps.db, product.id)).filter((p) => belowUnitFloor(p, floor));
  if (under.length > 0)
    throw belowFloorError(under.map((p) => ({ field: 'min_unit_price', message: `the ${p.code} pack (${money.format(p.price_minor)}) would sell below ${money.format(floor * p.units)}: reprice it first` })));
  await updateProduct(deps.db, product.id, { min_unit_price_minor: floor, updated_at: deps.clock.now().toISOString() });
  return reloadProduct(deps, product.id);
}

/** Exactly what order creation accepts (SPEC 4.1 step 8): one pack code bought 1..10 times. */
export async function quoteProductPrice(deps: Pick<Deps, 'db' | 'config'>, caller: Caller, input: Out<typeof QuoteProductPriceInput>): Promise<Out<typeof PriceQuote>> {
  const { product, store } = await productOf(deps, caller, input.product_id);
  const money = storeMoney(deps, store);
  const all = await listPacks(deps.db, product.id);
  const wanted = input.pack?.toLowerCase();
  const packs = wanted === undefined ? all : all.filter((p) => p.code === wanted);
  if (wanted !== undefined && packs.length === 0) throw fieldError('pack', `the product has no ${wanted} pack (packs: ${all.map((p) => p.code).join(', ') || 'none'})`);
  const quote = quoteUnits(packs, input.quantity);
  if (!quote)
    throw fieldError(
      'quantity',
      all.length === 0
        ? 'the product has no packs yet: set_product_packs first'
        : `no order sells ${input.quantity} units: an order is one pack (${packs.map((p) => p.code).join(', ')}) bought 1 to 10 times`,
    );
  const floorTotal = packFloorMinor(quote.pack, store.max_discount_pct, product.min_unit_price_minor) * quote.multiplier;
  const reason = store.archived_at !== null ? 'the store is archived' : product.status !== 'active' ? `the product is ${product.status}: only active products sell` : null;
  const unitPrice = money.major(quote.pack.price_minor);
  const total = money.major(quote.totalMinor);
  return {
    product_id: product.id,
    currency: store.currency,
    quantity: input.quantity,
    pack: quote.pack.code,
    pack_quantity: quote.pack.units,
    multiplier: quote.multiplier,
    unit_price: unitPrice,
    total_price: total,
    total_formatted: money.format(quote.totalMinor),
    floor_total: money.major(floorTotal),
    floor_ok: quote.totalMinor >= floorTotal,
    orderable: reason === null,
    reason,
    order: { pack: quote.pack.code, quantity: quote.multiplier, unit_price: unitPrice, total_price: total },
  };
}

export async function listPriceFloorViolations(deps: Pick<Deps, 'db' | 'clock' | 'config'>, caller: Caller, input: Out<typeof ListPriceFloorViolationsInput>): Promise<Out<typeof FloorViolations>> {
  const store = await storeOf(deps, caller, input.store_id);
  const money = storeMoney(deps, store);
  const limit = clampLimit(input.limit);
  const since = new Date(deps.clock.now().getTime() - (input.days ?? FLOOR_VIOLATION_DAYS.default) * 86_400_000).toISOString();
  const rows = await ordersBelowFloor(deps.db, { storeId: store.id, since, after: pageAfter(input.cursor), limit: limit + 1 });
  const page = keysetPage(rows, limit, (o) => ({
    order_id: o.id,
    order_number: o.order_number,
    product_id: o.product_id,
    product_name: o.product_name,
    pack: o.pack,
    quantity: o.quantity,
    total_price: money.major(o.total_price_minor),
    floor_total: money.major(o.min_unit_price_minor * o.pack_units * o.quantity),
    status: o.status,
    created_at: o.created_at,
  }));
  const packs =
    input.cursor === undefined
      ? (await packsBelowFloor(deps.db, store.id)).map((p) => ({
          product_id: p.product_id,
          product_name: p.name,
          pack: p.code,
          price: money.major(p.price_minor),
          floor_total: money.major(p.min_unit_price_minor * p.units),
        }))
      : [];
  return { ...page, packs, currency: store.currency };
}
