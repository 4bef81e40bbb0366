// The authorization endpoint and its pages (OAUTH.md decisions 3–5, 7, 12, 14–16; T31–T41).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openShop } from '../helpers/fixtures.ts';
import type { TestServer } from '../helpers/server.ts';
import { Browser, addUser, authorizeUrl, parseForms, pkcePair, registerLoopbackClient } from '../helpers/oauth.ts';

describe('GET/POST /api/oauth/authorize', () => {
  let server: TestServer;
  let user: { email: string; password: string };
  let client: { client_id: string; redirect_uris: string[] };
  const { challenge } = pkcePair();
  let params: (over?: Record<string, string | undefined>) => string;

  before(async () => {
    const opened = await openShop({ rateRegisterPerHour: 1000 });
    server = opened.server;
    user = await addUser(server.deps, opened.shop.accountId);
    client = await registerLoopbackClient(server.url, { redirect_uris: ['http://127.0.0.1/callback', 'http://localhost:6274/oauth/callback'] });
    params = (over = {}) =>
      authorizeUrl(server.url, {
        response_type: 'code',
        client_id: client.client_id,
        redirect_uri: 'http://127.0.0.1:54321/callback',
        code_challenge: challenge,
        code_challenge_method: 'S256',
        state: 'xyz',
        resource: `${server.url}/api/mcp`,
        ...over,
      });
  });
  after(() => server.close());

  const errorOf = (res: Response) => {
    assert.ok(res.status === 302 || res.status === 303, `status ${res.status}`);
    return new URL(res.headers.get('location')!);
  };

  test('an unknown client or an unregistered redirect URI is a 400 page that never redirects', async () => {
    const cases = [
      params({ client_id: 'mcp_unknown' }),
      params({ client_id: undefined }),
      params({ redirect_uri: 'https://evil.example/callback' }),
      params({ redirect_uri: 'http://127.0.0.1:54321/other' }),
      params({ redirect_uri: 'http://localhost:54321/callback' }),
      params({ redirect_uri: 'http://localhost:6274/oauth/callback?x=1' }),
      `${params()}&redirect_uri=${encodeURIComponent('http://127.0.0.1:1/callback')}`,
    ];
    for (const url of cases) {
      const res = await fetch(url, { redirect: 'manual' });
      assert.equal(res.status, 400, url);
      assert.equal(res.headers.get('location'), null, url);
      assert.match(res.headers.get('content-type')!, /^text\/html/);
      assert.equal(res.headers.get('x-frame-options'), 'DENY');
    }
  });

  test('a loopback redirect matches the registered one on any port; other URIs match exactly', async () => {
    for (const redirect of ['http://127.0.0.1:54321/callback', 'http://127.0.0.1:1/callback', 'http://127.0.0.1/callback', 'http://localhost:6274/oauth/callback', 'http://localhost:9999/oauth/callback']) {
      const res = await fetch(params({ redirect_uri: redirect }), { redirect: 'manual' });
      assert.equal(res.status, 200, redirect);
    }
  });

  test('PKCE, response type, resource and scope failures redirect back with error, state and iss', async () => {
    const cases: [Record<string, string | undefined>, string][] = [
      [{ code_challenge: undefined }, 'invalid_request'],
      [{ code_challenge_method: 'plain' }, 'invalid_request'],
      [{ code_challenge_method: undefined }, 'invalid_request'],
      [{ code_challenge: 'short' }, 'invalid_request'],
      [{ code_challenge: `${'a'.repeat(42)}!` }, 'invalid_request'],
      [{ response_type: 'token' }, 'unsupported_response_type'],
      [{ response_type: undefined }, 'invalid_request'],
      [{ resource: 'https://other.example/api/mcp' }, 'invalid_target'],
      [{ resource: `${server.url}/api/other` }, 'invalid_target'],
      [{ scope: 'ai:generate' }, 'invalid_scope'],
      [{ scope: 'mcp:invoke bogus:scope' }, 'invalid_scope'],
    ];
    for (const [over, error] of cases) {
      const location = errorOf(await fetch(params(over), { redirect: 'manual' }));
      assert.equal(location.origin + location.pathname, 'http://127.0.0.1:54321/callback', JSON.stringify(over));
      assert.equal(location.searchParams.get('error'), error, JSON.stringify(over));
      assert.equal(location.searchParams.get('state'), 'xyz');
      assert.equal(location.searchParams.get('iss'), server.url);
    }
    const dup = errorOf(await fetch(`${params()}&scope=orders:read&scope=orders:write`, { redirect: 'manual' }));
    assert.equal(dup.searchParams.get('error'), 'invalid_request');
  });

  test('unknown parameters are ignored, uppercase scheme and host in resource are accepted, and a long state round-trips', async () => {
    const state = 's'.repeat(2048);
    const resource = `${server.url.replace('http://', 'HTTP://').replace('127.0.0.1', '127.0.0.1')}/api/mcp`;
    const callback = await new Browser(server.url).authorize(`${params({ state, resource })}&prompt=consent&foo=bar`, user);
    assert.equal(callback.searchParams.get('state'), state);
    assert.ok(callback.searchParams.get('code'));
    assert.equal(callback.searchParams.get('iss'), server.url);
  });

  test('the sign-in page is a CSRF-protected form with email and password, framing forbidden, never cached', async () => {
    const browser = new Browser(server.url);
    const res = await browser.get(params(), { 'accept-language': 'en-US,en;q=0.9' });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal(res.headers.get('x-frame-options'), 'DENY');
    assert.match(res.headers.get('content-security-policy')!, /frame-ancestors 'none'/);
    const setCookie = res.headers.getSetCookie().join('\n');
    assert.match(setCookie, /codrail_csrf=[^;]+; Path=\/api\/oauth; HttpOnly; SameSite=Lax/);
    const html = await res.text();
    assert.match(html, /<html lang="en">/);
    assert.match(html, /name="viewport"/);
    assert.match(html, /Test client/);
    const [form] = parseForms(html);
    assert.equal(form!.action, '/api/oauth/authorize');
    assert.ok(form!.hidden.csrf);
    assert.deepEqual(form!.inputs.filter((i) => i.type === 'email' || i.type === 'password').map((i) => i.type), ['email', 'password']);
    const es = await (await fetch(params(), { headers: { 'accept-language': 'es-CO' } })).text();
    assert.match(es, /<html lang="es">/);
    assert.match(es, /Iniciar sesión/);
  });

  test('a wrong password re-shows the sign-in form with a generic message and sets no session', async () => {
    const browser = new Browser(server.url);
    const [form] = parseForms(await (await browser.get(params())).text());
    const res = await browser.submit(form!, [
      ['email', user.email],
      ['password', 'wrong password'],
    ]);
    assert.equal(res.status, 401);
    assert.match(await res.text(), /Correo o contraseña incorrectos/);
    assert.equal(browser.cookies.has('codrail_session'), false);
  });

  test('a post without the CSRF token, or with another browser\'s, is refused and issues no code', async () => {
    const browser = new Browser(server.url);
    const [form] = parseForms(await (await browser.get(params())).text());
    const codesBefore = (await server.deps.db.selectFrom('oauth_codes').select('hash').execute()).length;
    const withoutCsrf = new URLSearchParams({ ...form!.hidden, email: user.email, password: user.password });
    withoutCsrf.delete('csrf');
    assert.equal((await browser.post('/api/oauth/authorize', withoutCsrf)).status, 403);
    const other = new Browser(server.url);
    await other.get(params());
    assert.equal((await other.submit(form!, [['email', user.email], ['password', user.password]])).status, 403);
    assert.equal(browser.cookies.has('codrail_session'), false);
    assert.equal((await server.deps.db.selectFrom('oauth_codes').select('hash').execute()).length, codesBefore);
  });

  test('the consent page names the client and the redirect host, warns about loopback, and has a checkbox per requested scope', async () => {
    const browser = new Browser(server.url);
    const first = parseForms(await (await browser.get(params({ scope: 'mcp:invoke orders:read products:write ai:generate' }))).text())[0]!;
    const signed = await browser.submit(first, [['email', user.email], ['password', user.password]]);
    assert.equal(signed.status, 303);
    assert.match(signed.headers.getSetCookie().join('\n'), /codrail_session=[^;]+; Path=\/api\/oauth; HttpOnly; SameSite=Lax/);
    const page = await browser.get(signed.headers.get('location')!);
    assert.equal(page.headers.get('x-frame-options'), 'DENY');
    const html = await page.text();
    assert.match(html, /Test client/);
    assert.match(html, /127\.0\.0\.1:54321/);
    assert.match(html, /tu propio equipo/);
    const consent = parseForms(html)[0]!;
    assert.equal(consent.hidden.step, 'consent');
    assert.deepEqual(consent.checkboxes, ['orders:read', 'products:write']);
    assert.deepEqual(consent.buttons.map((b) => [b.value, b.text]), [['allow', 'Autorizar'], ['deny', 'Denegar']]);
  });

  test('approving with a box unticked binds the code to the granted subset; denying redirects access_denied', async () => {
    const browser = new Browser(server.url);
    const callback = await browser.authorize(params({ scope: 'orders:read products:write' }), user, { grant: ['orders:read'] });
    const code = callback.searchParams.get('code')!;
    const row = await server.deps.db.selectFrom('oauth_codes').selectAll().where('hash', '=', (await import('../../src/domain/keys.ts')).hashKey(code)).executeTakeFirstOrThrow();
    assert.equal(row.scope, 'mcp:invoke orders:read');
    assert.equal(row.redirect_uri, 'http://127.0.0.1:54321/callback');
    assert.equal(row.used_at, null);
    assert.ok(Date.parse(row.expires_at) - Date.parse(row.created_at) === 60_000);
    // Already signed in: the same browser goes straight to consent.
    const denied = await browser.authorize(params(), user, { deny: true });
    assert.equal(denied.searchParams.get('error'), 'access_denied');
    assert.equal(denied.searchParams.get('state'), 'xyz');
    assert.equal(denied.searchParams.get('iss'), server.url);
    assert.equal(denied.searchParams.get('code'), null);
  });

  test('no scope requested means every grantable scope is offered, never ai:generate', async () => {
    const browser = new Browser(server.url);
    const first = parseForms(await (await browser.get(params())).text())[0]!;
    const signed = await browser.submit(first, [['email', user.email], ['password', user.password]]);
    const consent = parseForms(await (await browser.get(signed.headers.get('location')!)).text())[0]!;
    assert.ok(consent.checkboxes.includes('whatsapp:write'));
    assert.ok(!consent.checkboxes.includes('ai:generate'));
    assert.ok(!consent.checkboxes.includes('mcp:invoke'));
  });

  test('the consent page says plainly, next to stores:write and in both languages, that it lets the application create API keys bounded by this grant', async () => {
    const browser = new Browser(server.url);
    const first = parseForms(await (await browser.get(params({ scope: 'orders:read stores:write' }))).text())[0]!;
    const signed = await browser.submit(first, [['email', user.email], ['password', user.password]]);
    const spanish = await (await browser.get(signed.headers.get('location')!)).text();
    // Signed in: the same browser goes straight to the consent page, here asked in English.
    const english = await (await browser.get(params({ scope: 'orders:read stores:write', ui_locales: 'en' }))).text();
    const scopeLine = (html: string, scope: string) => {
      const line = [...html.matchAll(/<label class="scope">([\s\S]*?)<\/label>/g)].map((m) => m[1]!).find((l) => l.includes(`value="${scope}"`));
      assert.ok(line, `a line for ${scope}`);
      return line;
    };
    assert.match(scopeLine(spanish, 'stores:write'), /crear y revocar llaves API: cada llave secreta que cree tendrá como máximo los permisos que concedes aquí y funcionará hasta que revoques esta autorización/);
    assert.match(scopeLine(english, 'stores:write'), /create and revoke API keys: each secret key it creates gets at most the permissions you grant here and works until you revoke this authorization/);
    assert.doesNotMatch(scopeLine(english, 'orders:read'), /key/i);
  });
});
