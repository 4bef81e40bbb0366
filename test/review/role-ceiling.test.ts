// Issue 13 §4: a user's role bounds what they may grant an assistant. Support staff cannot grant
// stores:write, products:write or landings:write; the consent page says so, and a forged form that
// ticks them anyway gets a token without them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../helpers/server.ts';
import { seedShop } from '../helpers/fixtures.ts';
import { Browser, addUser, authorizeUrl, obtainTokens, parseForms, pkcePair, registerLoopbackClient } from '../helpers/oauth.ts';
import { GRANTABLE_SCOPES } from '../../src/domain/oauth/scopes.ts';

test('support cannot grant stores:write, products:write or landings:write, even by forging the form; an owner can', async () => {
  const server = await startServer();
  try {
    const shop = await seedShop(server.deps);
    const support = await addUser(server.deps, shop.accountId, 'support@example.com', 'support');
    const owner = await addUser(server.deps, shop.accountId, 'owner@example.com');

    // What the page shows a support user.
    const browser = new Browser(server.url);
    const client = await registerLoopbackClient(server.url);
    const url = authorizeUrl(server.url, { response_type: 'code', client_id: client.client_id, redirect_uri: client.redirect_uris[0], code_challenge: pkcePair().challenge, code_challenge_method: 'S256', state: 's', resource: `${server.url}/api/mcp` });
    const signIn = await browser.get(url);
    const signInForm = parseForms(await signIn.text())[0]!;
    await browser.submit(signInForm, [['email', support.email], ['password', support.password]]);
    const consent = await (await browser.get(url)).text();
    for (const scope of ['stores:write', 'products:write', 'landings:write']) {
      const at = consent.indexOf(`value="${scope}" disabled>`);
      assert.ok(at > 0, `${scope} is shown disabled`);
      assert.match(consent.slice(at, consent.indexOf('</label>', at)), /tu rol \(soporte\) no puede concederlo/);
    }
    assert.match(consent, /name="grant" value="orders:write" checked/);

    // A forged consent that ticks everything.
    const forged = await obtainTokens(server.url, support, { grant: [...GRANTABLE_SCOPES] });
    const granted = forged.tokens.scope.split(' ');
    for (const scope of ['stores:write', 'products:write', 'landings:write']) assert.ok(!granted.includes(scope), `${scope} in ${forged.tokens.scope}`);
    assert.ok(granted.includes('orders:write') && granted.includes('stores:read'));

    const full = await obtainTokens(server.url, owner, { grant: [...GRANTABLE_SCOPES] });
    assert.deepEqual(full.tokens.scope.split(' ').sort(), [...GRANTABLE_SCOPES].sort());
  } finally {
    await server.close();
  }
});
