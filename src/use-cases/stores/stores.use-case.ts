import * as v from 'valibot';
import type { Selectable } from 'kysely';
import type { Deps } from '../../app.ts';
import type { StoresTable } from '../../db/tables/index.ts';
import { newId } from '../../ids.ts';
import { DEFAULT_MAX_DISCOUNT_PCT, FIRST_ORDER_NUMBER, MAX_DISCOUNT_PCT_RANGE, NAME_MAX } from '../../limits.ts';
import { findAccount } from '../../db/queries/accounts.queries.ts';
import { findStore, insertStore, listStores, setStoreDomains } from '../../db/queries/stores.queries.ts';
import { parseCountry, parseCurrency } from '../../domain/countries.ts';
import { normalizeDomainEntry } from '../../domain/domains.ts';
import { notFound } from '../../errors.ts';
import { parseWith } from '../validate.ts';

export const DomainSchema = v.pipe(
  v.string(),
  v.transform((s) => normalizeDomainEntry(s)),
  v.string('domain must be a host name like shop.example.com or *.example.com'),
);

export const CreateStoreSchema = v.object({
  account_id: v.pipe(v.string(), v.uuid('account must be a UUID')),
  name: v.pipe(v.string(), v.trim(), v.minLength(1, 'name is required'), v.maxLength(NAME_MAX)),
  country: v.pipe(v.string(), v.transform(parseCountry), v.string('country must be an ISO 3166-1 alpha-2 code')),
  currency: v.pipe(v.string(), v.transform(parseCurrency), v.string('currency must be an ISO 4217 code')),
  max_discount_pct: v.optional(
    v.pipe(v.number(), v.integer(), v.minValue(MAX_DISCOUNT_PCT_RANGE.min), v.maxValue(MAX_DISCOUNT_PCT_RANGE.max, 'max discount must be 0 to 100')),
    DEFAULT_MAX_DISCOUNT_PCT,
  ),
  domains: v.optional(v.array(DomainSchema), []),
});

export function storeView(s: Selectable<StoresTable>) {
  const { next_order_number: _next, allowed_domains, ...rest } = s;
  return { ...rest, domains: JSON.parse(allowed_domains) as string[] };
}

export async function createStore(deps: Pick<Deps, 'db' | 'clock'>, raw: unknown) {
  const input = parseWith(CreateStoreSchema, raw);
  if (!(await findAccount(deps.db, input.account_id))) throw notFound('Account');
  const row = {
    id: newId(),
    account_id: input.account_id,
    name: input.name,
    country: input.country,
    currency: input.currency,
    max_discount_pct: input.max_discount_pct,
    allowed_domains: JSON.stringify([...new Set(input.domains)]),
    next_order_number: FIRST_ORDER_NUMBER,
    created_at: deps.clock.now().toISOString(),
  };
  await insertStore(deps.db, row);
  return storeView((await findStore(deps.db, row.id))!);
}

export async function getStore(deps: Pick<Deps, 'db'>, id: string) {
  const store = await findStore(deps.db, id);
  if (!store) throw notFound('Store');
  return store;
}

export const listAllStores = async (deps: Pick<Deps, 'db'>, accountId?: string) => (await listStores(deps.db, accountId)).map(storeView);

/** Adds or removes one allowed checkout domain; adding twice is a no-op. Returns the new list. */
export async function changeStoreDomain(deps: Pick<Deps, 'db'>, storeId: string, domainText: string, action: 'add' | 'remove') {
  const domain = parseWith(DomainSchema, domainText);
  const store = await getStore(deps, storeId);
  const current = JSON.parse(store.allowed_domains) as string[];
  const next = action === 'add' ? [...new Set([...current, domain])] : current.filter((d) => d !== domain);
  if (action === 'remove' && next.length === current.length) throw notFound(`Domain ${domain}`);
  await setStoreDomains(deps.db, storeId, next);
  return next;
}

export async function listStoreDomains(deps: Pick<Deps, 'db'>, storeId: string) {
  return JSON.parse((await getStore(deps, storeId)).allowed_domains) as string[];
}
