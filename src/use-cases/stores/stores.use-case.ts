// Stores (MCP-TOOLS.md §6.2, §6.3): one country and currency each; archiving stops checkout, takes
// its landing pages offline and disables its publishable keys, and keeps every row.
import type * as v from 'valibot';
import type { Deps } from '../../app.ts';
import { findConnection } from '../../db/queries/fulfillment.queries.ts';
import { newId } from '../../ids.ts';
import { DEFAULT_MAX_DISCOUNT_PCT, MAX_STORE_DOMAINS } from '../../limits.ts';
import { writeTransaction, type Tx } from '../../db/transaction.ts';
import { findAccount } from '../../db/queries/accounts.queries.ts';
import { findStore, insertStore, listStorePage, setStoreDomains, storeAmounts, storeCounts, storeHasOrders, updateStore as writeStore } from '../../db/queries/stores.queries.ts';
import { livePublishableKeys, revokeKey, updateKey } from '../../db/queries/keys.queries.ts';
import { unpublishLandingsWhere } from '../../db/queries/landings.queries.ts';
import { setUnstartedJobState, unstartedJobsOfStore } from '../../db/queries/orders.queries.ts';
import { pushReleased } from '../../domain/push-policy.ts';
import { readWhatsappSettings } from '../whatsapp/buyer-messages.ts';
import { countryProfile } from '../../domain/countries.ts';
import { domainCovered } from '../../domain/domains.ts';
import { currencyDecimals, fitsDecimals } from '../../domain/money.ts';
import { normalizePhone } from '../../domain/phone.ts';
import { AppError, fieldError, invalidState } from '../../errors.ts';
import type { Caller } from '../caller.ts';
import { clampLimit, keysetPage, pageAfter } from '../pagination.ts';
import { storeOf, type StoreRow } from '../tenancy.ts';
import type { ArchiveStoreInput, CreateStoreInput, GetStoreInput, ListStoresInput, Store, StoreDomainInput, StorePage, StoreSummary, UpdateStoreInput } from './store.schemas.ts';

type Out<S extends v.GenericSchema> = v.InferOutput<S>;

const domainsOf = (s: Pick<StoreRow, 'allowed_domains'>): string[] => JSON.parse(s.allowed_domains) as string[];

export function storeSummary(s: StoreRow): Out<typeof StoreSummary> {
  return {
    id: s.id,
    name: s.name,
    country: s.country,
    currency: s.currency,
    timezone: s.timezone,
    status: s.archived_at === null ? 'active' : 'archived',
    domains: domainsOf(s),
    created_at: s.created_at,
  };
}

/** The connection summary of get_store (no secrets): get_fulfillment_connection has the rest. */
async function fulfillmentSummary(deps: Pick<Deps, 'db' | 'config'>, storeId: string) {
  if (!deps.config.fulfillmentUrl) return { connected: false, source: 'none' as const, credential: null };
  const own = await findConnection(deps.db, storeId);
  return own ? { connected: true, source: 'store' as const, credential: `••••${own.token_last4}` } : { connected: true, source: 'default' as const, credential: null };
}

export async function storeDetail(deps: Pick<Deps, 'db' | 'config'>, s: StoreRow): Promise<Out<typeof Store>> {
  return {
    ...storeSummary(s),
    account_id: s.account_id,
    support_phone: s.support_phone,
    order_prefix: s.order_prefix,
    delivery_time: s.delivery_time,
    guarantee: s.guarantee,
    max_discount_pct: s.max_discount_pct,
    push_policy: s.push_policy,
    confirmation: s.confirmation,
    confirmation_minutes: s.confirmation_minutes,
    risk_hold: s.risk_hold,
    archived_at: s.archived_at,
    archive_reason: s.archive_reason,
    updated_at: s.updated_at || s.created_at,
    counts: await storeCounts(deps.db, s.id),
    fulfillment: await fulfillmentSummary(deps, s.id),
  };
}

const reload = async (deps: Pick<Deps, 'db' | 'config'>, id: string) => storeDetail(deps, (await findStore(deps.db, id))!);

function phoneOf(text: string | undefined, country: string): string | null | undefined {
  if (text === undefined) return undefined;
  if (text === '') return null;
  const phone = normalizePhone(text, country);
  if (!phone) throw fieldError('support_phone', `support_phone ${text} is not a valid phone number for ${country}: send another, or "" to remove it`);
  return phone.e164;
}

