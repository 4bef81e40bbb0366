// A node:test reporter: each test file's time (the sum of its top-level tests' durations), longest
// first, one line each. The suite writes it to test-artifacts/test-file-times-<database>.txt; it is
// what test/tools/suite.sh's list of the longest files, started first, is made from.
export default async function* fileTimes(source) {
  const times = new Map();
  for await (const event of source) {
    if ((event.type !== 'test:pass' && event.type !== 'test:fail') || event.data.nesting !== 0 || !event.data.file) continue;
    times.set(event.data.file, (times.get(event.data.file) ?? 0) + (event.data.details?.duration_ms ?? 0));
  }
  // Named by the TypeScript file (the build's source maps give it), from the root.
  const root = `${process.cwd()}/`;
  for (const [file, ms] of [...times].sort((a, b) => b[1] - a[1])) yield `${(ms / 1000).toFixed(1).padStart(7)} s  ${file.replace(root, '').replace(/^\.test-build\//, '').replace(/\.js$/, '.ts')}\n`;
}
