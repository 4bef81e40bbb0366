// Reading a catalog file for `codrail cities import` (SPEC 6): the bundled JSON format
// ({ regions: { region: [city…] }, codes? }) or CSV `region,city[,code]`. Every problem is reported
// with its line and reason, and a file with any problem yields no rows at all.
import { parse as parseCsv } from 'csv-parse/sync';
import { parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { AppError, type FieldIssue } from '../../errors.ts';
import type { CatalogRow } from '../../db/queries/cities.queries.ts';
import { CATALOG_CODE_MAX, CATALOG_FILE_MAX_BYTES, CATALOG_MAX_PROBLEMS, CATALOG_MAX_ROWS, CATALOG_NAME_MAX, MATCH_FILE_MAX_ROWS } from '../../limits.ts';

export type CatalogFormat = 'json' | 'csv';

class Problems {
  readonly list: FieldIssue[] = [];
  add(line: number, message: string): void {
    if (this.list.length < CATALOG_MAX_PROBLEMS) this.list.push({ field: `line ${line}`, message });
  }
  get full(): boolean {
    return this.list.length >= CATALOG_MAX_PROBLEMS;
  }
}

/** Line number (1-based) of a character offset. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

const CONTROL = /[\u0000-\u001f\u007f]/;

function checkName(what: string, value: string, max: number): string | undefined {
  if (value.trim() === '') return `${what} is empty`;
  if (value !== value.trim()) return `${what} "${value}" has leading or trailing spaces`;
  if (value.length > max) return `${what} is longer than ${max} characters`;
  if (CONTROL.test(value)) return `${what} contains a control character`;
  return undefined;
}

export function detectFormat(fileName: string, text: string): CatalogFormat {
  if (/\.json$/i.test(fileName)) return 'json';
  if (/\.csv$/i.test(fileName)) return 'csv';
  return text.trimStart().startsWith('{') ? 'json' : 'csv';
}

/** Parses and validates a catalog file; throws invalid_input listing where it is broken. */
export function readCatalogFile(text: string, format: CatalogFormat, country: string): CatalogRow[] {
  if (Buffer.byteLength(text) > CATALOG_FILE_MAX_BYTES) throw new AppError('invalid_input', `Catalog file is larger than ${CATALOG_FILE_MAX_BYTES} bytes`);
  const problems = new Problems();
  // A byte order mark is not content: line numbers count from what follows it.
  const body = text.replace(/^\uFEFF/, '');
  const rows = format === 'json' ? fromJson(body, country, problems) : fromCsv(body, problems);
  if (problems.list.length === 0 && rows.length === 0) problems.add(1, 'the file has no cities');
  if (rows.length > CATALOG_MAX_ROWS) problems.add(1, `more than ${CATALOG_MAX_ROWS} cities`);
  if (problems.list.length > 0) {
    const more = problems.full ? ` (first ${CATALOG_MAX_PROBLEMS} shown)` : '';
    throw new AppError('invalid_input', `Catalog file refused: ${problems.list.length} problem${problems.list.length > 1 ? 's' : ''}${more}; nothing was changed`, problems.list);
  }
  return rows;
}

/** Where a CSV error is: an unclosed quote is reported where it opened, not at the end of the file. */
function csvProblem(text: string, error: unknown, problems: Problems): void {
  const e = error as { code?: string; message?: string; lines?: number };
  let line = e.lines ?? 1;
  if (e.code === 'CSV_QUOTE_NOT_CLOSED') {
    let open = -1;
    for (let i = 0; i < text.length; i++) {
      if (text[i] !== '"') continue;
      if (open === -1) open = i;
      else if (text[i + 1] === '"') i++;
      else open = -1;
    }
    if (open !== -1) line = lineAt(text, open);
  }
  problems.add(line, `not valid CSV: ${e.message?.replace(/^[^:]*:\s*/, '') ?? 'unreadable'}`);
}

function fromCsv(text: string, problems: Problems): CatalogRow[] {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parseCsv(text, { info: true, relax_column_count: true, skip_empty_lines: true }) as unknown as typeof records;
  } catch (error) {
    csvProblem(text, error, problems);
    return [];
  }
  const rows: CatalogRow[] = [];
  const seen = new Map<string, number>();
  records.forEach(({ record, info }, index) => {
    const line = info.lines;
    if (index === 0 && record[0]?.trim().toLowerCase() === 'region' && record[1]?.trim().toLowerCase() === 'city') return;
    if (record.length < 2 || record.length > 3) return problems.add(line, `expected region,city[,code] but found ${record.length} field${record.length === 1 ? '' : 's'}`);
    const [region, city, code] = record as [string, string, string | undefined];
    const problem = checkName('region', region, CATALOG_NAME_MAX) ?? checkName('city', city, CATALOG_NAME_MAX) ?? (code ? checkName('code', code, CATALOG_CODE_MAX) : undefined);
    if (problem) return problems.add(line, problem);
    const key = `${region}\u0000${city}`;
    const first = seen.get(key);
    if (first !== undefined) return problems.add(line, `"${city}" in "${region}" is listed twice (first on line ${first})`);
    seen.set(key, line);
    rows.push({ region, city, code: code ? code : null });
  });
  return rows;
}

