// `npm run build:binary` (issue 27): dist/codrail-linux-x64, a Node single executable application.
//
// 1. The compiled build (scripts/build.mjs, dist/*.js: ES modules) is what runs. Node 20's single
//    executables run one CommonJS script: esbuild bundles src/cli/sea-main.ts into it, which writes
//    the build to a private directory and imports it from there (src/sea-runtime.ts).
// 2. The assets: the build's modules, the package's files (data/cities, checkout.js) and the native
//    packages' runtime files (better-sqlite3 with its addon; sharp with libvips), each listed with
//    its SHA-256 in manifest.json.
// 3. `node --experimental-sea-config` makes the blob; postject injects it into a copy of this node.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const started = performance.now();
const out = join(root, 'dist', 'sea');
const binary = join(root, 'dist', `codrail-${process.platform}-${process.arch}`);
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
let commit = 'unknown';
try {
  commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  if (execFileSync('git', ['status', '--porcelain', '--', 'src', 'data', 'package.json'], { cwd: root, encoding: 'utf8' }).trim()) commit += '+changes';
} catch {
  // Not a git checkout: the version alone.
}

// 1. The script.
await build({
  absWorkingDir: root,
  entryPoints: ['src/cli/sea-main.ts'],
  outfile: join(out, 'sea-main.cjs'),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
});

// 2. The assets.
const files = {};
const assets = { 'manifest.json': join(out, 'manifest.json') };
const add = (absolute, key = relative(root, absolute)) => {
  const bytes = readFileSync(absolute);
  files[key] = { sha256: createHash('sha256').update(bytes).digest('hex'), mode: statSync(absolute).mode & 0o755 };
  assets[key] = absolute;
  return key;
};
const walk = (dir, keep = () => true) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    return e.isDirectory() ? walk(path, keep) : keep(path) ? [path] : [];
  });
const built = readdirSync(join(root, 'dist')).filter((f) => f.endsWith('.js')).map((f) => join(root, 'dist', f));
if (!built.some((f) => f.endsWith('codrail.js'))) throw new Error('dist/codrail.js is missing: run node scripts/build.mjs first');
const eager = [...built, ...walk(join(root, 'data', 'cities')), join(root, 'src', 'pages', 'assets', 'checkout.js'), join(root, 'package.json')].map((f) => add(f));
// A package's runtime files, under node_modules/ as installed (no docs, no sources for the compiler).
const runtimeFile = (path) => !/\.(md|markdown|ts|map|c|cc|cpp|h|hpp|gyp|gypi)$/i.test(path) && !/[/\\](src|deps|docs?|test|tests|\.github)[/\\]/.test(path);
/** Where Node would find the package `name` from `from` (node_modules, walking up). */
const packageDir = (name, from = root) => {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(dir) === dir) throw new Error(`${name} is not installed (from ${from})`);
  }
};
const packageFiles = (name, from) => {
  const dir = packageDir(name, from);
  const keys = walk(dir, (p) => runtimeFile(relative(dir, p))).map((f) => add(f, join('node_modules', name, relative(dir, f))));
  return { dir, keys };
};
const native = (name, deps) => {
  const main = packageFiles(name);
  return [...main.keys, ...deps.flatMap((d) => packageFiles(d, main.dir).keys)];
};
const packages = {
  'better-sqlite3': native('better-sqlite3', ['bindings', 'file-uri-to-path']),
  sharp: native('sharp', ['@img/colour', 'detect-libc', 'semver', `@img/sharp-${process.platform}-${process.arch}`, `@img/sharp-libvips-${process.platform}-${process.arch}`]),
};
// better-sqlite3 is imported by every command that opens the database: written at start.
eager.push(...packages['better-sqlite3']);
writeFileSync(join(out, 'manifest.json'), JSON.stringify({ version: pkg.version, commit, files, packages, eager }));

// 3. The blob, and the executable.
const config = { main: join(out, 'sea-main.cjs'), output: join(out, 'codrail.blob'), disableExperimentalSEAWarning: true, assets };
writeFileSync(join(out, 'sea-config.json'), JSON.stringify(config, null, 2));
execFileSync(process.execPath, ['--experimental-sea-config', join(out, 'sea-config.json')], { stdio: ['ignore', 'ignore', 'inherit'] });
rmSync(binary, { force: true });
copyFileSync(process.execPath, binary);
chmodSync(binary, 0o755);
const { inject } = require('postject');
await inject(binary, 'NODE_SEA_BLOB', readFileSync(config.output), { sentinelFuse: 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2' });
// Its checksum beside it, for `sha256sum -c` where it is installed.
writeFileSync(`${binary}.sha256`, `${createHash('sha256').update(readFileSync(binary)).digest('hex')}  ${relative(dirname(binary), binary)}\n`);
const size = statSync(binary).size;
console.error(`${relative(root, binary)}: ${(size / 1e6).toFixed(1)} MB (node ${process.version}, ${Object.keys(files).length} embedded files, commit ${commit}) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
