// Module resolution for the CLI (registered by bin/codrail), for start-up time (issue 24: the
// console's first screen under a second). Every ES module loads through the TypeScript loader's
// hooks, one round trip each, while CommonJS files required by a CommonJS package do not:
// - ink imports `throttle` from the `es-toolkit/compat` barrel, some 400 modules: ink gets the one
//   module that defines it (anything else asking for the barrel still gets the barrel);
// - kysely (260 modules), libphonenumber-js (130) and csv-parse (10) load their CommonJS builds, the same code
//   their packages publish for `require`. Every import of them goes this way, so no program ever
//   holds both builds (a class from one would not be `instanceof` the other's).
const COMMONJS = new Set(['kysely', 'libphonenumber-js', 'libphonenumber-js/max', 'csv-parse/sync']);

export async function resolve(specifier, context, nextResolve) {
  if (COMMONJS.has(specifier)) return nextResolve(specifier, { ...context, conditions: ['node', 'require', 'default'] });
  const resolved = await nextResolve(specifier, context);
  if (specifier === 'es-toolkit/compat' && context.parentURL?.endsWith('/node_modules/ink/build/ink.js') && resolved.url.endsWith('/dist/compat/index.mjs'))
    return { ...resolved, url: resolved.url.replace(/index\.mjs$/, 'function/throttle.mjs') };
  return resolved;
}
