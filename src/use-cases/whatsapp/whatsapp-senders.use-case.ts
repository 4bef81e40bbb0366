// The operations on WhatsApp senders (issue 19 §4; the rule itself is src/whatsapp/senders.ts): the
// live check of a store's own credentials, the claim that a verified number belongs to its account,
// and the operator's assignments of the server's numbers to accounts.
import type { Deps } from '../../app.ts';
import { writeTransaction } from '../../db/transaction.ts';
import { findAccount } from '../../db/queries/accounts.queries.ts';
import { claimWhatsappNumber, deleteWhatsappNumber, findWhatsappNumber, listWhatsappNumbers, type WhatsappNumberRow } from '../../db/queries/whatsapp.queries.ts';
import type { WhatsappSettingsTable } from '../../db/tables/index.ts';
import { AppError, fieldError, notFound } from '../../errors.ts';
import { OutboundError } from '../../http/outbound/outbound-error.ts';
import { WHATSAPP_TIMEOUT_MS } from '../../limits.ts';
import { CloudApiClient, type BusinessNumber } from '../../whatsapp/cloud-api.ts';
import { notAssigned, senderOf, type SettingsRow } from '../../whatsapp/senders.ts';

export { whatsappTokenContext } from '../../whatsapp/senders.ts';

type SenderDeps = Pick<Deps, 'db' | 'config' | 'secrets' | 'outbound'>;

const PHONE_NUMBER_ID = /^\d{1,30}$/;

/** The `credentials` part of a store's settings: who messages leave as, or what is missing. */
export async function credentialsView(deps: SenderDeps, store: { id: string; account_id: string }, row: SettingsRow | undefined) {
  const sender = await senderOf(deps, store, row);
  return {
    source: sender.ok ? sender.source : 'none',
    business_account_id: row?.business_account_id ?? null,
    token: row?.token_last4 ? `••••${row.token_last4}` : null,
    verified_at: row?.token_sealed ? (row.credentials_verified_at ?? null) : null,
    problem: sender.ok ? null : sender.problem,
  } as const;
}

/** The Cloud API client for a token: the configured base URL, or a clear refusal when there is none. */
function cloudApi(deps: SenderDeps, token: string): CloudApiClient {
  if (!deps.config.whatsappUrl)
    throw new AppError('invalid_state', 'No WhatsApp Cloud API is configured on this server (CODRAIL_WHATSAPP_URL): credentials cannot be checked', [{ field: 'access_token', message: 'no Cloud API configured' }]);
  return new CloudApiClient({ url: deps.config.whatsappUrl, token, timeoutMs: WHATSAPP_TIMEOUT_MS, outbound: deps.outbound });
}

/**
 * The live check behind a store's own credentials: the number must be one of the business account's
 * numbers as this token sees them. Nothing is saved when it fails.
 */
export async function verifyOwnNumber(deps: SenderDeps, token: string, businessAccountId: string, phoneNumberId: string): Promise<BusinessNumber> {
  let numbers: BusinessNumber[];
  try {
    numbers = await cloudApi(deps, token).phoneNumbers(businessAccountId);
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    if (error.status === 401 || error.status === 403 || error.status === 400 || error.status === 404)
      throw fieldError('access_token', `the Cloud API refused this token for business account ${businessAccountId} (HTTP ${error.status}); nothing was saved`);
    throw new AppError('not_ready', `The WhatsApp Cloud API could not be reached to check the credentials (${error.message}); nothing was saved`, [{ field: 'access_token', message: 'try again' }], { 'Retry-After': '5' });
  }
  const found = numbers.find((n) => n.id === phoneNumberId);
  if (!found) throw fieldError('phone_number_id', `${phoneNumberId} is not a phone number of business account ${businessAccountId} for this token; nothing was saved`);
  return found;
}

/** Records that a store's verified number belongs to its account; refused when another account holds it. */
export async function claimVerifiedNumber(deps: Pick<Deps, 'db' | 'clock'>, store: { id: string; account_id: string }, businessAccountId: string, number: BusinessNumber): Promise<void> {
  const claimed = await writeTransaction(deps.db, (tx) =>
    claimWhatsappNumber(tx, {
      phone_number_id: number.id,
      account_id: store.account_id,
      source: 'store',
      store_id: store.id,
      business_account_id: businessAccountId,
      display_phone_number: number.display_phone_number,
      verified_name: number.verified_name,
      created_at: deps.clock.now().toISOString(),
    }),
  );
  if (!claimed) throw new AppError('conflict', `phone_number_id ${number.id} belongs to another account of this server; nothing was saved`, [{ field: 'phone_number_id', message: 'this number belongs to another account' }]);
}

/** A number the server-wide token may send from for this account. */
export async function checkAssignedNumber(deps: Pick<Deps, 'db'>, accountId: string, phoneNumberId: string): Promise<void> {
  const number = await findWhatsappNumber(deps.db, phoneNumberId);
  if (!number || number.account_id !== accountId || number.source !== 'operator') throw fieldError('phone_number_id', notAssigned(phoneNumberId));
}

const numberView = (n: WhatsappNumberRow & { account_name?: string }) => ({
  phone_number_id: n.phone_number_id,
  account_id: n.account_id,
  ...(n.account_name !== undefined ? { account_name: n.account_name } : {}),
  source: n.source,
  store_id: n.store_id,
  business_account_id: n.business_account_id,
  display_phone_number: n.display_phone_number,
  verified_name: n.verified_name,
  created_at: n.created_at,
});

/** `codrail whatsapp numbers assign`: the server-wide token may send from this number for this account (and no other). */
export async function assignWhatsappNumber(deps: Pick<Deps, 'db' | 'clock'>, input: { phoneNumberId: string; accountId: string }) {
  const id = input.phoneNumberId.trim();
  if (!PHONE_NUMBER_ID.test(id)) throw fieldError('phone_number_id', 'phone_number_id is the Cloud API phone-number id (digits)');
  const account = await findAccount(deps.db, input.accountId.trim().toLowerCase());
  if (!account) throw notFound('Account');
  const claimed = await writeTransaction(deps.db, (tx) =>
    claimWhatsappNumber(tx, { phone_number_id: id, account_id: account.id, source: 'operator', store_id: null, business_account_id: null, display_phone_number: null, verified_name: null, created_at: deps.clock.now().toISOString() }),
  );
  if (!claimed) throw new AppError('conflict', `phone_number_id ${id} belongs to another account: unassign it first (codrail whatsapp numbers unassign ${id})`, [{ field: 'phone_number_id', message: 'this number belongs to another account' }]);
  return numberView((await findWhatsappNumber(deps.db, id))!);
}

/** `codrail whatsapp numbers unassign`: no account sends from it any more (queued messages fail with the reason). */
export async function unassignWhatsappNumber(deps: Pick<Deps, 'db'>, phoneNumberId: string) {
  const id = phoneNumberId.trim();
  const number = await findWhatsappNumber(deps.db, id);
  if (!number || !(await deleteWhatsappNumber(deps.db, id))) throw notFound('WhatsApp number');
  return { ...numberView(number), unassigned: true };
}

export async function listNumbers(deps: Pick<Deps, 'db'>, accountId?: string) {
  return (await listWhatsappNumbers(deps.db, accountId)).map(numberView);
}
