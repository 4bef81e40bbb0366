import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkOrderPrice, packFloorMinor, quoteUnits } from '../../src/domain/pricing.ts';

const pack = (price_minor: number, min_price_minor: number | null = null, units = 1) => ({ units, price_minor, min_price_minor });

test('packFloorMinor without min_price is the price less the maximum discount', () => {
  // 89 900 × 0.7 = 62 930 major units.
  assert.equal(packFloorMinor(pack(8_990_000), 30), 6_293_000);
  assert.equal(packFloorMinor(pack(10_000_000), 30), 7_000_000);
});

test('packFloorMinor with min_price is the min_price whatever the discount', () => {
  assert.equal(packFloorMinor(pack(21_990_000, 18_000_000), 30), 18_000_000);
  assert.equal(packFloorMinor(pack(21_990_000, 18_000_000), 90), 18_000_000);
  assert.equal(packFloorMinor(pack(21_990_000, 0), 30), 0);
});

test('packFloorMinor rounds the discounted price up to a whole major unit', () => {
  // 99 999 × 0.7 = 69 999.3 → 70 000.
  assert.equal(packFloorMinor(pack(9_999_900), 30), 7_000_000);
  // 19.99 × 0.7 = 13.993 → 14.
  assert.equal(packFloorMinor(pack(1999), 30), 1400);
  // 10.00 × 0.7 = 7 exactly: no rounding up.
  assert.equal(packFloorMinor(pack(1000), 30), 700);
});

test('packFloorMinor with a 0 % discount is the price and with 100 % is zero', () => {
  assert.equal(packFloorMinor(pack(8_990_000), 0), 8_990_000);
  assert.equal(packFloorMinor(pack(8_990_000), 100), 0);
});

test('checkOrderPrice accepts a total exactly equal to the floor times the quantity', () => {
  const verdict = checkOrderPrice({ pack: pack(10_000_000), maxDiscountPct: 30, quantity: 2, unitPriceMinor: 7_000_000, totalPriceMinor: 14_000_000 });
  assert.deepEqual(verdict, { ok: true, floorMinor: 7_000_000 });
});

test('checkOrderPrice refuses a total one minor unit below the floor with reason below_floor', () => {
  const verdict = checkOrderPrice({ pack: pack(10_000_000), maxDiscountPct: 30, quantity: 1, unitPriceMinor: 6_999_999, totalPriceMinor: 6_999_999 });
  assert.deepEqual(verdict, { ok: false, floorMinor: 7_000_000, reason: 'below_floor' });
});

test('checkOrderPrice uses min_price as the floor when the pack has one', () => {
  const input = { pack: pack(24_000_000, 20_000_000), maxDiscountPct: 30, quantity: 1, unitPriceMinor: 20_000_000 };
  assert.equal(checkOrderPrice({ ...input, totalPriceMinor: 20_000_000 }).ok, true);
  assert.deepEqual(checkOrderPrice({ ...input, unitPriceMinor: 19_999_999, totalPriceMinor: 19_999_999 }), {
    ok: false,
    floorMinor: 20_000_000,
    reason: 'below_floor',
  });
});

test('checkOrderPrice refuses a total below unit price times quantity with reason below_unit_total', () => {
  const verdict = checkOrderPrice({ pack: pack(10_000_000), maxDiscountPct: 30, quantity: 2, unitPriceMinor: 10_000_000, totalPriceMinor: 15_000_000 });
  assert.deepEqual(verdict, { ok: false, floorMinor: 7_000_000, reason: 'below_unit_total' });
});

test('checkOrderPrice tolerates a total one cent below unit price times quantity but not two', () => {
  // 3 × 3 333.33 = 9 999.99; 9 999.98 is within 0.01, 9 999.97 is not (min_price 0: no floor in the way).
  const input = { pack: pack(333_333, 0), maxDiscountPct: 30, quantity: 3, unitPriceMinor: 333_333 };
  assert.equal(checkOrderPrice({ ...input, totalPriceMinor: 999_999 }).ok, true);
  assert.equal(checkOrderPrice({ ...input, totalPriceMinor: 999_998 }).ok, true);
  assert.deepEqual(checkOrderPrice({ ...input, totalPriceMinor: 999_997 }), { ok: false, floorMinor: 0, reason: 'below_unit_total' });
});

test('checkOrderPrice reports below_floor before below_unit_total when both fail', () => {
  const verdict = checkOrderPrice({ pack: pack(10_000_000), maxDiscountPct: 30, quantity: 1, unitPriceMinor: 10_000_000, totalPriceMinor: 100 });
  assert.equal(verdict.ok, false);
  assert.equal(!verdict.ok && verdict.reason, 'below_floor');
});

test('packFloorMinor with a product floor is the larger of the pack floor and the floor × units', () => {
  // 2x at 180 000: discount floor 126 000; a floor of 70 000 per unit makes 140 000.
  assert.equal(packFloorMinor(pack(18_000_000, null, 2), 30, 7_000_000), 14_000_000);
  assert.equal(packFloorMinor(pack(18_000_000, null, 2), 30, 5_000_000), 12_600_000);
  assert.equal(packFloorMinor(pack(18_000_000, 17_000_000, 2), 30, 7_000_000), 17_000_000);
});

test('checkOrderPrice refuses a total under the product floor × units × quantity', () => {
  const input = { pack: pack(18_000_000, null, 2), maxDiscountPct: 30, unitFloorMinor: 8_000_000, quantity: 2, unitPriceMinor: 16_000_000 };
  assert.deepEqual(checkOrderPrice({ ...input, totalPriceMinor: 31_999_900 }), { ok: false, floorMinor: 16_000_000, reason: 'below_floor' });
  assert.equal(checkOrderPrice({ ...input, totalPriceMinor: 32_000_000 }).ok, true);
});

test('quoteUnits picks the cheapest pack bought 1 to 10 times, the larger pack on a tie, none when nothing fits', () => {
  const ladder = [pack(8_990_000), pack(15_990_000, null, 2), pack(21_990_000, null, 3)];
  assert.deepEqual(quoteUnits(ladder, 4), { pack: ladder[1], multiplier: 2, totalMinor: 31_980_000 });
  assert.deepEqual(quoteUnits(ladder, 3), { pack: ladder[2], multiplier: 1, totalMinor: 21_990_000 });
  assert.deepEqual(quoteUnits([pack(100), pack(200, null, 2)], 2), { pack: pack(200, null, 2), multiplier: 1, totalMinor: 200 });
  assert.equal(quoteUnits([pack(15_990_000, null, 2)], 3), undefined);
  assert.equal(quoteUnits([pack(100)], 11), undefined);
  assert.deepEqual(quoteUnits([pack(100), pack(1000, null, 11)], 11), { pack: pack(1000, null, 11), multiplier: 1, totalMinor: 1000 });
});
