// Client ID Metadata Documents (issue 13 §4; the registration the MCP authorization spec of
// 2025-11-25 prefers): a client_id that is an https URL names a JSON document, served there, that
// describes the client. It is read when the client is used (and again after OAUTH_CIMD_CACHE_MS),
// must name itself (client_id = its URL), is a public client, and its redirect URIs pass the same
// allowlist as dynamic registration (loopback, or the operator's allowlist).
// Anyone can make the server fetch such a URL with one unauthenticated request, so the fetch is the
// most exposed outbound call (issue 19 §1): it goes through the guarded outbound path (public
// addresses only, checked on the connected address; no redirects; one deadline; a 16 KiB cap that
// aborts the read), at most OAUTH_CIMD_MAX_CONCURRENT at once, at most OAUTH_CIMD_FETCHES_PER_IP per
// client address per minute, one fetch per URL at a time, and a failure is remembered for
// OAUTH_CIMD_FAILURE_CACHE_MS. CODRAIL_OAUTH_CIMD_ALLOW_PRIVATE=1 lifts the address rule for development.
import * as v from 'valibot';
import type { Deps } from '../../app.ts';
import { findClient, listRedirects, saveMetadataClient } from '../../db/queries/oauth.queries.ts';
import { hitBucket } from '../../db/queries/rate-limits.queries.ts';
import { redirectAllowed } from '../../domain/oauth/redirect-uris.ts';
import {
  OAUTH_CIMD_CACHE_MS,
  OAUTH_CIMD_FAILURE_CACHE_MS,
  OAUTH_CIMD_FAILURES_REMEMBERED,
  OAUTH_CIMD_FETCHES_PER_IP,
  OAUTH_CIMD_FETCH_WINDOW_MS,
  OAUTH_CIMD_MAX_BYTES,
  OAUTH_CIMD_MAX_CONCURRENT,
  OAUTH_CIMD_TIMEOUT_MS,
  OAUTH_CLIENT_NAME_MAX,
  OAUTH_MAX_REDIRECT_URIS,
} from '../../limits.ts';
import { cleanText } from '../text-input.ts';

const DocumentSchema = v.looseObject({
  client_id: v.string(),
  redirect_uris: v.pipe(v.array(v.string()), v.minLength(1), v.maxLength(OAUTH_MAX_REDIRECT_URIS)),
  // The name is shown on the consent page and in the operator's CLI: the one text rule (issue 19 §3).
  client_name: v.optional(v.pipe(cleanText('client_name', true), v.maxLength(OAUTH_CLIENT_NAME_MAX))),
  grant_types: v.optional(v.array(v.string())),
  response_types: v.optional(v.array(v.string())),
  token_endpoint_auth_method: v.optional(v.literal('none')),
});

type MetadataDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'log' | 'outbound' | 'clientDocuments'>;

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

/**
 * What this process remembers about document fetches: the ones in flight (one per URL; the others
 * wait for it) and the URLs that failed lately (not fetched again before their time is up).
 */
export class ClientDocumentFetches {
  readonly #inFlight = new Map<string, Promise<unknown>>();
  readonly #failedUntil = new Map<string, number>();

  failedLately(clientId: string, now: number): boolean {
    const until = this.#failedUntil.get(clientId);
    if (until === undefined) return false;
    if (until > now) return true;
    this.#failedUntil.delete(clientId);
    return false;
  }

