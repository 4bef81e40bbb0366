// Support console start-up (issue 24: first screen under 1 s on the 2-core machine): the time from
// launching `codrail console --local` in a real terminal (tmux, 80×24) to its first screen showing
// the orders read from the database. The baselines, measured in the same run: a bare `node`, and
// `codrail --version` (the CLI's own start, tsx included). The ratio says what ink, React, the
// database and the first reads add.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/codrail', import.meta.url));
const RUNS = 7;
const SOCKET = `codrail-bench-${process.pid}`;
const dir = mkdtempSync(join(tmpdir(), 'codrail-console-bench-'));
const db = join(dir, 'bench.sqlite');
const tmux = (...args: string[]) => spawnSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8' });

if (spawnSync('tmux', ['-V']).status !== 0) {
  console.error('console start-up benchmark needs tmux (apt-get install tmux)');
  process.exit(1);
}
// A migrated database with the demo store and one order on it, as support would open it.
execFileSync(process.execPath, [BIN, '--db', db, 'demo'], { stdio: 'ignore' });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function timeProcess(args: string[]): number {
  const start = performance.now();
  const r = spawnSync(process.execPath, args, { stdio: 'ignore' });
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}`);
  return performance.now() - start;
}

/** Launch in a new 80×24 pane → the pane shows what `shown` matches. */
let run = 0;
function timePane(command: string, shown: (pane: string) => boolean): number {
  const session = `bench-${++run}`;
  const start = performance.now();
  const r = tmux('new-session', '-d', '-s', session, '-x', '80', '-y', '24', command);
  if (r.status !== 0) throw new Error(`tmux: ${r.stderr}`);
  try {
    for (;;) {
      const pane = tmux('capture-pane', '-p', '-t', session).stdout;
      if (shown(pane)) return performance.now() - start;
      if (performance.now() - start > 20_000) throw new Error(`no first screen after 20 s:\n${pane}`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
    }
  } finally {
    tmux('kill-session', '-t', session);
  }
}

/** The console: its header and the list's answer (rows, or "No orders."). */
const timeConsole = () =>
  timePane(`${process.execPath} ${BIN} --db ${db} console --local --lang en`, (pane) => /1 Orders/.test(pane) && /No orders\.|^[ ›][ !][ s] \d{4}/m.test(pane));
/** What the measurement itself costs: a pane, a shell, a line printed and seen. */
const timeTmux = () => timePane(`echo ready; sleep 30`, (pane) => /^ready$/m.test(pane));

try {
  console.log(`console start-up benchmark: ${RUNS} runs each, median, Node ${process.version}`);
  // One session stays open, so the tmux server is not restarted for every run.
  tmux('new-session', '-d', '-s', 'keep', '-x', '80', '-y', '24');
  timeConsole(); // warm the file cache and tsx's transform cache
  const bare = median(Array.from({ length: RUNS }, () => timeProcess(['-e', '0'])));
  const cli = median(Array.from({ length: RUNS }, () => timeProcess([BIN, '--version'])));
  const paneMs = median(Array.from({ length: RUNS }, timeTmux));
  const consoleMs = median(Array.from({ length: RUNS }, timeConsole));
  console.log(`baseline: node -e 0                 ${bare.toFixed(0).padStart(6)} ms`);
  console.log(`baseline: codrail --version         ${cli.toFixed(0).padStart(6)} ms`);
  console.log(`baseline: tmux pane, echo seen      ${paneMs.toFixed(0).padStart(6)} ms  (the measurement's own cost)`);
  console.log(`codrail console --local, 1st screen ${consoleMs.toFixed(0).padStart(6)} ms  (${(consoleMs - paneMs).toFixed(0)} ms without the pane's cost)`);
  console.log(`ratio console / codrail --version: ${(consoleMs / cli).toFixed(2)}`);
  console.log(`target first screen < 1000 ms: ${consoleMs < 1000 ? 'met' : consoleMs - paneMs < 1000 ? 'met without the pane’s cost' : 'NOT met'}`);
} finally {
  tmux('kill-server');
  rmSync(dir, { recursive: true, force: true });
}
