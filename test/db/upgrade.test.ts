// Issue 20 §3: upgrades. For each shipped migration level, a database that release made (the SQL of
// fixtures/upgrade/<level>.sql: its schema and real rows — orders in every push state, a store with
// sealed platform credentials, an OAuth family, WhatsApp settings) is started by today's `codrail
// serve`, which migrates it and runs its outbox against the simulator: every push finishes exactly
// once (an order the platform already held is found, never created again), dead and held jobs stay
// as they were, the pending cancel cancels once, the sealed credentials still open, the OAuth family
// still refreshes, and the secret key still works.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import Database from 'better-sqlite3';
import { tempDbFile } from '../helpers/server.ts';
import { spawnServe } from '../helpers/cli.ts';
import { readDb } from '../helpers/cli-expect.ts';
import { until } from '../helpers/wait.ts';
import { UPGRADE_FIXTURE as F, ordersAt } from '../helpers/upgrade-fixture.ts';
import { credentialOf, startSimulator } from '../../src/platforms/generic/simulator.ts';
import { migrations } from '../../src/db/migrations/index.ts';
import { sqliteOnly } from '../helpers/test-database.ts';

const DIR = new URL('../../fixtures/upgrade/', import.meta.url);
const LEVELS = readdirSync(DIR)
  .filter((f) => f.endsWith('.sql'))
  .map((f) => f.slice(0, -4))
  .sort();
const DEFAULT_TOKEN = 'default-platform-token-0042';

const files: ReturnType<typeof tempDbFile>[] = [];
after(() => files.forEach((f) => f.cleanup()));

test('there is an upgrade fixture for every shipped level, from the first released schema on', { skip: sqliteOnly }, () => {
  assert.equal(LEVELS[0], '0001-initial');
  assert.ok(LEVELS.length >= 9, LEVELS.join(', '));
  for (const level of LEVELS) assert.ok(Object.hasOwn(migrations, level), `${level} is a migration`);
});

describe('a database from each shipped level upgrades and finishes its work exactly once', { skip: sqliteOnly }, () => {
  for (const level of LEVELS)
    test(`level ${level}: migrated by serve, every push finished once, the cancel sent once, secrets, OAuth and keys still valid`, { skip: sqliteOnly }, async () => {
      const tmp = tempDbFile();
      files.push(tmp);
      const raw = new Database(tmp.file);
      raw.exec(readFileSync(new URL(`${level}.sql`, DIR), 'utf8'));
      raw.close();
      const orders = ordersAt(level);
      const sim = await startSimulator({
        port: 0,
        tokens: [DEFAULT_TOKEN, F.ownPlatformToken],
        existing: orders.filter((o) => o.remote).map((o) => ({ id: o.remote!, external_ref: o.id, token: DEFAULT_TOKEN })),
      });
      const serve = await spawnServe(tmp.file, ['--log-level', 'warn', '--base-url', 'http://127.0.0.1:3000', '--fulfillment-url', sim.url, '--fulfillment-backoff-ms', '20', '--fulfillment-backoff-max-ms', '200'], 30_000, {
        CODRAIL_SECRET_KEY: F.secretKeyBase64,
        CODRAIL_FULFILLMENT_TOKEN: DEFAULT_TOKEN,
      });
      try {
        const jobs = () => readDb(tmp.file, (d) => d.prepare('SELECT order_id, action, state, remote_id, unknown_outcome FROM fulfillment_jobs').all() as { order_id: string; action: string; state: string; remote_id: string | null; unknown_outcome: number }[]);
        const settled = () => {
          const now = jobs();
          return orders.every((o) => {
            const push = now.find((j) => j.order_id === o.id && j.action === 'push');
            const cancel = now.find((j) => j.order_id === o.id && j.action === 'cancel');
            return (o.expect.push === 'none' ? !push : push?.state === o.expect.push) && (!o.cancel || cancel?.state === 'done');
          });
        };
        await until(`the upgraded ${level} database to settle its jobs`, settled, 30_000);

        const applied = readDb(tmp.file, (d) => (d.prepare('SELECT name FROM kysely_migration ORDER BY name').all() as { name: string }[]).map((m) => m.name));
        assert.deepEqual(applied, Object.keys(migrations), 'migrated to today');
        const platform = sim.orders();
        for (const o of orders) {
          const remote = platform.filter((p) => p.external_ref === o.id);
          assert.equal(remote.length, o.expect.push === 'done' ? 1 : 0, `order ${o.id} (${o.job ?? 'no job'}): platform orders`);
          if (remote[0]) {
            assert.equal(remote[0].create_calls, o.expect.created ? 1 : 0, `order ${o.id}: created ${o.expect.created ? 'once' : 'never'} by the upgraded server`);
            if (o.remote) assert.equal(remote[0].id, o.remote);
            if (o.expect.platformStatus) assert.deepEqual([remote[0].status, remote[0].cancellation?.calls], [o.expect.platformStatus, 1]);
            const push = jobs().find((j) => j.order_id === o.id && j.action === 'push')!;
            assert.deepEqual([push.remote_id, push.unknown_outcome], [remote[0].id, 0]);
            // The store with its own connection pushed with the token sealed before the upgrade.
            assert.equal(remote[0].credential?.hash, credentialOf(o.store === F.ownStoreId ? F.ownPlatformToken : DEFAULT_TOKEN).hash, `order ${o.id}: pushed with its store's credentials`);
          }
        }
        assert.equal(platform.length, orders.filter((o) => o.expect.push === 'done').length, 'nothing else on the platform');

        if (level >= '0003-oauth') {
          const res = await fetch(`${serve.base}/api/oauth/token`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: F.refreshToken, client_id: F.clientId }),
          });
          assert.equal(res.status, 200, await res.clone().text());
          assert.equal(((await res.json()) as { scope: string }).scope, 'mcp:invoke orders:read stores:read');
        }
        const account = await fetch(`${serve.base}/api/v1/account`, { headers: { authorization: `Bearer ${F.secretKey}` } });
        assert.equal(account.status, 200, 'the secret key made by that release still works');
        if (level >= '0006-whatsapp-settings') {
          const numbers = readDb(tmp.file, (d) => d.prepare('SELECT phone_number_id, account_id FROM whatsapp_numbers').all());
          assert.deepEqual(numbers, [{ phone_number_id: F.phoneNumberId, account_id: F.accountId }], 'the number the one account used stays its own');
        }
      } finally {
        serve.child.kill('SIGTERM');
        await serve.exited;
        await sim.close();
      }
    });
});
