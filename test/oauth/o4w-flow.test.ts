// OAUTH.md T61: oauth4webapi, with its strict checks, completes discovery, registration, the
// authorization code flow through our real pages, refresh and revocation against the server.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as oauth from 'oauth4webapi';
import { openShop } from '../helpers/fixtures.ts';
import type { TestServer } from '../helpers/server.ts';
import { Browser, addUser } from '../helpers/oauth.ts';

describe('oauth4webapi against the authorization server', () => {
  let server: TestServer;
  let user: { email: string; password: string };
  const insecure = { [oauth.allowInsecureRequests]: true };

  before(async () => {
    const opened = await openShop();
    server = opened.server;
    user = await addUser(server.deps, opened.shop.accountId);
  });
  after(() => server.close());

  test('discovery, registration, code flow, refresh and revocation pass every strict check', async () => {
    const issuer = new URL(server.url);
    const resource = `${server.url}/api/mcp`;

    const rs = await oauth.processResourceDiscoveryResponse(new URL(resource), await oauth.resourceDiscoveryRequest(new URL(resource), insecure));
    assert.equal(rs.resource, resource);
    assert.deepEqual(rs.authorization_servers, [server.url]);

    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
    assert.equal(as.issuer, server.url);
    assert.deepEqual(as.code_challenge_methods_supported, ['S256']);
    assert.equal(as.authorization_response_iss_parameter_supported, true);
    assert.ok(!as.scopes_supported!.includes('ai:generate'));

    const redirectUri = 'http://127.0.0.1:45678/callback';
    const registered = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(as, { client_name: 'o4w', redirect_uris: [redirectUri], token_endpoint_auth_method: 'none' }, insecure),
    );
    assert.equal(registered.token_endpoint_auth_method, 'none');
    assert.equal(registered.client_secret, undefined);
    const client: oauth.Client = { client_id: registered.client_id, token_endpoint_auth_method: 'none' };

    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint!);
    url.search = new URLSearchParams({
      client_id: client.client_id,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'mcp:invoke orders:read',
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      resource,
    }).toString();
    const callback = await new Browser(server.url).authorize(url.href, user);
    const params = oauth.validateAuthResponse(as, client, callback, state);

    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, verifier, { additionalParameters: { resource }, ...insecure }),
    );
    assert.match(tokens.access_token, /^svc_oauth_/);
    assert.equal(tokens.token_type, 'bearer');
    assert.equal(tokens.expires_in, 3600);
    assert.equal(tokens.scope, 'mcp:invoke orders:read');

    const mcp = () =>
      fetch(resource, { method: 'POST', headers: { authorization: `Bearer ${current.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
    let current = tokens;
    assert.equal((await mcp()).status, 200);

    const refreshed = await oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, { additionalParameters: { resource }, ...insecure }));
    assert.notEqual(refreshed.refresh_token, tokens.refresh_token);
    assert.equal(refreshed.scope, 'mcp:invoke orders:read');
    current = refreshed;
    assert.equal((await mcp()).status, 200);

    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, oauth.None(), refreshed.refresh_token!, insecure));
    const denied = await mcp();
    assert.equal(denied.status, 401);
    assert.match(denied.headers.get('www-authenticate')!, /error="invalid_token"/);
    // Unknown tokens are revoked "successfully" too (RFC 7009 §2.2).
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, oauth.None(), 'svc_refresh_nope', insecure));
  });
});
