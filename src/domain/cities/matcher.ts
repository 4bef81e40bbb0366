// City canonicalization against one country's fulfillment catalog (SPEC 6). Pure: built once per
// catalog version from its entries and the country's alias table, then every lookup is a handful of
// Map reads on precomputed keys (no catalog scans; typo candidates come from a symmetric-delete
// index). The rule it follows is the careful operator's: a wrong city is worse than a review, so
// anything that needs a guess between two places is not confident.
import { COUNTRY_WORDS, compact, phonetic, shortForms, stripFiller, tokens, withoutContactDetails } from './normalize.ts';
import { deletions, editDistance } from './edit-distance.ts';

export interface CatalogEntry {
  region: string;
  city: string;
  code: string | null;
}

/** Real alternative names, keyed by catalog spelling (data/cities/aliases/<CC>.json). */
export interface AliasTable {
  regions?: Record<string, readonly string[]>;
  cities?: Record<string, Record<string, readonly string[]>>;
  /** Neighbourhoods, parishes, corregimientos… that buyers type instead of the municipality. */
  places?: Record<string, Record<string, readonly string[]>>;
  /**
   * Places of a city that changed region whose name is used nowhere else in the country (Montañita,
   * Coronado): enough to find the city when the buyer gives the region it belonged to. Every other
   * place needs its own region, because barrio names repeat from town to town.
   */
  wellKnown?: Record<string, Record<string, readonly string[]>>;
  /**
   * Region capitals, large cities and towns known countrywide, by region. A buyer who names another
   * region is moved to one of these; a smaller town of that name elsewhere is a review, because the
   * buyer's own region likely has a barrio or corregimiento called so.
   */
  major?: Record<string, readonly string[]>;
  /** Pairs of regions buyers give for each other (Cundinamarca for Bogotá, D.C.). */
  overlaps?: readonly (readonly [string, string])[];
  /**
   * Cities whose region changed, with the regions they belonged to before (Salinas: Guayas, until
   * Santa Elena became a province in 2007). Buyers keep writing the old region for years.
   */
  moved?: Record<string, Record<string, readonly string[]>>;
}

export type MatchMethod = 'exact' | 'alias' | 'fuzzy' | 'unique_city' | 'none';

export interface CityDecision {
  confident: boolean;
  method: MatchMethod;
  /** 0..1: 1 for an exact match, lower for aliases, typos and corrected regions. */
  score: number;
  region?: string;
  city?: string;
  code?: string | null;
  /** When the answer is ambiguous or close: the entries it could be (at most 10). */
  candidates?: CatalogEntry[];
  /** One short English sentence saying why. */
  reason: string;
}

export interface MatcherOptions {
  /** ISO code of the catalog's country: its name is noise when appended ("Envigado, Colombia"). */
  country?: string;
  aliases?: AliasTable;
}

// Lower is stronger: a catalog name, a curated alias, a short form derived from a long name, a
// well-known neighbourhood, and the first words of a longer name (never a match by itself: it finds
// "Manaure Balcón del Cesar" inside its region and makes a bare "Cadereyta" ambiguous).
type HitKind = 0 | 1 | 2 | 3 | 4;
const NAME = 0;
const ALIAS = 1;
const SHORT = 2;
const PLACE = 3;
const PREFIX = 4;

interface Hit {
  entry: number;
  kind: HitKind;
}

interface Entry extends CatalogEntry {
  regionIndex: number;
}

interface RegionHit {
  regions: number[];
  strength: number;
}

interface Resolved {
  regions: ReadonlySet<number>;
  how: 'exact' | 'alias' | 'fuzzy' | 'none';
  /** Regions buyers give for these ones (the alias table's overlaps): a second chance, not a scope. */
  near: ReadonlySet<number>;
}

const NONE: ReadonlySet<number> = new Set();
const NO_REGION: Resolved = { regions: NONE, how: 'none', near: NONE };
const MAX_CANDIDATES = 10;
/** Neighbourhood names found in every city ("Centro"): never enough to move a city to another region. */
const GENERIC_PLACES = new Set(['centro', 'zonacentro', 'centrohistorico', 'norte', 'sur', 'oriente', 'occidente', 'este', 'oeste', 'downtown']);
/** Words too common to identify a city by themselves ("Puerto", "Villa"). */
const GENERIC_WORDS = new Set(['san', 'santa', 'santo', 'puerto', 'villa', 'nueva', 'nuevo', 'ciudad', 'general', 'el', 'la', 'los', 'las']);
const ARTICLE_WORDS = new Set(['el', 'la', 'los', 'las']);
const SEPARATORS = /\s*[,;/|()[\]]+\s*|\s+[-–—]+\s*|\s*[-–—]+\s+/;

/** How many typos a key of this length may carry and still be recognised. */
const allowedTypos = (length: number): number => (length < 5 ? 0 : length < 9 ? 1 : 2);