  rememberFailure(clientId: string, now: number): void {
    this.#failedUntil.delete(clientId);
    // Bounded: the oldest failures are forgotten first (a Map keeps insertion order).
    if (this.#failedUntil.size >= OAUTH_CIMD_FAILURES_REMEMBERED) this.#failedUntil.delete(this.#failedUntil.keys().next().value!);
    this.#failedUntil.set(clientId, now + OAUTH_CIMD_FAILURE_CACHE_MS);
  }

  inFlight(clientId: string): Promise<unknown> | undefined {
    return this.#inFlight.get(clientId);
  }

  get running(): number {
    return this.#inFlight.size;
  }

  track<T>(clientId: string, work: Promise<T>): Promise<T> {
    this.#inFlight.set(clientId, work);
    return work.finally(() => this.#inFlight.delete(clientId));
  }
}

/** The document, or why there is none (a reason for the log, never for the caller). */
async function fetchDocument(deps: MetadataDeps, clientId: string): Promise<unknown> {
  const answer = await deps.outbound.sendJson({
    url: clientId,
    addresses: deps.config.oauthCimdAllowPrivate ? 'any' : 'public',
    deadlineMs: OAUTH_CIMD_TIMEOUT_MS,
    maxBytes: OAUTH_CIMD_MAX_BYTES,
    what: 'GET client metadata document',
  });
  return answer.json;
}

/** Whether this address may make the server fetch one more document now (a DB bucket: every server shares it). */
async function fetchAllowed(deps: MetadataDeps, ip: string | null): Promise<boolean> {
  if (deps.clientDocuments.running >= OAUTH_CIMD_MAX_CONCURRENT) return false;
  const now = deps.clock.now().getTime();
  const window = Math.floor(now / OAUTH_CIMD_FETCH_WINDOW_MS) * OAUTH_CIMD_FETCH_WINDOW_MS;
  return (await hitBucket(deps.db, `cimd:ip:${ip ?? 'unknown'}`, window)) <= OAUTH_CIMD_FETCHES_PER_IP;
}

/**
 * The client a metadata document describes, read (or re-read) now; undefined when it does not
 * qualify, when its URL failed lately, or when this address or the server is over its fetch limits.
 */
export async function metadataDocumentClient(deps: MetadataDeps, clientId: string, ip: string | null = null) {
  const known = await findClient(deps.db, clientId);
  if (known?.revoked_at) return undefined;
  const now = deps.clock.now();
  if (known?.metadata_fetched_at && now.getTime() - Date.parse(known.metadata_fetched_at) < OAUTH_CIMD_CACHE_MS) return known;
  const fetches = deps.clientDocuments;
  if (fetches.failedLately(clientId, now.getTime())) return undefined;
  const pending = fetches.inFlight(clientId);
  if (pending) {
    await pending.catch(() => undefined);
    const after = await findClient(deps.db, clientId);
    return after && !after.revoked_at && after.metadata_fetched_at && deps.clock.now().getTime() - Date.parse(after.metadata_fetched_at) < OAUTH_CIMD_CACHE_MS ? after : undefined;
  }
  if (!(await fetchAllowed(deps, ip))) {
    deps.log.warn({ clientId, ip }, 'oauth: client metadata document not fetched: over the fetch limits');
    return undefined;
  }
  let document: unknown;
  try {
    document = await fetches.track(clientId, fetchDocument(deps, clientId));
  } catch (error) {
    fetches.rememberFailure(clientId, deps.clock.now().getTime());
    deps.log.info({ clientId, err: error }, 'oauth: client metadata document could not be read');
    return undefined;
  }
  const parsed = v.safeParse(DocumentSchema, document);
  const doc = parsed.success && parsed.output.client_id === clientId ? parsed.output : undefined;
  const refused = (why: string) => {
    fetches.rememberFailure(clientId, deps.clock.now().getTime());
    deps.log.info({ clientId, why }, 'oauth: client metadata document refused');
    return undefined;
  };
  if (!doc) return refused(parsed.success ? 'client_id is not the document URL' : `invalid document: ${v.getDotPath(parsed.issues[0]) ?? 'body'}`);
  if (doc.grant_types && !doc.grant_types.includes('authorization_code')) return refused('grant_types lacks authorization_code');
  if (doc.response_types && !doc.response_types.includes('code')) return refused('response_types lacks code');
  // The same rule as dynamic registration: only loopback or allowlisted callbacks are kept.
  const allowlist = (await listRedirects(deps.db)).map((r) => r.uri);
  const kept = [...new Set(doc.redirect_uris.filter((u) => redirectAllowed(u, allowlist)))];
  if (kept.length === 0) return refused('no allowed redirect URI');
  const grants = doc.grant_types?.includes('refresh_token') === false ? ['authorization_code'] : ['authorization_code', 'refresh_token'];
  await saveMetadataClient(deps.db, {
    id: clientId,
    client_name: doc.client_name || new URL(clientId).host,
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
