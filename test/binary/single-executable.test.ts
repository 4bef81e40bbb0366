// The single executable (issue 27): dist/codrail-linux-x64 alone in an empty directory, with a
// minimal environment (no node_modules, no node on PATH), is the whole product: migrate, demo,
// serve, an order over HTTP, `orders show`, a backup while serving that opens as a database with the
// same orders, and a restore. Runs when the executable has been built (`npm run build:binary`;
// .ci/run always builds it first); skipped, saying so, otherwise.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';

const BUILT = fileURLToPath(new URL(`../../dist/codrail-${process.platform}-${process.arch}`, import.meta.url));
const built = existsSync(BUILT);
const dir = mkdtempSync(join(tmpdir(), 'codrail-binary-'));
const exe = join(dir, 'codrail');
const scratch = join(dir, 'tmp');
// What a systemd unit would give it: no PATH with node, no NODE_*, its own temporary directory.
const env = { HOME: dir, TMPDIR: scratch, PATH: join(dir, 'no-node-here'), LANG: 'C.UTF-8' };

const run = (args: string[]) => {
  const r = spawnSync(exe, args, { cwd: dir, env, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, json: (() => { try { return JSON.parse(r.stdout) as any; } catch { return undefined; } })() };
};

let server: ChildProcess | undefined;
before(() => {
  if (!built) return;
  copyFileSync(BUILT, exe);
  mkdirSync(scratch);
  mkdirSync(env.PATH);
});
after(() => {
  server?.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

describe('the single executable, alone in an empty directory', { skip: built ? false : 'dist/codrail-linux-x64 is not built (npm run build:binary)' }, () => {
  test('--version names the version and the commit; --help answers', () => {
    const version = run(['--version']);
    assert.equal(version.code, 0, version.stderr);
    assert.match(version.stdout, /^\d+\.\d+\.\d+ \([0-9a-f]{12}(\+changes)?\)\n$/);
    const help = run(['--help']);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /Usage: codrail/);
    assert.match(help.stdout, /\n  backup\b/);
  });

  test('migrate, demo, serve, an order over HTTP, orders show, a backup while serving, a restore', async () => {
    const migrated = run(['--db', 'codrail.sqlite', '--json', 'migrate']);
    assert.equal(migrated.code, 0, migrated.stderr);
    assert.ok(migrated.json.catalogs.includes('CO:official'), 'the bundled city catalogs load from the executable');
    const demo = run(['--db', 'codrail.sqlite', '--json', 'demo']);
    assert.equal(demo.code, 0, demo.stderr);

    server = spawn(exe, ['--db', 'codrail.sqlite', 'serve', '--port', '0'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let banner = '';
    const base = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve did not start: ${banner}`)), 30_000);
      server!.stderr!.on('data', (d: Buffer) => {
        banner += d.toString();
        const m = /codrail listening on (http:\/\/\S+)/.exec(banner);
        if (m) (clearTimeout(timer), resolve(m[1]!));
      });
      server!.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${banner}`)));
    });
    // The demo's own curl, aimed at this server.
    const curl = demo.json.curl as string;
    const headers = Object.fromEntries([...curl.matchAll(/-H '([^:]+): ([^']*)'/g)].map((m) => [m[1]!, m[2]!]));
    const body = /-d '(.*)'$/.exec(curl)![1]!;
    const created = await fetch(`${base}/api/orders/create`, { method: 'POST', headers, body });
    assert.equal(created.status, 200);
    const order = ((await created.json()) as { data: { id: string; order_number: number } }).data;
    // The checkout script is served from the executable's files too.
    assert.equal((await fetch(`${base}/checkout.js`)).status, 200);

    const shown = run(['--db', 'codrail.sqlite', '--json', 'orders', 'show', order.id]);
    assert.equal(shown.code, 0, shown.stderr);
    assert.equal(shown.json.id ?? shown.json.order?.id, order.id);

    const backup = run(['--db', 'codrail.sqlite', '--json', 'backup', 'backup.sqlite']);
    assert.equal(backup.code, 0, backup.stderr);
    assert.equal(backup.json.orders, 1);
    const copy = new BetterSqlite3(join(dir, 'backup.sqlite'), { readonly: true });
    try {
      assert.equal(copy.pragma('integrity_check', { simple: true }), 'ok');
      assert.deepEqual(copy.prepare('SELECT id, order_number FROM orders').all(), [{ id: order.id, order_number: order.order_number }]);
    } finally {
      copy.close();
    }

    // Refused while serving; done once stopped.
    assert.equal(run(['--db', 'codrail.sqlite', '--json', 'restore', 'backup.sqlite']).code, 1);
    server.kill('SIGTERM');
    await new Promise((resolve) => server!.once('exit', resolve));
    server = undefined;
    const restored = run(['--db', 'codrail.sqlite', '--json', 'restore', 'backup.sqlite']);
    assert.equal(restored.code, 0, restored.stderr);
    assert.equal(restored.json.orders, 1);
    assert.equal(run(['--db', 'codrail.sqlite', '--json', 'orders', 'show', order.id]).code, 0);

    // It wrote nothing beside itself but the database, its key and the backup; and its private files are gone.
    const written = readdirSync(dir).filter((f) => !['codrail', 'tmp', 'no-node-here'].includes(f)).map((f) => f.replace(/\d{8}T\d{6}Z/, 'TIME')).sort();
    assert.deepEqual(written, ['backup.sqlite', 'backup.sqlite.key', 'codrail.sqlite', 'codrail.sqlite.before-restore-TIME', 'codrail.sqlite.key', 'codrail.sqlite.key.before-restore-TIME']);
    assert.deepEqual(readdirSync(scratch), []);
  });
});
