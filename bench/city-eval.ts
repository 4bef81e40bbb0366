// The labelled city sets (fixtures/cities/*.csv) and their figures (issue 3, SPEC 14): shared by
// the accuracy test and the matching benchmark. Matchers are built exactly as the server builds
// them: the bundled fulfillment catalog plus the shipped alias table of the country.
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { CityMatcher, type CityDecision } from '../src/domain/cities/matcher.ts';
import { CITIES_DIR, datasetRows } from '../src/use-cases/geo/load-bundled-catalogs.use-case.ts';
import { readAliases } from '../src/use-cases/geo/aliases.ts';

export const FIXTURES = new URL('../fixtures/cities/', import.meta.url);

export interface LabelledRow {
  line: number;
  country: string;
  departamento: string;
  ciudad: string;
  /** Undefined when the right outcome is a review. */
  expected?: { region: string; city: string };
  category: string;
}

export function readLabelledSet(name: string): LabelledRow[] {
  const text = readFileSync(new URL(name, FIXTURES), 'utf8');
  const records = parse(text, { columns: true, skip_empty_lines: true, info: true }) as { record: Record<string, string>; info: { lines: number } }[];
  return records.map(({ record: r, info }) => ({
    line: info.lines,
    country: r.country!,
    departamento: r.departamento ?? '',
    ciudad: r.ciudad ?? '',
    ...(r.expected_region || r.expected_city ? { expected: { region: r.expected_region!, city: r.expected_city! } } : {}),
    category: r.category ?? '',
  }));
}

const matchers = new Map<string, CityMatcher>();

export function bundledMatcher(country: string): CityMatcher {
  let matcher = matchers.get(country);
  if (!matcher) {
    const data = JSON.parse(readFileSync(new URL(`${country}.json`, CITIES_DIR), 'utf8')) as Parameters<typeof datasetRows>[0];
    matcher = new CityMatcher(datasetRows(data), { country, aliases: readAliases(country) });
    matchers.set(country, matcher);
  }
  return matcher;
}

export interface Outcome {
  row: LabelledRow;
  decision: CityDecision;
  verdict: 'right' | 'wrong' | 'review_ok' | 'missed';
}

export interface Figures {
  rows: number;
  /** Rows whose label is one catalog entry. */
  unique: number;
  reviewRows: number;
  confidentRight: number;
  /** Confident decisions that differ from the label (or that should have been a review). Must be 0. */
  confidentWrong: number;
  /** Unique-answer rows left for review. */
  missed: number;
  reviewRowsKept: number;
  /** confidentRight / unique. */
  confidentRate: number;
}

export function judge(row: LabelledRow, decision: CityDecision): Outcome['verdict'] {
  if (decision.confident) return row.expected && decision.region === row.expected.region && decision.city === row.expected.city ? 'right' : 'wrong';
  return row.expected ? 'missed' : 'review_ok';
}

export function evaluate(rows: readonly LabelledRow[]): { figures: Figures; outcomes: Outcome[] } {
  const outcomes = rows.map((row) => {
    const decision = bundledMatcher(row.country).match(row.departamento, row.ciudad);
    return { row, decision, verdict: judge(row, decision) };
  });
  return { figures: figuresOf(outcomes), outcomes };
}

export function figuresOf(outcomes: readonly Outcome[]): Figures {
  const count = (v: Outcome['verdict']) => outcomes.filter((o) => o.verdict === v).length;
  const unique = outcomes.filter((o) => o.row.expected).length;
  const confidentRight = count('right');
  return {
    rows: outcomes.length,
    unique,
    reviewRows: outcomes.length - unique,
    confidentRight,
    confidentWrong: count('wrong'),
    missed: count('missed'),
    reviewRowsKept: count('review_ok'),
    confidentRate: unique === 0 ? 0 : confidentRight / unique,
  };
}

export const percent = (x: number) => `${(x * 100).toFixed(1)}%`;

/** One line per country and per category, for the README and when a figure moves. */
export function breakdown(outcomes: readonly Outcome[], by: (o: Outcome) => string): string[] {
  const groups = new Map<string, Outcome[]>();
  for (const o of outcomes) groups.set(by(o), [...(groups.get(by(o)) ?? []), o]);
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, list]) => {
      const f = figuresOf(list);
      return `${name.padEnd(16)} rows ${String(f.rows).padStart(4)}  unique ${String(f.unique).padStart(4)}  confident ${percent(f.confidentRate).padStart(6)}  wrong ${f.confidentWrong}  review kept ${f.reviewRowsKept}/${f.reviewRows}`;
    });
}
