// A product's pack ladder as written (MCP-TOOLS.md §6.5 set_product_packs, create_product): one pack
// per quantity, its code is `<quantity>x`, at most one default, a compare-at price above the price,
// a pack floor not above the price, and no pack under the product floor × its quantity.
import type * as v from 'valibot';
import { AppError, fieldError, type FieldIssue } from '../../errors.ts';
import { belowUnitFloor, packCode } from '../../domain/pricing.ts';
import type { StoreMoney } from '../stores/store-money.ts';
import type { PackInput } from './product.schemas.ts';
import type { PackRow } from './product-view.ts';

export type PackFields = Omit<PackRow, 'id' | 'product_id'>;

export const belowFloorError = (details: FieldIssue[]) => new AppError('price_below_floor', 'Price below the product floor', details);

const floorMessage = (money: StoreMoney, units: number, unitFloorMinor: number) =>
  `price is below the price floor × quantity (${money.format(unitFloorMinor * units)} for ${units} units)`;

/** Validates a whole ladder and turns it into rows, in the order given. */
export function ladderRows(money: StoreMoney, unitFloorMinor: number, packs: readonly v.InferOutput<typeof PackInput>[], field = 'packs'): PackFields[] {
  const seen = new Set<number>();
  if (packs.filter((p) => p.is_default).length > 1) throw fieldError(field, 'at most one pack may be is_default');
  const rows = packs.map((p, i): PackFields => {
    const at = `${field}.${i}`;
    if (seen.has(p.quantity)) throw fieldError(`${at}.quantity`, `two packs of ${p.quantity} units: each quantity once`);
    seen.add(p.quantity);
    const price = money.minor(`${at}.price`, p.price);
    const compareAt = p.compare_at_price === undefined ? null : money.minor(`${at}.compare_at_price`, p.compare_at_price);
    const min = p.min_price === undefined ? null : money.minor(`${at}.min_price`, p.min_price);
    if (compareAt !== null && compareAt <= price) throw fieldError(`${at}.compare_at_price`, 'compare_at_price must be higher than price');
    if (min !== null && min > price) throw fieldError(`${at}.min_price`, 'min_price must not be above price: no order of the pack could pass');
    return { code: packCode(p.quantity), units: p.quantity, price_minor: price, compare_at_price_minor: compareAt, min_price_minor: min, label: p.label || null, is_default: p.is_default ? 1 : 0, position: i };
  });
  const under = rows.flatMap((r, i) => (belowUnitFloor(r, unitFloorMinor) ? [{ field: `${field}.${i}.price`, message: floorMessage(money, r.units, unitFloorMinor) }] : []));
  if (under.length > 0) throw belowFloorError(under);
  return rows;
}

export { floorMessage };
