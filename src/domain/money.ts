import { MAX_MONEY_MAJOR, MONEY_DECIMALS } from '../limits.ts';

/**
 * Money crosses the API as a JSON number in major units and is stored as integer minor units
 * (×100, SPEC 3). Returns undefined when the number has more than 2 decimals or is out of range.
 */
export function toMinor(major: number): number | undefined {
  if (!Number.isFinite(major) || major < 0 || major > MAX_MONEY_MAJOR) return undefined;
  const scaled = major * 10 ** MONEY_DECIMALS;
  const rounded = Math.round(scaled);
  // 19.99 * 100 = 1998.9999999999998: allow binary noise (a few ulps), refuse a real third decimal.
  // The bound must stay below 0.1 minor units over the whole range: 4 ulps at 1e14 is about 0.09.
  if (Math.abs(scaled - rounded) > 4 * Number.EPSILON * Math.max(1, Math.abs(scaled))) return undefined;
  return rounded;
}

export const toMajor = (minor: number): number => minor / 10 ** MONEY_DECIMALS;

export function hasAtMostTwoDecimals(major: number): boolean {
  return toMinor(major) !== undefined;
}
