// codrail cities import|list|match (SPEC 6, 9) on a fresh database that holds the bundled catalogs.
// Catalog files are written next to the database so each test shows the exact lines it feeds in.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDbFile } from '../helpers/server.ts';
import { cliFails, cliJson, readDb, withApp } from '../helpers/cli-expect.ts';
import { runCli } from '../helpers/cli.ts';
import { bundledSource, CITIES_DIR } from '../../src/use-cases/geo/load-bundled-catalogs.use-case.ts';

const tmp = tempDbFile();
after(() => tmp.cleanup());

// A fresh database: migrating it loads the bundled catalogs, every one at version 1.
before(() => withApp(tmp.file, async () => undefined));

/** Writes a file next to the database and returns its path. */
function fixture(name: string, content: string): string {
  const path = join(tmp.dir, name);
  writeFileSync(path, content);
  return path;
}

/** Everything stored about one country's catalogs: versions and rows. */
function catalogState(country: string) {
  return readDb(tmp.file, (db) => ({
    versions: db.prepare('SELECT catalog, version, source, updated_at FROM catalog_versions WHERE country = ? ORDER BY catalog').all(country),
    rows: db.prepare('SELECT catalog, region, city, code FROM city_catalogs WHERE country = ? ORDER BY catalog, region, city').all(country),
  }));
}

const rowsOf = (country: string, catalog: string) =>
  readDb(tmp.file, (db) => db.prepare('SELECT region, city, code FROM city_catalogs WHERE country = ? AND catalog = ? ORDER BY region, city').all(country, catalog));

const versionOf = (country: string, catalog: string) =>
  readDb(tmp.file, (db) => (db.prepare('SELECT version FROM catalog_versions WHERE country = ? AND catalog = ?').get(country, catalog) as { version: number } | undefined)?.version);

/** The `line N: reason` problems listed on stderr, in order. */
const problems = (stderr: string): [number, string][] => [...stderr.matchAll(/^\s+line (\d+): (.*)$/gm)].map((m) => [Number(m[1]), m[2]!]);

/**
 * Imports a broken file into EC, expects exit 2 with exactly these problems (line and a pattern of
 * the reason), and that EC's catalogs are exactly as they were.
 */
async function refusedImport(name: string, content: string, expected: [number, RegExp][], country = 'EC') {
  const file = fixture(name, content);
  const before = catalogState(country);
  assert.equal(before.versions.length, 2, 'EC starts with its bundled official and fulfillment catalogs');
  const r = await cliFails(tmp.file, ['cities', 'import', file, '--country', country], 2);
  assert.match(r.stderr, /nothing was changed/);
  const found = problems(r.stderr);
  assert.deepEqual(
    found.map(([line]) => line),
    expected.map(([line]) => line),
    r.stderr,
  );
  expected.forEach(([, reason], i) => assert.match(found[i]![1], reason, r.stderr));
  assert.deepEqual(catalogState(country), before, 'the database is unchanged');
  return r;
}

// ── import: good files ─────────────────────────────────────────────────────────────────────────

test('cities import of a JSON file for an official country replaces both catalogs, bumps both versions and keeps the codes', async () => {
  assert.equal(versionOf('PE', 'official'), 1);
  assert.equal(versionOf('PE', 'fulfillment'), 1);
  const file = fixture(
    'pe.json',
    JSON.stringify(
      {
        country: 'PE',
        regions: { Lima: ['Lima', 'Miraflores'], Cusco: ['Cusco'] },
        codes: { Lima: { code: '15', cities: { Lima: '150101', Miraflores: '150122' } } },
      },
      null,
      2,
    ),
  );
  const { json } = await cliJson(tmp.file, ['cities', 'import', file, '--country', 'pe']);
  assert.equal(json.country, 'PE');
  assert.deepEqual(json.catalogs, [
    { catalog: 'official', version: 2 },
    { catalog: 'fulfillment', version: 2 },
  ]);
  assert.equal(json.regions, 2);
  assert.equal(json.cities, 3);
  assert.equal(json.source, 'import:pe.json');
  const expected = [
    { region: 'Cusco', city: 'Cusco', code: null },
    { region: 'Lima', city: 'Lima', code: '150101' },
    { region: 'Lima', city: 'Miraflores', code: '150122' },
  ];
  assert.deepEqual(rowsOf('PE', 'official'), expected);
  assert.deepEqual(rowsOf('PE', 'fulfillment'), expected);
  const stored = catalogState('PE').versions as { catalog: string; version: number; source: string; updated_at: string }[];
  assert.deepEqual(
    stored.map((v) => [v.catalog, v.version, v.source, v.updated_at]),
    [
      ['fulfillment', 2, 'import:pe.json', json.updated_at],
      ['official', 2, 'import:pe.json', json.updated_at],
    ],
  );
});

