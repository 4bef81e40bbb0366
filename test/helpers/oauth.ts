// Drives the OAuth sign-in and consent pages as a browser would: a cookie jar, the HTML forms as
// served (hidden inputs, checkboxes, buttons), redirects followed by hand. No shortcut into the
// server: every code a test gets was issued through the real pages.
import { createHash, randomBytes } from 'node:crypto';
import type { Deps } from '../../src/app.ts';
import { createUser } from '../../src/use-cases/accounts/accounts.use-case.ts';

export const PASSWORD = 'correct horse battery staple';

export async function addUser(deps: Pick<Deps, 'db' | 'clock'>, accountId: string, email = `owner-${randomBytes(4).toString('hex')}@example.com`, role?: 'owner' | 'admin' | 'support') {
  await createUser(deps, { account_id: accountId, email, password: PASSWORD, ...(role ? { role } : {}) });
  return { email, password: PASSWORD };
}

export const pkcePair = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

const unescape = (s: string) => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

export interface HtmlForm {
  action: string;
  hidden: Record<string, string>;
  checkboxes: string[];
  inputs: { type: string; name: string }[];
  buttons: { name?: string; value?: string; text: string }[];
}

/** Every <form> of a page, as a browser sees it. */
export function parseForms(html: string): HtmlForm[] {
  return [...html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)].map(([, attrs, inner]) => {
    const attr = (tag: string, name: string) => unescape(new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1] ?? '');
    const inputs = [...inner!.matchAll(/<input\b[^>]*>/g)].map((m) => m[0]);
    const hidden: Record<string, string> = {};
    for (const tag of inputs.filter((t) => attr(t, 'type') === 'hidden')) hidden[attr(tag, 'name')] = attr(tag, 'value');
    return {
      action: attr(attrs!, 'action'),
      hidden,
      checkboxes: inputs.filter((t) => attr(t, 'type') === 'checkbox').map((t) => attr(t, 'value')),
      inputs: inputs.map((t) => ({ type: attr(t, 'type'), name: attr(t, 'name') })),
      buttons: [...inner!.matchAll(/<button\b([^>]*)>([\s\S]*?)<\/button>/g)].map(([, a, text]) => ({
        name: attr(a!, 'name') || undefined,
        value: attr(a!, 'value') || undefined,
        text: text!.trim(),
      })),
    };
  });
}

export class Browser {
  readonly cookies = new Map<string, string>();
  constructor(readonly base: string) {}

  #remember(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at);
      const value = pair!.slice(at + 1);
      if (/max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  #cookieHeader(): Record<string, string> {
    return this.cookies.size ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {};
  }

  async get(url: string, headers: Record<string, string> = {}): Promise<Response> {
    const res = await fetch(new URL(url, this.base), { redirect: 'manual', headers: { ...this.#cookieHeader(), ...headers } });
    this.#remember(res);
    return res;
  }

  async post(url: string, form: URLSearchParams, headers: Record<string, string> = {}): Promise<Response> {
    const res = await fetch(new URL(url, this.base), {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...this.#cookieHeader(), ...headers },
      body: form,
    });
    this.#remember(res);
    return res;
  }

  /** Submits a form as served, with extra fields (email, password, grant, decision…). */
  submit(form: HtmlForm, fields: [string, string][] = []): Promise<Response> {
    const body = new URLSearchParams(Object.entries(form.hidden));
    for (const [k, v] of fields) body.append(k, v);
    return this.post(form.action, body);
  }

  /**
   * From an authorization URL to the client's callback: sign in if asked, then allow (or deny),
   * leaving ticked only `grant` when given. Returns the callback URL the server redirected to.
   */
  async authorize(authorizeUrl: string, user: { email: string; password: string }, opts: { grant?: string[]; deny?: boolean } = {}): Promise<URL> {
    let res = await this.get(authorizeUrl);
    if (res.status === 302) return new URL(res.headers.get('location')!);
    let html = await res.text();
    let form = parseForms(html)[0];
    if (form?.hidden.step === 'signin') {
      res = await this.submit(form, [
        ['email', user.email],
        ['password', user.password],
      ]);
      if (res.status !== 303) throw new Error(`sign-in answered ${res.status}`);
      res = await this.get(res.headers.get('location')!);
      html = await res.text();
      form = parseForms(html)[0];
    }
    if (form?.hidden.step !== 'consent') throw new Error(`expected the consent page, got ${res.status}: ${html.slice(0, 300)}`);
    const grants = (opts.grant ?? form.checkboxes).map((g): [string, string] => ['grant', g]);
    res = await this.submit(form, [...grants, ['decision', opts.deny ? 'deny' : 'allow']]);
    if (res.status !== 303) throw new Error(`consent answered ${res.status}`);
    return new URL(res.headers.get('location')!);
  }
}

/** Registers a loopback client through the real endpoint. */
export async function registerLoopbackClient(base: string, body: Record<string, unknown> = {}): Promise<{ client_id: string; redirect_uris: string[] }> {
  const res = await fetch(`${base}/api/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Test client', redirect_uris: ['http://127.0.0.1:7777/callback'], token_endpoint_auth_method: 'none', ...body }),
  });
  if (res.status !== 201) throw new Error(`register answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as { client_id: string; redirect_uris: string[] };
}

export function authorizeUrl(base: string, p: Record<string, string | undefined>): string {
  const url = new URL('/api/oauth/authorize', base);
  for (const [k, v] of Object.entries(p)) if (v !== undefined) url.searchParams.set(k, v);
  return url.href;
}

/** One complete grant through the pages: register, sign in, consent, redeem. */
/** Pass one `browser` across calls to stay signed in (sign-ins are rate-limited, as in real life). */
export async function obtainTokens(base: string, user: { email: string; password: string }, opts: { scope?: string; grant?: string[]; browser?: Browser } = {}) {
  const client = await registerLoopbackClient(base);
  const { verifier, challenge } = pkcePair();
  const redirectUri = client.redirect_uris[0]!;
  const callback = await (opts.browser ?? new Browser(base)).authorize(
    authorizeUrl(base, { response_type: 'code', client_id: client.client_id, redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: 'S256', state: 'st', scope: opts.scope, resource: `${base}/api/mcp` }),
    user,
    opts.grant ? { grant: opts.grant } : {},
  );
  const code = callback.searchParams.get('code');
  if (!code) throw new Error(`no code: ${callback.href}`);
  const res = await fetch(`${base}/api/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: redirectUri, client_id: client.client_id, resource: `${base}/api/mcp` }),
  });
  if (res.status !== 200) throw new Error(`token answered ${res.status}: ${await res.text()}`);
  const tokens = (await res.json()) as { access_token: string; refresh_token: string; scope: string; expires_in: number; token_type: string };
  return { client, tokens, redirectUri, verifier };
}
