// OAuth clients (RFC 7591; OAUTH.md decisions 5, 6) and the operator's redirect allowlist.
// One rule, one place: POST /api/oauth/register and `codrail oauth clients register` both call
// registerClient, so an arbitrary callback can never be registered by either.
import * as v from 'valibot';
import type { Deps } from '../../app.ts';
import { AppError, fieldError, notFound } from '../../errors.ts';
import { writeTransaction } from '../../db/transaction.ts';
import {
  deleteRedirect,
  findClient,
  insertClient,
  insertRedirect,
  listClients,
  listRedirects,
  revokeClientFamilies,
  revokeClientRow,
} from '../../db/queries/oauth.queries.ts';
import { randomBase62 } from '../../domain/keys.ts';
import { redirectAllowed, validAllowlistEntry } from '../../domain/oauth/redirect-uris.ts';
import { OAUTH_CLIENT_ID_CHARS, OAUTH_CLIENT_ID_MAX, OAUTH_CLIENT_NAME_MAX, OAUTH_MAX_REDIRECT_URIS } from '../../limits.ts';
import { isMetadataDocumentId, metadataDocumentClient } from './client-metadata.use-case.ts';
import { hitBucket } from '../../db/queries/rate-limits.queries.ts';
import { revokeClientKeys } from '../../db/queries/keys.queries.ts';
import { cleanText } from '../text-input.ts';
import { parseWith } from '../validate.ts';

export const CLIENT_ID_PREFIX = 'mcp_';
const SUPPORTED_GRANTS = ['authorization_code', 'refresh_token'] as const;

const invalidMetadata = (description: string) => new AppError('invalid_client_metadata', description);

/**
 * Registration metadata we read; every other field is ignored (RFC 7591 §2). What is stored is
 * free text anyone can set, so it follows the one text rule (issue 19 §3): a control character is
 * invalid_client_metadata (§3.2.2), a bidi control is dropped.
 */
const RegistrationSchema = v.looseObject({
  redirect_uris: v.pipe(v.array(v.string()), v.minLength(1), v.maxLength(OAUTH_MAX_REDIRECT_URIS)),
  client_name: v.optional(v.pipe(cleanText('client_name', true), v.maxLength(OAUTH_CLIENT_NAME_MAX, `client_name must be at most ${OAUTH_CLIENT_NAME_MAX} characters`))),
  grant_types: v.optional(v.array(v.string())),
  response_types: v.optional(v.array(v.string())),
  token_endpoint_auth_method: v.optional(v.string()),
  client_uri: v.optional(cleanText('client_uri', true)),
  software_id: v.optional(cleanText('software_id', true)),
  software_version: v.optional(cleanText('software_version', true)),
});

/** RFC 7591 §3.2.2 error_description: the field, and what is wrong with it when we wrote the message. */
function metadataProblem(issue: v.BaseIssue<unknown>): string {
  const field = v.getDotPath(issue) ?? 'body';
  return `Invalid client metadata: ${issue.message.startsWith(`${field} `) ? issue.message : field}`;
}

const RedirectLabel = v.object({ label: v.optional(cleanText('label', true)) });

export interface RegisteredClient {
  client_id: string;
  client_id_issued_at: number;
  client_name: string;
  redirect_uris: string[];
  grant_types: string[];
  response_types: string[];
  token_endpoint_auth_method: 'none';
}

const short = (text: string | undefined, max = 500) => (text === undefined ? null : text.slice(0, max));

/**
 * RFC 7591 §3.2.1: keeps the allowed redirect URIs and drops the rest ("reject or replace");
 * none allowed → invalid_redirect_uri. Clients are public: whatever authentication method is
 * asked for, the answer is `none` and no secret is issued (OAUTH.md decision 6).
 */
export async function registerClient(deps: Pick<Deps, 'db' | 'clock'>, raw: unknown, via: 'dcr' | 'cli', ip: string | null = null): Promise<RegisteredClient> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw invalidMetadata('The body must be a JSON object');
  const uris = (raw as Record<string, unknown>).redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || uris.some((u) => typeof u !== 'string'))
    throw new AppError('invalid_redirect_uri', 'redirect_uris must be a non-empty array of strings');
  const parsed = v.safeParse(RegistrationSchema, raw);
  if (!parsed.success) throw invalidMetadata(metadataProblem(parsed.issues[0]));
  const input = parsed.output;
  const allowlist = (await listRedirects(deps.db)).map((r) => r.uri);
  const kept = [...new Set(input.redirect_uris.filter((u) => redirectAllowed(u, allowlist)))];
  if (kept.length === 0) throw new AppError('invalid_redirect_uri', 'No redirect URI is an allowed callback');
  const grants = input.grant_types === undefined ? [...SUPPORTED_GRANTS] : SUPPORTED_GRANTS.filter((g) => input.grant_types!.includes(g));
  if (!grants.includes('authorization_code')) throw invalidMetadata('grant_types must include authorization_code');
  if (input.response_types !== undefined && !input.response_types.includes('code')) throw invalidMetadata('response_types must include code');
  const now = deps.clock.now();
  const id = CLIENT_ID_PREFIX + randomBase62(OAUTH_CLIENT_ID_CHARS);
  const name = input.client_name || 'Unnamed client';
  await insertClient(deps.db, {
    id,
    client_name: name,
    redirect_uris: JSON.stringify(kept),
    grant_types: JSON.stringify(grants),
    client_uri: short(input.client_uri),
    software_id: short(input.software_id, 200),
    software_version: short(input.software_version, 100),
    registered_via: via,
    registered_ip: ip,
    created_at: now.toISOString(),
    revoked_at: null,
  });
  return {
    client_id: id,
    client_id_issued_at: Math.floor(now.getTime() / 1000),
    client_name: name,
    redirect_uris: kept,
    grant_types: grants,
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
}