test('cities import --catalog fulfillment for an official country replaces only the fulfillment catalog', async () => {
  // PE's versions are whatever the bundled catalogs or an earlier import left: this import bumps one of them.
  const [officialVersion, fulfillmentVersion] = [versionOf('PE', 'official')!, versionOf('PE', 'fulfillment')!];
  const officialBefore = catalogState('PE').rows.filter((r) => (r as { catalog: string }).catalog === 'official');
  assert.ok(officialBefore.length > 0, 'PE has an official catalog');
  const file = fixture('pe-fulfillment.json', JSON.stringify({ regions: { Arequipa: ['Arequipa', 'Camaná'] } }));
  const { json } = await cliJson(tmp.file, ['cities', 'import', file, '--country', 'PE', '--catalog', 'fulfillment']);
  assert.deepEqual(json.catalogs, [{ catalog: 'fulfillment', version: fulfillmentVersion + 1 }]);
  assert.deepEqual(rowsOf('PE', 'fulfillment'), [
    { region: 'Arequipa', city: 'Arequipa', code: null },
    { region: 'Arequipa', city: 'Camaná', code: null },
  ]);
  assert.equal(versionOf('PE', 'official'), officialVersion);
  assert.deepEqual(
    catalogState('PE').rows.filter((r) => (r as { catalog: string }).catalog === 'official'),
    officialBefore,
  );
});

test('cities import without --catalog for a country that is not official replaces only its fulfillment catalog', async () => {
  assert.equal(versionOf('PA', 'fulfillment'), 1);
  const file = fixture('pa.json', JSON.stringify({ country: 'PA', regions: { Panamá: ['Panamá', 'San Miguelito'] }, codes: { Panamá: { cities: { Panamá: '0801' } } } }));
  const { json } = await cliJson(tmp.file, ['cities', 'import', file, '--country', 'PA']);
  assert.deepEqual(json.catalogs, [{ catalog: 'fulfillment', version: 2 }]);
  assert.deepEqual(rowsOf('PA', 'fulfillment'), [
    { region: 'Panamá', city: 'Panamá', code: '0801' },
    { region: 'Panamá', city: 'San Miguelito', code: null },
  ]);
  assert.equal(versionOf('PA', 'official'), undefined, 'no official catalog is created for PA');
  assert.deepEqual(rowsOf('PA', 'official'), []);
});

test('cities import of a CSV without a header creates the fulfillment catalog of a new country at version 1', async () => {
  assert.deepEqual(catalogState('BO'), { versions: [], rows: [] });
  const file = fixture('bo.csv', 'La Paz,La Paz\nLa Paz,El Alto\nSanta Cruz,Santa Cruz de la Sierra\n');
  const { json } = await cliJson(tmp.file, ['cities', 'import', file, '--country', 'BO']);
  assert.deepEqual(json, { country: 'BO', catalogs: [{ catalog: 'fulfillment', version: 1 }], regions: 2, cities: 3, source: 'import:bo.csv', updated_at: json.updated_at });
  assert.deepEqual(rowsOf('BO', 'fulfillment'), [
    { region: 'La Paz', city: 'El Alto', code: null },
    { region: 'La Paz', city: 'La Paz', code: null },
    { region: 'Santa Cruz', city: 'Santa Cruz de la Sierra', code: null },
  ]);
});

