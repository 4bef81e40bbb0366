// checkout.js as served (issue 11; issue 23): read and compressed once at startup, named by the hash
// of its content. Landing pages load `/checkout.js?v=<version>`, cached for a year (immutable: a new
// script is a new URL); merchants' sites load the bare `/checkout.js`, cached briefly so a new
// release reaches them within minutes.
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { packageFile } from '../package-files.ts';

const source = readFileSync(packageFile('src/pages/assets/checkout.js'));

export const CHECKOUT_SCRIPT = {
  identity: source,
  gzip: gzipSync(source, { level: 9 }),
  version: createHash('sha256').update(source).digest('base64url').slice(0, 22),
};

/** The script's URL on codrail's own pages. */
export const CHECKOUT_SCRIPT_PATH = `/checkout.js?v=${CHECKOUT_SCRIPT.version}`;
