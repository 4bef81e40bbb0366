// GET /api/geo/cities?country=CO with gzip over keep-alive (SPEC 14: ≥ 95% of a bare node:http
// server's requests/s), measured the way issue 26's table was: codrail as shipped (`bin/codrail
// serve`, a child process) beside a bare node:http server (bench/bare-bytes-server.mjs, a child
// process) answering the same bytes with the same headers, in alternating rounds of one run. The
// client is this process: 50 keep-alive connections, each asking again as soon as it is answered.
//
//   node --import tsx bench/cities-http.bench.ts        (BENCH_SECONDS=5 BENCH_ROUNDS=5)
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { listening, machine } from './bench-kit.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = 50;
const PATH = '/api/geo/cities?country=CO';
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'codrail-bench-cities-'));
const children: ChildProcess[] = [];
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });

function get(port: number, path: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent, headers: { 'accept-encoding': 'gzip' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function startCodrail(): Promise<number> {
  const env = { ...process.env, CODRAIL_DB: join(dir, 'codrail.sqlite'), LOG_LEVEL: 'silent', CODRAIL_SECRET_KEY: Buffer.alloc(32, 7).toString('base64') };
  const migrate = spawnSync(process.execPath, [join(ROOT, 'bin/codrail'), '--json', 'migrate'], { env, encoding: 'utf8' });
  if (migrate.status !== 0) throw new Error(`codrail migrate: ${migrate.stderr}`);
  const child = spawn(process.execPath, [join(ROOT, 'bin/codrail'), 'serve', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return Number((await listening(child, /http:\/\/127\.0\.0\.1:(\d+)/))[1]);
}

/** The bare baseline: node:http answering codrail's exact bytes and headers. */
async function startBare(body: Buffer, headers: Record<string, string>): Promise<number> {
  const bodyFile = join(dir, 'body.gz');
  writeFileSync(bodyFile, body);
  const child = spawn(process.execPath, [join(ROOT, 'bench/bare-bytes-server.mjs'), bodyFile, JSON.stringify(headers)], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return Number((await listening(child, /listening (\d+)/))[1]);
}

async function throughput(port: number, path: string, seconds: number): Promise<number> {
  const end = performance.now() + seconds * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < end) {
        const r = await get(port, path);
        if (r.status !== 200) throw new Error(`answered ${r.status}`);
        done++;
      }
    }),
  );
  return done / seconds;
}

const codrail = await startCodrail();
const sample = await get(codrail, PATH);
if (sample.status !== 200 || sample.headers['content-encoding'] !== 'gzip') throw new Error(`codrail answered ${sample.status} ${String(sample.headers['content-encoding'])}`);
const same = ['content-type', 'content-encoding', 'cache-control', 'etag', 'vary', 'access-control-allow-origin', 'x-content-type-options'];
const headers = Object.fromEntries(same.filter((h) => sample.headers[h] !== undefined).map((h) => [h, String(sample.headers[h])]));
const bare = await startBare(sample.body, headers);

for (const [port, path] of [[codrail, PATH], [bare, '/']] as const) await throughput(port, path, 1);
const rates: { codrail: number[]; bare: number[] } = { codrail: [], bare: [] };
for (let round = 1; round <= ROUNDS; round++) {
  rates.codrail.push(await throughput(codrail, PATH, SECONDS));
  rates.bare.push(await throughput(bare, '/', SECONDS));
  console.log(`round ${round}  codrail ${rates.codrail.at(-1)!.toFixed(0).padStart(6)}   bare ${rates.bare.at(-1)!.toFixed(0).padStart(6)}   ratio ${((rates.codrail.at(-1)! / rates.bare.at(-1)!) * 100).toFixed(0)}%`);
}
const ratios = rates.codrail.map((c, i) => c / rates.bare[i]!).sort((a, b) => a - b);
const median = ratios[Math.floor(ratios.length / 2)]!;
const lines = [
  `machine: ${machine()}`,
  `GET ${PATH} (gzip, ${sample.body.length.toLocaleString('en')} bytes), ${ROUNDS} alternating rounds of ${SECONDS} s, ${CONNECTIONS} keep-alive connections:`,
  `  codrail requests/s: best ${Math.max(...rates.codrail).toFixed(0)}, bare: best ${Math.max(...rates.bare).toFixed(0)}`,
  `  codrail ÷ bare per round: ${ratios.map((r) => `${(r * 100).toFixed(0)}%`).join(' ')} (median ${(median * 100).toFixed(0)}%)`,
];
console.log(lines.join('\n'));
if (process.env.BENCH_WRITE) writeFileSync(process.env.BENCH_WRITE, `${lines.join('\n')}\n`);
process.exit(0);
