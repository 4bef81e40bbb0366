// In-memory view of the city catalogs, rebuilt once per catalog version (SPEC 4.2: bodies are
// prepared once per version). A serving process re-reads a catalog's version at most once a second,
// so an import by the CLI beside `serve` shows up without a restart.
import type { Db } from '../../db/connect.ts';
import type { Clock } from '../../clock.ts';
import type { CatalogKind } from '../../db/tables/index.ts';
import { catalogRows, catalogVersion, platformCatalogRows, platformCatalogVersion, type CatalogRow } from '../../db/queries/cities.queries.ts';
import { CityMatcher, type AliasTable } from '../../domain/cities/matcher.ts';
import { CATALOG_VERSION_CHECK_MS } from '../../limits.ts';
import { readAliases } from './aliases.ts';

const collator = new Intl.Collator('es', { sensitivity: 'variant' });

export interface CatalogView {
  country: string;
  catalog: CatalogKind;
  version: number;
  rows: readonly CatalogRow[];
  /** Region → cities, both sorted with Spanish collation. */
  regions: Readonly<Record<string, readonly string[]>>;
  readonly matcher: CityMatcher;
  /** The entries carrying an official code (a platform catalog is matched through it). */
  byCode(code: string): readonly CatalogRow[];
}

/** Where a cached catalog comes from: its version (0: none) and its rows. */
interface CatalogSource {
  version(): Promise<number>;
  rows(): Promise<CatalogRow[]>;
}

interface Slot {
  view: CatalogView | undefined;
  version: number;
  checkedAt: number;
  loading?: Promise<CatalogView | undefined> | undefined;
}

function buildView(country: string, catalog: CatalogKind, version: number, rows: CatalogRow[], aliases: () => AliasTable): CatalogView {
  const grouped = new Map<string, string[]>();
  for (const row of rows) {
    const list = grouped.get(row.region);
    if (list) list.push(row.city);
    else grouped.set(row.region, [row.city]);
  }
  // Own properties, even for a region an imported file names `__proto__` (issue 19 §5).
  const regions: Record<string, string[]> = Object.fromEntries([...grouped.keys()].sort(collator.compare).map((region) => [region, grouped.get(region)!.sort(collator.compare)]));
  let matcher: CityMatcher | undefined;
  let codes: Map<string, CatalogRow[]> | undefined;
  return {
    country,
    catalog,
    version,
    rows,
    regions,
    get matcher() {
      return (matcher ??= new CityMatcher(rows, { country, aliases: aliases() }));
    },
    byCode(code) {
      if (!codes) {
        codes = new Map();
        for (const row of rows) if (row.code) codes.set(row.code, [...(codes.get(row.code) ?? []), row]);
      }
      return codes.get(code) ?? [];
    },
  };
}

export class Catalogs {
  readonly #slots = new Map<string, Slot>();
  readonly #aliases = new Map<string, AliasTable>();
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** The catalog of one country, or undefined when the country has none. */
  get(country: string, catalog: CatalogKind): Promise<CatalogView | undefined> {
    return this.#cached(`${country}:${catalog}`, country, catalog, {
      version: async () => (await catalogVersion(this.db, country, catalog))?.version ?? 0,
      rows: () => catalogRows(this.db, country, catalog),
    });
  }

  /** A store's own platform catalog (issue 22 §4: `cities import --from-platform`), or undefined when it has none. */
  ofStore(storeId: string, country: string): Promise<CatalogView | undefined> {
    return this.#cached(`store:${storeId}`, country, 'fulfillment', {
      version: async () => (await platformCatalogVersion(this.db, storeId))?.version ?? 0,
      rows: () => platformCatalogRows(this.db, storeId),
    });
  }

  #cached(key: string, country: string, catalog: CatalogKind, source: CatalogSource): Promise<CatalogView | undefined> {
    const now = this.clock.now().getTime();
    const slot = this.#slots.get(key);
    if (slot && now - slot.checkedAt < CATALOG_VERSION_CHECK_MS) return Promise.resolve(slot.view);
    if (slot?.loading) return slot.loading;
    const loading = this.#load(key, country, catalog, source, slot, now);
    if (slot) slot.loading = loading;
    else this.#slots.set(key, { view: undefined, version: -1, checkedAt: 0, loading });
    return loading;
  }

  /** Drop what this process holds, after it changed a catalog itself (a country's, or `store:<id>`). */
  invalidate(country?: string): void {
    if (!country) this.#slots.clear();
    else if (country.startsWith('store:')) this.#slots.delete(country);
    else for (const key of this.#slots.keys()) if (key.startsWith(`${country}:`)) this.#slots.delete(key);
  }

  #aliasesOf(country: string): AliasTable {
    let table = this.#aliases.get(country);
    if (!table) this.#aliases.set(country, (table = readAliases(country)));
    return table;
  }

  async #load(key: string, country: string, catalog: CatalogKind, source: CatalogSource, slot: Slot | undefined, now: number) {
    try {
      const version = await source.version();
      if (slot && slot.version === version) {
        this.#slots.set(key, { ...slot, checkedAt: now, loading: undefined });
        return slot.view;
      }
      const aliases = () => this.#aliasesOf(country);
      const view = version === 0 ? undefined : buildView(country, catalog, version, await source.rows(), aliases);
      this.#slots.set(key, { view, version, checkedAt: now });
      return view;
    } catch (error) {
      this.#slots.delete(key);
      throw error;
    }
  }
}
