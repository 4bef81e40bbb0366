// API keys (SPEC 5; MCP-TOOLS.md §6.3): publishable keys for browser checkouts, bound to the store's
// domains; secret keys for server-to-server calls, acting on every store of their account within
// their scopes. The full key is in the creation answer and nowhere else, ever: only its SHA-256 hash
// is stored. Issue 19 §2: a key never does more than what created it (like Stripe's restricted keys):
// a secret key carries at most its creator's scopes, a publishable key (it creates orders) needs
// orders:create, and a key made through OAuth records its client, user and token family and is
// revoked with that authorization.
import type * as v from 'valibot';
import type { Deps } from '../../app.ts';
import { newId } from '../../ids.ts';
import { writeTransaction, type Tx } from '../../db/transaction.ts';
import { findKey, findKeyWithOrigin, insertKey, listKeyPage, revokeKey, updateKey } from '../../db/queries/keys.queries.ts';
import { findFamily } from '../../db/queries/oauth.queries.ts';
import { NEVER_GRANTED, joinScopes, sortScopes, splitScope, type Scope } from '../../domain/oauth/scopes.ts';
import { findProduct } from '../../db/queries/products.queries.ts';
import { generateKey, maskedKey, type KeyType } from '../../domain/keys.ts';
import { domainCovered } from '../../domain/domains.ts';
import { AppError, fieldError } from '../../errors.ts';
import type { Caller } from '../caller.ts';
import { clampLimit, keysetPage, pageAfter } from '../pagination.ts';
import { keyOf, storeOf, type KeyRow, type StoreRow } from '../tenancy.ts';
import { keyActive } from './authenticate-key.ts';
import { CreatePublishableKeyInput, CreateSecretKeyInput, type ApiKey, type ApiKeyPage, type CreatedApiKey, type ListApiKeysInput, type RevokeApiKeyInput, type UpdateApiKeyInput } from './key.schemas.ts';
import { parseWith } from '../validate.ts';

type Out<S extends v.GenericSchema> = v.InferOutput<S>;

/** A key row with the names of the OAuth client and user that made it (findKeyWithOrigin, listKeyPage). */
type KeyListing = KeyRow & { oauth_client_name: string | null; oauth_user_email: string | null };

/** A key as listed: never the key or its hash. */
export function keyView(k: KeyListing, now: Date): Out<typeof ApiKey> {
  return {
    id: k.id,
    store_id: k.store_id,
    type: k.type,
    mode: k.env,
    label: k.label,
    masked: maskedKey(k.prefix, k.last4),
    prefix: k.prefix,
    allowed_domains: JSON.parse(k.allowed_domains) as string[],
    follows_store_domains: k.inherit_domains === 1,
    allowed_products: JSON.parse(k.allowed_products) as string[],
    active: keyActive(k, now),
    created_at: k.created_at,
    last_used_at: k.last_used_at,
    revoked_at: k.revoked_at,
    replaced_by: k.replaced_by,
    scopes: k.type === 'secret' ? splitScope(k.scopes ?? undefined) : null,
    created_by: {
      via: k.created_via,
      key_id: k.created_by_key,
      client_id: k.oauth_client_id,
      client_name: k.oauth_client_name,
      user_id: k.oauth_user_id,
      user_email: k.oauth_user_email,
    },
  };
}

const viewOf = async (deps: Pick<Deps, 'db'>, id: string, now: Date) => keyView((await findKeyWithOrigin(deps.db, id))!, now);

type Origin = Pick<KeyRow, 'created_via' | 'created_by_key' | 'oauth_client_id' | 'oauth_user_id' | 'oauth_family_id'>;

/**
 * What makes the key, as recorded on it: the operator's CLI, a secret key, or an OAuth authorization.
 * A key made by a secret key that itself came from an OAuth authorization inherits that authorization:
 * revoking its creator alone leaves it working, but it still ends with the authorization, or a token
 * could outlive its revocation through a key's key.
 */
