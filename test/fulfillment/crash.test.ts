// Exactly once across a crash (issue 4): `codrail serve` killed with SIGKILL in the middle of
// pushing, then started again, still ends with exactly one platform order per live order. The
// simulator creates each order and answers late, so the kill lands between "created on the
// platform" and "recorded in codrail" for the pushes in flight.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync } from '../helpers/sync-database.ts';
import { tempDbFile } from '../helpers/server.ts';
import { seedShop, orderBody } from '../helpers/fixtures.ts';
import { withApp } from '../helpers/cli-expect.ts';
import { BIN, cliEnv } from '../helpers/cli.ts';
import { nextPhone } from '../api/orders/order-kit.ts';
import { createOrder } from '../../src/use-cases/orders/create-order.use-case.ts';
import { startSimulator } from '../../src/platforms/generic/simulator.ts';

const tmp = tempDbFile();
after(() => tmp.cleanup());

function serve(url: string): ChildProcess {
  return spawn(process.execPath, [BIN, '--db', tmp.file, 'serve', '--port', '0', '--log-level', 'warn', '--fulfillment-url', url, '--fulfillment-timeout-ms', '500', '--fulfillment-backoff-ms', '20', '--fulfillment-concurrency', '4'], {
    env: cliEnv(),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

const states = () => {
  const db = openSync(tmp.file, { readonly: true });
  try {
    return db.prepare('SELECT state, COUNT(*) AS n FROM fulfillment_jobs GROUP BY state').all() as { state: string; n: number }[];
  } finally {
    db.close();
  }
};

async function until(what: string, check: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('serve killed with SIGKILL mid-push and started again leaves exactly one platform order per live order', async () => {
  const sim = await startSimulator({ port: 0, latencyMs: 250 });
  try {
    const ids: string[] = [];
    await withApp(tmp.file, async (app) => {
      const shop = await seedShop(app);
      for (let i = 0; i < 60; i++) {
        const { body } = await createOrder(app, { body: orderBody(shop, { telefono: nextPhone() }), apiKey: shop.liveKey, origin: 'https://shop.example.com', ip: `198.51.100.${i}` }, {});
        ids.push(body.data.id);
      }
    });

    const first = serve(sim.url);
    await until('pushes to be under way', () => sim.orders().length >= 8, 20_000);
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    const afterKill = sim.orders().length;
    assert.ok(afterKill < ids.length, `killed mid-push (${afterKill} of ${ids.length} on the platform)`);
    assert.ok(states().some((s) => s.state === 'in_flight' || s.state === 'queued'), 'work was left behind');

    const second = serve(sim.url);
    try {
      await until('every push to be done after the restart', () => states().every((s) => s.state === 'done'), 60_000);
    } finally {
      second.kill('SIGTERM');
      await new Promise((r) => second.once('exit', r));
    }
    const refs = sim.orders().map((o) => o.external_ref);
    assert.equal(refs.length, ids.length, 'no duplicate platform order');
    assert.deepEqual([...refs].sort(), [...ids].sort(), 'every live order is on the platform');
    const db = openSync(tmp.file, { readonly: true });
    const reconciled = (db.prepare("SELECT data FROM order_events WHERE type = 'fulfillment.pushed'").all() as { data: string }[]).filter((e) => (JSON.parse(e.data) as { reconciled: boolean }).reconciled);
    db.close();
    assert.ok(reconciled.length > 0, 'a push the kill interrupted after the platform created it was found by reference, not created again');
  } finally {
    await sim.close();
  }
});