function addHit(map: Map<string, Hit[]>, key: string, hit: Hit): void {
  if (key === '') return;
  const list = map.get(key);
  if (!list) map.set(key, [hit]);
  else {
    const same = list.find((h) => h.entry === hit.entry);
    if (!same) list.push(hit);
    else if (hit.kind < same.kind) same.kind = hit.kind;
  }
}

function indexDeletions(index: Map<string, string[]>, key: string): void {
  for (const variant of deletions(key)) {
    const list = index.get(variant);
    if (!list) index.set(variant, [key]);
    else if (!list.includes(key)) list.push(key);
  }
}

function addRegionKey(map: Map<string, RegionHit>, key: string, region: number, strength: number): void {
  if (key === '') return;
  const current = map.get(key);
  if (!current || strength < current.strength) map.set(key, { regions: [region], strength });
  else if (strength === current.strength && !current.regions.includes(region)) current.regions.push(region);
}

/**
 * The compact keys of a name: as written, and without filler words. Only a buyer's text loses a
 * trailing country name: in the catalog it is part of the name ("Puerto Colombia", "Nueva Colombia").
 */
function nameKeys(words: readonly string[], country?: string): string[] {
  const full = compact(words);
  const bare = compact(stripFiller(words, country));
  return bare === full ? [full] : [full, bare];
}

export class CityMatcher {
  readonly #country: string | undefined;
  readonly #entries: Entry[] = [];
  /** Regions buyers give for each region (the alias table's overlaps), by region index. */
  readonly #overlaps: number[][] = [];
  readonly #regionNames: string[] = [];
  /** The regions each entry belonged to before (the alias table's moves), by entry index. */
  readonly #formerRegions: number[][] = [];
  /** Compact key + entry of each name that is a whole catalog name without its leading article. */
  readonly #wholeName = new Set<string>();
  /** Entries of the alias table's major cities (undefined: no list, every city counts as major). */
  readonly #major: Set<number> | undefined;
  /** Compact key + entry of each well-known place. */
  readonly #wellKnown = new Set<string>();
  readonly #regionKeys = new Map<string, RegionHit>();
  readonly #regionPhonetic: { key: string; region: number }[] = [];
  readonly #cityKeys = new Map<string, Hit[]>();
  readonly #cityPhonetic = new Map<string, Hit[]>();
  /** Symmetric-delete index: each phonetic key of a name or alias and its one-deletion variants. */
  readonly #deletions = new Map<string, string[]>();
  /**
   * The same for the keys as spelt: a dropped vowel can change how the letters around it sound
   * ("Cácres": c before r is k, in "Cáceres" it is s), so one slip may be two in phonetic keys.
   */
  readonly #spellingDeletions = new Map<string, string[]>();

