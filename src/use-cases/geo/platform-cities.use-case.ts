// `codrail cities import --from-platform STORE` (issue 22 §4): the departments and cash-on-delivery
// cities of the store's platform connection become the store's own catalog, so its orders carry
// the platform's exact strings (Dropi's `Bogota`, `ARGELIA (A)`), while the selectors buyers see
// keep the official names. Atomic: readers see the old catalog or the new one, never half; a
// platform that fails midway changes nothing.
import type { Deps } from '../../app.ts';
import { writeTransaction } from '../../db/transaction.ts';
import { findStore } from '../../db/queries/stores.queries.ts';
import { replacePlatformCatalog, type CatalogRow } from '../../db/queries/cities.queries.ts';
import { AppError, notFound } from '../../errors.ts';
import { OutboundError } from '../../http/outbound/outbound-error.ts';
import { patiently, platformFor } from '../../platforms/connections.ts';
import { PLATFORM_CATALOG_MAX_CITIES } from '../../limits.ts';
import { hasControlCharacter, isWellFormed, normalizeText } from '../../domain/clean-text.ts';

/** A platform's name as stored: kept as sent (it must go back exactly), unless it holds what no name holds. */
const platformName = (s: string): string => (hasControlCharacter(s) || !isWellFormed(s) ? '' : normalizeText(s, true).trim());

export async function importPlatformCities(deps: Pick<Deps, 'db' | 'clock' | 'config' | 'secrets' | 'outbound' | 'catalogs' | 'log'>, storeId: string) {
  const store = await findStore(deps.db, storeId);
  if (!store) throw notFound('Store');
  const access = await platformFor(deps, store.id);
  if (!access) throw new AppError('fulfillment_not_connected', 'The store has no platform connection and the server no default platform', [{ field: 'store_id', message: 'not connected' }]);
  const rows: CatalogRow[] = [];
  const seen = new Set<string>();
  try {
    for (const department of await patiently(() => access.session.departments())) {
      for (const city of await patiently(() => access.session.cities(department))) {
        const region = platformName(department.name);
        const name = platformName(city.name);
        const key = `${region}\u0000${name}`;
        if (!region || !name || seen.has(key)) continue;
        seen.add(key);
        rows.push({ region, city: name, code: city.code });
        if (rows.length > PLATFORM_CATALOG_MAX_CITIES) throw new AppError('invalid_input', `The platform lists more than ${PLATFORM_CATALOG_MAX_CITIES} cities; nothing was imported`);
      }
    }
  } catch (error) {
    if (error instanceof OutboundError) throw new AppError('fulfillment_error', `${access.platform.label} failed while listing its cities: ${error.message}; nothing was imported`);
    throw error;
  }
  if (rows.length === 0) throw new AppError('conflict', `${access.platform.label} listed no cash-on-delivery city; nothing was imported`);
  const now = deps.clock.now().toISOString();
  const source = `platform:${access.platform.name}:${access.origin}`;
  const version = await writeTransaction(deps.db, (tx) => replacePlatformCatalog(tx, store.id, access.platform.name, rows, source, now));
  deps.catalogs.invalidate(`store:${store.id}`);
  deps.log.info({ storeId: store.id, platform: access.platform.name, cities: rows.length, version }, 'cities: imported the platform catalog of a store');
  return { store_id: store.id, platform: access.platform.name, version, regions: new Set(rows.map((r) => r.region)).size, cities: rows.length, with_code: rows.filter((r) => r.code).length, source, updated_at: now };
}
