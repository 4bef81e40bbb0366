// The single executable's entry (issue 27, scripts/build-binary.mjs): a CommonJS script, as Node
// 20's single executables run. It writes the build and the files it needs to a private directory
// (src/sea-runtime.ts) and imports the build's entry from there: the same program as bin/codrail.
import sea from 'node:sea';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startSeaRuntime } from '../sea-runtime.ts';

const runtime = startSeaRuntime(sea);
(globalThis as { __codrailSea?: unknown }).__codrailSea = {
  // `--version` names the commit the executable was built from.
  version: `${runtime.manifest.version} (${runtime.manifest.commit})`,
  extract: (name: string) => runtime.extract(name),
};
import(pathToFileURL(join(runtime.root, 'dist', 'codrail.js')).href).catch((error: unknown) => {
  process.stderr.write(`error: unexpected: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
