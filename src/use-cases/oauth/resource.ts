// The `resource` parameter (RFC 8707; OAUTH.md decision 3): absent → the single protected
// resource `{base_url}/api/mcp`; present → it must name that resource (scheme and host compared
// case-insensitively, RFC 3986 §6.2.2.1); anything else is invalid_target.
import type { Deps } from '../../app.ts';
import { resourceUrl } from './access-tokens.ts';

function canonical(text: string): string | undefined {
  try {
    const url = new URL(text);
    if (url.hash || url.search || url.username || url.password) return undefined;
    return url.href.replace(/\/$/, url.pathname === '/' ? '/' : '');
  } catch {
    return undefined;
  }
}

/** `bound` is the resource a code or family is already bound to, when there is one. */
export function checkResource(deps: Pick<Deps, 'config'>, requested: string | undefined, bound?: string): { ok: true; resource: string } | { ok: false } {
  const ours = resourceUrl(deps);
  const target = bound ?? ours;
  if (requested === undefined || requested === '') return { ok: true, resource: target };
  const want = canonical(requested);
  return want !== undefined && want === canonical(target) ? { ok: true, resource: target } : { ok: false };
}
