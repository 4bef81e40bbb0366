// Runs every leaf test of the given test files alone, by its exact name, two at a time, and prints
// the ones that fail alone (issue 13: a test must not depend on what an earlier test of its file
// left behind) and the names that run no test at all (issue 20: a name the pattern does not reach
// is a failure, not a skip). Prints nothing when every test passes alone; exits 1 otherwise.
// Usage: node test/tools/each-test-alone.mjs [--skip-first] test/cli/stores.test.ts [more files…]
// EACH_TEST_ALONE_JOBS sets how many run at once (2).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const REPORTER = fileURLToPath(new URL('./leaf-names.mjs', import.meta.url));
const PARALLEL = Number(process.env.EACH_TEST_ALONE_JOBS ?? 2);
const TIMEOUT_MS = 180_000;

function run(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--enable-source-maps', '--test', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

/** A test file's build (test/tools/build-tests.mjs, which each-test-alone.sh runs first). */
const built = (file) => `.test-build/${file.replace(/\.ts$/, '.js')}`;

const escape = (name) => name.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
const count = (out, what) => Number(new RegExp(`^# ${what} (\\d+)`, 'm').exec(out)?.[1] ?? 'NaN');

const args = process.argv.slice(2);
const SKIP_FIRST = args.includes('--skip-first');
const files = args.filter((a) => a !== '--skip-first');
const work = [];
let failed = false;

/** Runs `task` over `items`, PARALLEL at a time, in order of the items. */
async function pool(items, task) {
  let i = 0;
  await Promise.all(Array.from({ length: Math.max(1, PARALLEL) }, async () => {
    while (i < items.length) await task(items[i++]);
  }));
}

// The names are listed without running the tests: a pattern no name matches (`(?!)`) skips every
// test, and the reporter prints the leaves skipped for that reason (a whole run of each file cost CI
// minutes). A test.skip or test.todo is listed too, and then reported as matching no test: this
// suite has none, and one added would be a test that cannot fail.
const listed = new Map();
await pool(files, async (file) => {
  const out = (await run([`--test-reporter=${REPORTER}`, '--test-name-pattern=(?!)', built(file)])).out;
  listed.set(file, out.split('\n').filter((l) => l.startsWith('"')).map((l) => JSON.parse(l)));
});
for (const file of files) {
  const names = listed.get(file);
  if (names.length === 0) {
    console.log(`NO TESTS FOUND: ${file}`);
    failed = true;
  }
  // The file's first test already ran alone in the whole run (nothing of its file came before it):
  // with `--skip-first` (CI, after npm test passed) it is not run again.
  const unique = [...new Set(names)];
  for (const name of SKIP_FIRST ? unique.slice(1) : unique) work.push({ file, name });
}

/** The failing test's own report (its first `not ok` and the lines after it), to read in the CI log. */
function why(out) {
  const lines = out.split('\n');
  const at = lines.findIndex((l) => /^\s*not ok/.test(l));
  return at < 0 ? out.split('\n').slice(-20).join('\n') : lines.slice(at, at + 30).join('\n');
}

let next = 0;
async function worker() {
  while (next < work.length) {
    const { file, name } = work[next++];
    const { out } = await run(['--test-reporter=tap', `--test-name-pattern=^${escape(name)}$`, built(file)]);
    // A test that skips itself here with its own reason (one of PostgreSQL's, on the SQLite run) was
    // found and said why: not a name that reaches no test.
    const ownSkip = out.split('\n').some((l) => /^\s*ok \d+ - /.test(l) && l.includes(` - ${name} # SKIP `) && !l.includes('# SKIP test name does not match pattern'));
    if (ownSkip && count(out, 'fail') === 0) continue;
    if (!(count(out, 'pass') >= 1)) {
      console.log(`${count(out, 'fail') >= 1 ? 'FAILS ALONE' : 'MATCHES NO TEST'}: ${file} :: ${name}`);
      console.log(why(out));
      failed = true;
    } else if (count(out, 'fail') !== 0) {
      console.log(`FAILS ALONE: ${file} :: ${name}`);
      console.log(why(out));
      failed = true;
    }
  }
}
await Promise.all(Array.from({ length: Math.max(1, PARALLEL) }, worker));
process.exit(failed ? 1 : 0);
