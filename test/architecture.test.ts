// The import rules of STYLE.md "The tree is the architecture", checked on the source files:
// shells (api, http, oauth, mcp, cli, console) → use-cases → domain, db, fulfillment.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SRC = join(ROOT, 'src');

/** Path relative to the repository, with forward slashes: `src/cli/main.ts`. */
const rel = (abs: string) => relative(ROOT, abs).split(sep).join('/');

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const abs = join(dir, name);
    return statSync(abs).isDirectory() ? [abs, ...walk(abs)] : [abs];
  });
}

const ENTRIES = walk(SRC);
const SOURCE_FILES = ENTRIES.filter((f) => /\.(ts|tsx|mts|cts)$/.test(f) && statSync(f).isFile());

interface Import {
  specifier: string;
  /** Repository-relative target for a relative specifier; undefined for a package. */
  target: string | undefined;
}

interface SourceInfo {
  file: string;
  imports: Import[];
  /** Lines where `process.env` is read. */
  envReads: number[];
}

function stringArg(node: ts.Node | undefined): string | undefined {
  return node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : undefined;
}

/** Every `import … from`, `export … from`, `import '…'`, `import('…')`, `require('…')` and `process.env` in a file. */
function scanText(abs: string, text: string): SourceInfo {
  const source = ts.createSourceFile(abs, text, ts.ScriptTarget.Latest, true, abs.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const specifiers: string[] = [];
  const envReads: number[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      const s = stringArg(node.moduleSpecifier);
      if (s !== undefined) specifiers.push(s);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const s = stringArg(node.moduleReference.expression);
      if (s !== undefined) specifiers.push(s);
    } else if (ts.isCallExpression(node)) {
      const isImport = node.expression.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(node.expression) && node.expression.text === 'require';
      if (isImport || isRequire) {
        const s = stringArg(node.arguments[0]);
        // A computed dynamic import cannot be checked: refuse it rather than miss a rule.
        specifiers.push(s ?? `<computed import at line ${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}>`);
      }
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const s = stringArg(node.argument.literal);
      if (s !== undefined) specifiers.push(s);
    }
    const readsEnv =
      (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'process' && node.name.text === 'env') ||
      (ts.isElementAccessExpression(node) &&
        ts.isIdentifier(node.expression) &&
        node.expression.text === 'process' &&
        stringArg(node.argumentExpression) === 'env');
    if (readsEnv) envReads.push(source.getLineAndCharacterOfPosition(node.getStart()).line + 1);
    ts.forEachChild(node, visit);
  };
  visit(source);
  const imports = specifiers.map((specifier) => ({
    specifier,
    target: specifier.startsWith('.') ? rel(resolve(dirname(abs), specifier)) : undefined,
  }));
  return { file: rel(abs), imports, envReads };
}

const SOURCES = SOURCE_FILES.map((abs) => scanText(abs, readFileSync(abs, 'utf8')));

const SHELLS = ['api', 'http', 'oauth', 'mcp', 'cli', 'console'] as const;
type Shell = (typeof SHELLS)[number];

/** The top-level area of a repository-relative path under src/: `cli`, `domain`, `app.ts`… */
function area(path: string): string | undefined {
  const m = /^src\/([^/]+)/.exec(path);
  return m?.[1];
}

/**
 * src/http/outbound is not a shell: it is the one guarded outbound HTTP client (STYLE "Seams"),
 * which the fulfillment platform client, the WhatsApp Cloud API client, the metadata-document fetch
 * and the webhooks use from below the shells. It builds on nothing of ours but itself.
 */
const OUTBOUND = 'src/http/outbound/';

const shellOf = (path: string): Shell | undefined => {
  if (path.startsWith(OUTBOUND)) return undefined;
  const a = area(path);
  return SHELLS.find((s) => s === a);
};

/** The shared HTTP shell library is the one shell others may build on. */
const MAY_IMPORT: Record<Shell, readonly Shell[]> = {
  api: ['http'],
  oauth: ['http'],
  mcp: ['http'],
  http: [],
  cli: [],
  console: [],
};

/** The single exception: `codrail serve` starts the HTTP server with the REST, OAuth and MCP routes. */
const CLI_SERVE = 'src/cli/serve.command.ts';
const CLI_SERVE_MAY_IMPORT: readonly Shell[] = ['http', 'api', 'oauth', 'mcp'];
/** Likewise `codrail console` starts the console shell, and imports nothing else of it. */
const CLI_CONSOLE = 'src/cli/console.command.ts';

function violations(rule: (from: SourceInfo, imp: Import) => string | undefined): string[] {
  const out: string[] = [];
  for (const source of SOURCES)
    for (const imp of source.imports) {
      const why = rule(source, imp);
      if (why) out.push(`${source.file} imports '${imp.specifier}': ${why}`);
    }
  return out;
}

