// What every esbuild bundle of the sources shares: dist/ (scripts/build.mjs) and the test build
// (test/tools/build-tests.mjs). One ES module bundle per entry with shared chunks; node_modules are
// bundled too (no module resolution at start-up) except the native addons, which load as installed.

/** Native addons: loaded as installed, never bundled. */
export const NATIVE_PACKAGES = ['better-sqlite3', 'sharp'];

export const bundleOptions = {
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // ES module builds first: some packages' `main` is a UMD wrapper whose require() calls a bundler cannot follow (jsonc-parser).
  mainFields: ['module', 'main'],
  // react-devtools-core: ink imports it only under DEV=true, and it is not installed.
  external: [...NATIVE_PACKAGES, 'react-devtools-core'],
  // Bundled CommonJS packages call require(): give the ES module bundle one.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  jsx: 'automatic',
  logLevel: 'warning',
};