test('cities import of a CSV with a header, quoted names with commas and an optional code column replaces the old rows', async () => {
  // A country of its own (UY, not bundled), with old rows to replace.
  await cliJson(tmp.file, ['cities', 'import', fixture('uy.csv', 'La Paz,La Paz\nSanta Cruz,Santa Cruz de la Sierra\n'), '--country', 'UY']);
  assert.equal(versionOf('UY', 'fulfillment'), 1);
  const file = fixture('uy-2.csv', 'region,city,code\n"Bogotá, D.C.","Bogotá, D.C.",11001\nLa Paz,El Alto\nLa Paz,"Viacha",0203\n');
  const { json } = await cliJson(tmp.file, ['cities', 'import', file, '--country', 'UY']);
  assert.deepEqual(json.catalogs, [{ catalog: 'fulfillment', version: 2 }]);
  assert.equal(json.regions, 2);
  assert.equal(json.cities, 3);
  assert.deepEqual(rowsOf('UY', 'fulfillment'), [
    { region: 'Bogotá, D.C.', city: 'Bogotá, D.C.', code: '11001' },
    { region: 'La Paz', city: 'El Alto', code: null },
    { region: 'La Paz', city: 'Viacha', code: '0203' },
  ]);
  const { json: listed } = await cliJson(tmp.file, ['cities', 'list', 'UY', '--region', 'bogota d.c.']);
  assert.deepEqual(listed.regions, [{ region: 'Bogotá, D.C.', cities: [{ city: 'Bogotá, D.C.', code: '11001' }] }]);
});

// ── import: broken files change nothing ────────────────────────────────────────────────────────

test('cities import refuses a JSON file with a syntax error and names its line', async () => {
  await refusedImport('syntax.json', '{\n  "country": "EC",\n  "regions": {\n    "Pichincha": ["Quito", "Cayambe"],\n    "Guayas": ["Guayaquil",]\n  }\n}\n', [[5, /not valid JSON/]]);
});

test('cities import refuses a JSON file whose city is not a string and names its line', async () => {
  await refusedImport('not-string.json', '{\n  "regions": {\n    "Pichincha": [\n      "Quito",\n      42\n    ]\n  }\n}\n', [[5, /not a string/]]);
});

test('cities import refuses a JSON file with an empty city name and names its line', async () => {
  await refusedImport('empty-city.json', '{\n  "regions": {\n    "Pichincha": ["Quito"],\n    "Guayas": ["Guayaquil", ""]\n  }\n}\n', [[4, /city is empty/]]);
});

test('cities import refuses a JSON file listing a city twice in a region and names the second line', async () => {
  await refusedImport('duplicate.json', '{\n  "regions": {\n    "Pichincha": [\n      "Quito",\n      "Cayambe",\n      "Quito"\n    ]\n  }\n}\n', [[6, /"Quito" is listed twice in "Pichincha"/]]);
});

test('cities import lists every problem of a JSON file, each with its line', async () => {
  await refusedImport('several.json', '{\n  "regions": {\n    "Pichincha": ["Quito", " Cayambe"],\n    "Guayas": [null],\n    "Azuay": "Cuenca"\n  }\n}\n', [
    [3, /leading or trailing spaces/],
    [4, /not a string/],
    [5, /must be a list/],
  ]);
});

test('cities import refuses a JSON file for another country and names the line of its country', async () => {
  await refusedImport('co.json', '{\n  "country": "CO",\n  "regions": { "Antioquia": ["Medellín"] }\n}\n', [[2, /for country "CO", not EC/]]);
});

test('cities import refuses a CSV with a missing column and names its line', async () => {
  await refusedImport('missing-column.csv', 'region,city\nPichincha,Quito\nGuayas\nAzuay,Cuenca\n', [[3, /expected region,city\[,code\] but found 1 field/]]);
});

test('cities import refuses a CSV with too many columns and names its line', async () => {
  await refusedImport('extra-column.csv', 'Pichincha,Quito\nAzuay,Cuenca\nGuayas,Guayaquil,090150,spare\n', [[3, /found 4 fields/]]);
});

test('cities import refuses a CSV with an unclosed quote and names its line', async () => {
  await refusedImport('unclosed.csv', 'region,city\nPichincha,Quito\n"Guayas,Guayaquil\n', [[3, /not valid CSV/]]);
});