test('the import scanner finds static, type-only and re-exported imports in the source tree', () => {
  const serve = SOURCES.find((s) => s.file === CLI_SERVE);
  assert.ok(serve, `${CLI_SERVE} exists`);
  const targets = serve.imports.map((i) => i.target ?? i.specifier);
  assert.ok(targets.includes('src/http/server.ts'), targets.join(', '));
  assert.ok(targets.includes('src/api/routes.ts'), targets.join(', '));
  assert.ok(targets.includes('commander'), targets.join(', '));
  const tables = SOURCES.find((s) => s.file === 'src/db/tables/index.ts');
  assert.ok(tables?.imports.some((i) => i.target === 'src/db/tables/keys.table.ts'));
  assert.ok(SOURCES.length > 40, `found ${SOURCES.length} source files`);
});

test('the import scanner sees dynamic imports, require calls, import types and process.env reads', () => {
  const text = [
    "import a from './x.ts';",
    "export * from '../db/y.ts';",
    "const m = await import('node:fs');",
    "const r = require('kysely');",
    "type T = import('../http/z.ts').Z;",
    'const e = process.env.X;',
    "const f = process['env'];",
    "// process.env in a comment and 'process.env' in a string are not reads",
    "const s = 'process.env';",
  ].join('\n');
  const info = scanText(join(SRC, 'domain', 'probe.ts'), text);
  assert.deepEqual(
    info.imports.map((i) => i.target ?? i.specifier),
    ['src/domain/x.ts', 'src/db/y.ts', 'node:fs', 'kysely', 'src/http/z.ts'],
  );
  assert.deepEqual(info.envReads, [6, 7]);
});

test('no shell imports another shell, except api, oauth and mcp building on src/http', () => {
  const bad = violations((from, imp) => {
    const own = shellOf(from.file);
    const other = imp.target ? shellOf(imp.target) : undefined;
    if (!own || !other || other === own) return undefined;
    if (MAY_IMPORT[own].includes(other)) return undefined;
    if (from.file === CLI_SERVE && CLI_SERVE_MAY_IMPORT.includes(other)) return undefined;
    if (from.file === CLI_CONSOLE && other === 'console') return undefined;
    return `the ${own} shell must not import the ${other} shell`;
  });
  assert.deepEqual(bad, []);
});

test('src/http, the shared HTTP library, imports no route family or other shell', () => {
  const bad = violations((from, imp) => {
    if (shellOf(from.file) !== 'http' || !imp.target) return undefined;
    const other = shellOf(imp.target);
    return other && other !== 'http' ? `src/http must not import src/${other}` : undefined;
  });
  assert.deepEqual(bad, []);
});

test('only src/cli/serve.command.ts in the cli reaches into src/http, src/api, src/oauth and src/mcp', () => {
  const users = SOURCES.filter((s) => shellOf(s.file) === 'cli' && s.imports.some((i) => i.target && ['http', 'api', 'oauth', 'mcp'].includes(shellOf(i.target) ?? '')));
  assert.deepEqual(
    users.map((s) => s.file),
    [CLI_SERVE],
  );
});

const DOMAIN_FORBIDDEN_AREAS = ['db', 'use-cases', 'http', 'api', 'cli', 'oauth', 'mcp', 'console', 'fulfillment', 'platforms', 'app.ts', 'config.ts', 'log.ts'];
const IO_PACKAGES = [
  'fs',
  'fs/promises',
  'http',
  'https',
  'http2',
  'net',
  'tls',
  'dgram',
  'dns',
  'child_process',
  'worker_threads',
  'better-sqlite3',
  'kysely',
  'pino',
  'find-my-way',
  'commander',
];

const isIoPackage = (specifier: string) => IO_PACKAGES.includes(specifier.replace(/^node:/, ''));

test('src/http/outbound, the guarded outbound client, imports nothing from src outside itself', () => {
  const bad = violations((from, imp) => (from.file.startsWith(OUTBOUND) && imp.target && !imp.target.startsWith(OUTBOUND) ? 'the outbound client stands alone (node built-ins only)' : undefined));
  assert.deepEqual(bad, []);
  assert.ok(SOURCES.some((s) => s.file.startsWith(OUTBOUND)), 'the outbound client exists');
});

