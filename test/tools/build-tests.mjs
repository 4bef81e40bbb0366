// Builds every test file into .test-build/ (issue 28: CI's time): one ES module bundle per test
// file with shared chunks, as dist/ is built (scripts/bundle-options.mjs). A test file's process
// then loads a few compiled chunks instead of the application's hundreds of TypeScript modules
// through tsx's loader hooks: measured, 5.7 → 2.8 s of CPU for a test file that starts a server,
// and the suite runs each of its 169 files twice in CI (SQLite, PostgreSQL).
// - `import.meta.url` in the sources is replaced by the URL of the source file it is written in, so
//   each module still finds what sits beside it (fixtures, the package's data, bin/codrail) in the
//   tree, not beside the chunk it was bundled into.
// - The dev dependencies stay external, as installed: some read their own files from beside their
//   code (the OpenAPI validator's schemas), and a test tool is not the product. ink-testing-library
//   is bundled: it renders through the console's own React and ink, and a second React refuses hooks.
// - Source maps are linked and the suite runs with --enable-source-maps, so a failure points at the
//   TypeScript line (about 0.2 s more per test file, measured).
// Running one file by hand needs no build: node --import ./test/tools/register.mjs --test FILE.ts
import { build } from 'esbuild';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleOptions } from '../../scripts/bundle-options.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const TEST_BUILD = join(root, '.test-build');
const started = performance.now();

/** Every test file under test/, by its path from the root. */
const testFiles = (dir) =>
  readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? testFiles(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [join(dir, e.name)] : [],
  );

/** The repository's own TypeScript, with `import.meta.url` meaning the source file's URL. */
const sourceLocation = {
  name: 'source-location',
  setup(b) {
    b.onLoad({ filter: /\.tsx?$/ }, (args) => {
      if (relative(root, args.path).split('/').includes('node_modules')) return undefined;
      const text = readFileSync(args.path, 'utf8').replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href));
      return { contents: text, loader: args.path.endsWith('.tsx') ? 'tsx' : 'ts' };
    });
  },
};

const devPackages = Object.keys(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).devDependencies ?? {});
rmSync(TEST_BUILD, { recursive: true, force: true });
const entries = testFiles('test');
await build({
  ...bundleOptions,
  absWorkingDir: root,
  entryPoints: entries,
  outdir: TEST_BUILD,
  outbase: '.',
  chunkNames: 'chunks/[hash]',
  external: [...bundleOptions.external, ...devPackages.filter((p) => p !== 'ink-testing-library')],
  sourcemap: 'linked',
  plugins: [sourceLocation],
});
console.error(`.test-build/: ${entries.length} test files in ${((performance.now() - started) / 1000).toFixed(1)} s`);