test(
  'cities import names the line where an unclosed CSV quote opens, not the last line of the file',
  async () => {
    await refusedImport('unclosed-early.csv', 'region,city\nPichincha,"Quito\nGuayas,Guayaquil\nAzuay,Cuenca\n', [[2, /not valid CSV/]]);
  },
);

test('cities import refuses a CSV listing a city twice and names both lines', async () => {
  await refusedImport('duplicate.csv', 'Pichincha,Quito\nGuayas,Guayaquil\nPichincha,Quito\n', [[3, /"Quito" in "Pichincha" is listed twice \(first on line 1\)/]]);
});

test('cities import refuses an empty file as having no cities', async () => {
  await refusedImport('empty.csv', '', [[1, /no cities/]]);
  await refusedImport('empty.json', '', [[1, /not valid JSON/]]);
  await refusedImport('no-regions.json', '{ "regions": {} }\n', [[1, /no cities/]]);
});

test(
  'cities import refuses a JSON file that names a region twice and names its line',
  async () => {
    await refusedImport('region-twice.json', '{\n  "regions": {\n    "Pichincha": ["Quito"],\n    "Pichincha": ["Quito"]\n  }\n}\n', [[4, /Pichincha/]]);
  },
);

test(
  'cities import names the right line in a JSON file that starts with a byte order mark',
  async () => {
    await refusedImport('bom.json', '\uFEFF{\n"regions": {\n"Pichincha": [\n42\n]}}\n', [[4, /not a string/]]);
  },
);

test('cities import --catalog official for PA is refused with exit 2 and changes nothing', async () => {
  const file = fixture('pa-official.json', JSON.stringify({ regions: { Colón: ['Colón'] } }));
  const before = catalogState('PA');
  const r = await cliFails(tmp.file, ['cities', 'import', file, '--country', 'PA', '--catalog', 'official'], 2);
  assert.match(r.stderr, /--catalog fulfillment/);
  assert.deepEqual(catalogState('PA'), before);
});

test('cities import of a missing or unreadable file, an unknown catalog or a bad country is a usage error with exit 2', async () => {
  const before = catalogState('EC');
  const missing = await cliFails(tmp.file, ['cities', 'import', join(tmp.dir, 'nope.csv'), '--country', 'EC'], 2);
  assert.match(missing.stderr, /Cannot read .*nope\.csv: ENOENT/);
  const directory = await cliFails(tmp.file, ['cities', 'import', tmp.dir, '--country', 'EC'], 2);
  assert.match(directory.stderr, /Cannot read/);
  const good = fixture('ec.csv', 'Pichincha,Quito\n');
  await cliFails(tmp.file, ['cities', 'import', good, '--country', 'EC', '--catalog', 'both'], 2);
  await cliFails(tmp.file, ['cities', 'import', good, '--country', 'Ecuador'], 2);
  assert.deepEqual(catalogState('EC'), before);
});

// ── list ───────────────────────────────────────────────────────────────────────────────────────

test('cities list prints every catalog with its version, size, source and date, matching the stored rows', async () => {
  const { json } = await cliJson(tmp.file, ['cities', 'list']);
  const stored = readDb(tmp.file, (db) => db.prepare('SELECT country, catalog, version, source, updated_at FROM catalog_versions ORDER BY country, catalog').all());
  assert.deepEqual(
    json.map((c: Record<string, unknown>) => ({ country: c.country, catalog: c.catalog, version: c.version, source: c.source, updated_at: c.updated_at })),
    stored,
  );
  for (const c of json) {
    assert.deepEqual(Object.keys(c).sort(), ['catalog', 'cities', 'country', 'regions', 'source', 'updated_at', 'version']);
    const size = readDb(tmp.file, (db) => db.prepare('SELECT count(*) AS cities, count(DISTINCT region) AS regions FROM city_catalogs WHERE country = ? AND catalog = ?').get(c.country, c.catalog));
    assert.deepEqual({ cities: c.cities, regions: c.regions }, size, `${c.country} ${c.catalog}`);
  }
  const co = json.filter((c: { country: string }) => c.country === 'CO');
  assert.deepEqual(
    co.map((c: Record<string, unknown>) => [c.catalog, c.version, c.regions, c.cities, c.source]),
    [
      ['fulfillment', 1, 33, 1122, bundledSource('CO', readFileSync(new URL('CO.json', CITIES_DIR)))],
      ['official', 1, 33, 1122, bundledSource('CO', readFileSync(new URL('CO.json', CITIES_DIR)))],
    ],
  );
  assert.deepEqual(
    json.filter((c: { country: string }) => c.country === 'PA').map((c: { catalog: string }) => c.catalog),
    ['fulfillment'],
  );
});