async function originOf(tx: Tx, caller: Caller): Promise<Origin> {
  const none = { created_by_key: null, oauth_client_id: null, oauth_user_id: null, oauth_family_id: null };
  if (caller.credential === 'operator') return { created_via: 'operator', ...none };
  if (caller.credential === 'secret_key') {
    const creator = caller.keyId === undefined ? undefined : await findKey(tx, caller.keyId);
    if (!creator) throw new AppError('internal', 'Secret-key caller without its key');
    const { oauth_client_id, oauth_user_id, oauth_family_id } = creator;
    return { created_via: 'secret_key', created_by_key: creator.id, oauth_client_id, oauth_user_id, oauth_family_id };
  }
  // Without its family a key could outlive the authorization that made it: refuse rather than guess.
  if (!caller.clientId || !caller.userId || !caller.familyId) throw new AppError('internal', 'OAuth caller without its authorization');
  return { created_via: 'oauth', ...none, oauth_client_id: caller.clientId, oauth_user_id: caller.userId, oauth_family_id: caller.familyId };
}

/**
 * A secret key's scopes: those asked for, or all of the caller's own; each must be one the caller
 * holds, so an OAuth token never yields a key broader than itself and a restricted key mints at most
 * itself. The operator's CLI holds every grantable scope.
 */
function grantableBy(caller: Caller, asked: readonly string[] | undefined): Scope[] {
  const held = sortScopes(caller.scopes).filter((s) => !NEVER_GRANTED.has(s));
  if (asked === undefined) return held;
  const beyond = sortScopes(asked).filter((s) => !held.includes(s));
  if (beyond.length > 0)
    throw new AppError('insufficient_scope', `This credential cannot grant ${beyond.join(' ')}: a key gets at most the scopes of what creates it`, [
      { field: 'scopes', message: `not held by this credential: ${beyond.join(' ')}` },
    ]);
  return sortScopes(asked);
}

function checkDomains(store: StoreRow, domains: readonly string[]): string[] {
  const storeDomains = JSON.parse(store.allowed_domains) as string[];
  domains.forEach((d, i) => {
    if (!domainCovered(d, storeDomains)) throw fieldError(`allowed_domains.${i}`, `${d} is not one of the store's domains: add it with add_store_domain first`);
  });
  return [...new Set(domains)];
}

async function checkProducts(deps: Pick<Deps, 'db'>, store: StoreRow, products: readonly string[]): Promise<string[]> {
  const ids = [...new Set(products.map((p) => p.toLowerCase()))];
  for (const [i, id] of ids.entries()) {
    const product = await findProduct(deps.db, id);
    if (!product || product.store_id !== store.id) throw fieldError(`allowed_products.${i}`, `Product ${id} is not in this store`);
  }
  return ids;
}

async function issue(
  deps: Pick<Deps, 'db' | 'clock'>,
  caller: Caller,
  store: StoreRow,
  spec: { type: KeyType; env: 'live' | 'test'; label?: string | undefined; domains?: string[] | undefined; products: string[]; scopes: Scope[] | null },
): Promise<Out<typeof CreatedApiKey>> {
  const { key, hash, prefix, last4 } = generateKey({ type: spec.type, env: spec.env });
  const now = deps.clock.now();
  const row: Omit<KeyRow, keyof Origin> = {
    id: newId(),
    account_id: store.account_id,
    store_id: store.id,
    type: spec.type,
    env: spec.env,
    hash,
    prefix,
    last4,
    label: spec.label || null,
    allowed_domains: JSON.stringify(spec.domains ?? []),
    inherit_domains: spec.type === 'publishable' && spec.domains === undefined ? 1 : 0,
    allowed_products: JSON.stringify(spec.products),
    created_at: now.toISOString(),
    last_used_at: null,
    revoked_at: null,
    replaced_by: null,
    scopes: spec.scopes === null ? null : joinScopes(spec.scopes),
  };
  await writeTransaction(deps.db, async (tx) => {
    const origin = await originOf(tx, caller);
    // Revoking a family revokes its keys in a transaction too (grants.use-case.ts revokeFamily):
    // checked under the same write lock, no key is made by an authorization revoked a moment before.
    const family = origin.oauth_family_id === null ? undefined : await findFamily(tx, origin.oauth_family_id);
    if (family && family.revoked_at !== null) throw new AppError('unauthorized', 'The authorization behind this call was revoked');
    await insertKey(tx, { ...row, ...origin });
  });
  return { key, ...(await viewOf(deps, row.id, now)) };
}

