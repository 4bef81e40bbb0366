// Order creation, the hot path (issue 26; SPEC 14), measured the way the table was: codrail
// as shipped (`bin/codrail serve`, a child process on its own SQLite file) beside two bare servers
// it starts itself, each a child process on its own file, in alternating rounds of one run:
//
// - bare insert: node:http + better-sqlite3, one prepared single-row INSERT per request;
// - bare same writes: node:http + better-sqlite3 doing what a codrail order commits — the rate-limit
//   counters (IP, key, phone), the store's next order number, the order, its event and its outbox
//   job — in one transaction with prepared statements, and nothing else (no checks, no city).
//
// The client is this process: 50 keep-alive connections posting valid orders with distinct phones
// (rate limits out of the way). It reports orders/s (best round), the ratios, p50/p99 at half of
// codrail's best rate (an open-loop schedule, so a slow answer cannot slow the load down; the median
// of ROUNDS alternating rounds, each printed), and
// codrail's RSS after BENCH_RSS_ORDERS orders (default 100,000), with the machine's description.
//
//   node --import tsx bench/order-create.bench.ts        (BENCH_SECONDS=5 BENCH_ROUNDS=3 BENCH_RSS_ORDERS=100000)
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { LoadClient, ROOT, listening, machine, phone, prepareShop, serveShop, type Target } from './bench-kit.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const RSS_ORDERS = Number(process.env.BENCH_RSS_ORDERS ?? 100_000);
const CONNECTIONS = 50;
const dir = mkdtempSync(join(tmpdir(), 'codrail-bench-orders-'));
const children: ChildProcess[] = [];
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** codrail as shipped: the demo shop through the CLI, a live publishable key on a shop domain, then `serve`. */
async function startCodrail(): Promise<Target> {
  const env = {
    ...process.env,
    CODRAIL_DB: join(dir, 'codrail.sqlite'),
    LOG_LEVEL: 'silent',
    CODRAIL_RATE_IP_PER_MIN: '1000000',
    CODRAIL_RATE_KEY_PER_MIN: '1000000',
    CODRAIL_RATE_PHONE_PER_HOUR: '1000000',
    CODRAIL_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
  };
  return serveShop('codrail', env, prepareShop(env), children);
}

/** A bare server (bench/bare-orders-server.mjs) in one of its two modes. */
async function startBare(mode: 'insert' | 'same-writes'): Promise<Target> {
  const child = spawn(process.execPath, [join(ROOT, 'bench/bare-orders-server.mjs'), mode, join(dir, `bare-${mode}.sqlite`)], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const port = Number((await listening(child, /listening (\d+)/))[1]);
  return {
    name: `bare ${mode}`,
    port,
    pid: child.pid!,
    order: (n) => ({
      path: '/orders',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ nombre: 'Ana Gómez', telefono: phone(n), departamento: 'Antioquia', ciudad: 'Medellín', direccion: 'Calle 10 # 43-12', pack: '1x', quantity: 1, unit_price: 89900, total_price: 89900 }),
    }),
  };
}

const client = new LoadClient(CONNECTIONS);
const answered = client.answered;
const post = (t: Target) => client.post(t);
const throughput = (t: Target, seconds: number) => client.throughput(t, seconds);

/** Open loop at a fixed rate: requests leave on schedule whatever the answers do; latency percentiles. */
async function latencyAt(t: Target, rate: number, seconds: number): Promise<{ p50: number; p99: number }> {
  const total = Math.floor(rate * seconds);
  const start = performance.now();
  const latencies: number[] = [];
  const pending: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    pending.push(post(t).then((ms) => void latencies.push(ms)));
  }
  await Promise.all(pending);
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  return { p50: at(0.5), p99: at(0.99) };
}

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

const targets = [await startCodrail(), await startBare('insert'), await startBare('same-writes')];
// Warm-up: JIT, page cache, prepared statements.
for (const t of targets) await throughput(t, 1);
const best = new Map<string, number>();
for (let round = 1; round <= ROUNDS; round++) {
  for (const t of targets) {
    const rate = await throughput(t, SECONDS);
    best.set(t.name, Math.max(best.get(t.name) ?? 0, rate));
    console.log(`round ${round}  ${t.name.padEnd(16)} ${rate.toFixed(0).padStart(7)} orders/s`);
  }
}
const codrail = targets[0]!;
const half = best.get('codrail')! / 2;
// Latency in alternating rounds too: one 5-second run's p99 rests on its worst 1%, a few dozen
// answers, and one hiccup of the shared 2-core machine (a collection, another process scheduled)
// moves it by several ms. Each round is printed; the table gives the median round.
const latencyRuns = new Map<string, { p50: number; p99: number }[]>();
for (let round = 1; round <= ROUNDS; round++) {
  for (const t of targets) {
    const run = await latencyAt(t, half, SECONDS);
    latencyRuns.set(t.name, [...(latencyRuns.get(t.name) ?? []), run]);
    console.log(`latency round ${round}  ${t.name.padEnd(16)} p50 ${run.p50.toFixed(1)} / p99 ${run.p99.toFixed(1)} ms`);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const latency = new Map([...latencyRuns].map(([name, runs]) => [name, { p50: median(runs.map((r) => r.p50)), p99: median(runs.map((r) => r.p99)), p99s: runs.map((r) => r.p99) }]));

// RSS after many orders: codrail takes the rest of RSS_ORDERS at full speed.
const made = answered.get('codrail') ?? 0;
const before = performance.now();
while ((answered.get('codrail') ?? 0) < RSS_ORDERS) await throughput(codrail, 5);
const total = answered.get('codrail') ?? 0;
const rss = rssMb(codrail.pid);

const ratio = (a: number, b: number) => `${((a / b) * 100).toFixed(0)}%`;
const lines = [
  `machine: ${machine()}`,
  `orders/s (best of ${ROUNDS} rounds of ${SECONDS} s, ${CONNECTIONS} keep-alive connections):`,
  `  codrail            ${best.get('codrail')!.toFixed(0).padStart(7)}`,
  `  bare insert        ${best.get('bare insert')!.toFixed(0).padStart(7)}   codrail = ${ratio(best.get('codrail')!, best.get('bare insert')!)}`,
  `  bare same writes   ${best.get('bare same-writes')!.toFixed(0).padStart(7)}   codrail = ${ratio(best.get('codrail')!, best.get('bare same-writes')!)}`,
  `latency at ${half.toFixed(0)} orders/s (half of codrail's best), p50 / p99 ms, median of ${ROUNDS} rounds of ${SECONDS} s (each round's p99):`,
  ...targets.map((t) => `  ${t.name.padEnd(18)} ${latency.get(t.name)!.p50.toFixed(1).padStart(6)} / ${latency.get(t.name)!.p99.toFixed(1).padStart(6)}   (${latency.get(t.name)!.p99s.map((x) => x.toFixed(1)).join(', ')})`),
  `codrail RSS after ${total.toLocaleString('en')} orders: ${rss.toFixed(0)} MB (the last ${(total - made).toLocaleString('en')} in ${((performance.now() - before) / 1000).toFixed(0)} s)`,
];
console.log(lines.join('\n'));
if (process.env.BENCH_WRITE) writeFileSync(process.env.BENCH_WRITE, `${lines.join('\n')}\n`);
process.exit(0);
