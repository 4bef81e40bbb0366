import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { CityDecision } from '../domain/cities/matcher.ts';
import { AppError } from '../errors.ts';
import { globals, print, shown, withApp } from './output.ts';

// Use-cases load when a command runs, so `codrail --help` starts fast (SPEC 14).
const loadCityCatalogs = () => import('../use-cases/geo/city-catalogs.use-case.ts');
const loadCatalogFile = () => import('../use-cases/geo/catalog-file.ts');

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new AppError('invalid_input', `Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`, [{ field: 'file', message: 'must be a readable file' }]);
  }
}

// Catalog names and the buyer's text go through shown() (issue 19 §3).
const where = (d: { region?: string | undefined; city?: string | undefined }) => `${shown(d.city)} (${shown(d.region)})`;

function decisionText(d: CityDecision): string {
  const lines = d.confident
    ? [`region:     ${shown(d.region)}`, `city:       ${shown(d.city)}`, `code:       ${shown(d.code)}`]
    : ['region:     -', 'city:       -', 'code:       -'];
  lines.push(`score:      ${d.score}`, `confident:  ${d.confident ? 'yes' : 'no (the order would be flagged needs_review)'}`, `method:     ${d.method}`, `reason:     ${shown(d.reason)}`);
  if (d.candidates?.length) lines.push('candidates:', ...d.candidates.map((c) => `  ${where(c)}${c.code ? ` ${shown(c.code)}` : ''}`));
  return lines.join('\n');
}

export function register(program: Command): void {
  const cities = program.command('cities').description('city catalogs: import, list, match');
  cities
    .command('import')
    .description("replace one country's catalog from a JSON (bundled format) or CSV (region,city[,code]) file, atomically; or, with --from-platform STORE, a store's catalog from its platform (its orders then carry the platform's exact strings)")
    .argument('[file]', 'a .json or .csv file')
    .option('--country <CC>', 'ISO 3166-1 alpha-2 country code (with a file)')
    .option('--catalog <kind>', 'official | fulfillment (default: both catalogs the country has)')
    .option('--from-platform <store_id>', "pull the departments and cash-on-delivery cities of the store's platform connection (e.g. Dropi)")
    .action(async (file: string | undefined, o: { country?: string; catalog?: string; fromPlatform?: string }, cmd: Command) => {
      if (o.fromPlatform !== undefined) {
        if (file !== undefined || o.country !== undefined || o.catalog !== undefined) throw new AppError('invalid_input', '--from-platform takes no file, --country or --catalog', [{ field: 'from-platform', message: 'alone' }]);
        const storeId = o.fromPlatform;
        const result = await withApp(cmd, async (app) => (await import('../use-cases/geo/platform-cities.use-case.ts')).importPlatformCities(app, storeId));
        print(globals(cmd), result, `imported ${result.cities} cash-on-delivery cities in ${result.regions} regions from ${result.platform} for store ${result.store_id} (v${result.version}; ${result.with_code} with an official code)`);
        return;
      }
      if (file === undefined || o.country === undefined) throw new AppError('invalid_input', 'Give a file and --country CC, or --from-platform STORE', [{ field: file === undefined ? 'file' : 'country', message: 'required' }]);
      const country = o.country;
      const content = readText(file);
      const result = await withApp(cmd, async (app) => (await loadCityCatalogs()).importCatalog(app, { country, catalog: o.catalog, fileName: file, content }));
      print(
        globals(cmd),
        result,
        `imported ${result.cities} cities in ${result.regions} regions for ${result.country}: ${result.catalogs.map((c) => `${c.catalog} v${c.version}`).join(', ')}`,
      );
    });
  cities
    .command('list')
    .description('without a country: every catalog with its version and size; with one: its regions and cities')
    .argument('[CC]', 'ISO 3166-1 alpha-2 country code')
    .option('--catalog <kind>', 'official | fulfillment (default fulfillment)')
    .option('--region <name>', 'only this region')
    .action(async (country: string | undefined, o: { catalog?: string; region?: string }, cmd: Command) => {
      if (country === undefined) {
        const list = await withApp(cmd, async (app) => (await loadCityCatalogs()).listCatalogs(app));
        print(globals(cmd), list, list.map((c) => `${c.country}  ${c.catalog.padEnd(11)} v${c.version}  ${String(c.regions).padStart(3)} regions  ${String(c.cities).padStart(5)} cities  ${shown(c.source)}  ${c.updated_at}`).join('\n') || '(no catalogs)');
        return;
      }
      const catalog = await withApp(cmd, async (app) => (await loadCityCatalogs()).showCatalog(app, country, o.catalog, o.region));
      const text = catalog.regions.map((r) => `${shown(r.region)} (${r.cities.length})\n${r.cities.map((c) => `  ${shown(c.city)}${c.code ? `  ${shown(c.code)}` : ''}`).join('\n')}`).join('\n');
      print(globals(cmd), catalog, text);
    });
  cities
    .command('match')
    .description('what order creation would decide for a departamento and ciudad (or for every row of a departamento,ciudad CSV)')
    .argument('<CC>', 'ISO 3166-1 alpha-2 country code')
    .argument('[departamento]', 'the region as the buyer typed it')
    .argument('[ciudad]', 'the city as the buyer typed it')
    .option('--file <csv>', 'a departamento,ciudad CSV; prints the decisions in input order')
    .action(async (country: string, departamento: string | undefined, ciudad: string | undefined, o: { file?: string }, cmd: Command) => {
      if (o.file !== undefined && (departamento !== undefined || ciudad !== undefined))
        throw new AppError('invalid_input', 'Give either departamento and ciudad, or --file, not both', [{ field: 'file', message: 'not with departamento/ciudad' }]);
      if (o.file === undefined && (departamento === undefined || ciudad === undefined))
        throw new AppError('invalid_input', 'Give departamento and ciudad, or --file input.csv', [{ field: 'ciudad', message: 'required' }]);
      if (o.file !== undefined) {
        const rows = (await loadCatalogFile()).readMatchFile(readText(o.file));
        const decisions = await withApp(cmd, async (app) => (await loadCityCatalogs()).matchCities(app, country, rows));
        print(
          globals(cmd),
          decisions,
          decisions.map((d) => `${shown(d.departamento)} | ${shown(d.ciudad)}  →  ${d.confident ? `${where(d)} ${d.score}` : `needs review: ${shown(d.reason)}`}`).join('\n') || '(no rows)',
        );
        return;
      }
      const [decision] = await withApp(cmd, async (app) => (await loadCityCatalogs()).matchCities(app, country, [{ departamento: departamento!, ciudad: ciudad! }]));
      const { departamento: _d, ciudad: _c, ...only } = decision!;
      print(globals(cmd), only, decisionText(only));
    });
}
