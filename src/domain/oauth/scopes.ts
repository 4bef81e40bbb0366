// OAuth scopes (seed §5): which exist, which OAuth may grant, how requests are read (OAUTH.md 12).

export const SCOPES = [
  'mcp:invoke',
  'orders:create',
  'orders:read',
  'orders:write',
  'products:read',
  'products:write',
  'landings:read',
  'landings:write',
  'stores:read',
  'stores:write',
  'whatsapp:write',
  'ai:generate',
] as const;

export type Scope = (typeof SCOPES)[number];

/** `ai:generate` is excluded from the OAuth connector by design (seed §5). */
export const NEVER_GRANTED: ReadonlySet<string> = new Set(['ai:generate']);

/** Every scope an OAuth client may obtain; also the default request and the 401 challenge. */
export const GRANTABLE_SCOPES: readonly Scope[] = SCOPES.filter((s) => !NEVER_GRANTED.has(s));

/**
 * What each role may grant an assistant (issue 13 §4): owners and admins everything grantable;
 * support staff work orders and read the rest, but never change stores, products or landing pages.
 */
const SUPPORT_NEVER: ReadonlySet<string> = new Set(['stores:write', 'products:write', 'landings:write']);
export const ROLE_CEILING: Readonly<Record<'owner' | 'admin' | 'support', readonly Scope[]>> = {
  owner: GRANTABLE_SCOPES,
  admin: GRANTABLE_SCOPES,
  support: GRANTABLE_SCOPES.filter((s) => !SUPPORT_NEVER.has(s)),
};

/** Every call to /api/mcp needs this one (MCP-TOOLS.md §5.13). */
export const INVOKE_SCOPE: Scope = 'mcp:invoke';

const KNOWN: ReadonlySet<string> = new Set(SCOPES);

export const isScope = (s: string): s is Scope => KNOWN.has(s);

/** Space-delimited scope string → distinct tokens, in first-seen order (RFC 6749 §3.3). */
export function splitScope(text: string | undefined): string[] {
  if (!text) return [];
  return [...new Set(text.split(' ').filter(Boolean))];
}

export type ScopeRequest = { ok: true; scopes: Scope[] } | { ok: false; reason: string };

/**
 * What an authorization request asks for: absent → every grantable scope; unknown tokens are an
 * error; `ai:generate` alone is an error and is dropped from a larger request; `mcp:invoke` is
 * always included (the server keeps it, OAUTH.md 16).
 */
export function requestedScopes(text: string | undefined): ScopeRequest {
  const asked = splitScope(text);
  if (asked.length === 0) return { ok: true, scopes: [...GRANTABLE_SCOPES] };
  const unknown = asked.filter((s) => !isScope(s));
  if (unknown.length > 0) return { ok: false, reason: 'unknown scope' };
  const kept = asked.filter((s) => !NEVER_GRANTED.has(s)) as Scope[];
  if (kept.length === 0) return { ok: false, reason: 'scope not available to OAuth clients' };
  return { ok: true, scopes: sortScopes([INVOKE_SCOPE, ...kept]) };
}

/** Scopes in the canonical order of SCOPES, without duplicates. */
export function sortScopes(scopes: Iterable<string>): Scope[] {
  const set = new Set(scopes);
  return SCOPES.filter((s) => set.has(s));
}

export const joinScopes = (scopes: Iterable<string>): string => sortScopes(scopes).join(' ');
