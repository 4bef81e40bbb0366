// Property-based fuzzing of the OAuth inputs (SPEC 15): whatever the parameters, the token,
// revoke, register and authorize endpoints answer a documented status in their documented shape,
// never a 500, and a refusal issues nothing.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcRun } from '../helpers/seed.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { pkcePair, registerLoopbackClient } from '../helpers/oauth.ts';

let server: TestServer;
let clientId: string;
before(async () => {
  server = await startServer({ rateRegisterPerHour: 1_000_000 });
  clientId = (await registerLoopbackClient(server.url)).client_id;
});
after(() => server.close());

const OAUTH_ERRORS = new Set(['invalid_request', 'invalid_client', 'invalid_grant', 'unsupported_grant_type', 'invalid_scope', 'invalid_target', 'invalid_redirect_uri', 'invalid_client_metadata']);
const count = async (table: 'oauth_access_tokens' | 'oauth_codes') => Number((await server.deps.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

const text = fc.oneof(fc.string({ maxLength: 200 }), fc.string({ unit: 'binary', maxLength: 40 }), fc.constantFrom('', 'authorization_code', 'refresh_token', 'S256', 'plain', 'svc_refresh_x', 'svc_oauth_a.b.c', 'http://127.0.0.1:7777/callback'));
const NAMES = ['grant_type', 'code', 'code_verifier', 'redirect_uri', 'client_id', 'refresh_token', 'scope', 'resource', 'token', 'response_type', 'code_challenge', 'code_challenge_method', 'state'];
const params = fc.array(fc.tuple(fc.oneof(fc.constantFrom(...NAMES), fc.string({ maxLength: 10 })), text), { maxLength: 10 });

test('the token and revoke endpoints answer any form with 200 or an OAuth error JSON, never 500, and issue nothing', async () => {
  const tokensBefore = await count('oauth_access_tokens');
  await fc.assert(
    fc.asyncProperty(params, fc.boolean(), fc.constantFrom('/api/oauth/token', '/api/oauth/revoke'), async (pairs, withClient, path) => {
      const body = new URLSearchParams(pairs);
      if (withClient) body.set('client_id', clientId);
      const res = await fetch(server.url + path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
      if (res.status === 200) {
        assert.equal(path, '/api/oauth/revoke');
        return;
      }
      assert.ok([400, 401].includes(res.status), `status ${res.status}`);
      const json = (await res.json()) as { error: string };
      assert.ok(OAUTH_ERRORS.has(json.error), json.error);
    }),
    fcRun(101, { numRuns: 150 }),
  );
  assert.equal(await count('oauth_access_tokens'), tokensBefore);
});

test('the register endpoint answers any JSON with 201 or an RFC 7591 error, never 500', async () => {
  const json = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.record({ redirect_uris: fc.oneof(fc.array(text, { maxLength: 4 }), fc.jsonValue({ maxDepth: 1 })), client_name: fc.oneof(text, fc.integer()), grant_types: fc.array(text, { maxLength: 3 }) }, { requiredKeys: [] }),
  );
  await fc.assert(
    fc.asyncProperty(json, async (body) => {
      const res = await fetch(`${server.url}/api/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      if (res.status === 201) {
        const client = (await res.json()) as { redirect_uris: string[] };
        assert.ok(client.redirect_uris.every((u) => u === 'http://127.0.0.1:7777/callback'), JSON.stringify(client.redirect_uris));
        return;
      }
      assert.equal(res.status, 400);
      assert.ok(OAUTH_ERRORS.has(((await res.json()) as { error: string }).error));
    }),
    fcRun(102, { numRuns: 150 }),
  );
});

test('the authorize endpoint answers any query with a page or a redirect to the registered callback, never 500 and never a code', async () => {
  const { challenge } = pkcePair();
  const codesBefore = await count('oauth_codes');
  await fc.assert(
    fc.asyncProperty(params, fc.boolean(), async (pairs, valid) => {
      const q = new URLSearchParams(valid ? { client_id: clientId, redirect_uri: 'http://127.0.0.1:7777/callback', code_challenge: challenge } : {});
      for (const [k, v] of pairs) q.append(k, v);
      const res = await fetch(`${server.url}/api/oauth/authorize?${q}`, { redirect: 'manual' });
      assert.ok([200, 302, 400].includes(res.status), `status ${res.status}`);
      if (res.status === 302) {
        const location = new URL(res.headers.get('location')!);
        assert.equal(location.origin + location.pathname, 'http://127.0.0.1:7777/callback');
        assert.ok(location.searchParams.get('error'));
        assert.equal(location.searchParams.get('code'), null);
      }
    }),
    fcRun(103, { numRuns: 150 }),
  );
  assert.equal(await count('oauth_codes'), codesBefore);
});
