import { test } from 'node:test';
import assert from 'node:assert/strict';
import { manualClock } from '../../src/clock.ts';
import { startServer } from '../helpers/server.ts';
import { seedShop, orderBody, postOrder } from '../helpers/fixtures.ts';
import { sweepExpired } from '../../src/use-cases/maintenance.use-case.ts';

test('sweepExpired removes ended rate-limit windows and idempotency records past a day, and keeps current ones', async () => {
  const clock = manualClock('2026-11-22T10:00:00Z');
  const server = await startServer({}, { clock });
  try {
    const shop = await seedShop(server.deps);
    const res = await postOrder(server.url, orderBody(shop), { 'x-svc-api-key': shop.testKey, origin: 'http://localhost', 'idempotency-key': 'k-1' });
    assert.equal(res.status, 200);
    const count = async (table: 'rate_limits' | 'idempotency_records') =>
      Number((await server.deps.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    assert.deepEqual(await sweepExpired(server.deps), { rateBuckets: 0, idempotencyRecords: 0, oauthRows: 0 });
    assert.equal(await count('rate_limits'), 3);
    assert.equal(await count('idempotency_records'), 1);

    clock.advance(2 * 3_600_000);
    assert.deepEqual(await sweepExpired(server.deps), { rateBuckets: 3, idempotencyRecords: 0, oauthRows: 0 });
    clock.advance(23 * 3_600_000);
    assert.deepEqual(await sweepExpired(server.deps), { rateBuckets: 0, idempotencyRecords: 1, oauthRows: 0 });
    assert.equal(await count('idempotency_records'), 0);
  } finally {
    await server.close();
  }
});

test('sweepExpired removes OAuth access-token ids past expiry and expired sign-in sessions, and keeps live grants', async () => {
  const { addUser, obtainTokens } = await import('../helpers/oauth.ts');
  const clock = manualClock('2026-11-22T10:00:00Z');
  const server = await startServer({}, { clock });
  try {
    const shop = await seedShop(server.deps);
    const user = await addUser(server.deps, shop.accountId);
    await obtainTokens(server.url, user);
    const count = async (table: 'oauth_access_tokens' | 'oauth_sessions' | 'oauth_families') =>
      Number((await server.deps.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    assert.equal((await sweepExpired(server.deps)).oauthRows, 0);
    clock.advance(13 * 3_600_000);
    assert.equal((await sweepExpired(server.deps)).oauthRows, 2);
    assert.equal(await count('oauth_access_tokens'), 0);
    assert.equal(await count('oauth_sessions'), 0);
    assert.equal(await count('oauth_families'), 1);
  } finally {
    await server.close();
  }
});
