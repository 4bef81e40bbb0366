// Redirect URI rules (OAUTH.md decision 5, seed §5 rule 5): an allowlist of vendor callbacks plus
// loopback callbacks; exact matching except the loopback port at authorize time (RFC 8252 §7.3).

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);
const LOOPBACK_PATHS = new Set(['/callback', '/oauth/callback', '/oauth/callback/debug', '/']);
/** An allowlist entry ending in this matches exactly one more path segment of these characters. */
const SEGMENT_WILDCARD = '/*';
const SEGMENT = /^[A-Za-z0-9_-]{1,128}$/;
const MAX_URI_LENGTH = 2_000;

function parse(text: string): URL | undefined {
  if (typeof text !== 'string' || text.length === 0 || text.length > MAX_URI_LENGTH) return undefined;
  // Whitespace or control characters are never part of a callback (no lenient parsing).
  if (/[\s\x00-\x1f\x7f\\]/.test(text)) return undefined;
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** A loopback callback: http, a loopback host, any port, one of the known paths, nothing else. */
export function isLoopbackRedirect(text: string): boolean {
  const url = parse(text);
  if (!url || url.protocol !== 'http:' || !LOOPBACK_HOSTS.has(url.hostname)) return false;
  if (url.username || url.password || url.search || url.hash || text.includes('?') || text.includes('#')) return false;
  // Written in normal form already: no dot segments, default ports or case games to compare around.
  return LOOPBACK_PATHS.has(url.pathname) && url.href === text;
}

/** Whether one allowlist entry admits a URI: exact string equality, or the one-segment wildcard. */
export function entryAllows(entry: string, uri: string): boolean {
  if (!entry.endsWith(SEGMENT_WILDCARD)) return entry === uri;
  const prefix = entry.slice(0, -1);
  if (!uri.startsWith(prefix)) return false;
  const rest = uri.slice(prefix.length);
  return SEGMENT.test(rest);
}

/** Whether a URI may be registered: an allowlisted vendor callback or a loopback callback. */
export function redirectAllowed(uri: string, allowlist: readonly string[]): boolean {
  if (typeof uri !== 'string' || !parse(uri)) return false;
  if (isLoopbackRedirect(uri)) return true;
  return allowlist.some((entry) => entryAllows(entry, uri));
}

/** Whether an allowlist entry itself is well formed: https (or a private-use scheme), no query or fragment. */
export function validAllowlistEntry(entry: string): string | undefined {
  const url = parse(entry.endsWith(SEGMENT_WILDCARD) ? `${entry.slice(0, -1)}x` : entry);
  if (!url) return 'must be an absolute URI';
  if (url.protocol === 'http:') return 'http is only allowed for loopback callbacks, which are always accepted';
  if (['javascript:', 'data:', 'file:', 'vbscript:', 'blob:'].includes(url.protocol)) return `the ${url.protocol} scheme is not a callback`;
  if (url.username || url.password || url.search || url.hash || entry.includes('?') || entry.includes('#')) return 'must not carry credentials, a query or a fragment';
  if (url.protocol === 'https:' && url.href !== (entry.endsWith(SEGMENT_WILDCARD) ? `${entry.slice(0, -1)}x` : entry)) return 'must be written in normal form (lowercase host, no default port)';
  return undefined;
}

/**
 * Authorize time: the request's redirect_uri must equal a registered one, except that a loopback
 * URI matches a registered loopback URI with the same scheme, host and path on any port.
 * `localhost` and `127.0.0.1` are not interchangeable.
 */
export function redirectMatches(requested: string, registered: readonly string[]): boolean {
  if (registered.includes(requested)) return true;
  if (!isLoopbackRedirect(requested)) return false;
  const want = new URL(requested);
  return registered.some((r) => {
    if (!isLoopbackRedirect(r)) return false;
    const have = new URL(r);
    return have.hostname === want.hostname && have.pathname === want.pathname;
  });
}
