// Issue 24's acceptance test: `codrail console` run for real in a terminal (tmux, 80×24) beside
// `codrail serve` and `codrail fulfillment sim`, each its own process on one SQLite file. Support
// picks the city of an order from "Armenia, Caldas" in the review queue and its held push reaches
// the platform with the Quindío city; an order placed through the API shows on 1 Orders with no key
// pressed; a support user signed in with --email gets no Keys screen, the local operator does. Every
// pane captured fits 80 columns (joined with -J, a line the terminal wrapped would be longer).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { tempDbFile } from '../helpers/server.ts';
import { orderBody, postOrder, seedShop, type Shop } from '../helpers/fixtures.ts';
import { withApp } from '../helpers/cli-expect.ts';
import { BIN, cliEnv, spawnLong, spawnServe, type Running, type ServeProcess } from '../helpers/cli.ts';
import { startFlakyProxy, type FlakyProxy } from '../helpers/flaky-proxy.ts';
import { until } from '../helpers/wait.ts';
import { nextPhone } from '../api/orders/order-kit.ts';
import { createUser } from '../../src/use-cases/accounts/accounts.use-case.ts';

const COLUMNS = 80;
const ROWS = 24;
/** A freshly started console (Node, tsx, the database) beside Chromium on two cores. */
const STARTUP_MS = 30_000;
/** Anything the console shows after a key or a new order. */
const SHOWS_MS = 15_000;
const SUPPORT = { email: 'soporte@tienda.test', password: 'clave-de-soporte-1' };

const run = promisify(execFile);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Columns a line takes: code points, combining marks taking none (every other character here is narrow). */
const columns = (line: string) => [...line.normalize('NFC')].filter((c) => !/\p{Mn}/u.test(c)).length;

interface Placed {
  id: string;
  order_number: number;
  sandbox: boolean;
  needs_review: boolean;
}

