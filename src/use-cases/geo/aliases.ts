// The alias tables shipped as data (data/cities/aliases/<CC>.json, SPEC 6 "known aliases"):
// real alternative names of regions and cities, and well-known neighbourhoods typed as the city.
// Keyed by catalog spelling; an alias whose target is not in the current catalog is ignored.
import { existsSync, readFileSync } from 'node:fs';
import type { AliasTable } from '../../domain/cities/matcher.ts';
import { CITIES_DIR } from './load-bundled-catalogs.use-case.ts';

export const ALIASES_DIR = new URL('aliases/', CITIES_DIR);

/** Region → catalog city → the name buyers use for it, where that differs from the catalog's. */
export type CommonNames = Readonly<Record<string, Readonly<Record<string, string>>>>;

export interface AliasFile extends AliasTable {
  country: string;
  notes?: string[];
  /** What the buyer's city selector shows; the matcher never reads it (its `cities` aliases resolve these names). */
  common?: Record<string, Record<string, string>>;
}

/** The alias file of a country, or undefined for a code that is not one or a country without a file. */
function readAliasFile(country: string): AliasFile | undefined {
  if (!/^[A-Z]{2}$/.test(country)) return undefined;
  const url = new URL(`${country}.json`, ALIASES_DIR);
  if (!existsSync(url)) return undefined;
  return JSON.parse(readFileSync(url, 'utf8')) as AliasFile;
}

/** The alias table of a country, or an empty one when none is shipped. */
export function readAliases(country: string): AliasTable {
  const file = readAliasFile(country);
  if (!file) return {};
  return { regions: file.regions ?? {}, cities: file.cities ?? {}, places: file.places ?? {}, overlaps: file.overlaps ?? [], moved: file.moved ?? {}, wellKnown: file.wellKnown ?? {}, ...(file.major ? { major: file.major } : {}) };
}

/** The names buyers use for cities whose catalog name differs (region → catalog city → name); empty when none are shipped. */
export function readCommonNames(country: string): CommonNames {
  return readAliasFile(country)?.common ?? {};
}
