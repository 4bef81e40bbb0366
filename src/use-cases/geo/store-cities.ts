// The city an order of a store carries (SPEC 6; issue 22 §4), one rule for order creation, a buyer's
// address change and support's manual fix: the country's catalog decides which town the buyer
// means; a store that imported its platform's cities (`cities import --from-platform`) gets that
// town as its platform spells it (src/domain/cities/platform-spelling.ts). The selectors buyers see
// keep the official names.
import type { Deps } from '../../app.ts';
import { CANONICALIZED_COUNTRIES } from '../../domain/countries.ts';
import type { CityDecision } from '../../domain/cities/matcher.ts';
import { inPlatformSpelling } from '../../domain/cities/platform-spelling.ts';
import type { CatalogView } from './catalogs.ts';

type StoreRef = { id: string; country: string };

/** The decision for a buyer's department and city text; undefined when the country is not canonicalized. */
export async function storeCityDecision(deps: Pick<Deps, 'catalogs'>, store: StoreRef, departamento: string, ciudad: string): Promise<CityDecision | undefined> {
  if (!CANONICALIZED_COUNTRIES.has(store.country)) return undefined;
  const [official, platform] = await Promise.all([deps.catalogs.get(store.country, 'fulfillment'), deps.catalogs.ofStore(store.id, store.country)]);
  const decision: CityDecision = official ? official.matcher.match(departamento, ciudad) : { confident: false, method: 'none', score: 0, reason: 'No city catalog for this country' };
  return platform ? inPlatformSpelling(decision, platform, departamento, ciudad) : decision;
}

/** The catalog a store's orders are spelled in: its platform's when imported, else its country's. */
export async function storeCatalog(deps: Pick<Deps, 'catalogs'>, store: StoreRef): Promise<CatalogView | undefined> {
  return (await deps.catalogs.ofStore(store.id, store.country)) ?? deps.catalogs.get(store.country, 'fulfillment');
}