test('cities list CC prints the fulfillment catalog region by region with city codes', async () => {
  const { json } = await cliJson(tmp.file, ['cities', 'list', 'co']);
  assert.equal(json.country, 'CO');
  assert.equal(json.catalog, 'fulfillment');
  assert.equal(json.version, 1);
  assert.equal(json.regions.length, 33);
  const cities = json.regions.reduce((n: number, r: { cities: unknown[] }) => n + r.cities.length, 0);
  assert.equal(cities, 1122);
  const antioquia = json.regions.find((r: { region: string }) => r.region === 'Antioquia');
  assert.deepEqual(
    antioquia.cities.find((c: { city: string }) => c.city === 'Medellín'),
    { city: 'Medellín', code: '05001' },
  );
  const official = (await cliJson(tmp.file, ['cities', 'list', 'CO', '--catalog', 'official'])).json;
  assert.equal(official.catalog, 'official');
  assert.equal(official.regions.length, 33);
});

test('cities list CC --region keeps only that region, whatever its accents and case', async () => {
  const { json } = await cliJson(tmp.file, ['cities', 'list', 'CO', '--region', 'QUINDIO']);
  assert.equal(json.regions.length, 1);
  assert.equal(json.regions[0].region, 'Quindío');
  assert.equal(json.regions[0].cities.length, 12);
  assert.deepEqual(json.regions[0].cities[0], { city: 'Armenia', code: '63001' });
});

test('cities list with an unknown region or a country without that catalog fails with exit 1; a bad catalog is exit 2', async () => {
  const region = await cliFails(tmp.file, ['cities', 'list', 'CO', '--region', 'Atlantis'], 1);
  assert.match(region.stderr, /Atlantis/);
  await cliFails(tmp.file, ['cities', 'list', 'PA', '--catalog', 'official'], 1);
  await cliFails(tmp.file, ['cities', 'list', 'US'], 1);
  await cliFails(tmp.file, ['cities', 'list', 'CO', '--catalog', 'public'], 2);
});

// ── match ──────────────────────────────────────────────────────────────────────────────────────

test('cities match of an exact region and city prints a confident decision with the catalog spelling and code', async () => {
  const { json } = await cliJson(tmp.file, ['cities', 'match', 'CO', 'antioquia', 'MEDELLIN']);
  assert.deepEqual(json, { confident: true, method: 'exact', score: 1, region: 'Antioquia', city: 'Medellín', code: '05001', reason: json.reason });
  assert.equal(typeof json.reason, 'string');
  assert.ok(json.reason.length > 0);
});

test('cities match of a city name two regions share, without a region, is not confident and lists both candidates', async () => {
  const { json } = await cliJson(tmp.file, ['cities', 'match', 'CO', '', 'Armenia']);
  assert.equal(json.confident, false);
  assert.equal(json.method, 'none');
  assert.equal(json.score, 0);
  assert.equal(json.region, undefined);
  assert.deepEqual(json.candidates, [
    { region: 'Antioquia', city: 'Armenia', code: '05059' },
    { region: 'Quindío', city: 'Armenia', code: '63001' },
  ]);
});

test('cities match of a place that is not in the catalog is not confident and names no city', async () => {
  const { json } = await cliJson(tmp.file, ['cities', 'match', 'CO', 'Atlantis', 'Gotham']);
  assert.equal(json.confident, false);
  assert.equal(json.method, 'none');
  assert.equal(json.score, 0);
  assert.equal(json.city, undefined);
  assert.equal(json.code, undefined);
  assert.match(json.reason, /no city/i);
});

