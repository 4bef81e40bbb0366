// data/cities/aliases/<CC>.json (SPEC 6 "known aliases"): every key names a catalog entry, so no
// alias silently does nothing, and every alias is matched by the server's matcher.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { ALIASES_DIR, type AliasFile } from '../../../src/use-cases/geo/aliases.ts';
import { CITIES_DIR } from '../../../src/use-cases/geo/load-bundled-catalogs.use-case.ts';
import { CANONICALIZED_COUNTRIES } from '../../../src/domain/countries.ts';
import { foldCompact } from '../../../src/domain/cities/fold.ts';
import { bundledMatcher } from '../../../bench/city-eval.ts';

/** The matcher's review reason for a region's catalog name typed as the city. */
const REGION_IN_CITY_FIELD = 'The city field names a region, not a city';

const files = readdirSync(ALIASES_DIR).filter((f) => f.endsWith('.json'));
const read = (file: string) => JSON.parse(readFileSync(new URL(file, ALIASES_DIR), 'utf8')) as AliasFile;
const catalog = (country: string) => (JSON.parse(readFileSync(new URL(`${country}.json`, CITIES_DIR), 'utf8')) as { regions: Record<string, string[]> }).regions;

test('the matcher sends a region typed as the city to review for the reason the alias check excuses', () => {
  const d = bundledMatcher('CO').match('Cundinamarca', 'Cundinamarca');
  assert.deepEqual([d.confident, d.reason], [false, REGION_IN_CITY_FIELD]);
});

test('every canonicalized country ships an alias table', () => {
  for (const country of CANONICALIZED_COUNTRIES) assert.ok(files.includes(`${country}.json`), country);
});

for (const file of files) {
  test(`${file} names only regions and cities of the bundled catalog, with non-empty aliases`, () => {
    const data = read(file);
    assert.equal(`${data.country}.json`, file);
    const regions = catalog(data.country);
    for (const [region, names] of Object.entries(data.regions ?? {})) {
      assert.ok(regions[region], `region "${region}"`);
      for (const name of names) assert.ok(name.trim() !== '' && foldCompact(name) !== '', `alias of ${region}`);
    }
    for (const section of ['cities', 'places'] as const) {
      for (const [region, cities] of Object.entries(data[section] ?? {})) {
        assert.ok(regions[region], `${section}: region "${region}"`);
        for (const [city, names] of Object.entries(cities)) {
          assert.ok(regions[region]!.includes(city), `${section}: "${city}" in "${region}"`);
          assert.ok(names.length > 0, `${section}: "${city}" has names`);
          for (const name of names) assert.ok(foldCompact(name) !== '', `${section}: a name of "${city}"`);
        }
      }
    }
    for (const [a, b] of data.overlaps ?? []) assert.ok(regions[a] && regions[b] && a !== b, `overlap ${a} / ${b}`);
    for (const [region, cities] of Object.entries(data.major ?? {})) for (const city of cities) assert.ok(regions[region]?.includes(city), `major: "${city}" in "${region}"`);
    for (const [region, cities] of Object.entries(data.moved ?? {}))
      for (const [city, before] of Object.entries(cities)) {
        assert.ok(regions[region]?.includes(city), `moved: "${city}" in "${region}"`);
        for (const old of before) assert.ok(regions[old] && old !== region, `moved: "${city}" was in "${old}"`);
      }
  });

  test(`${file}: every city alias and region alias leads the matcher to its entry`, () => {
    const data = read(file);
    const matcher = bundledMatcher(data.country);
    const regionNames = new Set(Object.keys(catalog(data.country)).map(foldCompact));
    for (const [region, cities] of Object.entries(data.cities ?? {}))
      for (const [city, names] of Object.entries(cities))
        for (const name of names) {
          const d = matcher.match(region, name);
          // The one exception: an alias that is a region's catalog name only means a city of that very
          // name in the city field (see the matcher), so it goes to review, for that reason alone.
          if (regionNames.has(foldCompact(name))) {
            if (!d.confident) assert.equal(d.reason, REGION_IN_CITY_FIELD, `"${name}" in ${region}`);
            else assert.deepEqual([d.region, d.city], [region, city], `"${name}" in ${region}: ${d.reason}`);
            continue;
          }
          assert.deepEqual([d.confident, d.region, d.city], [true, region, city], `"${name}" in ${region}: ${d.reason}`);
        }
    // A city typed with the region it belonged to before is found in its region of today.
    for (const [region, cities] of Object.entries(data.moved ?? {}))
      for (const [city, before] of Object.entries(cities))
        for (const old of before) {
          const d = matcher.match(old, city);
          assert.deepEqual([d.confident, d.region, d.city], [true, region, city], `"${city}" given with ${old}: ${d.reason}`);
        }
    for (const [region, names] of Object.entries(data.regions ?? {}))
      for (const name of names) {
        const someCity = catalog(data.country)[region]!.find((city) => matcher.match(region, city).confident)!;
        const d = matcher.match(name, someCity);
        assert.equal(d.region, region, `region alias "${name}" with city "${someCity}": ${d.reason}`);
      }
  });
}