/** A publishable key creates orders: only a caller that may create orders makes one (issue 19 §2). */
export async function createPublishableKey(deps: Pick<Deps, 'db' | 'clock'>, caller: Caller, input: Out<typeof CreatePublishableKeyInput>) {
  const store = await storeOf(deps, caller, input.store_id);
  if (!caller.scopes.has('orders:create')) throw new AppError('insufficient_scope', 'A publishable key creates orders: this credential lacks the scope orders:create');
  if (store.archived_at !== null) throw new AppError('invalid_state', 'The store is archived: it takes no orders', [{ field: 'store_id', message: 'archived store' }]);
  const domains = input.allowed_domains === undefined ? undefined : checkDomains(store, input.allowed_domains);
  const products = await checkProducts(deps, store, input.allowed_products ?? []);
  return issue(deps, caller, store, { type: 'publishable', env: input.mode, label: input.label, domains, products, scopes: null });
}

/** A secret key acts on every store of its account, including stores created after it, within its scopes. */
export async function createSecretKey(deps: Pick<Deps, 'db' | 'clock'>, caller: Caller, input: Out<typeof CreateSecretKeyInput>) {
  const store = await storeOf(deps, caller, input.store_id);
  const scopes = grantableBy(caller, input.scopes);
  return issue(deps, caller, store, { type: 'secret', env: input.mode, label: input.label, products: [], scopes });
}

export async function listApiKeys(deps: Pick<Deps, 'db' | 'clock'>, caller: Caller, input: Out<typeof ListApiKeysInput>): Promise<Out<typeof ApiKeyPage>> {
  if (input.store_id !== undefined) await storeOf(deps, caller, input.store_id);
  const now = deps.clock.now();
  const limit = clampLimit(input.limit);
  const rows = await listKeyPage(deps.db, {
    accountId: caller.accountId,
    storeId: input.store_id?.toLowerCase(),
    type: input.type,
    env: input.mode,
    includeRevoked: input.include_revoked === true,
    now: now.toISOString(),
    after: pageAfter(input.cursor),
    limit: limit + 1,
  });
  return keysetPage(rows, limit, (k) => keyView(k, now));
}

export async function updateApiKey(deps: Pick<Deps, 'db' | 'clock'>, caller: Caller, input: Out<typeof UpdateApiKeyInput>) {
  const key = await keyOf(deps, caller, input.key_id);
  const restricts = input.allowed_domains !== undefined || input.follow_store_domains !== undefined || input.allowed_products !== undefined;
  if (restricts && key.type !== 'publishable') throw fieldError('key_id', 'domains and products restrict publishable keys only');
  if (input.allowed_domains !== undefined && input.follow_store_domains === true) throw fieldError('follow_store_domains', 'send allowed_domains or follow_store_domains, not both');
  const store = await storeOf(deps, caller, key.store_id);
  const change: Partial<KeyRow> = {};
  if (input.label !== undefined) change.label = input.label || null;
  if (input.allowed_domains !== undefined) Object.assign(change, { allowed_domains: JSON.stringify(checkDomains(store, input.allowed_domains)), inherit_domains: 0 });
  if (input.follow_store_domains !== undefined) Object.assign(change, { inherit_domains: input.follow_store_domains ? 1 : 0, ...(input.follow_store_domains && { allowed_domains: '[]' }) });
  if (input.allowed_products !== undefined) change.allowed_products = JSON.stringify(await checkProducts(deps, store, input.allowed_products));
  if (Object.keys(change).length > 0) await updateKey(deps.db, key.id, change);
  return viewOf(deps, key.id, deps.clock.now());
}

