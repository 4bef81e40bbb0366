// The anti-fraud price floor (SPEC 4.1 step 8) and how a quantity is priced from a product's pack
// ladder (MCP-TOOLS.md §6.5). All amounts in integer minor units.
import { ORDER_QUANTITY, TOTAL_PRICE_TOLERANCE_MINOR } from '../limits.ts';

export interface PackPrice {
  units: number;
  price_minor: number;
  min_price_minor: number | null;
}

/**
 * The lowest total one pack may be sold for: the larger of the pack's own floor (its `min_price`,
 * else `ceil(price × (1 − max_discount_pct/100))` rounded up to a whole major unit, as the SPEC's
 * formula reads in major units) and the product's minimum unit price × the pack's units.
 */
export function packFloorMinor(pack: PackPrice, maxDiscountPct: number, unitFloorMinor = 0): number {
  // price_minor × (100 − pct) / 100 is the discounted price in minor units; /100 again → major.
  const own = pack.min_price_minor ?? Math.ceil((pack.price_minor * (100 - maxDiscountPct)) / 10_000) * 100;
  return Math.max(own, unitFloorMinor * pack.units);
}

export type PriceVerdict =
  | { ok: true; floorMinor: number }
  | { ok: false; floorMinor: number; reason: 'below_floor' | 'below_unit_total' };

export function checkOrderPrice(input: {
  pack: PackPrice;
  maxDiscountPct: number;
  /** The product's minimum unit price (0 = none). */
  unitFloorMinor?: number;
  quantity: number;
  unitPriceMinor: number;
  totalPriceMinor: number;
}): PriceVerdict {
  const floorMinor = packFloorMinor(input.pack, input.maxDiscountPct, input.unitFloorMinor ?? 0);
  if (input.totalPriceMinor < floorMinor * input.quantity) return { ok: false, floorMinor, reason: 'below_floor' };
  if (input.totalPriceMinor < input.unitPriceMinor * input.quantity - TOTAL_PRICE_TOLERANCE_MINOR)
    return { ok: false, floorMinor, reason: 'below_unit_total' };
  return { ok: true, floorMinor };
}

/** The code an order sends for a pack of this many units (`2x`): it means that quantity. */
export const packCode = (units: number): string => `${units}x`;

/** A pack whose price is under the product floor × its units (refused on write: `price_below_floor`). */
export const belowUnitFloor = (pack: Pick<PackPrice, 'units' | 'price_minor'>, unitFloorMinor: number): boolean => pack.price_minor < unitFloorMinor * pack.units;

export interface Quote<P extends PackPrice> {
  pack: P;
  /** How many of the pack: the order's `quantity`. */
  multiplier: number;
  totalMinor: number;
}

/**
 * How checkout sells `units` units: one pack code bought `multiplier` times (an order carries one
 * pack and a quantity of 1..10, SPEC 4.1). Of the packs whose size divides `units` within that
 * range, the cheapest total wins (ties: the larger pack, fewer parcels). Undefined when none fits.
 */
export function quoteUnits<P extends PackPrice>(packs: readonly P[], units: number): Quote<P> | undefined {
  let best: Quote<P> | undefined;
  for (const pack of packs) {
    if (units % pack.units !== 0) continue;
    const multiplier = units / pack.units;
    if (multiplier < ORDER_QUANTITY.min || multiplier > ORDER_QUANTITY.max) continue;
    const totalMinor = pack.price_minor * multiplier;
    if (!best || totalMinor < best.totalMinor || (totalMinor === best.totalMinor && pack.units > best.pack.units)) best = { pack, multiplier, totalMinor };
  }
  return best;
}