export async function createStore(deps: Pick<Deps, 'db' | 'clock' | 'config'>, caller: Caller, input: Out<typeof CreateStoreInput>): Promise<Out<typeof Store>> {
  if (caller.accountId === null) throw fieldError('account', 'which account? pass --account ID');
  if (!(await findAccount(deps.db, caller.accountId))) throw new AppError('not_found', 'Account not found', [{ field: 'account', message: 'Unknown account' }]);
  const profile = countryProfile(input.country)!;
  const now = deps.clock.now().toISOString();
  const id = newId();
  await insertStore(deps.db, {
    id,
    account_id: caller.accountId,
    name: input.name,
    country: input.country,
    currency: input.currency ?? profile.currency,
    max_discount_pct: input.max_discount_pct ?? DEFAULT_MAX_DISCOUNT_PCT,
    allowed_domains: JSON.stringify([...new Set(input.domains ?? [])]),
    timezone: input.timezone ?? profile.timezone,
    support_phone: phoneOf(input.support_phone, input.country) ?? null,
    order_prefix: input.order_prefix || null,
    delivery_time: input.delivery_time || null,
    guarantee: input.guarantee || null,
    created_at: now,
    updated_at: now,
    archive_reason: null,
  });
  return reload(deps, id);
}

export async function getStore(deps: Pick<Deps, 'db' | 'config'>, caller: Caller, input: Out<typeof GetStoreInput>) {
  return storeDetail(deps, await storeOf(deps, caller, input.store_id));
}

export async function listStores(deps: Pick<Deps, 'db'>, caller: Caller, input: Out<typeof ListStoresInput>): Promise<Out<typeof StorePage>> {
  const limit = clampLimit(input.limit);
  const rows = await listStorePage(deps.db, {
    accountId: caller.accountId,
    archived: input.status === undefined ? undefined : input.status === 'archived',
    country: input.country,
    after: pageAfter(input.cursor),
    limit: limit + 1,
  });
  return keysetPage(rows, limit, storeSummary);
}

export async function updateStore(deps: Pick<Deps, 'db' | 'clock' | 'config'>, caller: Caller, input: Out<typeof UpdateStoreInput>) {
  const store = await storeOf(deps, caller, input.store_id);
  const moving = (input.country !== undefined && input.country !== store.country) || (input.currency !== undefined && input.currency !== store.currency);
  if (moving && (await storeHasOrders(deps.db, store.id)))
    throw invalidState('The store has orders: its country and currency can no longer change', [
      { field: input.country !== undefined && input.country !== store.country ? 'country' : 'currency', message: 'fixed once the store has orders' },
    ]);
  const country = input.country ?? store.country;
  // The support phone must stay a number of the store's country: a move re-checks the current one.
  const phone = phoneOf(input.support_phone ?? (country !== store.country && store.support_phone ? store.support_phone : undefined), country);
  const currency = input.currency ?? store.currency;
  if (currency !== store.currency) {
    const decimals = currencyDecimals(currency, deps.config.wholeCurrencies);
    const amounts = await storeAmounts(deps.db, store.id);
    if (amounts.some((minor) => !fitsDecimals(minor, decimals)))
      throw invalidState(`Some prices have decimals ${currency} does not take: make them whole first`, [{ field: 'currency', message: `${currency} amounts are whole` }]);
  }
  // Asking on WhatsApp needs the store's WhatsApp on: otherwise no buyer would ever be asked.
  if (input.confirmation === 'whatsapp' && !(await readWhatsappSettings(deps.db, store.id)).enabled)
    throw fieldError('confirmation', 'turn the store\'s WhatsApp messages on first (update_whatsapp_settings enabled: true, with a sender)');
  // 100 holds nothing (no score is above it): stored as no hold.
  const riskHold = input.risk_hold === undefined ? undefined : input.risk_hold >= 100 ? null : input.risk_hold;
  const now = deps.clock.now().toISOString();
  await writeTransaction(deps.db, async (tx) => {
    await writeStore(tx, store.id, {
      ...(input.name !== undefined && { name: input.name }),
      ...(input.timezone !== undefined && { timezone: input.timezone }),
      ...(phone !== undefined && { support_phone: phone }),
      ...(input.order_prefix !== undefined && { order_prefix: input.order_prefix || null }),
      ...(input.delivery_time !== undefined && { delivery_time: input.delivery_time || null }),
      ...(input.guarantee !== undefined && { guarantee: input.guarantee || null }),
      ...(input.max_discount_pct !== undefined && { max_discount_pct: input.max_discount_pct }),
      ...(input.country !== undefined && { country: input.country }),
      ...(input.currency !== undefined && { currency: input.currency }),
      ...(input.push_policy !== undefined && { push_policy: input.push_policy }),
      ...(input.confirmation !== undefined && { confirmation: input.confirmation }),
      ...(input.confirmation_minutes !== undefined && { confirmation_minutes: input.confirmation_minutes }),
      ...(riskHold !== undefined && { risk_hold: riskHold }),
      updated_at: now,
    });
    // A new push policy or risk hold applies to the orders whose push has not started yet.
    const policy = { push_policy: input.push_policy ?? store.push_policy, risk_hold: riskHold === undefined ? store.risk_hold : riskHold };
    if (policy.push_policy !== store.push_policy || policy.risk_hold !== store.risk_hold)
      for (const job of await unstartedJobsOfStore(tx, store.id)) {
        const state = pushReleased(job, policy) ? 'queued' : 'held';
        if (state !== job.state) await setUnstartedJobState(tx, job.job_id, state, now);
      }
  });
  return reload(deps, store.id);
}

