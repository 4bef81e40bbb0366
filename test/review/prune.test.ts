// Issue 13 §4: token families and rotated refresh tokens are pruned well after they ended (30 days
// after the absolute expiry or a revocation), with everything hanging from them; live ones stay.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../helpers/server.ts';
import { seedShop } from '../helpers/fixtures.ts';
import { addUser, obtainTokens } from '../helpers/oauth.ts';
import { manualClock } from '../../src/clock.ts';
import { sweepExpired } from '../../src/use-cases/maintenance.use-case.ts';
import { OAUTH_PRUNE_AFTER_S, OAUTH_REFRESH_ABSOLUTE_S } from '../../src/limits.ts';

const DAY = 86_400_000;

test('ended families and dead refresh tokens go 30 days after they ended; a live family keeps its rows', async () => {
  const clock = manualClock(new Date('2026-01-01T00:00:00.000Z'));
  const server = await startServer({}, { clock });
  try {
    const shop = await seedShop(server.deps);
    const user = await addUser(server.deps, shop.accountId);
    const old = await obtainTokens(server.url, user, { grant: ['orders:read'] });
    // Rotate once: the first refresh token is now rotated (kept for replay detection while it matters).
    const refreshed = await fetch(`${server.url}/api/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: old.tokens.refresh_token, client_id: old.client.client_id }),
    });
    assert.equal(refreshed.status, 200);
    const count = async (table: 'oauth_families' | 'oauth_refresh_tokens' | 'oauth_access_tokens') => Number((await server.deps.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    assert.deepEqual([await count('oauth_families'), await count('oauth_refresh_tokens')], [1, 2]);

    // Past the absolute expiry, but not 30 days past: nothing is pruned yet (support may still look).
    clock.advance(OAUTH_REFRESH_ABSOLUTE_S * 1000 + DAY);
    const fresh = await obtainTokens(server.url, user, { grant: ['orders:read'] });
    await sweepExpired(server.deps);
    assert.equal(await count('oauth_families'), 2);

    clock.advance(OAUTH_PRUNE_AFTER_S * 1000);
    await sweepExpired(server.deps);
    // Only the fresh family remains; the old one went with its refresh tokens.
    const families = await server.deps.db.selectFrom('oauth_families').select(['id', 'client_id']).execute();
    assert.deepEqual(families.map((f) => f.client_id), [fresh.client.client_id]);
    const tokens = await server.deps.db.selectFrom('oauth_refresh_tokens').select('family_id').execute();
    assert.deepEqual(tokens.map((t) => t.family_id), [families[0]!.id], "only the live family's refresh token is left");
    assert.equal(await count('oauth_access_tokens'), 0, 'every access token id expired long ago');
  } finally {
    await server.close();
  }
});