function fromJson(text: string, country: string, problems: Problems): CatalogRow[] {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
  if (errors.length > 0 || !root) {
    for (const e of errors) problems.add(lineAt(text, e.offset), `not valid JSON: ${printParseErrorCode(e.error)}`);
    if (errors.length === 0) problems.add(1, 'not valid JSON');
    return [];
  }
  const at = (node: Node) => lineAt(text, node.offset);
  if (root.type !== 'object') {
    problems.add(at(root), 'expected a JSON object with "regions"');
    return [];
  }
  const prop = (node: Node, name: string) => node.children?.find((p) => p.children?.[0]?.value === name)?.children?.[1];
  const declared = prop(root, 'country');
  if (declared && declared.value !== country) problems.add(at(declared), `the file is for country ${JSON.stringify(declared.value)}, not ${country}`);
  const regions = prop(root, 'regions');
  if (!regions || regions.type !== 'object') {
    problems.add(regions ? at(regions) : at(root), '"regions" must be an object of region name → list of cities');
    return [];
  }
  const codes = prop(root, 'codes');
  const rows: CatalogRow[] = [];
  const regionLines = new Map<string, number>();
  for (const pair of regions.children ?? []) {
    const [keyNode, list] = pair.children as [Node, Node];
    const region = keyNode.value as string;
    const firstLine = regionLines.get(region);
    if (firstLine !== undefined) {
      problems.add(at(keyNode), `region "${region}" is listed twice (first on line ${firstLine})`);
      continue;
    }
    regionLines.set(region, at(keyNode));
    const regionProblem = checkName('region', region, CATALOG_NAME_MAX);
    if (regionProblem) problems.add(at(keyNode), regionProblem);
    if (list.type !== 'array') {
      problems.add(at(list), `the cities of "${region}" must be a list of names`);
      continue;
    }
    const regionCodes = codes && codes.type === 'object' ? prop(codes, region) : undefined;
    const cityCodes = regionCodes && regionCodes.type === 'object' ? prop(regionCodes, 'cities') : undefined;
    const seen = new Set<string>();
    for (const item of list.children ?? []) {
      if (item.type !== 'string') {
        problems.add(at(item), `a city of "${region}" is not a string`);
        continue;
      }
      const city = item.value as string;
      const problem = checkName('city', city, CATALOG_NAME_MAX);
      if (problem) problems.add(at(item), problem);
      else if (seen.has(city)) problems.add(at(item), `"${city}" is listed twice in "${region}"`);
      seen.add(city);
      const codeNode = cityCodes && prop(cityCodes, city);
      const code = codeNode && typeof codeNode.value === 'string' ? (codeNode.value as string) : null;
      if (codeNode && (typeof codeNode.value !== 'string' || checkName('code', codeNode.value as string, CATALOG_CODE_MAX)))
        problems.add(at(codeNode), `the code of "${city}" must be a non-empty string of at most ${CATALOG_CODE_MAX} characters`);
      if (!problem && !regionProblem) rows.push({ region, city, code });
    }
  }
  return rows;
}

/**
 * Rows of a `departamento,ciudad` CSV for `codrail cities match --file`. With a header the two
 * columns are found by name (other columns, such as expected answers, are ignored); without one the
 * first two columns are used.
 */
export function readMatchFile(text: string): { departamento: string; ciudad: string }[] {
  const problems = new Problems();
  const body = text.replace(/^\uFEFF/, '');
  let records: { record: string[]; info: { lines: number } }[] = [];
  try {
    records = parseCsv(body, { info: true, relax_column_count: true, skip_empty_lines: true }) as unknown as typeof records;
  } catch (error) {
    csvProblem(body, error, problems);
  }
  const header = records[0]?.record.map((h) => h.trim().toLowerCase()) ?? [];
  const hasHeader = header.includes('departamento') && header.includes('ciudad');
  const [d, c] = hasHeader ? [header.indexOf('departamento'), header.indexOf('ciudad')] : [0, 1];
  const rows: { departamento: string; ciudad: string }[] = [];
  records.forEach(({ record, info }, index) => {
    if (index === 0 && hasHeader) return;
    if (record.length <= Math.max(d, c)) return problems.add(info.lines, `expected departamento,ciudad but found ${record.length} field${record.length === 1 ? '' : 's'}`);
    rows.push({ departamento: record[d]!, ciudad: record[c]! });
  });
  if (rows.length > MATCH_FILE_MAX_ROWS) problems.add(1, `more than ${MATCH_FILE_MAX_ROWS} rows`);
  if (problems.list.length > 0) throw new AppError('invalid_input', 'Input file refused', problems.list);
  return rows;
}
