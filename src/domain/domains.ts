// Origin/domain checks for publishable keys (SPEC 4.1 step 4).

const HOST_PATTERN = /^(\*\.)?(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/**
 * Normalizes an allowed-domain entry: lower case, no scheme, port, path or trailing dot;
 * `*.example.com` allowed. Unicode hosts become punycode, as browsers send them.
 * Returns undefined when it is not a host name.
 */
export function normalizeDomainEntry(entry: string): string | undefined {
  let text = entry.trim().toLowerCase().replace(/\.$/, '');
  const wildcard = text.startsWith('*.');
  if (wildcard) text = text.slice(2);
  if (text === '' || /[/:?#@\s*]/.test(text)) return undefined;
  let host: string;
  try {
    host = new URL(`http://${text}`).hostname;
  } catch {
    return undefined;
  }
  const out = (wildcard ? '*.' : '') + host;
  return HOST_PATTERN.test(out) ? out : undefined;
}

/** The host of an Origin or Referer header value, or undefined when absent or unparsable. */
export function requestHost(origin: string | undefined, referer: string | undefined): string | undefined {
  const value = origin && origin !== 'null' ? origin : referer;
  if (!value) return undefined;
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return url.hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

const LOOPBACK = new Set(['localhost', '127.0.0.1']);

/** Exact host, or `*.example.com` for any subdomain of example.com (not example.com itself). */
export function hostAllowed(host: string, allowed: readonly string[], acceptLoopback: boolean): boolean {
  if (acceptLoopback && LOOPBACK.has(host)) return true;
  for (const entry of allowed) {
    if (entry.startsWith('*.')) {
      if (host.endsWith(entry.slice(1)) && host.length > entry.length - 1) return true;
    } else if (host === entry) return true;
  }
  return false;
}

/**
 * Whether a key's allowed-domain entry is within a store's domains (MCP-TOOLS.md §6.3: a subset):
 * the same entry, or a host (or a narrower wildcard) under one of the store's `*.` entries.
 */
export function domainCovered(entry: string, storeDomains: readonly string[]): boolean {
  if (storeDomains.includes(entry)) return true;
  const host = entry.startsWith('*.') ? entry.slice(2) : entry;
  return storeDomains.some((d) => d.startsWith('*.') && host.endsWith(d.slice(1)) && host.length > d.length - 1);
}
