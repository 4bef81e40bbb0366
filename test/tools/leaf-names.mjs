// A node:test reporter that prints the name of every leaf test (not suites, not skipped or todo
// ones), one per line: what test/tools/each-test-alone.mjs runs alone. Run with a name pattern
// nothing matches, it lists without running: every test is then skipped for the pattern, and listed.
const PATTERN_SKIP = 'test name does not match pattern';

export default async function* leafNames(source) {
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { data } = event;
    if (data.details?.type === 'suite' || (data.skip && data.skip !== PATTERN_SKIP) || data.todo) continue;
    yield `${JSON.stringify(data.name)}\n`;
  }
}
