// A city as the store's platform spells it (issue 22 §4). The buyer's text is matched to the
// country's catalog first (official names, DANE-like codes, aliases, typos: the matcher's whole
// strength); the town it names is then looked up in the platform's own list — by code when both
// carry one (Medellín 05001 = Dropi's `Medellin`, Bogotá 11001 = `Bogota` under CUNDINAMARCA,
// Argelia 05055 = `ARGELIA (A)`), else by name in the platform's list. A town the platform does not
// list (no cash-on-delivery coverage, or a spelling nobody can decide) is not confident: the order
// waits for review and never ships to a guessed town.
import { fold } from './fold.ts';
import type { CatalogEntry, CityDecision, CityMatcher } from './matcher.ts';

export interface PlatformCities {
  /** The platform's entries carrying this official code. */
  byCode(code: string): readonly CatalogEntry[];
  matcher: CityMatcher;
}

export function inPlatformSpelling(official: CityDecision, platform: PlatformCities, departamento: string, ciudad: string): CityDecision {
  if (official.confident && official.code) {
    const same = platform.byCode(official.code);
    // Several platform towns under one code (a municipality and its corregimientos): the one of the same name, if any.
    const entry = same.length === 1 ? same[0] : same.find((e) => fold(e.city) === fold(official.city ?? ''));
    if (entry) return { ...official, region: entry.region, city: entry.city, code: entry.code, reason: `${official.reason}; the platform lists it as "${entry.city}" (${entry.region})` };
  }
  const byName = platform.matcher.match(departamento, ciudad);
  if (byName.confident) return byName;
  if (official.confident)
    return { confident: false, method: 'none', score: 0, candidates: byName.candidates ?? [], reason: `"${official.city}" (${official.region}) is not a town the store's platform delivers to cash on delivery, or it spells it in a way that cannot be decided` };
  return byName;
}
