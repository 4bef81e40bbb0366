// Files the package ships beside its code (the city data, checkout.js), found from the package's
// root. This module sits one level below the root, as the compiled bundle does in dist/, so the
// same line finds the root from the TypeScript source and from the build (issue 26).
export const PACKAGE_ROOT = new URL('../', import.meta.url);

/** A file of the package, by its path from the root (`data/cities/`). */
export const packageFile = (path: string): URL => new URL(path, PACKAGE_ROOT);

/**
 * Before a native package loaded on demand is imported (sharp): the single executable writes its
 * files first (src/sea-runtime.ts); anywhere else it is installed and this does nothing.
 */
export function nativePackage(name: string): void {
  (globalThis as { __codrailSea?: { extract(name: string): void } }).__codrailSea?.extract(name);
}