  constructor(entries: Iterable<CatalogEntry>, options: MatcherOptions = {}) {
    this.#country = options.country;
    const regionIndex = new Map<string, number>();
    const entryIndex = new Map<string, number>();
    for (const { region, city, code } of entries) {
      let r = regionIndex.get(region);
      if (r === undefined) {
        r = this.#regionNames.length;
        regionIndex.set(region, r);
        this.#regionNames.push(region);
        this.#indexRegionName(region, r, 0);
      }
      const e = this.#entries.length;
      this.#entries.push({ region, city, code, regionIndex: r });
      entryIndex.set(`${region}\u0000${city}`, e);
      this.#indexCityName(city, e, NAME);
    }
    const aliases = options.aliases ?? {};
    for (const [region, names] of Object.entries(aliases.regions ?? {})) {
      const r = regionIndex.get(region);
      if (r !== undefined) for (const name of names) this.#indexRegionName(name, r, 1);
    }
    for (const [a, b] of aliases.overlaps ?? []) {
      const ra = regionIndex.get(a);
      const rb = regionIndex.get(b);
      if (ra === undefined || rb === undefined || ra === rb) continue;
      (this.#overlaps[ra] ??= []).push(rb);
      (this.#overlaps[rb] ??= []).push(ra);
    }
    for (const [region, cities] of Object.entries(aliases.moved ?? {}))
      for (const [city, before] of Object.entries(cities)) {
        const e = entryIndex.get(`${region}\u0000${city}`);
        if (e === undefined) continue;
        for (const old of before) {
          const r = regionIndex.get(old);
          if (r !== undefined && r !== this.#entries[e]!.regionIndex) (this.#formerRegions[e] ??= []).push(r);
        }
      }
    // Short forms ("Ecatepec" for "Ecatepec de Morelos") and first words of every longer name.
    this.#entries.forEach((entry, e) => {
      const words = tokens(entry.city);
      for (const short of shortForms(words)) {
        this.#indexCityName(short.join(' '), e, SHORT);
        // Without its article a name is still the whole name ("El Parral" is "Parral"), unlike a
        // cut one ("Cartagena" for Cartagena del Chairá): a curated alias elsewhere does not outrank it.
        if (ARTICLE_WORDS.has(words[0]!) && short.length === words.length - 1) this.#wholeName.add(`${compact(short)}\u0000${e}`);
      }
      this.#indexPrefixes(words, e);
      // With the article people add to some names ("El Peñol" for Peñol, "El Guamo" for Guamo): like
      // the first words of a name, found inside the named region only and never enough to move a
      // buyer to another one ("Asunción", "La Encarnación" is a barrio, not Encarnación).
      if (!ARTICLE_WORDS.has(words[0]!)) for (const article of ['el', 'la']) addHit(this.#cityKeys, article + compact(words), { entry: e, kind: PREFIX });
    });
    this.#major = aliases.major ? new Set(Object.entries(aliases.major).flatMap(([region, cities]) => cities.map((c) => entryIndex.get(`${region}\u0000${c}`)).filter((e) => e !== undefined))) : undefined;
    for (const [region, cities] of Object.entries(aliases.wellKnown ?? {}))
      for (const [city, names] of Object.entries(cities)) {
        const e = entryIndex.get(`${region}\u0000${city}`);
        if (e !== undefined) for (const name of names) this.#wellKnown.add(`${compact(tokens(name))}\u0000${e}`);
      }
    for (const [kind, table] of [
      [ALIAS, aliases.cities],
      [PLACE, aliases.places],
      [PLACE, aliases.wellKnown],
    ] as const) {
      for (const [region, cities] of Object.entries(table ?? {})) {
        for (const [city, names] of Object.entries(cities)) {
          const e = entryIndex.get(`${region}\u0000${city}`);
          if (e === undefined) continue;
          for (const name of names) {
            this.#indexCityName(name, e, kind);
            if (kind === ALIAS) this.#indexPrefixes(tokens(name), e);
          }
        }
      }
    }
  }

  /** Catalog entries the matcher knows. */
  get size(): number {
    return this.#entries.length;
  }

  #indexRegionName(name: string, region: number, strength: number): void {
    const keys = nameKeys(tokens(name));
    keys.forEach((key, i) => {
      addRegionKey(this.#regionKeys, key, region, strength * 2 + i);
      const p = phonetic(key);
      if (!this.#regionPhonetic.some((x) => x.key === p && x.region === region)) this.#regionPhonetic.push({ key: p, region });
    });
  }

  #indexPrefixes(words: readonly string[], entry: number): void {
    for (let n = 1; n < words.length; n++) addHit(this.#cityKeys, compact(words.slice(0, n)), { entry, kind: PREFIX });
  }

  #indexCityName(name: string, entry: number, kind: HitKind): void {
    // Curated names are listed in every form people use: only catalog names also lose their filler
    // ("Ciudad Obregón" must not make "Obregón" mean Cajeme).
    const words = tokens(name);
    const keys = kind === NAME || kind === SHORT ? nameKeys(words) : [compact(words)];
    for (const key of keys) {
      addHit(this.#cityKeys, key, { entry, kind });
      const p = phonetic(key);
      addHit(this.#cityPhonetic, p, { entry, kind });
      if (kind === PLACE) continue;
      indexDeletions(this.#deletions, p);
      indexDeletions(this.#spellingDeletions, key);
    }
  }

  /**
   * The catalog entry a person named exactly (accents, case, punctuation and aliases aside), for
   * support resolving a flagged order: no typo tolerance and no region guessing.
   */
  entry(region: string, city: string): CatalogEntry | undefined {
    const regions = this.#regionByKeys(tokens(region));
    if (!regions) return undefined;
    const hits = this.#entriesOf(this.#strongest(this.#inRegions(this.#exactHits(tokens(city)).hits, regions.regions).filter((h) => h.kind < PLACE)));
    if (hits.length !== 1) return undefined;
    const { region: r, city: c, code } = this.#entries[hits[0]!]!;
    return { region: r, city: c, code };
  }

  match(departamento: string, ciudad: string): CityDecision {
    const region = this.#resolveRegion(departamento);
    const cityWords = tokens(ciudad);
    // "Colombia" in the city field is the country far more often than the town of that name.
    if (region.how === 'none' && this.#isCountryName(cityWords)) return this.#review('The city field names the country');

    // Fields swapped: a region in the city field and a city in the region field.
    const cityAsRegion = region.how === 'none' ? this.#regionByKeys(cityWords) : undefined;
    if (cityAsRegion) {
      const swapped = this.#decide(tokens(departamento), cityAsRegion);
      if (swapped.confident) return { ...swapped, reason: `${swapped.reason} (region and city fields were swapped)` };
    }

    const decision = this.#decide(cityWords, region);
    if (decision.confident) return decision;

    // The city field carries more than the city: "Envigado, Antioquia", "Tuluá Valle", "Barrio El Prado, Barranquilla".
    if (!decision.candidates?.length) {
      const agreed = this.#fromReadings(ciudad, cityWords, region);
      if (agreed) return agreed;
    }

    // Swapped, with a misspelt region in the city field.
    if (region.how === 'none' && !cityAsRegion) {
      const asRegion = this.#resolveRegion(ciudad);
      if (asRegion.how !== 'none') {
        const swapped = this.#decide(tokens(departamento), asRegion);
        if (swapped.confident) return { ...swapped, reason: `${swapped.reason} (region and city fields were swapped)` };
      }
    }

    // A phone number, a road marker or a part of town after the name ("Soledad Atlántico 315…").
    // Only a name found as written or as a known alias: a guessed spelling of what is left is not enough.
    // The first of several comma-separated parts is tried too ("Guayaquil norte, Sauces 6 mz 245").
    const parts = ciudad.split(SEPARATORS).filter((p) => p.trim() !== '');
    const first = parts.length > 1 ? tokens(parts[0]!) : [];
    const readings = [...withoutContactDetails(cityWords), ...(first.length > 0 ? [first, ...withoutContactDetails(first)] : [])];
    if (!this.#regionByKeys(cityWords))
      for (const reading of readings) {
        const again = this.match(departamento, reading.join(' '));
        if (again.confident && again.method !== 'fuzzy')
          return { ...again, score: Math.round(again.score * 0.97 * 1000) / 1000, reason: `${again.reason} (phone number or part of town ignored)` };
      }
    return decision;
  }

  #isCountryName(words: readonly string[]): boolean {
    const key = compact(words);
    return (COUNTRY_WORDS.get(this.#country ?? '') ?? []).some((w) => w.join('') === key);
  }

  // Region resolution: exact or alias key, then the same sounds, then a typo close to one region.
  #resolveRegion(text: string): Resolved {
    const words = tokens(text);
    if (words.length === 0) return NO_REGION;
    const exact = this.#regionByKeys(words);
    if (exact) return exact;
    const parts = text.split(SEPARATORS).filter((p) => p.trim() !== '');
    if (parts.length > 1) {
      const found = new Set<number>();
      let how: Resolved['how'] = 'exact';
      for (const part of parts) {
        const hit = this.#regionByKeys(tokens(part));
        if (hit) {
          hit.regions.forEach((r) => found.add(r));
          if (hit.how === 'alias') how = 'alias';
        }
      }
      if (found.size > 0) return this.#resolved(found, how);
    }
    const key = compact(stripFiller(words, this.#country));
    const p = phonetic(key);
    const max = allowedTypos(p.length);
    let best = max + 1;
    let regions = new Set<number>();
    for (const candidate of this.#regionPhonetic) {
      const d = candidate.key === p ? 0 : editDistance(p, candidate.key, max);
      if (d < best) {
        best = d;
        regions = new Set([candidate.region]);
      } else if (d === best) regions.add(candidate.region);
    }
    if (best <= max && regions.size === 1) return this.#resolved(regions, 'fuzzy');
    return NO_REGION;
  }

  #regionName(words: readonly string[]): RegionHit | undefined {
    const hit = this.#regionKeys.get(compact(words));
    return hit && hit.strength < 2 ? hit : undefined;
  }

  #resolved(regions: ReadonlySet<number>, how: Resolved['how']): Resolved {
    const near = new Set<number>();
    for (const r of regions) for (const o of this.#overlaps[r] ?? []) if (!regions.has(o)) near.add(o);
    return { regions, how, near };
  }

  #regionByKeys(words: readonly string[]): Resolved | undefined {
    let found: RegionHit | undefined;
    for (const key of nameKeys(words, this.#country)) {
      const hit = this.#regionKeys.get(key);
      if (hit && (!found || hit.strength < found.strength)) found = hit;
    }
    if (!found) return undefined;
    return this.#resolved(new Set(found.regions), found.strength < 2 ? 'exact' : 'alias');
  }

  #exactHits(words: readonly string[]): { hits: Hit[]; asWritten: boolean } {
    // The text as written first: "Puerto Colombia" must not fall back to "Puerto".
    const keys = nameKeys(words, this.#country);
    const first = this.#cityKeys.get(keys[0]!);
    if (first || keys.length === 1) return { hits: first ?? [], asWritten: true };
    return { hits: this.#cityKeys.get(keys[1]!) ?? [], asWritten: false };
  }

  /** The strongest kind present, and only its hits: a real name beats an alias, an alias a place. */
  #strongest(hits: readonly Hit[]): Hit[] {
    if (hits.length <= 1) return hits as Hit[];
    const kind = Math.min(...hits.map((h) => h.kind));
    return hits.filter((h) => h.kind === kind);
  }

  #inRegions(hits: readonly Hit[], regions: ReadonlySet<number>): Hit[] {
    return hits.filter((h) => regions.has(this.#entries[h.entry]!.regionIndex));
  }

  /**
   * Catalog names within the allowed typos of the text, by sound or by spelling, each at its smaller
   * distance: "Sogamozo" is a typo by spelling and none by sound, "Cácres" one by spelling and two by sound.
   */
  #typoHits(spelt: string, sound: string): { hit: Hit; distance: number }[] {
    const found = new Map<number, { hit: Hit; distance: number }>();
    this.#within(sound, allowedTypos(sound.length), this.#deletions, this.#cityPhonetic, found);
    this.#within(spelt, allowedTypos(spelt.length), this.#spellingDeletions, this.#cityKeys, found);
    return [...found.values()];
  }

  /**
   * Other cities one slip of spelling away from the text. A match by sound that is also one letter
   * from another city is a guess between two ("Taalpa": Talpa by sound, Tapalpa by one letter).
   */
  #oneSlipFrom(spelt: string, entry: number, regions?: ReadonlySet<number>): number[] {
    const found = new Map<number, { hit: Hit; distance: number }>();
    if (spelt.length >= 5) this.#within(spelt, 1, this.#spellingDeletions, this.#cityKeys, found);
    const near = [...found.values()].map((t) => t.hit.entry).filter((e) => e !== entry && (!regions || regions.has(this.#entries[e]!.regionIndex)));
    return [...new Set(near)];
  }

  #within(key: string, max: number, index: Map<string, string[]>, hitsOf: Map<string, Hit[]>, found: Map<number, { hit: Hit; distance: number }>): void {
    if (max === 0) return;
    const seen = new Set<string>();
    for (const variant of deletions(key)) {
      for (const candidate of index.get(variant) ?? []) {
        if (seen.has(candidate)) continue;
        seen.add(candidate);
        const distance = editDistance(key, candidate, max);
        if (distance > max) continue;
        for (const hit of hitsOf.get(candidate) ?? []) {
          if (hit.kind === PLACE || hit.kind === PREFIX) continue;
          const id = hit.entry * 8 + hit.kind;
          const before = found.get(id);
          if (before === undefined || distance < before.distance) found.set(id, { hit, distance });
        }
      }
    }
  }

  #confident(entry: number, method: MatchMethod, score: number, reason: string): CityDecision {
    const { region, city, code } = this.#entries[entry]!;
    return { confident: true, method, score: Math.round(score * 1000) / 1000, region, city, code, reason };
  }

  #review(reason: string, entries: Iterable<number> = []): CityDecision {
    const unique = [...new Set(entries)].slice(0, MAX_CANDIDATES);
    const decision: CityDecision = { confident: false, method: 'none', score: 0, reason };
    if (unique.length > 0) decision.candidates = unique.map((e) => ({ region: this.#entries[e]!.region, city: this.#entries[e]!.city, code: this.#entries[e]!.code }));
    return decision;
  }

  #entriesOf(hits: readonly Hit[]): number[] {
    return [...new Set(hits.map((h) => h.entry))];
  }

  #decide(words: readonly string[], region: Resolved): CityDecision {
    if (words.length === 0) return this.#review('No city given');
    const note = region.how === 'fuzzy' ? 0.97 : 1;
    const { hits: all, asWritten } = this.#exactHits(words);
    const exact = all.filter((h) => h.kind !== PREFIX);
    const prefixes = all.filter((h) => h.kind === PREFIX);
    const cities = exact.filter((h) => h.kind !== PLACE);
    // The text is a region's catalog name ("Pichincha"), not one of its aliases ("Santafé de Bogotá").
    const namedRegion = this.#regionName(words);

    // 1. The named city in the named region (a real name, an alias, a well-known neighbourhood).
    const inRegion = this.#inRegions(exact, region.regions);
    const local = this.#entriesOf(this.#strongest(inRegion));
    if (local.length > 1) return this.#review('Several places in the region have this name', local);
    if (local.length === 1) {
      const kind = this.#strongest(inRegion)[0]!.kind;
      // A neighbourhood of that name in this region, or in a region buyers give for this one
      // ("Cundinamarca", "Venecia": a municipio, and a large barrio of Bogotá).
      const otherPlace = [...inRegion, ...this.#inRegions(exact, region.near)].some((h) => h.kind === PLACE && h.entry !== local[0]);
      // A small town's exact name that a big one of the region goes by for short ("México",
      // "Atizapán": Atizapán, or Atizapán de Zaragoza) is a guess between two.
      const shortOfOther =
        inRegion.some((h) => (h.kind === SHORT || h.kind === ALIAS) && h.entry !== local[0]) ||
        this.#inRegions(prefixes, region.regions).some((h) => h.entry !== local[0]);
      if (kind === NAME && shortOfOther) return this.#review('A city of the region has this name and another city of the region goes by it for short', this.#entriesOf(inRegion));
      if (kind === NAME && !otherPlace) return this.#confident(local[0]!, 'exact', note, 'Region and city found in the catalog');
      if (kind === NAME) return this.#review('A city of the region and a neighbourhood of another city of the region have this name', this.#entriesOf([...inRegion, ...this.#inRegions(exact, region.near)]));
      // Another city of the region with a weaker claim to the name (a short form, a locality)
      // makes an alias or a short form a guess between two ("Chocó", "El Carmen").
      const weakerHere = inRegion.some((h) => h.kind !== PREFIX && h.entry !== local[0]);
      if ((kind === ALIAS || kind === SHORT) && weakerHere) return this.#review('Two cities of the region go by this name', this.#entriesOf(inRegion));
      if (kind === ALIAS && !namedRegion) return this.#confident(local[0]!, 'alias', 0.98 * note, 'Known alternative name of the city');
      if (kind === SHORT && !namedRegion) return this.#confident(local[0]!, 'alias', 0.95 * note, 'Short form of the name of a city of the region');
      // A neighbourhood is weak evidence: any city that has, or begins with, the name wins a review.
      const rivals = this.#entriesOf([...cities, ...prefixes]).filter((e) => e !== local[0]);
      if (kind === PLACE && rivals.length === 0) return this.#confident(local[0]!, 'alias', 0.9 * note, 'Known neighbourhood or locality of the city');
      if (kind === PLACE) return this.#review('A neighbourhood of the region and a city elsewhere have this name', [...local, ...rivals]);
    }

    // 1a. A city that belonged to the named region before its region changed ("Guayas", "Salinas").
    if (local.length === 0) {
      const wasHere = (h: Hit) => this.#formerRegions[h.entry]?.some((r) => region.regions.has(r)) ?? false;
      const movedPlaces = this.#entriesOf(exact.filter((h) => h.kind === PLACE && wasHere(h) && this.#isWellKnown(words, h.entry)));
      const moved = cities.length > 0 ? this.#strongest(cities.filter(wasHere)) : movedPlaces.length === 1 ? exact.filter((h) => h.entry === movedPlaces[0]) : [];
      const found = this.#entriesOf(moved);
      if (found.length === 1) {
        const was = this.#regionNames[this.#formerRegions[found[0]!]!.find((r) => region.regions.has(r))!];
        const to = this.#entries[found[0]!]!.region;
        const kind = moved[0]!.kind;
        if (kind === PLACE) return this.#confident(found[0]!, 'alias', 0.85 * note, `Well-known locality of a city that belonged to ${was} before it became part of ${to}`);
        return this.#confident(found[0]!, kind === NAME ? 'exact' : 'alias', 0.95 * note, `The city belonged to ${was} before it became part of ${to}`);
      }
    }

    // 1b. A longer city name of the region that begins with the text ("Manaure" → "Manaure Balcón del Cesar").
    if (!namedRegion && local.length === 0) {
      const starting = this.#startingWith(prefixes, region.regions);
      if (starting.length === 1 && compact(words).length >= 5 && !(words.length === 1 && GENERIC_WORDS.has(words[0]!)))
        return this.#confident(starting[0]!, 'alias', 0.9 * note, 'Short form of the name of a city of the region');
    }

    // 1c. Regions buyers commonly give for each other (Cundinamarca for Bogotá).
    if (region.near.size > 0 && local.length === 0) {
      const near = this.#inRegions(exact, region.near);
      const found = this.#entriesOf(this.#strongest(near));
      const kind = this.#strongest(near)[0]?.kind;
      const elsewhere = this.#entriesOf(cities.filter((h) => !region.near.has(this.#entries[h.entry]!.regionIndex)));
      // Only a city's own name or alias: a neighbourhood of the other region is not enough, because
      // barrio names repeat from town to town ("Central" and "San Vicente" is as likely a barrio of
      // Luque as of Asunción). It goes to review with the capital's entry as the candidate.
      if (found.length === 1 && kind !== PLACE && elsewhere.length === 0 && !(kind !== NAME && namedRegion))
        return this.#confident(found[0]!, kind === NAME ? 'exact' : 'alias', (kind === NAME ? 0.95 : 0.93) * note, 'City of a region often given for the one typed');
      if (found.length === 1 && kind === PLACE)
        return this.#review('A neighbourhood of a neighbouring region’s city: barrio names repeat across towns', [...found, ...this.#entriesOf(cities)]);
    }

    // A region name in the city field is a city only where that region has a city of the same name,
    // or a capital known by the region's name ("Oaxaca" for Oaxaca de Juárez) when the region agrees.
    if (namedRegion) {
      const own = cities.filter((h) => namedRegion.regions.includes(this.#entries[h.entry]!.regionIndex));
      const same = this.#entriesOf(own.filter((h) => h.kind === NAME));
      if (same.length === 1) return this.#confident(same[0]!, 'unique_city', 0.9, 'The city has the name of its region');
      const capital = same.length === 0 ? this.#entriesOf(this.#strongest(own)) : [];
      const agrees = capital.length === 1 && region.regions.has(this.#entries[capital[0]!]!.regionIndex);
      if (agrees) return this.#confident(capital[0]!, 'alias', 0.9, 'The city goes by the name of its region');
      return this.#review('The city field names a region, not a city', this.#entriesOf(cities));
    }
    // A region's abbreviation in the city field ("Qro", "Ags") is read as the region's own name.
    if (all.length === 0) {
      const abbreviated = this.#regionByKeys(words);
      if (abbreviated?.how === 'alias' && abbreviated.regions.size === 1) {
        const r = [...abbreviated.regions][0]!;
        if (region.how === 'none' || region.regions.has(r)) {
          const decision = this.#decide(tokens(this.#regionNames[r]!), region);
          if (decision.confident) return { ...decision, method: 'alias', score: Math.min(decision.score, 0.88) };
        }
      }
    }

    const keys = nameKeys(words, this.#country).map(phonetic);
    const p = keys[keys.length - 1]!;
    const sounds = (this.#cityPhonetic.get(keys[0]!) ?? this.#cityPhonetic.get(p) ?? []).filter((h) => h.kind !== PLACE);
    // Outside the region a curated alias outranks derived short forms ("Cartagena" is Cartagena de
    // Indias, not Cartagena del Chairá), but a real name and a short form are a true ambiguity
    // ("Tlalnepantla" in Morelos, "Tlalnepantla de Baz" in México).
    // The first words of another city's longer name make it ambiguous too ("Cadereyta").
    const isOutside = (h: Hit) => !region.regions.has(this.#entries[h.entry]!.regionIndex);
    const outside = cities.filter(isOutside);
    // With a region given, a municipio's own name outranks another one's seat or popular name
    // ("Risaralda", "Cartago": Cartago in Valle, not the seat of San Pedro de Cartago in Nariño).
    // Without one they are two readings ("San Pedro": the Coahuila municipio, or San Pedro Garza García).
    const named = region.how !== 'none' && outside.some((h) => h.kind === NAME);
    const curated = outside.some((h) => h.kind === ALIAS);
    const whole = (h: Hit) => h.kind === SHORT && this.#wholeName.has(`${compact(words)}\u0000${h.entry}`);
    const elsewhere = this.#entriesOf(outside.filter((h) => (named && h.kind === ALIAS ? false : curated ? h.kind !== SHORT || whole(h) : true)));
    const rivals = curated ? [] : this.#entriesOf(prefixes.filter(isOutside)).filter((e) => !elsewhere.includes(e));

    // 2. The same sounds in the named region ("Vilavisencio", "Sogamozo").
    const spelt = nameKeys(words, this.#country);
    const soundsInRegion = this.#entriesOf(this.#strongest(this.#inRegions(sounds, region.regions)));
    if (soundsInRegion.length === 1 && elsewhere.length === 0) {
      const slips = this.#oneSlipFrom(spelt[0]!, soundsInRegion[0]!, region.regions);
      if (slips.length === 0) return this.#confident(soundsInRegion[0]!, 'fuzzy', 0.95 * note, 'Same pronunciation as a city of the region');
      return this.#review('Sounds like one city of the region and is one letter from another', [soundsInRegion[0]!, ...slips]);
    }

    // 3. A typo of a city of the named region, unless the text is exactly a city of another region.
    let typos = this.#typoHits(spelt[0]!, keys[0]!);
    if (typos.length === 0 && keys.length > 1) typos = this.#typoHits(spelt[1]!, p);
    if (region.regions.size > 0 && soundsInRegion.length === 0) {
      const near = typos.filter((t) => region.regions.has(this.#entries[t.hit.entry]!.regionIndex));
      const pick = this.#uniqueBest(near);
      if (pick && elsewhere.length === 0 && sounds.length === 0)
        return this.#confident(pick.entry, 'fuzzy', (1 - pick.distance / Math.max(p.length, 1)) * note, `Spelling close to a city of the region (${pick.distance} typo${pick.distance > 1 ? 's' : ''})`);
      if (pick) return this.#review('The name is close to a city of the region and matches another region exactly', [pick.entry, ...elsewhere]);
    }

    // 4. The region is missing or wrong: a name that exists in only one region decides it, unless
    // the given region has something by that name, or the match needed the filler words dropped.
    const places = this.#entriesOf(exact.filter((h) => h.kind === PLACE));
    if (elsewhere.length === 1 && GENERIC_PLACES.has(compact(words))) return this.#review('A generic neighbourhood name, not a city', elsewhere);
    if (elsewhere.length === 1 && rivals.length > 0) return this.#review('Several cities of other regions have or begin with this name', [...elsewhere, ...rivals]);
    if (elsewhere.length === 1) {
      const conflicts = [...this.#entriesOf(inRegion), ...this.#startingWith(prefixes, region.regions), ...places];
      if (conflicts.length > 0) return this.#review('The name is a place of the given region or a neighbourhood, and a city of another region', [...conflicts, ...elsewhere]);
      if (region.how !== 'none' && !asWritten) return this.#review('Only part of the text names a city, and that city is in another region', elsewhere);
      if (region.how !== 'none' && this.#major && !this.#major.has(elsewhere[0]!))
        return this.#review('A small town of another region has this name; the given region may have a place called so', elsewhere);
      const reason = region.how === 'none' ? 'Region missing or not recognised; the city exists in one region only' : 'The city is not in the given region but exists in one region only';
      return this.#confident(elsewhere[0]!, 'unique_city', this.#strongest(cities)[0]!.kind === NAME ? 0.9 : 0.88, reason);
    }
    if (elsewhere.length > 1) return this.#review('Several regions have a city with this name', elsewhere);
    if (places.length > 0)
      return this.#review(region.how === 'none' ? 'A neighbourhood name without a region to place it' : 'A neighbourhood name, not in the given region', places);

    // 5. No region: the same sounds, or one typo of a long name, in exactly one place.
    if (region.how === 'none') {
      const soundsAnywhere = this.#entriesOf(this.#strongest(sounds));
      const slips = soundsAnywhere.length === 1 ? this.#oneSlipFrom(spelt[0]!, soundsAnywhere[0]!) : [];
      if (soundsAnywhere.length === 1 && slips.length === 0) return this.#confident(soundsAnywhere[0]!, 'unique_city', 0.85, 'Same pronunciation as a city that exists in one region only');
      if (slips.length > 0) return this.#review('Sounds like one city and is one letter from another', [...soundsAnywhere, ...slips]);
      if (soundsAnywhere.length > 1) return this.#review('Several regions have a city that sounds like this', soundsAnywhere);
      const pick = this.#uniqueBest(typos);
      if (pick && pick.distance === 1 && Math.max(p.length, spelt[0]!.length) >= 6 && typos.every((t) => t.hit.entry === pick.entry || t.distance > 1))
        return this.#confident(pick.entry, 'fuzzy', 0.85 * (1 - 1 / p.length), 'Region missing; spelling close to one city only');
    }
    const close = [...this.#entriesOf(sounds), ...typos.sort((a, b) => a.distance - b.distance).map((t) => t.hit.entry)];
    return this.#review(close.length > 0 ? 'Spelling close to several cities, or the region does not agree' : 'No city with this name in the catalog', close);
  }

  #isWellKnown(words: readonly string[], entry: number): boolean {
    return nameKeys(words, this.#country).some((key) => this.#wellKnown.has(`${key}\u0000${entry}`));
  }

  /** Cities of the given regions whose name begins with these words ("Manaure" → "Manaure Balcón del Cesar"). */
  #startingWith(prefixes: readonly Hit[], regions: ReadonlySet<number>): number[] {
    return this.#entriesOf(this.#inRegions(prefixes, regions));
  }

  /** The single closest entry, or undefined when two different entries are equally close. */
  #uniqueBest(hits: readonly { hit: Hit; distance: number }[]): { entry: number; distance: number } | undefined {
    let best: { entry: number; distance: number } | undefined;
    let tie = false;
    for (const { hit, distance } of hits) {
      if (!best || distance < best.distance) {
        best = { entry: hit.entry, distance };
        tie = false;
      } else if (distance === best.distance && hit.entry !== best.entry) tie = true;
    }
    return tie ? undefined : best;
  }

  /** Parts of the city text ("Envigado, Antioquia") and a trailing or leading region ("Tuluá Valle"). */
  #fromReadings(text: string, words: readonly string[], region: Resolved): CityDecision | undefined {
    const readings: { words: string[]; regions: Set<number> }[] = [];
    // A region named in the city text helps, unless the region field already named another one.
    const agrees = (hit: Resolved | undefined): hit is Resolved =>
      hit !== undefined && (region.how === 'none' || [...hit.regions].some((r) => region.regions.has(r) || region.near.has(r)));
    const parts = text.split(SEPARATORS).filter((p) => p.trim() !== '' && !this.#isCountryName(tokens(p)));
    if (parts.length > 1) {
      const partRegions = parts.map((part) => this.#regionByKeys(tokens(part)));
      const hinted = new Set(region.regions);
      partRegions.forEach((r) => {
        if (agrees(r)) r.regions.forEach((x) => hinted.add(x));
      });
      parts.forEach((part, i) => {
        if (!partRegions[i]) readings.push({ words: tokens(part), regions: hinted });
      });
    }
    for (let n = 1; n <= Math.min(4, words.length - 1); n++) {
      const tail = this.#regionByKeys(words.slice(words.length - n));
      if (agrees(tail)) readings.push({ words: words.slice(0, words.length - n), regions: new Set([...region.regions, ...tail.regions]) });
      const head = this.#regionByKeys(words.slice(0, n));
      if (agrees(head)) readings.push({ words: words.slice(n), regions: new Set([...region.regions, ...head.regions]) });
    }
    // Every reading that yields a confident answer must yield the same one.
    let agreed: CityDecision | undefined;
    for (const reading of readings) {
      if (reading.words.length === 0) continue;
      const how = reading.regions.size > 0 ? (region.how === 'none' ? 'exact' : region.how) : 'none';
      const decision = this.#decide(reading.words, { regions: reading.regions, how, near: region.near });
      if (!decision.confident) continue;
      if (agreed && (agreed.region !== decision.region || agreed.city !== decision.city)) return undefined;
      agreed ??= { ...decision, score: Math.round(decision.score * 0.97 * 1000) / 1000, reason: `${decision.reason} (extra words ignored)` };
    }
    return agreed;
  }
}
