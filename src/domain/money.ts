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

/**
 * ISO 4217 currencies whose minor unit exponent is 0 (CLP and PYG among the markets we serve). ICU's
 * display data is not ISO (it shows COP without decimals), so the list is kept here.
 */
const ZERO_DECIMAL_CURRENCIES: ReadonlySet<string> = new Set([
  'BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW', 'PYG', 'RWF', 'UGX', 'UYI', 'VND', 'VUV', 'XAF', 'XOF', 'XPF',
]);

/**
 * Decimals a price in this currency may carry: its ISO 4217 exponent, capped at the 2 that storage
 * keeps (SPEC 3), or 0 for the currencies the operator configured as whole (`CODRAIL_WHOLE_CURRENCIES`,
 * e.g. COP, whose prices are whole in practice although ISO gives it 2).
 */
export function currencyDecimals(currency: string, whole: ReadonlySet<string> = new Set()): number {
  if (whole.has(currency) || ZERO_DECIMAL_CURRENCIES.has(currency)) return 0;
  return MONEY_DECIMALS;
}

/** Whether an amount in minor units (×100) is expressible with that many decimals. */
export const fitsDecimals = (minor: number, decimals: number): boolean => minor % 10 ** (MONEY_DECIMALS - decimals) === 0;

const formatters = new Map<string, Intl.NumberFormat>();

/**
 * A price as a buyer of that country reads it ("$ 89.900", "$499.50", "Gs. 150.000"): the country's
 * Spanish locale, no decimals for whole amounts, the currency's decimals otherwise.
 */
export function formatMoney(minor: number, currency: string, country: string, decimals: number): string {
  const fraction = fitsDecimals(minor, 0) ? 0 : decimals;
  const key = `${country}|${currency}|${fraction}`;
  let format = formatters.get(key);
  if (!format) {
    try {
      format = new Intl.NumberFormat(`es-${country}`, { style: 'currency', currency, minimumFractionDigits: fraction, maximumFractionDigits: fraction });
    } catch {
      format = new Intl.NumberFormat('es', { style: 'currency', currency, minimumFractionDigits: fraction, maximumFractionDigits: fraction });
    }
    formatters.set(key, format);
  }
  return format.format(toMajor(minor));
}
