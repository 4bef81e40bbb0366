// City canonicalization against one country's fulfillment catalog (SPEC 6). Pure: built once per
// catalog version from its entries, then every lookup is a few Map reads (no catalog scans).
// This is the seam issue 3 extends with filler words, aliases and typo tolerance: `CityMatcher.match`
// keeps its contract (a decision with `confident`), only the strategies behind it grow.
import { foldCompact } from './fold.ts';

export interface CatalogEntry {
  region: string;
  city: string;
  code: string | null;
}

export type MatchMethod = 'exact' | 'unique_city' | 'none';

export interface CityDecision {
  confident: boolean;
  method: MatchMethod;
  /** 0..1; 1 for an exact match. */
  score: number;
  region?: string;
  city?: string;
  code?: string | null;
  /** When the answer is ambiguous: the entries it could be. */
  candidates?: CatalogEntry[];
}

interface RegionIndex {
  name: string;
  cities: Map<string, CatalogEntry>;
}

export class CityMatcher {
  readonly #regions = new Map<string, RegionIndex>();
  readonly #byCity = new Map<string, CatalogEntry[]>();

  constructor(entries: Iterable<CatalogEntry>) {
    for (const entry of entries) {
      const regionKey = foldCompact(entry.region);
      let region = this.#regions.get(regionKey);
      if (!region) this.#regions.set(regionKey, (region = { name: entry.region, cities: new Map() }));
      const cityKey = foldCompact(entry.city);
      region.cities.set(cityKey, entry);
      const same = this.#byCity.get(cityKey);
      if (same) same.push(entry);
      else this.#byCity.set(cityKey, [entry]);
    }
  }

  get size(): number {
    return this.#byCity.size;
  }

  match(departamento: string, ciudad: string): CityDecision {
    const cityKey = foldCompact(ciudad);
    const region = this.#regions.get(foldCompact(departamento));
    if (region) {
      const hit = region.cities.get(cityKey);
      if (hit) return { confident: true, method: 'exact', score: 1, region: hit.region, city: hit.city, code: hit.code };
    }
    // The region is missing or wrong, but the city name exists in exactly one region.
    const same = this.#byCity.get(cityKey);
    if (same?.length === 1) {
      const hit = same[0]!;
      return { confident: true, method: 'unique_city', score: 0.9, region: hit.region, city: hit.city, code: hit.code };
    }
    if (same && same.length > 1) return { confident: false, method: 'none', score: 0, candidates: same.slice(0, 10) };
    return { confident: false, method: 'none', score: 0 };
  }
}
