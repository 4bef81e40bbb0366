// Discovery documents and the CORS rules around them (OAUTH.md decisions 1, 2, 13, 14; T4–T6,
// T15–T21, T41).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { OAuthMetadataSchema, OAuthProtectedResourceMetadataSchema } from '@modelcontextprotocol/sdk/shared/auth.js';
import { startServer, type TestServer } from '../helpers/server.ts';

describe('OAuth metadata documents', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  test('the authorization-server metadata names the issuer exactly, S256 only, both grants, public clients and the iss parameter', async () => {
    const res = await fetch(`${server.url}/.well-known/oauth-authorization-server`, { redirect: 'manual' });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /^application\/json/);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    const doc = OAuthMetadataSchema.parse(await res.json());
    assert.equal(doc.issuer, server.url);
    assert.ok(!doc.issuer.endsWith('/'));
    assert.equal(doc.authorization_endpoint, `${server.url}/api/oauth/authorize`);
    assert.equal(doc.token_endpoint, `${server.url}/api/oauth/token`);
    assert.equal(doc.registration_endpoint, `${server.url}/api/oauth/register`);
    assert.equal(doc.revocation_endpoint, `${server.url}/api/oauth/revoke`);
    assert.deepEqual(doc.code_challenge_methods_supported, ['S256']);
    assert.deepEqual(doc.response_types_supported, ['code']);
    assert.deepEqual(doc.grant_types_supported, ['authorization_code', 'refresh_token']);
    assert.deepEqual(doc.token_endpoint_auth_methods_supported, ['none']);
    assert.deepEqual(doc.revocation_endpoint_auth_methods_supported, ['none']);
    assert.equal((doc as Record<string, unknown>).authorization_response_iss_parameter_supported, true);
    assert.equal((doc as Record<string, unknown>).client_id_metadata_document_supported, true, 'an https URL as client_id names its metadata document (issue 13)');
    assert.ok(doc.scopes_supported!.includes('mcp:invoke'));
    assert.ok(!doc.scopes_supported!.includes('ai:generate'));
  });

  test('the protected-resource metadata is served path-suffixed and at the root, naming the same resource and issuer', async () => {
    const docs = [];
    for (const path of ['/.well-known/oauth-protected-resource/api/mcp', '/.well-known/oauth-protected-resource']) {
      const res = await fetch(server.url + path, { redirect: 'manual' });
      assert.equal(res.status, 200, path);
      assert.equal(res.headers.get('access-control-allow-origin'), '*');
      docs.push(OAuthProtectedResourceMetadataSchema.parse(await res.json()));
    }
    for (const doc of docs) {
      assert.equal(doc.resource, `${server.url}/api/mcp`);
      assert.deepEqual(doc.authorization_servers, [server.url]);
      assert.ok(!doc.scopes_supported!.includes('ai:generate'));
    }
  });

  test('preflights of the metadata, token, register and revoke endpoints allow any origin and the MCP protocol header', async () => {
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/oauth-protected-resource/api/mcp', '/api/oauth/token', '/api/oauth/register', '/api/oauth/revoke']) {
      const res = await fetch(server.url + path, {
        method: 'OPTIONS',
        headers: { origin: 'https://inspector.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'mcp-protocol-version' },
      });
      assert.equal(res.status, 204, path);
      assert.equal(res.headers.get('access-control-allow-origin'), '*');
      assert.match(res.headers.get('access-control-allow-headers')!, /mcp-protocol-version/);
    }
  });

  test('the authorize endpoint never answers CORS, not even to a preflight', async () => {
    const get = await fetch(`${server.url}/api/oauth/authorize`, { headers: { origin: 'https://evil.example' } });
    assert.equal(get.headers.get('access-control-allow-origin'), null);
    const pre = await fetch(`${server.url}/api/oauth/authorize`, { method: 'OPTIONS', headers: { origin: 'https://evil.example' } });
    assert.equal(pre.headers.get('access-control-allow-origin'), null);
    assert.notEqual(pre.status, 204);
  });

  test('unknown well-known documents are a JSON 404, so clients fall back instead of failing', async () => {
    for (const path of ['/.well-known/openid-configuration', '/.well-known/oauth-protected-resource/nope', '/.well-known/oauth-authorization-server/api/mcp']) {
      const res = await fetch(server.url + path);
      assert.equal(res.status, 404, path);
      assert.match(res.headers.get('content-type')!, /^application\/json/);
    }
  });
});
