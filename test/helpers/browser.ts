// Real headless Chromium (Debian's `chromium`, installed by .ci/run) driven by playwright-core.
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';

const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter((p): p is string => Boolean(p));

export function chromiumPath(): string {
  const found = CANDIDATES.find((p) => existsSync(p));
  if (!found) throw new Error(`No Chromium found (${CANDIDATES.join(', ')}): apt-get install chromium, or set CHROMIUM_PATH`);
  return found;
}

export const launchBrowser = (): Promise<Browser> => chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-dev-shm-usage'] });

/** Where the tests write their screenshots (git-ignored). */
export const SCREENSHOTS = fileURLToPath(new URL('../../test-artifacts/screenshots/', import.meta.url));
mkdirSync(SCREENSHOTS, { recursive: true });

export const PHONE = { width: 390, height: 844 } as const;
export const DESKTOP = { width: 1280, height: 800 } as const;
