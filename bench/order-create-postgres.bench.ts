// Order creation on PostgreSQL (issue 28; SPEC 16): codrail on SQLite beside codrail on one
// PostgreSQL with one `serve` instance and with two, in alternating rounds of one run, the same
// client as bench/order-create.bench.ts (50 keep-alive connections, valid orders with distinct
// phones, rate limits out of the way; with two instances the connections alternate between them),
// with all orders for one store, then spread over eight.
//
// PostgreSQL is a throwaway cluster of Debian's server on loopback (test/tools/postgres.sh with
// PG_BENCH=1: fsync on, commits not flushed one by one, as SQLite's WAL with synchronous=NORMAL),
// on the same 2 cores as everything else: the server, the client and PostgreSQL share them.
//
//   node --import tsx bench/order-create-postgres.bench.ts     (BENCH_SECONDS=5 BENCH_ROUNDS=3)
import { execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LoadClient, ROOT, machine, prepareMoreShops, prepareShop, serveShop, type Target } from './bench-kit.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 50;
const dir = mkdtempSync(join(tmpdir(), 'codrail-bench-pg-'));
const children: ChildProcess[] = [];
const started = execFileSync('bash', [join(ROOT, 'test/tools/postgres.sh'), 'start'], { env: { ...process.env, PG_BENCH: '1' }, encoding: 'utf8' });
const admin = /CODRAIL_TEST_DATABASE_URL=(\S+)/.exec(started)![1]!;
const clusterDir = /CODRAIL_TEST_PG_DIR=(\S+)/.exec(started)![1]!;
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
  execFileSync('bash', [join(ROOT, 'test/tools/postgres.sh'), 'stop', clusterDir]);
  rmSync(dir, { recursive: true, force: true });
});
execFileSync('psql', ['-qX', '-d', admin, '-c', 'CREATE DATABASE codrail_bench']);
const pgUrl = admin.replace(/\/postgres$/, '/codrail_bench');

const common = {
  ...process.env,
  LOG_LEVEL: 'silent',
  CODRAIL_RATE_IP_PER_MIN: '1000000',
  CODRAIL_RATE_KEY_PER_MIN: '1000000',
  CODRAIL_RATE_PHONE_PER_HOUR: '1000000',
  CODRAIL_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
};
const sqliteEnv = { ...common, CODRAIL_DB: join(dir, 'codrail.sqlite') };
const pgEnv = { ...common, CODRAIL_DB: pgUrl };
const sqlite = await serveShop('sqlite', sqliteEnv, prepareShop(sqliteEnv), children);
const pgShop = prepareShop(pgEnv);
const pgA = await serveShop('postgres A', pgEnv, pgShop, children);
const pgB = await serveShop('postgres B', pgEnv, pgShop, children);
// The same load spread over several stores: one store's orders wait on its gapless number, each
// from the moment it takes it to its commit; different stores' orders do not wait on each other.
const STORES = 8;
const pgShops = [pgShop, ...prepareMoreShops(pgEnv, STORES - 1)];
const pgManyA = await serveShop('postgres A, stores', pgEnv, pgShops, children);
const pgManyB = await serveShop('postgres B, stores', pgEnv, pgShops, children);

const client = new LoadClient(CONNECTIONS);
const runs: [string, Target[]][] = [
  ['codrail on SQLite, one instance', [sqlite]],
  ['codrail on PostgreSQL, one instance', [pgA]],
  ['codrail on PostgreSQL, two instances', [pgA, pgB]],
  [`PostgreSQL, one instance, ${STORES} stores`, [pgManyA]],
  [`PostgreSQL, two instances, ${STORES} stores`, [pgManyA, pgManyB]],
];
// Warm-up: JIT, caches, the pools' connections.
for (const [, targets] of runs) await client.throughput(targets, 1);
const best = new Map<string, number>();
for (let round = 1; round <= ROUNDS; round++)
  for (const [name, targets] of runs) {
    const rate = await client.throughput(targets, SECONDS);
    best.set(name, Math.max(best.get(name) ?? 0, rate));
    console.log(`round ${round}  ${name.padEnd(38)} ${rate.toFixed(0).padStart(7)} orders/s`);
  }
const base = best.get(runs[0]![0])!;
const lines = [
  `machine: ${machine()}`,
  `orders/s (best of ${ROUNDS} rounds of ${SECONDS} s, ${CONNECTIONS} keep-alive connections; PostgreSQL on the same cores):`,
  ...runs.map(([name]) => `  ${name.padEnd(38)} ${best.get(name)!.toFixed(0).padStart(7)}   ${((best.get(name)! / base) * 100).toFixed(0)}% of SQLite`),
];
console.log(lines.join('\n'));
if (process.env.BENCH_WRITE) writeFileSync(process.env.BENCH_WRITE, `${lines.join('\n')}\n`);
process.exit(0);
