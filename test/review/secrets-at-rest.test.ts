// Issue 13 §4: the OAuth signing key's private half is sealed at rest with the key that protects the
// stores' platform credentials; a row left in clear by an older release is sealed on first use.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startServer } from '../helpers/server.ts';
import { seedShop } from '../helpers/fixtures.ts';
import { scopedTokens } from '../mcp/account-kit.ts';
import { rotateSecrets } from '../../src/use-cases/secrets.use-case.ts';
import { signingKeyContext } from '../../src/use-cases/oauth/signing-keys.ts';

test('the signing key is sealed in the database, still signs and verifies, and a clear legacy row gets sealed', async () => {
  const server = await startServer();
  try {
    const shop = await seedShop(server.deps);
    const { reader } = await scopedTokens(server, shop.accountId, { reader: ['stores:read'] });
    const mcp = await fetch(`${server.url}/api/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${reader}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_stores', arguments: {} } }),
    });
    assert.equal(mcp.status, 200, 'a token signed with the sealed key verifies');
    const row = await server.deps.db.selectFrom('oauth_signing_keys').selectAll().executeTakeFirstOrThrow();
    assert.match(row.private_jwk, /^v1\.[0-9a-f]{8}\./);
    const jwk = JSON.parse(row.public_jwk) as { x: string };
    // The private scalar `d` must not be anywhere in the files in clear.
    const exported = JSON.parse(server.deps.secrets.box().open(row.private_jwk, signingKeyContext(row.kid))) as { d: string };
    assert.ok(exported.d && jwk.x);
    for (const file of readdirSync(server.dir)) assert.ok(!readFileSync(join(server.dir, file)).includes(exported.d), `${file} holds the private key in clear`);

    // An older release stored it in clear: the next use seals it, rotate reports nothing stale.
    await server.deps.db.updateTable('oauth_signing_keys').set({ private_jwk: JSON.stringify(exported) }).where('kid', '=', row.kid).execute();
    Object.assign(server.deps, { signingKeys: new (server.deps.signingKeys.constructor as new (...a: unknown[]) => typeof server.deps.signingKeys)(server.deps.db, server.deps.clock, server.deps.secrets) });
    await server.deps.signingKeys.current();
    assert.match((await server.deps.db.selectFrom('oauth_signing_keys').select('private_jwk').executeTakeFirstOrThrow()).private_jwk, /^v1\./);
    const rotated = await rotateSecrets(server.deps);
    assert.equal(rotated.resealed, 0);
    assert.deepEqual(rotated.failed, []);
  } finally {
    await server.close();
  }
});