/** Revokes now: the next request with this key is a 401. */
export async function revokeApiKey(deps: Pick<Deps, 'db' | 'clock'>, caller: Caller, input: Out<typeof RevokeApiKeyInput>) {
  const key = await keyOf(deps, caller, input.key_id);
  const now = deps.clock.now();
  if (key.revoked_at !== null && key.revoked_at <= now.toISOString()) throw new AppError('conflict', 'Key already revoked', [{ field: 'key_id', message: 'already revoked' }]);
  await revokeKey(deps.db, key.id, now.toISOString(), key.replaced_by);
  return viewOf(deps, key.id, now);
}

/**
 * `codrail keys roll`: a replacement with the same settings, scopes and origin (a key made through
 * OAuth is still revoked with that authorization); the old key stops after `graceMinutes` (0 = now).
 */
export async function rollApiKey(deps: Pick<Deps, 'db' | 'clock'>, caller: Caller, id: string, graceMinutes = 0) {
  if (!Number.isInteger(graceMinutes) || graceMinutes < 0 || graceMinutes > 60 * 24 * 30) throw fieldError('grace', 'grace must be 0 to 43200 minutes');
  const old = await keyOf(deps, caller, id);
  const now = deps.clock.now();
  if (!keyActive(old, now)) throw new AppError('conflict', 'Key already revoked');
  const { key, hash, prefix, last4 } = generateKey({ type: old.type, env: old.env });
  const fresh: KeyRow = { ...old, id: newId(), hash, prefix, last4, created_at: now.toISOString(), last_used_at: null, revoked_at: null, replaced_by: null };
  const revokeAt = new Date(now.getTime() + graceMinutes * 60_000).toISOString();
  await writeTransaction(deps.db, async (tx) => {
    await insertKey(tx, fresh);
    await revokeKey(tx, old.id, revokeAt, fresh.id);
  });
  return { ...(await viewOf(deps, fresh.id, now)), key, env: fresh.env, replaces: old.id, old_key_revoked_at: revokeAt };
}

/** `codrail keys create --type publishable|secret` (SPEC 9): the two creations behind one command. */
export async function createKey(
  deps: Pick<Deps, 'db' | 'clock'>,
  caller: Caller,
  input: {
    store_id: string;
    type: string;
    env?: string | undefined;
    domains?: string[] | undefined;
    products?: string[] | undefined;
    label?: string | undefined;
    /** A secret key's scopes; none given: every scope the caller holds (the operator: every grantable scope). */
    scopes?: string[] | undefined;
  },
) {
  const common = { store_id: input.store_id, ...(input.env !== undefined && { mode: input.env }), ...(input.label !== undefined && { label: input.label }) };
  let created: Out<typeof CreatedApiKey>;
  if (input.type === 'secret') {
    if (input.domains?.length || input.products?.length) throw fieldError('type', 'domains and products restrict publishable keys only');
    created = await createSecretKey(deps, caller, parseWith(CreateSecretKeyInput, { ...common, ...(input.scopes?.length && { scopes: input.scopes }) }));
  } else if (input.type === 'publishable') {
    if (input.scopes?.length) throw fieldError('type', 'scopes restrict secret keys only: a publishable key only creates orders');
    const restrictions = { ...(input.domains?.length && { allowed_domains: input.domains }), ...(input.products?.length && { allowed_products: input.products }) };
    created = await createPublishableKey(deps, caller, parseWith(CreatePublishableKeyInput, { ...common, ...restrictions }));
  } else throw fieldError('type', 'type must be publishable or secret');
  return { ...created, env: created.mode };
}
