// Money of one store (MCP-TOOLS.md §5.5): major units in, integer minor units stored, the currency's
// decimals enforced (ISO 4217, or none for the currencies the operator made whole), and a formatted
// string out for people.
import type { Deps } from '../../app.ts';
import { currencyDecimals, fitsDecimals, formatMoney, toMajor, toMinor } from '../../domain/money.ts';
import { fieldError } from '../../errors.ts';

export interface StoreMoney {
  currency: string;
  decimals: number;
  /** Minor units of an amount the schema already bounded; a decimal the currency lacks is a field error. */
  minor(field: string, major: number): number;
  major(minor: number): number;
  format(minor: number): string;
}

export function storeMoney(deps: Pick<Deps, 'config'>, store: { currency: string; country: string }): StoreMoney {
  const decimals = currencyDecimals(store.currency, deps.config.wholeCurrencies);
  return {
    currency: store.currency,
    decimals,
    minor(field, major) {
      const minor = toMinor(major);
      if (minor === undefined) throw fieldError(field, `${field} must be a non-negative amount with at most 2 decimals`);
      if (!fitsDecimals(minor, decimals))
        throw fieldError(field, decimals === 0 ? `${store.currency} amounts are whole: ${field} must have no decimals` : `${field} must have at most ${decimals} decimals`);
      return minor;
    },
    major: toMajor,
    format: (minor) => formatMoney(minor, store.currency, store.country, decimals),
  };
}
