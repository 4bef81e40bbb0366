import * as v from 'valibot';
import type { Selectable } from 'kysely';
import type { Deps } from '../../app.ts';
import type { ApiKeysTable } from '../../db/tables/index.ts';
import { newId } from '../../ids.ts';
import { writeTransaction } from '../../db/transaction.ts';
import { findKey, insertKey, listKeys, revokeKey } from '../../db/queries/keys.queries.ts';
import { findProduct } from '../../db/queries/stores.queries.ts';
import { generateKey } from '../../domain/keys.ts';
import { AppError, fieldError, notFound } from '../../errors.ts';
import { parseWith } from '../validate.ts';
import { DomainSchema, getStore } from '../stores/stores.use-case.ts';
import { keyActive } from './authenticate-key.ts';

export const CreateKeySchema = v.object({
  store_id: v.pipe(v.string(), v.uuid('store must be a UUID')),
  type: v.picklist(['publishable', 'secret'], 'type must be publishable or secret'),
  env: v.optional(v.picklist(['live', 'test'], 'env must be live or test'), 'live'),
  domains: v.optional(v.array(DomainSchema), []),
  products: v.optional(v.array(v.pipe(v.string(), v.uuid('product must be a UUID'))), []),
  label: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100))),
});

/** A key as listed: never the key itself, only its display prefix. */
export function keyView(k: Selectable<ApiKeysTable>, now: Date) {
  const { hash: _hash, allowed_domains, allowed_products, ...rest } = k;
  return {
    ...rest,
    domains: JSON.parse(allowed_domains) as string[],
    products: JSON.parse(allowed_products) as string[],
    active: keyActive(k, now),
  };
}

/** Creates a key; the full key is in the answer and nowhere else, ever (SPEC 5). */
export async function createKey(deps: Pick<Deps, 'db' | 'clock'>, raw: unknown) {
  const input = parseWith(CreateKeySchema, raw);
  if (input.type === 'secret' && input.env === 'test') throw fieldError('env', 'secret keys exist only for live (svc_live_secret_)');
  if (input.type === 'secret' && (input.domains.length || input.products.length))
    throw fieldError('type', 'domains and products restrict publishable keys only');
  const store = await getStore(deps, input.store_id);
  for (const productId of input.products) {
    const product = await findProduct(deps.db, productId);
    if (!product || product.store_id !== store.id) throw fieldError('product', `Product ${productId} is not in this store`);
  }
  const { key, hash, prefix } = generateKey({ type: input.type, env: input.env });
  const row = {
    id: newId(),
    account_id: store.account_id,
    store_id: store.id,
    type: input.type,
    env: input.env,
    hash,
    prefix,
    label: input.label ?? null,
    allowed_domains: JSON.stringify([...new Set(input.domains)]),
    allowed_products: JSON.stringify([...new Set(input.products)]),
    created_at: deps.clock.now().toISOString(),
    last_used_at: null,
    revoked_at: null,
    replaced_by: null,
  };
  await insertKey(deps.db, row);
  return { id: row.id, key, type: row.type, env: row.env, prefix, store_id: store.id };
}

export const listStoreKeys = async (deps: Pick<Deps, 'db' | 'clock'>, storeId?: string) =>
  (await listKeys(deps.db, storeId)).map((k) => keyView(k, deps.clock.now()));

/** Revokes now: the next request with this key is a 401. */
export async function revokeApiKey(deps: Pick<Deps, 'db' | 'clock'>, id: string) {
  const key = await findKey(deps.db, id);
  if (!key) throw notFound('Key');
  const now = deps.clock.now();
  if (key.revoked_at !== null && key.revoked_at <= now.toISOString()) throw new AppError('conflict', 'Key already revoked');
  await revokeKey(deps.db, id, now.toISOString(), key.replaced_by);
  return keyView((await findKey(deps.db, id))!, now);
}

/** Issues a replacement with the same settings; the old key stops after `graceMinutes` (0 = now). */
export async function rollApiKey(deps: Pick<Deps, 'db' | 'clock'>, id: string, graceMinutes = 0) {
  if (!Number.isInteger(graceMinutes) || graceMinutes < 0 || graceMinutes > 60 * 24 * 30) throw fieldError('grace', 'grace must be 0 to 43200 minutes');
  const old = await findKey(deps.db, id);
  if (!old) throw notFound('Key');
  const now = deps.clock.now();
  if (!keyActive(old, now)) throw new AppError('conflict', 'Key already revoked');
  const { key, hash, prefix } = generateKey({ type: old.type, env: old.env });
  const newKeyId = newId();
  const revokeAt = new Date(now.getTime() + graceMinutes * 60_000).toISOString();
  await writeTransaction(deps.db, async (tx) => {
    await insertKey(tx, { ...old, id: newKeyId, hash, prefix, created_at: now.toISOString(), last_used_at: null, revoked_at: null, replaced_by: null });
    await revokeKey(tx, old.id, revokeAt, newKeyId);
  });
  return { id: newKeyId, key, type: old.type, env: old.env, prefix, store_id: old.store_id, replaces: old.id, old_key_revoked_at: revokeAt };
}