test('only src/http/outbound calls fetch, http.request or https.request: every outbound call is guarded', () => {
  const bad: string[] = [];
  for (const abs of SOURCE_FILES) {
    const file = rel(abs);
    // The simulators are local development stand-ins that post their own webhooks to a URL the developer gives.
    if (file.startsWith(OUTBOUND) || file === 'src/platforms/generic/simulator.ts' || file === 'src/whatsapp/simulator.ts') continue;
    readFileSync(abs, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (/^\s*(\/\/|\*)/.test(line)) return;
        if (/(^|[^.\w])fetch\(|\bhttps?\.(request|get)\(|from 'undici'/.test(line)) bad.push(`${file}:${i + 1}: ${line.trim().slice(0, 100)}`);
      });
  }
  assert.deepEqual(bad, []);
});

test('one writer of order events: only src/order-events imports insertEvent (issue 21 §3)', () => {
  const bad = violations((from, imp) =>
    imp.target === 'src/db/queries/orders.queries.ts' && !from.file.startsWith('src/order-events/') && /\binsertEvent\b/.test(readFileSync(join(ROOT, from.file), 'utf8'))
      ? 'order events are recorded through src/order-events (OrderEvents.record)'
      : undefined,
  );
  assert.deepEqual(bad, []);
  const writers = SOURCE_FILES.map(rel).filter((f) => !f.startsWith('src/db/') && /insertInto\('order_events'\)/.test(readFileSync(join(ROOT, f), 'utf8')));
  assert.deepEqual(writers, []);
});

test('one outbox machinery: only src/db/queries/outbox.queries.ts claims or settles outbox rows (writes lease_until), and only the outbox loop defines the backoff (issue 21 §1)', () => {
  const leaseWriters = SOURCE_FILES.map(rel).filter((f) => /lease_until:\s*(?!null\b)|\bset\(\{[^}]*lease_until/.test(readFileSync(join(ROOT, f), 'utf8')) && f !== 'src/db/queries/outbox.queries.ts');
  // Writes that only clear a lease (a cancelled job, a job requeued by a replay) are not claims or settles.
  const claimOrSettle = leaseWriters.filter((f) => /lease_until:\s*(leaseUntil|job\.|sql)/.test(readFileSync(join(ROOT, f), 'utf8')));
  assert.deepEqual(claimOrSettle, []);
  const backoffs = SOURCE_FILES.map(rel).filter((f) => /function backoffMs\(|const backoffMs = \(attempt/.test(readFileSync(join(ROOT, f), 'utf8')));
  assert.deepEqual(backoffs, ['src/outbox/outbox-loop.ts']);
});

test('src/domain imports nothing from db, use-cases, shells, fulfillment or the composition root', () => {
  const bad = violations((from, imp) => {
    if (area(from.file) !== 'domain' || !imp.target) return undefined;
    const to = area(imp.target);
    if (!imp.target.startsWith('src/')) return 'it leaves src/';
    return to && DOMAIN_FORBIDDEN_AREAS.includes(to) ? `domain is pure and must not depend on src/${to}` : undefined;
  });
  assert.deepEqual(bad, []);
});

test('src/domain imports no I/O module (fs, http, net, SQLite, kysely, logging)', () => {
  const bad = violations((from, imp) => (area(from.file) === 'domain' && !imp.target && isIoPackage(imp.specifier) ? 'domain does no I/O' : undefined));
  assert.deepEqual(bad, []);
});

test('src/use-cases never imports a shell', () => {
  const bad = violations((from, imp) => {
    if (area(from.file) !== 'use-cases' || !imp.target) return undefined;
    const shell = shellOf(imp.target);
    return shell ? `use-cases are called by shells, never the other way round (src/${shell})` : undefined;
  });
  assert.deepEqual(bad, []);
});

test('src/db, src/fulfillment, src/platforms and the composition root import no shell', () => {
  const bad = violations((from, imp) => {
    const a = area(from.file);
    if (!imp.target || !(a === 'db' || a === 'fulfillment' || a === 'platforms' || (a !== undefined && a.endsWith('.ts')))) return undefined;
    const shell = shellOf(imp.target);
    return shell ? `src/${a} sits below the shells and must not import src/${shell}` : undefined;
  });
  assert.deepEqual(bad, []);
});

test('nothing above the platform seam knows which platform it talks to: only src/platforms imports a platform module (issue 22)', () => {
  // The simulators are developer tools that `codrail fulfillment sim` starts by dialect.
  const SIMULATORS = new Set(['src/use-cases/fulfillment/simulator.use-case.ts']);
  const bad = violations((from, imp) => {
    if (!imp.target || !/^src\/platforms\/[^/]+\//.test(imp.target) || from.file.startsWith('src/platforms/')) return undefined;
    if (SIMULATORS.has(from.file) && imp.target.endsWith('/simulator.ts')) return undefined;
    return 'above the seam, a platform is reached through src/platforms/index.ts, connections.ts and platform.ts only';
  });
  assert.deepEqual(bad, []);
});

test('every relative import under src/ points at an existing file inside src/', () => {
  // The single executable's entry imports the compiled build it has just written to a private
  // directory (issue 27): a file: URL known only at run time, and not a module of src/.
  const COMPUTED = new Set(['src/cli/sea-main.ts']);
  const bad = violations((from, imp) => {
    if (!imp.target) return imp.specifier.startsWith('<computed') && !COMPUTED.has(from.file) ? 'computed import specifiers cannot be checked' : undefined;
    if (!imp.target.startsWith('src/')) return 'relative imports stay inside src/';
    return SOURCE_FILES.some((f) => rel(f) === imp.target) ? undefined : 'no such file (relative imports name the .ts file)';
  });
  assert.deepEqual(bad, []);
});

test('only src/config.ts reads process.env', () => {
  const readers = SOURCES.filter((s) => s.envReads.length > 0).map((s) => `${s.file}:${s.envReads.join(',')}`);
  assert.deepEqual(
    readers.map((r) => r.split(':')[0]),
    ['src/config.ts'],
    readers.join('; '),
  );
});

const NAME_EXCEPTIONS = new Set(['index.ts', 'app.ts', 'config.ts', 'limits.ts', 'errors.ts', 'log.ts', 'clock.ts', 'ids.ts']);
const KEBAB_SEGMENT = '[a-z0-9]+(?:-[a-z0-9]+)*';
const KEBAB_FILE = new RegExp(`^${KEBAB_SEGMENT}(?:\\.${KEBAB_SEGMENT})*\\.(?:ts|tsx)$`);
const KEBAB_DIR = new RegExp(`^${KEBAB_SEGMENT}$`);
/** The browser's own files (served as they are, no build step) live in src/pages/assets. */
const ASSET_FILE = new RegExp(`^${KEBAB_SEGMENT}\\.(?:js|css)$`);
const isAsset = (abs: string) => rel(abs).startsWith('src/pages/assets/');

test('every file and folder name under src/ is kebab-case', () => {
  const bad: string[] = [];
  for (const abs of ENTRIES) {
    const name = abs.slice(abs.lastIndexOf(sep) + 1);
    if (statSync(abs).isDirectory()) {
      if (!KEBAB_DIR.test(name)) bad.push(`${rel(abs)}/`);
    } else if (!NAME_EXCEPTIONS.has(name) && !KEBAB_FILE.test(name) && !(isAsset(abs) && ASSET_FILE.test(name))) bad.push(rel(abs));
  }
  assert.deepEqual(bad, []);
});

test('the kebab-case rule accepts role suffixes and refuses camelCase, snake_case and capitals', () => {
  for (const ok of ['create-order.route.ts', '0001-initial.migration.ts', 'orders.queries.ts', 'fold.ts', 'order-list.screen.tsx']) assert.ok(KEBAB_FILE.test(ok), ok);
  for (const bad of ['createOrder.route.ts', 'create_order.ts', 'Orders.ts', 'orders-.ts', 'orders..ts', 'orders.js']) assert.ok(!KEBAB_FILE.test(bad), bad);
});

test('SQL lives in src/db: nothing else builds a query or imports kysely values (types only)', () => {
  const QUERY = /\.(selectFrom|updateTable|insertInto|deleteFrom|replaceInto|with)\(|\bsql`|\bsql\.(ref|raw|table|lit|id|join)\(/;
  const bad: string[] = [];
  for (const abs of SOURCE_FILES) {
    const file = rel(abs);
    if (file.startsWith('src/db/')) continue;
    const text = readFileSync(abs, 'utf8');
    text.split('\n').forEach((line, i) => {
      if (/^\s*(\/\/|\*)/.test(line)) return;
      if (QUERY.test(line) || /^import\s+(?!type\b)[^;]*from 'kysely'/.test(line)) bad.push(`${file}:${i + 1}: ${line.trim().slice(0, 100)}`);
    });
  }
  assert.deepEqual(bad, []);
});

test('one reader of the Bearer header: only src/domain/bearer.ts matches Authorization with a regular expression', () => {
  const bad: string[] = [];
  for (const abs of SOURCE_FILES) {
    const file = rel(abs);
    if (file === 'src/domain/bearer.ts' || file === 'src/platforms/generic/simulator.ts') continue;
    readFileSync(abs, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (/\.(exec|test|match)\(/.test(line) && /\/\^?\\?S?[^/]*\//.test(line) && /bearer|authorization/i.test(line)) bad.push(`${file}:${i + 1}: ${line.trim().slice(0, 100)}`);
      });
  }
  assert.deepEqual(bad, []);
});
