// The alias tables shipped as data (data/cities/aliases/<CC>.json, SPEC 6 "known aliases"):
// real alternative names of regions and cities, and well-known neighbourhoods typed as the city.
// Keyed by catalog spelling; an alias whose target is not in the current catalog is ignored.
import { existsSync, readFileSync } from 'node:fs';
import type { AliasTable } from '../../domain/cities/matcher.ts';
import { CITIES_DIR } from './load-bundled-catalogs.use-case.ts';

export const ALIASES_DIR = new URL('aliases/', CITIES_DIR);

export interface AliasFile extends AliasTable {
  country: string;
  notes?: string[];
}

/** The alias table of a country, or an empty one when none is shipped. */
export function readAliases(country: string): AliasTable {
  const url = new URL(`${country}.json`, ALIASES_DIR);
  if (!/^[A-Z]{2}$/.test(country) || !existsSync(url)) return {};
  const file = JSON.parse(readFileSync(url, 'utf8')) as AliasFile;
  return { regions: file.regions ?? {}, cities: file.cities ?? {}, places: file.places ?? {}, overlaps: file.overlaps ?? [], moved: file.moved ?? {}, wellKnown: file.wellKnown ?? {}, ...(file.major ? { major: file.major } : {}) };
}