describe('codrail console in a real terminal (tmux) beside serve and the fulfillment simulator', { timeout: 120_000 }, () => {
  let db: ReturnType<typeof tempDbFile> | undefined;
  /** A private tmux server (its socket in the test's temp dir): parallel test files never share one. */
  let socket = '';
  let conf = '';
  let sim: Running | undefined;
  let proxy: FlakyProxy | undefined;
  let serve: ServeProcess | undefined;
  let shop: Shop;
  let tmuxStarted = false;
  /** Every pane captured, by session: what the person at the keyboard saw. */
  const seen = new Map<string, string[]>();

  // The tmux server's environment is what every console in it gets: none of the developer's
  // codrail settings, and no CI marker (ink draws only the last frame when CI is set).
  const tmuxEnv = () => {
    const env = cliEnv();
    for (const name of ['CI', 'CONTINUOUS_INTEGRATION', 'TMUX', 'TMUX_PANE']) delete env[name];
    return env;
  };
  const tmux = async (...args: string[]) => (await run('tmux', ['-u', '-S', socket, '-f', conf, ...args], { env: tmuxEnv() })).stdout;

  /** Opens `codrail console ARGS` in a new 80×24 session named `name`, on the test's database. */
  const openConsole = async (name: string, args: string[]) => {
    tmuxStarted = true;
    await tmux('new-session', '-d', '-s', name, '-x', String(COLUMNS), '-y', String(ROWS), '-e', `CODRAIL_DB=${db!.file}`, process.execPath, BIN, 'console', ...args);
  };
  const press = (name: string, ...keys: string[]) => tmux('send-keys', '-t', name, ...keys);
  const type = (name: string, text: string) => tmux('send-keys', '-t', name, '-l', text);

  /** The pane as the terminal shows it, wrapped lines joined; each line must fit 80 columns. */
  const capture = async (name: string) => {
    const pane = (await tmux('capture-pane', '-p', '-J', '-t', name)).replace(/\n$/, '');
    seen.set(name, [...(seen.get(name) ?? []), pane]);
    for (const line of pane.split('\n')) assert.ok(columns(line) <= COLUMNS, `a line wider than ${COLUMNS} columns (${columns(line)}) in ${name}:\n${line}\n--- pane ---\n${pane}`);
    return pane;
  };

  /** Waits until the pane shows `what` (a string, a pattern or a test of the pane); fails with the last pane. */
  const paneShows = async (name: string, what: string | RegExp | ((pane: string) => boolean), timeoutMs = SHOWS_MS): Promise<string> => {
    const matches = typeof what === 'string' ? (p: string) => p.includes(what) : what instanceof RegExp ? (p: string) => what.test(p) : what;
    let last = '';
    try {
      return await until<string>(
        `${name} to show ${typeof what === 'function' ? 'what it should' : String(what)}`,
        async () => {
          last = await capture(name);
          if (matches(last)) return last;
          await pause(100);
          return '';
        },
        timeoutMs,
      );
    } catch (error) {
      if (error instanceof Error) error.message += `\n--- last pane of ${name} ---\n${last}`;
      throw error;
    }
  };
  const lines = (pane: string) => pane.split('\n');

  /** A live order through POST /api/orders/create with the store's secret key. */
  const place = async (over: Record<string, unknown>): Promise<Placed> => {
    const res = await postOrder(serve!.base, orderBody(shop, { telefono: nextPhone(), ...over }), { authorization: `Bearer ${shop.secretKey}` });
    const text = await res.text();
    assert.equal(res.status, 200, text);
    const placed = (JSON.parse(text) as { data: Placed }).data;
    assert.equal(placed.sandbox, false, 'a live order (a sandbox order never pushes)');
    return placed;
  };
  /** GET /api/v1/orders/{id}: the order as the API shows it, with its push. */
  const orderOf = async (id: string) => {
    const res = await fetch(`${serve!.base}/api/v1/orders/${id}`, { headers: { authorization: `Bearer ${shop.secretKey}` } });
    assert.equal(res.status, 200);
    return ((await res.json()) as { data: any }).data;
  };

  before(async () => {
    let version = '';
    try {
      version = (await run('tmux', ['-V'])).stdout;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new Error('tmux is not installed: this test drives the real console in a terminal. Install it: apt-get install tmux');
      throw error;
    }
    // new-session -e (the console's environment) came with tmux 3.2.
    const [major = 0, minor = 0] = (/(\d+)\.(\d+)/.exec(version) ?? []).slice(1).map(Number);
    assert.ok(major > 3 || (major === 3 && minor >= 2), `tmux 3.2 or later is needed (new-session -e), not ${version.trim()}: apt-get install tmux`);
    db = tempDbFile();
    socket = join(db.dir, 'tmux.sock');
    conf = join(db.dir, 'tmux.conf');
    // No status bar (the pane is the whole 80×24), and a console that dies stays on screen to be read.
    writeFileSync(conf, 'set -g status off\nset -g remain-on-exit on\nset -g default-size 80x24\n');
    shop = await withApp(db.file, async (app) => {
      const made = await seedShop(app);
      await createUser(app, { account_id: made.accountId, email: SUPPORT.email, password: SUPPORT.password, role: 'support' });
      return made;
    });
    sim = await spawnLong(['fulfillment', 'sim', '--port', '0']);
    // serve → a recording proxy → the simulator: what serve sent is read from the proxy, what the
    // platform has from the simulator's own listing.
    proxy = await startFlakyProxy(sim.url);
    serve = await spawnServe(
      db.file,
      ['--log-level', 'warn', '--rate-ip-per-min', '1000000', '--rate-key-per-min', '1000000', '--rate-phone-per-hour', '1000000', '--fulfillment-backoff-ms', '50', '--shutdown-grace-ms', '1000'],
      30_000,
      { CODRAIL_FULFILLMENT_URL: proxy.url },
    );
    // Two orders, so every list has rows to move over.
    await place({ nombre: 'Ana Gómez', departamento: 'Antioquia', ciudad: 'Medellín' });
    await place({ nombre: 'Juan Díaz', departamento: 'Antioquia', ciudad: 'Envigado' });
  });

  after(async () => {
    if (tmuxStarted) await tmux('kill-server').catch(() => undefined);
    if (serve) {
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
    await sim?.stop();
    await proxy?.close();
    db?.cleanup();
  });

  test('support picks Armenia (Quindío) for an order typed "Armenia, Caldas" in 2 Review: the status line says its push is released and the simulator gets the order in Quindío', async () => {
    const order = await place({ nombre: 'Rosa Ríos', departamento: 'Caldas', ciudad: 'Armenia' });
    assert.equal(order.needs_review, true);
    const held = await orderOf(order.id);
    assert.equal(held.fulfillment.state, 'held', 'the push waits for the city');
    assert.deepEqual(held.city_review.candidates.map((c: { city: string; region: string }) => `${c.city} (${c.region})`), ['Armenia (Antioquia)', 'Armenia (Quindío)']);

    await openConsole('review', ['--local', '--lang', 'en']);
    await paneShows('review', /^codrail +1 Orders +2 +3/, STARTUP_MS);
    await press('review', '2');
    await paneShows('review', /^codrail +1 +2 Review +3/);
    const row = new RegExp(`^›! +${order.order_number} +pending +\\d+ +Rosa Ríos +Armenia, Caldas`, 'm');
    await paneShows('review', (p) => row.test(p) && p.includes('It may be: 1 Armenia (Antioquia) · 2 Armenia (Quindío)'));
    assert.match(await capture('review'), /^Why: Several regions have a city with this name$/m);

    await press('review', 'Enter');
    await paneShows('review', (p) => p.includes(`Order #${order.order_number}: "Armenia, Caldas". Which city is it?`) && /│ › Armenia \(Antioquia\) /.test(p));
    assert.match(await capture('review'), /│ {3}Armenia \(Quindío\) +│\n│ {3}Another city… +│/);
    await press('review', 'j');
    await paneShows('review', (p) => /│ › Armenia \(Quindío\) /.test(p) && /│ {3}Armenia \(Antioquia\) /.test(p));
    await press('review', 'Enter');
    const resolved = `Order #${order.order_number}: Armenia (Quindío); its push is released.`;
    const pane = await paneShows('review', resolved);
    assert.equal(lines(pane)[ROWS - 2]!.trimEnd(), resolved, 'on the status line, above the keys');
    await paneShows('review', (p) => !row.test(p) && !p.includes('Which city is it?'));

    // The platform got it once, in Quindío, and the push is done with its remote id.
    const received = await until('the simulator to list the order', async () => {
      const listed = (await (await fetch(`${sim!.url}/_sim/orders`)).json()) as { id: string; external_ref: string; create_calls: number }[];
      return listed.find((o) => o.external_ref === order.id);
    }, SHOWS_MS);
    assert.ok(received);
    assert.equal(received.create_calls, 1, 'created once');
    const sent = proxy!.seen().filter((s) => s.request.method === 'POST' && s.request.url === '/orders').map((s) => JSON.parse(s.request.body.toString('utf8')) as Record<string, unknown>);
    const body = sent.find((b) => b.external_ref === order.id);
    assert.ok(body, 'serve sent the order to the platform');
    assert.deepEqual([body.state, body.city, body.city_code, body.name], ['Quindío', 'Armenia', '63001', 'Rosa']);
    const done = await until('the push to be done', async () => {
      const o = await orderOf(order.id);
      return o.fulfillment?.state === 'done' && o;
    }, SHOWS_MS);
    assert.equal(done.fulfillment.remote_id, received.id);
    assert.deepEqual([done.departamento, done.ciudad, done.needs_review, done.departamento_input, done.ciudad_input], ['Quindío', 'Armenia', false, 'Caldas', 'Armenia']);
  });

  test('on 1 Orders an order placed through the API appears within seconds, no key pressed', async (t) => {
    await openConsole('orders', ['--local', '--lang', 'en']);
    await paneShows('orders', (p) => /^›/m.test(p) && p.includes('↑↓ move · Enter open · / search'), STARTUP_MS);
    const placedAt = Date.now();
    const order = await place({ nombre: 'Marta Ruiz', departamento: 'Antioquia', ciudad: 'Itagüí' });
    await paneShows('orders', new RegExp(`^.{5}${order.order_number} +[a-z]+ +\\d+ +Marta Ruiz +Itagüí, Antioquia`, 'm'));
    t.diagnostic(`order #${order.order_number} on screen ${Date.now() - placedAt} ms after it was placed`);
    assert.match(lines(await capture('orders'))[0]!, /^codrail +1 Orders/, 'still on 1 Orders');
  });

  test('a support user signed in with --email sees no 4 Keys and 4 does nothing, where the local operator sees 4 Keys and 4 opens them', async () => {
    await openConsole('local', ['--local', '--lang', 'en']);
    // 80 columns hold every screen's number, the shown one's name and who is signed in.
    await paneShows('local', /^codrail +1 Orders +2 +3 +4 +5 +6 +7 +operator \(--local\)/, STARTUP_MS);
    await press('local', '4');
    await paneShows('local', (p) => p.includes('↑↓ move · c create · x revoke') && p.includes('svc_live_secret_…'));

    await openConsole('support', ['--email', SUPPORT.email, '--lang', 'en']);
    await paneShows('support', `password for ${SUPPORT.email}: `, STARTUP_MS);
    await type('support', SUPPORT.password);
    // Typed without echo: the prompt's line holds nothing after it.
    const typed = lines(await capture('support')).find((l) => l.startsWith('password for'));
    assert.equal(typed?.trimEnd(), `password for ${SUPPORT.email}:`);
    await press('support', 'Enter');
    const pane = await paneShows('support', (p) => /^codrail +1 Orders +2 +3 +5 +6 +7 +soporte@tienda/.test(p) && /^›/m.test(lines(p)[2] ?? ''), STARTUP_MS);
    assert.doesNotMatch(lines(pane)[0]!, /Keys/);
    // 4 alone (keys that reach the console in one read are taken as one input, not as keys), then
    // an order placed after it shows up on the same screen: the console read 4 and stayed on Orders.
    await press('support', '4');
    const late = await place({ nombre: 'Pedro Soto', departamento: 'Antioquia', ciudad: 'Bello' });
    const after4 = await paneShows('support', new RegExp(`^.{5}${late.order_number} +[a-z]+ +\\d+ +Pedro Soto`, 'm'));
    assert.equal(lines(after4)[0], lines(pane)[0], 'the same header');
    assert.match(lines(after4)[ROWS - 1]!, /^↑↓ move · Enter open · \/ search/, 'the keys of 1 Orders');
    assert.doesNotMatch(after4, /svc_/, 'no key on screen');
    // And it still takes keys: j moves the selection one row down the list.
    const at = lines(after4).findIndex((l) => l.startsWith('›'));
    assert.ok(at >= 2, 'a selected row');
    await press('support', 'j');
    await paneShows('support', (p) => lines(p)[at + 1]?.startsWith('›') === true);
    for (const shown of seen.get('support')!) assert.ok(!shown.includes(SUPPORT.password), 'the password is never on screen');
  });
});