export type ClientRow = NonNullable<Awaited<ReturnType<typeof findClient>>>;

/** What finding a client needs: a metadata-document client is fetched through the guarded outbound path. */
export type ClientDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'log' | 'outbound' | 'clientDocuments'>;

/**
 * A live client, or undefined for unknown and revoked ones (they look the same to callers). A
 * client_id that is an https URL is a Client ID Metadata Document, read through its URL.
 */
export async function findLiveClient(deps: ClientDeps, clientId: string | undefined, ip: string | null = null): Promise<ClientRow | undefined> {
  if (!clientId || clientId.length > OAUTH_CLIENT_ID_MAX) return undefined;
  if (isMetadataDocumentId(clientId, deps.config.oauthCimdAllowPrivate)) return metadataDocumentClient(deps, clientId, ip);
  if (clientId.length > 100) return undefined;
  const client = await findClient(deps.db, clientId);
  return client && client.revoked_at === null ? client : undefined;
}

export const clientRedirects = (client: ClientRow): string[] => JSON.parse(client.redirect_uris) as string[];

function clientView(c: ClientRow) {
  return {
    client_id: c.id,
    client_name: c.client_name,
    redirect_uris: clientRedirects(c),
    grant_types: JSON.parse(c.grant_types) as string[],
    registered_via: c.metadata_fetched_at ? 'metadata_document' : c.registered_via,
    created_at: c.created_at,
    revoked_at: c.revoked_at,
  };
}

export const listOAuthClients = async (deps: Pick<Deps, 'db'>) => (await listClients(deps.db)).map(clientView);

/** Revokes the client, every token family it holds and every API key made through them, in one transaction. */
export async function revokeOAuthClient(deps: Pick<Deps, 'db' | 'clock'>, clientId: string) {
  const client = await findClient(deps.db, clientId);
  if (!client) throw notFound('OAuth client');
  const now = deps.clock.now().toISOString();
  await writeTransaction(deps.db, async (tx) => {
    await revokeClientRow(tx, clientId, now);
    await revokeClientFamilies(tx, clientId, now, 'client_revoked');
    await revokeClientKeys(tx, clientId, now);
  });
  return clientView((await findClient(deps.db, clientId))!);
}

export const listRedirectAllowlist = async (deps: Pick<Deps, 'db'>) =>
  (await listRedirects(deps.db)).map((r) => ({ uri: r.uri, label: r.label, created_at: r.created_at }));

export async function addRedirect(deps: Pick<Deps, 'db' | 'clock'>, uri: string, label?: string) {
  const problem = validAllowlistEntry(uri);
  if (problem) throw fieldError('uri', `The redirect URI is refused: ${problem}`);
  const clean = parseWith(RedirectLabel, { label }).label;
  await insertRedirect(deps.db, { uri, label: clean ?? null, created_at: deps.clock.now().toISOString() });
  return listRedirectAllowlist(deps);
}

/** Removing an entry stops new registrations with it; clients registered before keep their URIs. */
export async function removeRedirect(deps: Pick<Deps, 'db'>, uri: string) {
  if ((await deleteRedirect(deps.db, uri)) === 0) throw notFound('Redirect URI in the allowlist');
  return listRedirectAllowlist(deps);
}

/** OAUTH.md T29: registrations per client IP per hour; the next one is 429 with Retry-After. */
export async function hitRegistrationLimit(deps: Pick<Deps, 'db' | 'clock' | 'config'>, ip: string | null): Promise<void> {
  const now = deps.clock.now().getTime();
  const hour = 3_600_000;
  const start = Math.floor(now / hour) * hour;
  const count = await hitBucket(deps.db, `register:ip:${ip ?? 'unknown'}`, start);
  if (count > deps.config.rateRegisterPerHour)
    throw new AppError('rate_limited', 'Too many registrations from this address', undefined, { 'Retry-After': String(Math.ceil((start + hour - now) / 1000)) });
}
