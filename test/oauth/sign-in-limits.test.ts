// Sign-in cannot be switched off for someone else (issue 19 §7): wrong passwords slow down the
// address that sends them, for that email, with growing waits; the owner signing in from another
// address is never held back by them. The per-address attempt limit stays. Client addresses come
// from X-Forwarded-For, read because the server trusts one proxy hop.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openShop } from '../helpers/fixtures.ts';
import type { TestServer } from '../helpers/server.ts';
import { Browser, PASSWORD, addUser, authorizeUrl, parseForms, pkcePair, registerLoopbackClient } from '../helpers/oauth.ts';
import { manualClock } from '../../src/clock.ts';
import { OAUTH_SIGNIN_FREE_FAILURES, OAUTH_SIGNIN_PER_WINDOW, OAUTH_SIGNIN_WINDOW_MS } from '../../src/limits.ts';

describe('sign-in attempts and waits', () => {
  // A window boundary, so a test's few seconds never straddle two per-address windows.
  const clock = manualClock('2030-01-01T00:00:00.000Z');
  let server: TestServer;
  let accountId: string;
  let url: string;
  before(async () => {
    const opened = await openShop({ rateRegisterPerHour: 1000, trustProxy: 1 }, { clock });
    server = opened.server;
    accountId = opened.shop.accountId;
    const client = await registerLoopbackClient(server.url);
    url = authorizeUrl(server.url, {
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: client.redirect_uris[0],
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
      state: 's',
      resource: `${server.url}/api/mcp`,
    });
  });
  after(() => server.close());

  let addressSeq = 0;
  /** A client address no other test uses. */
  const freshAddress = () => `203.0.113.${++addressSeq}`;

  /** One sign-in post from `address`, as a browser there sends it. */
  async function signIn(address: string, email: string, password: string): Promise<Response> {
    const browser = new Browser(server.url);
    const [form] = parseForms(await (await browser.get(url, { 'x-forwarded-for': address })).text());
    const body = new URLSearchParams({ ...form!.hidden, email, password });
    return browser.post(form!.action, body, { 'x-forwarded-for': address });
  }

  /** Asserts a 429 sign-in page saying how long to wait, and returns the wait in seconds. */
  async function expectWait(res: Response): Promise<number> {
    const page = await res.text();
    assert.equal(res.status, 429, page.slice(0, 300));
    const seconds = Number(res.headers.get('retry-after'));
    assert.ok(Number.isInteger(seconds) && seconds > 0, `Retry-After ${res.headers.get('retry-after')}`);
    assert.match(page, /Demasiados intentos de inicio de sesión\. Espera \d+ (segundos?|minutos?)/);
    assert.equal(res.headers.getSetCookie().some((c) => c.startsWith('codrail_session=')), false, 'no session');
    return seconds;
  }

  test('wrong passwords for one email from twenty-one addresses never lock its owner out of another address', async () => {
    const owner = await addUser(server.deps, accountId);
    for (let i = 0; i < OAUTH_SIGNIN_PER_WINDOW + 1; i++) assert.equal((await signIn(freshAddress(), owner.email, `guess ${i}`)).status, 401, `guess ${i}`);
    const res = await signIn(freshAddress(), owner.email, PASSWORD);
    assert.equal(res.status, 303, 'the owner signs in');
    assert.ok(res.headers.getSetCookie().some((c) => c.startsWith('codrail_session=')));
  });

  test('one address that keeps failing waits twice as long after each failure beyond the free ones, while other addresses sign in', async () => {
    const owner = await addUser(server.deps, accountId);
    const attacker = freshAddress();
    for (let i = 0; i < OAUTH_SIGNIN_FREE_FAILURES; i++) assert.equal((await signIn(attacker, owner.email, `guess ${i}`)).status, 401, `free failure ${i + 1}`);
    const waits: number[] = [];
    for (let i = 0; i < 3; i++) {
      assert.equal((await signIn(attacker, owner.email, `more ${i}`)).status, 401, 'a failure after the wait is still a wrong password');
      const wait = await expectWait(await signIn(attacker, owner.email, `too soon ${i}`));
      waits.push(wait);
      // Refused attempts do not lengthen the wait.
      assert.equal(await expectWait(await signIn(attacker, owner.email, `again ${i}`)), wait);
      clock.advance(wait * 1000);
    }
    assert.deepEqual(waits, [1, 2, 4]);
    // The right password from the failing address waits too; from anywhere else it signs in.
    assert.equal((await signIn(attacker, owner.email, `wrong again`)).status, 401);
    await expectWait(await signIn(attacker, owner.email, PASSWORD));
    assert.equal((await signIn(freshAddress(), owner.email, PASSWORD)).status, 303);
  });

  test('a sign-in clears its address\'s failures, and a quiet window forgets them', async () => {
    const owner = await addUser(server.deps, accountId);
    const address = freshAddress();
    const failAll = async (n: number) => {
      for (let i = 0; i < n; i++) assert.equal((await signIn(address, owner.email, `guess ${i}`)).status, 401);
    };
    await failAll(OAUTH_SIGNIN_FREE_FAILURES + 1);
    const wait = await expectWait(await signIn(address, owner.email, PASSWORD));
    clock.advance(wait * 1000);
    assert.equal((await signIn(address, owner.email, PASSWORD)).status, 303);
    // Cleared: the free failures are free again.
    await failAll(OAUTH_SIGNIN_FREE_FAILURES);
    assert.equal((await signIn(address, owner.email, PASSWORD)).status, 303);
    const other = await addUser(server.deps, accountId);
    const elsewhere = freshAddress();
    for (let i = 0; i <= OAUTH_SIGNIN_FREE_FAILURES; i++) assert.equal((await signIn(elsewhere, other.email, `guess ${i}`)).status, 401);
    await expectWait(await signIn(elsewhere, other.email, PASSWORD));
    clock.advance(OAUTH_SIGNIN_WINDOW_MS);
    assert.equal((await signIn(elsewhere, other.email, `after the window`)).status, 401, 'forgotten: a free failure again');
    assert.equal((await signIn(elsewhere, other.email, PASSWORD)).status, 303);
  });

  test('an unknown email gets the same answers and waits as a known one, so they tell nothing', async () => {
    const owner = await addUser(server.deps, accountId);
    const answers = async (email: string) => {
      const address = freshAddress();
      const statuses: number[] = [];
      for (let i = 0; i <= OAUTH_SIGNIN_FREE_FAILURES + 1; i++) statuses.push((await signIn(address, email, `guess ${i}`)).status);
      return statuses;
    };
    const known = await answers(owner.email);
    assert.deepEqual(await answers(`nobody-${addressSeq}@example.com`), known);
    assert.deepEqual(known, [...Array<number>(OAUTH_SIGNIN_FREE_FAILURES + 1).fill(401), 429]);
  });

  test('the per-address attempt limit still holds: past it, even the right password waits for the window to end', async () => {
    clock.advance(OAUTH_SIGNIN_WINDOW_MS - (clock.now().getTime() % OAUTH_SIGNIN_WINDOW_MS));
    const owner = await addUser(server.deps, accountId);
    const address = freshAddress();
    for (let i = 0; i < OAUTH_SIGNIN_PER_WINDOW; i++) assert.equal((await signIn(address, `someone-${i}@example.com`, 'guess')).status, 401);
    const wait = await expectWait(await signIn(address, owner.email, PASSWORD));
    assert.equal(wait, OAUTH_SIGNIN_WINDOW_MS / 1000);
    clock.advance(OAUTH_SIGNIN_WINDOW_MS);
    assert.equal((await signIn(address, owner.email, PASSWORD)).status, 303);
  });
});