/** Checkout stops, landing pages go offline, publishable keys are revoked; archiving again changes nothing. */
export async function archiveStore(deps: Pick<Deps, 'db' | 'clock' | 'config'>, caller: Caller, input: Out<typeof ArchiveStoreInput>) {
  const store = await storeOf(deps, caller, input.store_id);
  if (store.archived_at !== null) return storeDetail(deps, store);
  const now = deps.clock.now().toISOString();
  await writeTransaction(deps.db, async (tx) => {
    await writeStore(tx, store.id, { archived_at: now, archive_reason: input.reason || null, updated_at: now });
    await unpublishLandingsWhere(tx, { storeId: store.id }, now);
    for (const key of await livePublishableKeys(tx, store.id, now)) await revokeKey(tx, key.id, now, key.replaced_by);
  });
  return reload(deps, store.id);
}

/**
 * Adding a domain the store already allows is a no-op (MCP-TOOLS.md §6.3 row 8). The list is read
 * and written in one transaction: two domains added at once (two admins, two instances) both stay.
 */
export async function addStoreDomain(deps: Pick<Deps, 'db' | 'clock' | 'config'>, caller: Caller, input: Out<typeof StoreDomainInput>) {
  const { id } = await storeOf(deps, caller, input.store_id);
  await writeTransaction(deps.db, async (tx) => {
    const current = domainsOf(await storeIn(tx, id));
    if (current.includes(input.domain)) return;
    if (current.length >= MAX_STORE_DOMAINS) throw fieldError('domain', `a store allows at most ${MAX_STORE_DOMAINS} domains: remove one first`);
    await setStoreDomains(tx, id, [...current, input.domain], deps.clock.now().toISOString());
  });
  return reload(deps, id);
}

/** The domain leaves the store and every publishable key that listed it (row 9), read and written in one transaction. */
export async function removeStoreDomain(deps: Pick<Deps, 'db' | 'clock' | 'config'>, caller: Caller, input: Out<typeof StoreDomainInput>) {
  const { id } = await storeOf(deps, caller, input.store_id);
  const now = deps.clock.now().toISOString();
  await writeTransaction(deps.db, async (tx) => {
    const current = domainsOf(await storeIn(tx, id));
    if (!current.includes(input.domain)) throw new AppError('not_found', `Domain ${input.domain} not found`, [{ field: 'domain', message: 'not one of the store domains' }]);
    const next = current.filter((d) => d !== input.domain);
    await setStoreDomains(tx, id, next, now);
    // A key keeps only the hosts the store still allows (a host under a removed wildcard goes too).
    for (const key of await livePublishableKeys(tx, id, now)) {
      const listed = JSON.parse(key.allowed_domains) as string[];
      const kept = listed.filter((d) => domainCovered(d, next));
      if (kept.length !== listed.length) await updateKey(tx, key.id, { allowed_domains: JSON.stringify(kept) });
    }
  });
  return reload(deps, id);
}

/** The store as this transaction sees it (the caller's access was checked just before). */
async function storeIn(tx: Tx, id: string): Promise<StoreRow> {
  const store = await findStore(tx, id);
  if (!store) throw new AppError('not_found', 'Store not found', [{ field: 'store_id', message: 'no such store' }]);
  return store;
}

/** `codrail stores domains list STORE_ID`. */
export async function listStoreDomains(deps: Pick<Deps, 'db'>, caller: Caller, storeId: string): Promise<string[]> {
  return domainsOf(await storeOf(deps, caller, storeId));
}
