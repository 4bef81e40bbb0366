// Builds dist/ from src/ once (issue 26): `npm install` runs it (the `prepare` script), bin/codrail
// runs the build when it is current. One ES module bundle per entry with shared chunks, so a
// command loads only the chunks its imports reach (scripts/bundle-options.mjs).
import { build } from 'esbuild';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { fingerprint } from '../bin/fingerprint.mjs';
import { bundleOptions } from './bundle-options.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const started = performance.now();
// This build's files go first: chunks are named by their content's hash, and an old one would stay
// forever. The single executable (dist/codrail-*, dist/sea/: npm run build:binary) stays.
mkdirSync(new URL('../dist/', import.meta.url), { recursive: true });
for (const f of readdirSync(new URL('../dist/', import.meta.url))) if (!/^(codrail-|sea$)/.test(f)) rmSync(new URL(`../dist/${f}`, import.meta.url), { recursive: true, force: true });
const result = await build({
  ...bundleOptions,
  absWorkingDir: root,
  entryPoints: { codrail: 'src/cli/main.ts' },
  outdir: 'dist',
  chunkNames: 'chunk-[hash]',
  // Less to parse at every start; names are kept, so a stack trace still reads.
  minifyWhitespace: true,
  minifySyntax: true,
  keepNames: false,
  sourcemap: 'linked',
  metafile: true,
  legalComments: 'linked',
});
// The sources this build was made from: bin/codrail compares it with the tree before trusting dist/.
writeFileSync(new URL('../dist/fingerprint.json', import.meta.url), `${JSON.stringify(fingerprint(root))}\n`);
const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
console.error(`dist/: ${Object.keys(result.metafile.outputs).filter((f) => f.endsWith('.js')).length} files, ${(bytes / 1e6).toFixed(1)} MB, in ${((performance.now() - started) / 1000).toFixed(1)} s`);
