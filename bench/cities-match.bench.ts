// City canonicalization speed (SPEC 14: ≥ 50,000 matches/s on one core) on the labelled sets.
// The baseline, measured in the same run, is the cheapest possible lookup: fold the text and read
// one Map of exact names. The ratio says what the aliases, filler words and typo tolerance cost.
import { performance } from 'node:perf_hooks';
import { foldCompact } from '../src/domain/cities/fold.ts';
import { bundledMatcher, readLabelledSet } from './city-eval.ts';
import { CITIES_DIR, datasetRows } from '../src/use-cases/geo/load-bundled-catalogs.use-case.ts';
import { readFileSync } from 'node:fs';

const rows = [...readLabelledSet('eval.csv'), ...readLabelledSet('holdout.csv')];
const countries = [...new Set(rows.map((r) => r.country))];
const matchers = new Map(countries.map((c) => [c, bundledMatcher(c)]));
const exact = new Map(
  countries.map((c) => {
    const data = JSON.parse(readFileSync(new URL(`${c}.json`, CITIES_DIR), 'utf8')) as Parameters<typeof datasetRows>[0];
    return [c, new Map(datasetRows(data).map((r) => [`${foldCompact(r.region)}|${foldCompact(r.city)}`, r]))];
  }),
);

function run(label: string, fn: (row: (typeof rows)[number]) => unknown, seconds = 2): number {
  let sink = 0;
  for (let i = 0; i < 3; i++) for (const row of rows) if (fn(row)) sink++; // warm-up
  let n = 0;
  const start = performance.now();
  const until = start + seconds * 1000;
  while (performance.now() < until) {
    for (const row of rows) if (fn(row)) sink++;
    n += rows.length;
  }
  const perSecond = n / ((performance.now() - start) / 1000);
  console.log(`${label.padEnd(34)} ${Math.round(perSecond).toLocaleString('en').padStart(12)} matches/s  (${n.toLocaleString('en')} runs, sink ${sink % 7})`);
  return perSecond;
}

console.log(`cities match benchmark: ${rows.length} labelled inputs (${countries.join(' ')}), one core, Node ${process.version}`);
const baseline = run('baseline: fold + exact Map lookup', (r) => exact.get(r.country)!.get(`${foldCompact(r.departamento)}|${foldCompact(r.ciudad)}`));
const matcher = run('CityMatcher.match', (r) => matchers.get(r.country)!.match(r.departamento, r.ciudad).confident);
console.log(`ratio matcher / baseline: ${(matcher / baseline).toFixed(3)}`);
console.log(`target ≥ 50,000 matches/s: ${matcher >= 50_000 ? 'met' : 'NOT met'}`);
