// The names buyers use for cities (data/cities/aliases/<CC>.json "common"), which the buyer's city
// combobox shows and searches by: each names a catalog entry, differs from the catalog's name, and
// leads the server's matcher to that entry and to no other. The matcher comes from the Catalogs
// cache the server uses, over a fresh database loaded with the bundled catalogs.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { openDatabase, type OpenedDatabase } from '../../../src/db/connect.ts';
import { migrateToLatest } from '../../../src/db/migrate.ts';
import { systemClock } from '../../../src/clock.ts';
import { Catalogs, type CatalogView } from '../../../src/use-cases/geo/catalogs.ts';
import { ALIASES_DIR, readCommonNames, type CommonNames } from '../../../src/use-cases/geo/aliases.ts';
import { CITIES_DIR, loadBundledCatalogs } from '../../../src/use-cases/geo/load-bundled-catalogs.use-case.ts';
import { foldCompact } from '../../../src/domain/cities/fold.ts';
import { COMMON_CITY_NAMES } from '../../helpers/common-city-names.ts';

const countries = readdirSync(ALIASES_DIR)
  .filter((f) => /^[A-Z]{2}\.json$/.test(f))
  .map((f) => f.slice(0, 2))
  .sort();
const catalog = (country: string) => (JSON.parse(readFileSync(new URL(`${country}.json`, CITIES_DIR), 'utf8')) as { regions: Record<string, string[]> }).regions;

function* entries(common: CommonNames): Generator<{ region: string; city: string; name: string }> {
  for (const [region, cities] of Object.entries(common)) for (const [city, name] of Object.entries(cities)) yield { region, city, name };
}

describe('common city names', () => {
  let opened: OpenedDatabase;
  let catalogs: Catalogs;

  before(async () => {
    opened = openDatabase(':memory:');
    await migrateToLatest(opened.db);
    await loadBundledCatalogs({ db: opened.db, clock: systemClock });
    catalogs = new Catalogs(opened.db, systemClock);
  });
  after(() => opened?.close());

  /** Every catalog the bundled data of a country is served as: official and fulfillment (PA: fulfillment only). */
  async function views(country: string): Promise<CatalogView[]> {
    const found = [await catalogs.get(country, 'official'), await catalogs.get(country, 'fulfillment')].filter((v) => v !== undefined);
    assert.ok(found.length > 0, `${country} has a catalog`);
    return found;
  }

  test('every common name names a region and a city of the country’s bundled catalog', () => {
    for (const country of countries) {
      const regions = catalog(country);
      for (const { region, city } of entries(readCommonNames(country))) {
        assert.ok(Object.hasOwn(regions, region), `${country}: region "${region}"`);
        assert.ok(regions[region]!.includes(city), `${country}: "${city}" in "${region}"`);
      }
    }
  });

  test('a common name differs, after case and accent folding, from its city’s catalog name and from every other city of the region', () => {
    for (const country of countries) {
      const regions = catalog(country);
      for (const { region, city, name } of entries(readCommonNames(country))) {
        assert.ok(name.trim() !== '' && foldCompact(name) !== '', `${country}: the common name of "${city}"`);
        const same = (regions[region] ?? []).filter((c) => foldCompact(c) === foldCompact(name));
        assert.deepEqual(same, [], `${country}: "${name}" for "${city}" (${region}) is a catalog name`);
      }
    }
  });

  test('two cities of a region never share a common name', () => {
    for (const country of countries)
      for (const [region, cities] of Object.entries(readCommonNames(country))) {
        const keys = Object.values(cities).map(foldCompact);
        assert.equal(new Set(keys).size, keys.length, `${country}: ${region}`);
      }
  });

  test('the matcher resolves each common name, given with its region, confidently to exactly that city', async () => {
    const wrong: string[] = [];
    for (const country of countries)
      for (const view of await views(country))
        for (const { region, city, name } of entries(readCommonNames(country))) {
          const d = view.matcher.match(region, name);
          if (!d.confident || d.region !== region || d.city !== city)
            wrong.push(`${country} ${view.catalog}: "${region}" / "${name}" → ${d.confident ? `${d.city} (${d.region})` : `review: ${d.reason}`}; expected ${city}`);
        }
    assert.deepEqual(wrong, []);
  });

  test('without a region the matcher never resolves a common name confidently to another city', async () => {
    const wrong: string[] = [];
    for (const country of countries)
      for (const view of await views(country))
        for (const { region, city, name } of entries(readCommonNames(country))) {
          const d = view.matcher.match('', name);
          if (d.confident && (d.region !== region || d.city !== city)) wrong.push(`${country} ${view.catalog}: "${name}" → ${d.city} (${d.region}); it names ${city} (${region})`);
        }
    assert.deepEqual(wrong, []);
  });

  test('the well-known common names of CO, MX and PE are in the data', () => {
    const count = (country: string) => COMMON_CITY_NAMES.filter((c) => c.country === country).length;
    assert.ok(count('CO') >= 15 && count('MX') >= 15 && count('PE') >= 10, `CO ${count('CO')}, MX ${count('MX')}, PE ${count('PE')}`);
    for (const { country, region, common, official } of COMMON_CITY_NAMES)
      assert.equal(readCommonNames(country)[region]?.[official], common, `${country}: ${official} (${region})`);
  });

  test('readCommonNames gives an empty table for a country without an alias file and for a code that is not one', () => {
    assert.deepEqual(readCommonNames('AR'), {});
    for (const code of ['co', '../CO', 'CO.json', '']) assert.deepEqual(readCommonNames(code), {}, code);
  });
});
