// Who may send from which WhatsApp number (issue 19 §4). A phone-number id is not a credential: any
// account could type another's. So a number is sent from only
//   - with the store's own Cloud API credentials (token sealed like platform credentials), after a
//     live call showed the number is one of that token's business account (GET /{waba}/phone_numbers);
//   - or with the server-wide token (CODRAIL_WHATSAPP_TOKEN), when the operator assigned the number
//     to the store's account (`codrail whatsapp numbers assign`).
// Either way a number belongs to one account (whatsapp_numbers), and every send checks again, so an
// assignment the operator withdraws stops the sends at once.
import type { Config } from '../config.ts';
import type { Db } from '../db/connect.ts';
import { findWhatsappNumber } from '../db/queries/whatsapp.queries.ts';
import type { WhatsappSettingsTable } from '../db/tables/index.ts';
import type { SecretKeys } from '../secret-keys.ts';

export type SettingsRow = Pick<WhatsappSettingsTable, 'phone_number_id' | 'token_sealed' | 'token_last4' | 'business_account_id' | 'credentials_verified_at'>;
export interface SenderDeps {
  db: Db;
  config: Config;
  secrets: SecretKeys;
}

/** The additional authenticated data of a store's sealed WhatsApp token: it opens on this row only. */
export const whatsappTokenContext = (storeId: string) => `whatsapp_settings.token_sealed:${storeId}`;

export const notAssigned = (id: string) =>
  `phone_number_id ${id} is not assigned to this account: the operator assigns the server's numbers (codrail whatsapp numbers assign ${id} --account …), or set the store's own access_token and business_account_id`;

export type Sender = { ok: true; phoneNumberId: string; token: string | undefined; source: 'store' | 'server' } | { ok: false; problem: string };

/** Who a store's messages leave as, now; or why none can. */
export async function senderOf(deps: SenderDeps, store: { id: string; account_id: string }, row: SettingsRow | undefined): Promise<Sender> {
  const id = row?.phone_number_id;
  if (!id) return { ok: false, problem: 'the store has no WhatsApp phone_number_id (update_whatsapp_settings)' };
  const number = await findWhatsappNumber(deps.db, id);
  if (row.token_sealed) {
    if (!number || number.account_id !== store.account_id || !row.credentials_verified_at) return { ok: false, problem: `phone_number_id ${id} was not verified with the store's credentials: set them again (update_whatsapp_settings)` };
    let token: string;
    try {
      token = deps.secrets.box().open(row.token_sealed, whatsappTokenContext(store.id));
    } catch (error) {
      return { ok: false, problem: `the store's WhatsApp credentials cannot be opened (${(error as Error).message}): set them again (update_whatsapp_settings)` };
    }
    return { ok: true, phoneNumberId: id, token, source: 'store' };
  }
  if (!number || number.account_id !== store.account_id || number.source !== 'operator') return { ok: false, problem: notAssigned(id) };
  return { ok: true, phoneNumberId: id, token: deps.config.whatsappToken, source: 'server' };
}

