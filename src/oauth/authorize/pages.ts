// The sign-in, consent and error pages (OAUTH.md decisions 7, 16): plain server-rendered HTML
// forms that any HTTP client can drive, readable on a phone, in Spanish or English.
import { GRANTABLE_SCOPES, ROLE_CEILING } from '../../domain/oauth/scopes.ts';
import { html, trusted, type Html } from '../../pages/html.ts';

export type Lang = 'es' | 'en';

const TEXT = {
  es: {
    signInTitle: 'Iniciar sesión',
    signInLead: (client: string) => `${client} quiere conectarse a tu cuenta de codrail.`,
    email: 'Correo electrónico',
    password: 'Contraseña',
    signIn: 'Entrar',
    wrong: 'Correo o contraseña incorrectos.',
    tooMany: (wait: string) => `Demasiados intentos de inicio de sesión. Espera ${wait} e inténtalo de nuevo.`,
    seconds: (n: number) => (n === 1 ? '1 segundo' : `${n} segundos`),
    minutes: (n: number) => (n === 1 ? '1 minuto' : `${n} minutos`),
    consentTitle: 'Autorizar acceso',
    consentLead: (client: string) => `${client} solicita acceso a tu cuenta de codrail.`,
    redirect: 'Te devolverá a',
    loopback: 'Esta aplicación se ejecuta en tu propio equipo (dirección local). Autoriza solo si la iniciaste tú.',
    signedInAs: 'Sesión iniciada como',
    other: 'Usar otra cuenta',
    scopesLead: 'Permisos solicitados (puedes desmarcar los que no quieras conceder):',
    always: 'Siempre incluido: usar las herramientas de codrail (mcp:invoke).',
    roleCannot: (role: string) => `tu rol (${role === 'support' ? 'soporte' : role}) no puede concederlo`,
    allow: 'Autorizar',
    deny: 'Denegar',
    errorTitle: 'No se puede continuar',
    unknownClient: 'La aplicación que te envió aquí no está registrada o fue revocada.',
    badRedirect: 'La dirección de retorno de la aplicación no está permitida.',
    csrf: 'El formulario caducó o no es válido. Vuelve a la aplicación e inténtalo de nuevo.',
  },
  en: {
    signInTitle: 'Sign in',
    signInLead: (client: string) => `${client} wants to connect to your codrail account.`,
    email: 'Email',
    password: 'Password',
    signIn: 'Sign in',
    wrong: 'Wrong email or password.',
    tooMany: (wait: string) => `Too many sign-in attempts. Wait ${wait} and try again.`,
    seconds: (n: number) => (n === 1 ? '1 second' : `${n} seconds`),
    minutes: (n: number) => (n === 1 ? '1 minute' : `${n} minutes`),
    consentTitle: 'Authorize access',
    consentLead: (client: string) => `${client} is asking for access to your codrail account.`,
    redirect: 'It will send you back to',
    loopback: 'This application runs on your own computer (a local address). Allow it only if you started it.',
    signedInAs: 'Signed in as',
    other: 'Use another account',
    scopesLead: 'Requested permissions (untick any you do not want to grant):',
    always: 'Always included: use the codrail tools (mcp:invoke).',
    roleCannot: (role: string) => `your role (${role}) cannot grant it`,
    allow: 'Allow',
    deny: 'Deny',
    errorTitle: 'Cannot continue',
    unknownClient: 'The application that sent you here is not registered or was revoked.',
    badRedirect: "The application's return address is not allowed.",
    csrf: 'The form expired or is not valid. Go back to the application and try again.',
  },
} as const;

// A Map: the scope strings come from the authorization request (issue 19 §5).
const SCOPE_TEXT = new Map<string, { es: string; en: string }>([
  ['orders:create', { es: 'Crear pedidos', en: 'Create orders' }],
  ['orders:read', { es: 'Ver pedidos y compradores', en: 'See orders and buyers' }],
  ['orders:write', { es: 'Modificar, cancelar y enviar pedidos', en: 'Change, cancel and push orders' }],
  ['products:read', { es: 'Ver productos y precios', en: 'See products and prices' }],
  ['products:write', { es: 'Modificar productos y precios', en: 'Change products and prices' }],
  ['landings:read', { es: 'Ver páginas de venta', en: 'See landing pages' }],
  ['landings:write', { es: 'Crear y publicar páginas de venta', en: 'Create and publish landing pages' }],
  ['stores:read', { es: 'Ver tiendas, dominios y llaves', en: 'See stores, domains and keys' }],
  // Issue 19 §2: this permission mints credentials, and the page says so plainly.
  [
    'stores:write',
    {
      es: 'Modificar tiendas y dominios, y crear y revocar llaves API: cada llave secreta que cree tendrá como máximo los permisos que concedes aquí y funcionará hasta que revoques esta autorización',
      en: 'Change stores and domains, and create and revoke API keys: each secret key it creates gets at most the permissions you grant here and works until you revoke this authorization',
    },
  ],
  ['whatsapp:write', { es: 'Enviar mensajes de WhatsApp a compradores', en: 'Send WhatsApp messages to buyers' }],
]);

/** `ui_locales` wins, then Accept-Language; Spanish by default (the sellers' language). */
export function pickLang(uiLocales: string | null, acceptLanguage: string | undefined): Lang {
  const first = (uiLocales ?? '').split(' ')[0]?.toLowerCase() ?? '';
  if (first.startsWith('en')) return 'en';
  if (first.startsWith('es')) return 'es';
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part) => {
      const [tag, ...rest] = part.trim().toLowerCase().split(';');
      const q = rest.find((r) => r.trim().startsWith('q='));
      return { tag: tag ?? '', q: q ? Number(q.trim().slice(2)) || 0 : 1 };
    })
    .filter((x) => x.tag.startsWith('es') || x.tag.startsWith('en'))
    .sort((a, b) => b.q - a.q);
  return ranked[0]?.tag.startsWith('en') ? 'en' : 'es';
}

