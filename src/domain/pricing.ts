// The anti-fraud price floor (SPEC 4.1 step 8). All amounts in integer minor units.
import { TOTAL_PRICE_TOLERANCE_MINOR } from '../limits.ts';

export interface PackPrice {
  price_minor: number;
  min_price_minor: number | null;
}

/**
 * The pack's floor: its `min_price`, else `ceil(price × (1 − max_discount_pct/100))` rounded up
 * to a whole major unit, as the SPEC's formula reads in major units.
 */
export function packFloorMinor(pack: PackPrice, maxDiscountPct: number): number {
  if (pack.min_price_minor !== null) return pack.min_price_minor;
  // price_minor × (100 − pct) / 100 is the discounted price in minor units; /100 again → major.
  return Math.ceil((pack.price_minor * (100 - maxDiscountPct)) / 10_000) * 100;
}

export type PriceVerdict =
  | { ok: true; floorMinor: number }
  | { ok: false; floorMinor: number; reason: 'below_floor' | 'below_unit_total' };

export function checkOrderPrice(input: {
  pack: PackPrice;
  maxDiscountPct: number;
  quantity: number;
  unitPriceMinor: number;
  totalPriceMinor: number;
}): PriceVerdict {
  const floorMinor = packFloorMinor(input.pack, input.maxDiscountPct);
  if (input.totalPriceMinor < floorMinor * input.quantity) return { ok: false, floorMinor, reason: 'below_floor' };
  if (input.totalPriceMinor < input.unitPriceMinor * input.quantity - TOTAL_PRICE_TOLERANCE_MINOR)
    return { ok: false, floorMinor, reason: 'below_unit_total' };
  return { ok: true, floorMinor };
}
