// What the benchmarks that run servers as child processes share.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { cpus, totalmem } from 'node:os';

/** Resolves with the first match of `pattern` in the child's output (stdout or stderr): its port, usually. */
export function listening(child: ChildProcess, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = pattern.exec(out);
      if (m) {
        child.stdout?.off('data', onData);
        child.stderr?.off('data', onData);
        resolve(m);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited (${code}) before listening:\n${out}`)));
  });
}

/** The machine a figure was measured on, as RESULTS.md prints it. */
export function machine(): string {
  const cpu = cpus();
  return `${cpu.length} × ${cpu[0]?.model.trim() ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.versions.node}, ${process.platform} ${process.arch}`;
}


export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const BIN = join(ROOT, 'bin/codrail');

/** What a POST of one order is: path, headers and a body with a distinct phone. */
export interface Target {
  name: string;
  port: number;
  pid: number;
  order: (n: number) => { path: string; headers: Record<string, string>; body: string };
}

export const phone = (n: number) => `3${String(100_000_000 + n).slice(-9)}`;

/** A valid headless checkout order of `shop`'s one-unit pack, the n-th buyer's (a distinct phone each). */
export const headlessOrderBody = (shop: { storeId: string; productId: string; pack: string; price: number }, n: number): string =>
  JSON.stringify({
    store_id: shop.storeId,
    product_id: shop.productId,
    nombre: 'Ana Gómez',
    telefono: phone(n),
    departamento: 'Antioquia',
    ciudad: 'Medellín',
    direccion: 'Calle 10 # 43-12',
    pack: shop.pack,
    quantity: 1,
    unit_price: shop.price,
    total_price: shop.price,
  });

/** The real CLI on the database in `env`, its --json answer parsed (a failure throws with its stderr). */
const benchCli =
  (env: NodeJS.ProcessEnv) =>
  (...args: string[]): Record<string, any> => {
    const r = spawnSync(process.execPath, [BIN, '--json', ...args], { env, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`codrail ${args.join(' ')}: ${r.stderr}`);
    return JSON.parse(r.stdout) as Record<string, any>;
  };

/** A codrail database (`CODRAIL_DB` in `env`, a file or a postgres:// URL) set up the bench's way: the demo shop, a live publishable key on a shop domain. */
export function prepareShop(env: NodeJS.ProcessEnv): { storeId: string; productId: string; pack: string; price: number; key: string } {
  const cli = benchCli(env);
  const demo = cli('demo');
  const storeId = demo.store.id as string;
  const product = cli('products', 'get', demo.product.id);
  const pack = product.packs.find((p: { quantity: number }) => p.quantity === 1);
  cli('stores', 'domains', 'add', storeId, 'shop.example.com');
  const key = cli('keys', 'create', '--store', storeId, '--type', 'publishable', '--env', 'live').key as string;
  return { storeId, productId: product.id as string, pack: pack.code as string, price: pack.price as number, key };
}

export type BenchShop = ReturnType<typeof prepareShop>;

/**
 * More stores beside the demo one (`prepareShop` first), each with its product, a live publishable
 * key and the shop domain, in the demo's account: load spread over stores that share no order number.
 */
export function prepareMoreShops(env: NodeJS.ProcessEnv, n: number): BenchShop[] {
  const cli = benchCli(env);
  const account = cli('demo').account.id as string;
  return Array.from({ length: n }, (_, i) => {
    const storeId = cli('stores', 'create', '--account', account, '--name', `Tienda ${i + 2}`, '--country', 'CO', '--domain', 'shop.example.com').id as string;
    const product = cli('products', 'create', '--account', account, '--store', storeId, '--name', `Producto ${i + 2}`, '--pack', '1x:89900', '--status', 'active');
    const key = cli('keys', 'create', '--store', storeId, '--type', 'publishable', '--env', 'live').key as string;
    return { storeId, productId: product.id as string, pack: '1x', price: 89_900, key };
  });
}

/** `codrail serve` on that database, as a target whose orders are the shop's headless checkout orders (spread over the shops, given several). */
export async function serveShop(name: string, env: NodeJS.ProcessEnv, shops: BenchShop | BenchShop[], children: ChildProcess[]): Promise<Target> {
  const list = Array.isArray(shops) ? shops : [shops];
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const port = Number((await listening(child, /http:\/\/127\.0\.0\.1:(\d+)/))[1]);
  return {
    name,
    port,
    pid: child.pid!,
    order: (n) => {
      const shop = list[n % list.length]!;
      return { path: '/api/orders/create', headers: { 'content-type': 'application/json', 'x-svc-api-key': shop.key, origin: 'https://shop.example.com' }, body: headlessOrderBody(shop, n) };
    },
  };
}

/** The client: keep-alive connections posting orders, each answer checked for 200. */
export class LoadClient {
  sequence = 0;
  /** Orders each target answered, by name. */
  readonly answered = new Map<string, number>();
  readonly #agent: Agent;
  constructor(readonly connections: number) {
    this.#agent = new Agent({ keepAlive: true, maxSockets: connections });
  }

  post(t: Target): Promise<number> {
    const o = t.order(++this.sequence);
    const started = performance.now();
    return new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: t.port, path: o.path, method: 'POST', agent: this.#agent, headers: { ...o.headers, 'content-length': Buffer.byteLength(o.body) } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          if (res.statusCode !== 200) return reject(new Error(`${t.name}: ${res.statusCode} ${Buffer.concat(chunks).toString().slice(0, 300)}`));
          this.answered.set(t.name, (this.answered.get(t.name) ?? 0) + 1);
          resolve(performance.now() - started);
        });
      });
      req.on('error', reject);
      req.end(o.body);
    });
  }

  /** Closed loop: every connection posts its next order as soon as the last is answered; the connections are spread over `targets` in turn. Orders per second. */
  async throughput(targets: Target | Target[], seconds: number): Promise<number> {
    const list = Array.isArray(targets) ? targets : [targets];
    const end = performance.now() + seconds * 1000;
    let done = 0;
    await Promise.all(
      Array.from({ length: this.connections }, async (_, i) => {
        const t = list[i % list.length]!;
        while (performance.now() < end) {
          await this.post(t);
          done++;
        }
      }),
    );
    return done / seconds;
  }
}