const STYLE = trusted(`body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:#f4f5f7;color:#1d2330}
main{max-width:26rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:12px;box-shadow:0 1px 4px #0002}
h1{font-size:1.35rem;margin:0 0 .75rem}label{display:block;margin:.75rem 0 .25rem;font-weight:600}
input[type=email],input[type=password]{width:100%;box-sizing:border-box;padding:.7rem;font-size:1rem;border:1px solid #b8bfcc;border-radius:8px}
button{font-size:1rem;padding:.75rem 1.1rem;border-radius:8px;border:0;margin-top:1rem;cursor:pointer}
.primary{background:#0b5cff;color:#fff}.secondary{background:#e4e7ec;color:#1d2330}.link{background:none;color:#0b5cff;padding:0;margin:0}
.scope{display:flex;gap:.6rem;align-items:flex-start;margin:.5rem 0;font-weight:400}.scope input{margin-top:.3rem;width:1.2rem;height:1.2rem}
.error{background:#fdecec;color:#8a1c1c;padding:.6rem .8rem;border-radius:8px}.warn{background:#fff6e0;padding:.6rem .8rem;border-radius:8px}
.muted{color:#5b6475;font-size:.9rem}code{font-size:.85rem}.row{display:flex;gap:.75rem;flex-wrap:wrap}
@media (max-width:30rem){main{margin:0;border-radius:0;min-height:100vh}}`);

function layout(lang: Lang, title: string, body: Html): string {
  return html`<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${title} · codrail</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`.value;
}

const hidden = (name: string, value: string) => html`<input type="hidden" name="${name}" value="${value}">`;

export interface FormContext {
  lang: Lang;
  csrf: string;
  /** The original authorization request's query string, carried through every form. */
  request: string;
  action: string;
  clientName: string;
}

/** The wait of a 429, as a person reads it: seconds under two minutes, whole minutes (rounded up) above. */
function waitText(lang: Lang, seconds: number): string {
  const t = TEXT[lang];
  return seconds < 120 ? t.seconds(Math.max(1, Math.ceil(seconds))) : t.minutes(Math.ceil(seconds / 60));
}

export function signInPage(f: FormContext, problem?: 'wrong' | 'tooMany', waitSeconds = 60): string {
  const t = TEXT[f.lang];
  const message = problem === 'tooMany' ? t.tooMany(waitText(f.lang, waitSeconds)) : problem === 'wrong' ? t.wrong : undefined;
  return layout(
    f.lang,
    t.signInTitle,
    html`<h1>${t.signInTitle}</h1><p>${t.signInLead(f.clientName)}</p>${message && html`<p class="error" role="alert">${message}</p>`}
<form method="post" action="${f.action}">${hidden('csrf', f.csrf)}${hidden('request', f.request)}${hidden('step', 'signin')}
<label for="email">${t.email}</label><input id="email" type="email" name="email" autocomplete="username" required>
<label for="password">${t.password}</label><input id="password" type="password" name="password" autocomplete="current-password" required>
<button class="primary" type="submit">${t.signIn}</button></form>`,
  );
}

export function consentPage(f: FormContext, c: { email: string; role: 'owner' | 'admin' | 'support'; redirectUri: string; scopes: readonly string[]; loopback: boolean }): string {
  const t = TEXT[f.lang];
  const host = new URL(c.redirectUri).host || c.redirectUri;
  const ceiling: readonly string[] = ROLE_CEILING[c.role];
  // A scope above the user's role is shown, unticked and disabled, with the reason: the assistant
  // asked for it, and the person should know why it will not get it.
  const boxes = c.scopes
    .filter((s) => s !== 'mcp:invoke' && GRANTABLE_SCOPES.includes(s as never))
    .map((s) =>
      ceiling.includes(s)
        ? html`<label class="scope"><input type="checkbox" name="grant" value="${s}" checked><span>${SCOPE_TEXT.get(s)?.[f.lang] ?? s} <code>${s}</code></span></label>`
        : html`<label class="scope muted"><input type="checkbox" value="${s}" disabled><span>${SCOPE_TEXT.get(s)?.[f.lang] ?? s} <code>${s}</code> — ${t.roleCannot(c.role)}</span></label>`,
    );
  return layout(
    f.lang,
    t.consentTitle,
    html`<h1>${t.consentTitle}</h1><p>${t.consentLead(f.clientName)}</p>
<p class="muted">${t.redirect} <strong>${host}</strong></p>${c.loopback && html`<p class="warn">${t.loopback}</p>`}
<form method="post" action="${f.action}">${hidden('csrf', f.csrf)}${hidden('request', f.request)}${hidden('step', 'consent')}
<p>${t.scopesLead}</p>${boxes}<p class="muted">${t.always}</p>
<div class="row"><button class="primary" type="submit" name="decision" value="allow">${t.allow}</button><button class="secondary" type="submit" name="decision" value="deny">${t.deny}</button></div></form>
<form method="post" action="${f.action}">${hidden('csrf', f.csrf)}${hidden('request', f.request)}${hidden('step', 'signout')}
<p class="muted">${t.signedInAs} ${c.email} · <button class="link" type="submit">${t.other}</button></p></form>`,
  );
}

export function errorPage(lang: Lang, problem: 'unknownClient' | 'badRedirect' | 'csrf'): string {
  const t = TEXT[lang];
  return layout(lang, t.errorTitle, html`<h1>${t.errorTitle}</h1><p class="error" role="alert">${t[problem]}</p>`);
}
