// Client ID Metadata Documents (issue 13 §4; the registration the MCP authorization spec of
// 2025-11-25 prefers): a client_id that is an https URL names a JSON document, served there, that
// describes the client. It is read when the client is used (and again after OAUTH_CIMD_CACHE_MS),
// must name itself (client_id = its URL), is a public client, and its redirect URIs pass the same
// allowlist as dynamic registration (loopback, or the operator's allowlist). The server only fetches
// public https addresses, without following redirects, within a timeout and a size limit (no SSRF
// into the operator's network); CODRAIL_OAUTH_CIMD_ALLOW_PRIVATE=1 lifts that for development.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import * as v from 'valibot';
import type { Deps } from '../../app.ts';
import { findClient, listRedirects, saveMetadataClient } from '../../db/queries/oauth.queries.ts';
import { redirectAllowed } from '../../domain/oauth/redirect-uris.ts';
import { OAUTH_CIMD_CACHE_MS, OAUTH_CIMD_MAX_BYTES, OAUTH_CIMD_TIMEOUT_MS, OAUTH_CLIENT_NAME_MAX, OAUTH_MAX_REDIRECT_URIS } from '../../limits.ts';

const DocumentSchema = v.looseObject({
  client_id: v.string(),
  redirect_uris: v.pipe(v.array(v.string()), v.minLength(1), v.maxLength(OAUTH_MAX_REDIRECT_URIS)),
  client_name: v.optional(v.pipe(v.string(), v.maxLength(OAUTH_CLIENT_NAME_MAX))),
  grant_types: v.optional(v.array(v.string())),
  response_types: v.optional(v.array(v.string())),
  token_endpoint_auth_method: v.optional(v.literal('none')),
});

/** Whether a client_id is a metadata document URL: https with a path, no fragment or credentials. */
export function isMetadataDocumentId(clientId: string, allowPrivate: boolean): boolean {
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) return false;
  return url.pathname !== '/' && !url.hash && !url.username && !url.password && url.href === clientId;
}

/** Private, loopback, link-local and unique-local addresses: never fetched on a client's word. */
function privateAddress(address: string): boolean {
  if (isIP(address) === 4) {
    const [a, b] = address.split('.').map(Number) as [number, number];
    return a === 10 || a === 127 || a === 0 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127);
  }
  const lower = address.toLowerCase();
  return lower === '::1' || lower === '::' || lower.startsWith('fc') || lower.startsWith('fd') || lower.startsWith('fe80') || lower.startsWith('::ffff:');
}

async function fetchDocument(url: URL, allowPrivate: boolean): Promise<unknown> {
  if (!allowPrivate) {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
    if (addresses.length === 0 || addresses.some(privateAddress)) return undefined;
  }
  const res = await fetch(url, { headers: { accept: 'application/json' }, redirect: 'error', signal: AbortSignal.timeout(OAUTH_CIMD_TIMEOUT_MS) });
  if (res.status !== 200) return undefined;
  const declared = Number(res.headers.get('content-length'));
  if (declared > OAUTH_CIMD_MAX_BYTES) return undefined;
  const bytes = Buffer.from(await res.arrayBuffer());
  if (bytes.length > OAUTH_CIMD_MAX_BYTES) return undefined;
  return JSON.parse(bytes.toString('utf8')) as unknown;
}

/** The client a metadata document describes, read (or re-read) now; undefined when it does not qualify. */
export async function metadataDocumentClient(deps: Pick<Deps, 'db' | 'clock' | 'config' | 'log'>, clientId: string) {
  const known = await findClient(deps.db, clientId);
  if (known?.revoked_at) return undefined;
  const now = deps.clock.now();
  if (known?.metadata_fetched_at && now.getTime() - Date.parse(known.metadata_fetched_at) < OAUTH_CIMD_CACHE_MS) return known;
  let document: unknown;
  try {
    document = await fetchDocument(new URL(clientId), deps.config.oauthCimdAllowPrivate);
  } catch (error) {
    deps.log.info({ clientId, err: error }, 'oauth: client metadata document could not be read');
    return undefined;
  }
  const parsed = v.safeParse(DocumentSchema, document);
  if (!parsed.success || parsed.output.client_id !== clientId) return undefined;
  const doc = parsed.output;
  if (doc.grant_types && !doc.grant_types.includes('authorization_code')) return undefined;
  if (doc.response_types && !doc.response_types.includes('code')) return undefined;
  // The same rule as dynamic registration: only loopback or allowlisted callbacks are kept.
  const allowlist = (await listRedirects(deps.db)).map((r) => r.uri);
  const kept = [...new Set(doc.redirect_uris.filter((u) => redirectAllowed(u, allowlist)))];
  if (kept.length === 0) return undefined;
  const grants = doc.grant_types?.includes('refresh_token') === false ? ['authorization_code'] : ['authorization_code', 'refresh_token'];
  await saveMetadataClient(deps.db, {
    id: clientId,
    client_name: doc.client_name?.trim() || new URL(clientId).host,
    redirect_uris: JSON.stringify(kept),
    grant_types: JSON.stringify(grants),
    client_uri: clientId.slice(0, 500),
    software_id: null,
    software_version: null,
    registered_via: 'dcr',
    registered_ip: null,
    created_at: now.toISOString(),
    revoked_at: null,
    metadata_fetched_at: now.toISOString(),
  });
  return findClient(deps.db, clientId);
}
