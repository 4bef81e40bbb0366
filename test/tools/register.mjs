// What `npm test` loads before every test file (`node --import ./test/tools/register.mjs --test …`):
// tsx for the TypeScript, then the CLI's resolve hooks (bin/resolve-hooks.mjs), so each file's
// process loads kysely, libphonenumber-js and csv-parse as one CommonJS file each instead of
// hundreds of ES modules through the loader's hooks: half a second less per test file (issue 26 §5).
import { register as registerHooks } from 'node:module';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../../tsconfig.json', import.meta.url)) });
// Registered last, so it resolves first (see bin/resolve-hooks.mjs).
registerHooks('../../bin/resolve-hooks.mjs', import.meta.url);