test('cities match without --json prints the decision as text, saying whether it is confident', async () => {
  const sure = await runCli(['cities', 'match', 'CO', 'Antioquia', 'Medellín'], { db: tmp.file });
  assert.equal(sure.code, 0, sure.stderr);
  assert.match(sure.stdout, /confident:\s+yes/);
  assert.match(sure.stdout, /city:\s+Medellín/);
  assert.match(sure.stdout, /code:\s+05001/);
  const ambiguous = await runCli(['cities', 'match', 'CO', '', 'Armenia'], { db: tmp.file });
  assert.equal(ambiguous.code, 0, ambiguous.stderr);
  assert.match(ambiguous.stdout, /confident:\s+no/);
  assert.match(ambiguous.stdout, /candidates:\n\s+Armenia \(Antioquia\) 05059\n\s+Armenia \(Quindío\) 63001/);
});

test('cities match --file prints one decision per CSV row, in input order, with the input text', async () => {
  const file = fixture(
    'match.csv',
    'departamento,ciudad\nAntioquia,Medellín\nAtlantis,Gotham\n"Valle del Cauca",palmira\n,Armenia\n"Bogotá, D.C.","Bogotá, D.C."\n',
  );
  const { json } = await cliJson(tmp.file, ['cities', 'match', 'CO', '--file', file]);
  assert.deepEqual(
    json.map((d: { departamento: string; ciudad: string }) => [d.departamento, d.ciudad]),
    [
      ['Antioquia', 'Medellín'],
      ['Atlantis', 'Gotham'],
      ['Valle del Cauca', 'palmira'],
      ['', 'Armenia'],
      ['Bogotá, D.C.', 'Bogotá, D.C.'],
    ],
  );
  const [medellin, gotham, palmira, armenia, bogota] = json;
  assert.deepEqual([medellin.confident, medellin.region, medellin.city, medellin.code, medellin.method], [true, 'Antioquia', 'Medellín', '05001', 'exact']);
  assert.deepEqual([gotham.confident, gotham.city, gotham.method], [false, undefined, 'none']);
  assert.deepEqual([palmira.confident, palmira.region, palmira.city], [true, 'Valle del Cauca', 'Palmira']);
  assert.deepEqual([armenia.confident, armenia.candidates.map((c: { region: string }) => c.region)], [false, ['Antioquia', 'Quindío']]);
  assert.equal(bogota.confident, true);
  assert.equal(bogota.code, '11001');
});

test('cities match --file finds the departamento and ciudad columns by their header and ignores the others', async () => {
  const file = fixture('match-columns.csv', 'id,ciudad,expected,departamento\n7,Medellin,Medellín,antioquia\n8,Cali,Santiago de Cali,Valle\n');
  const { json } = await cliJson(tmp.file, ['cities', 'match', 'CO', '--file', file]);
  assert.deepEqual(
    json.map((d: { departamento: string; ciudad: string; city: string }) => [d.departamento, d.ciudad, d.city]),
    [
      ['antioquia', 'Medellin', 'Medellín'],
      ['Valle', 'Cali', 'Santiago de Cali'],
    ],
  );
});

test('cities match with both a file and arguments, with neither, or with a broken file is a usage error with exit 2', async () => {
  const file = fixture('match-one.csv', 'Antioquia,Medellín\n');
  await cliFails(tmp.file, ['cities', 'match', 'CO', 'Antioquia', 'Medellín', '--file', file], 2);
  await cliFails(tmp.file, ['cities', 'match', 'CO'], 2);
  await cliFails(tmp.file, ['cities', 'match', 'CO', 'Antioquia'], 2);
  const broken = await cliFails(tmp.file, ['cities', 'match', 'CO', '--file', fixture('match-broken.csv', 'Antioquia,Medellín\nEnvigado\n')], 2);
  assert.deepEqual(problems(broken.stderr).map(([line]) => line), [2]);
  await cliFails(tmp.file, ['cities', 'match', 'CO', '--file', join(tmp.dir, 'absent.csv')], 2);
});

test('cities match for a country without a fulfillment catalog fails with exit 1', async () => {
  const r = await cliFails(tmp.file, ['cities', 'match', 'US', 'California', 'Los Angeles'], 1);
  assert.match(r.stderr, /No fulfillment catalog for US/);
});
