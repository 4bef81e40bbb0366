// Client ID Metadata Documents (issue 13 §4): an https URL as client_id names the client's document.
// The full flow with one, and the refusals: a document that names another client, callbacks outside
// the allowlist, an address on the operator's network without the development switch.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { startServer, type TestServer } from '../helpers/server.ts';
import { seedShop } from '../helpers/fixtures.ts';
import { Browser, addUser, authorizeUrl, pkcePair } from '../helpers/oauth.ts';

describe('Client ID Metadata Documents', () => {
  let server: TestServer;
  let strict: TestServer;
  let host: Server;
  let base = '';
  const documents = new Map<string, unknown>();
  before(async () => {
    host = createServer((req, res) => {
      const doc = documents.get(req.url ?? '');
      if (doc === undefined) return void res.writeHead(404).end();
      const body = JSON.stringify(doc);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
    });
    await new Promise<void>((ok) => host.listen(0, '127.0.0.1', ok));
    base = `http://127.0.0.1:${(host.address() as { port: number }).port}`;
    // Development switch: documents may be read over http from this machine.
    server = await startServer({}, { env: { CODRAIL_OAUTH_CIMD_ALLOW_PRIVATE: '1' } });
    strict = await startServer();
  });
  after(async () => {
    await server.close();
    await strict.close();
    await new Promise((ok) => host.close(ok));
  });

  const authorize = (s: TestServer, clientId: string, redirectUri: string, challenge: string) =>
    authorizeUrl(s.url, { response_type: 'code', client_id: clientId, redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: 'S256', state: 'st', resource: `${s.url}/api/mcp` });

  test('the metadata advertises the support', async () => {
    const meta = (await (await fetch(`${server.url}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    assert.equal(meta.client_id_metadata_document_supported, true);
  });

  test('a client known only by its document URL signs in, consents and gets tokens; it is listed as such', async () => {
    const clientId = `${base}/clients/inspector.json`;
    const redirectUri = 'http://127.0.0.1:6274/oauth/callback';
    documents.set('/clients/inspector.json', { client_id: clientId, client_name: 'Inspector (CIMD)', redirect_uris: [redirectUri, 'https://evil.example/cb'], token_endpoint_auth_method: 'none' });
    const shop = await seedShop(server.deps);
    const user = await addUser(server.deps, shop.accountId);
    const { verifier, challenge } = pkcePair();
    const callback = await new Browser(server.url).authorize(authorize(server, clientId, redirectUri, challenge), user, { grant: ['orders:read'] });
    const code = callback.searchParams.get('code');
    assert.ok(code, callback.href);
    const res = await fetch(`${server.url}/api/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: redirectUri, client_id: clientId, resource: `${server.url}/api/mcp` }),
    });
    assert.equal(res.status, 200, await res.clone().text());
    assert.equal(((await res.json()) as { scope: string }).scope, 'mcp:invoke orders:read');
    const row = await server.deps.db.selectFrom('oauth_clients').selectAll().where('id', '=', clientId).executeTakeFirstOrThrow();
    assert.deepEqual(JSON.parse(row.redirect_uris), [redirectUri], 'the callback outside the allowlist was dropped, as in registration');
    assert.equal(row.client_name, 'Inspector (CIMD)');
  });

  test('a document naming another client_id, or only callbacks outside the allowlist, is an unknown client (400 page, no redirect)', async () => {
    const liar = `${base}/clients/liar.json`;
    documents.set('/clients/liar.json', { client_id: `${base}/clients/other.json`, redirect_uris: ['http://127.0.0.1:9/cb'] });
    const remote = `${base}/clients/remote.json`;
    documents.set('/clients/remote.json', { client_id: remote, redirect_uris: ['https://evil.example/cb'] });
    for (const [clientId, redirectUri] of [[liar, 'http://127.0.0.1:9/cb'], [remote, 'https://evil.example/cb'], [`${base}/clients/missing.json`, 'http://127.0.0.1:9/cb']] as const) {
      const res = await fetch(authorize(server, clientId, redirectUri, pkcePair().challenge), { redirect: 'manual' });
      assert.equal(res.status, 400, clientId);
      assert.equal(res.headers.get('location'), null);
    }
  });

  test('without the development switch, a document on a private address (or over http) is never fetched', async () => {
    let fetched = 0;
    documents.set('/clients/counted.json', { client_id: `${base}/clients/counted.json`, redirect_uris: ['http://127.0.0.1:9/cb'] });
    host.on('request', () => fetched++);
    const res = await fetch(authorize(strict, `${base}/clients/counted.json`, 'http://127.0.0.1:9/cb', pkcePair().challenge), { redirect: 'manual' });
    assert.equal(res.status, 400);
    const https = await fetch(authorize(strict, `https://127.0.0.1:${new URL(base).port}/clients/counted.json`, 'http://127.0.0.1:9/cb', pkcePair().challenge), { redirect: 'manual' });
    assert.equal(https.status, 400);
    assert.equal(fetched, 0, 'the server did not reach into its own network');
  });
});
