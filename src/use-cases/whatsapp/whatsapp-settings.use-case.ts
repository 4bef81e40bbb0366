// A store's WhatsApp settings and message previews (MCP-TOOLS.md §6.10 rows 57-59; issue 12). Until
// a store writes its own texts the default Spanish templates apply; everything starts switched off.
import type * as v from 'valibot';
import type { Deps } from '../../app.ts';
import { findWhatsappSettings, saveWhatsappSettings } from '../../db/queries/whatsapp.queries.ts';
import { normalizePhone } from '../../domain/phone.ts';
import { PLACEHOLDERS, unknownPlaceholders, type WhatsappEvent } from '../../domain/whatsapp-template.ts';
import { readWhatsappSettings, renderForOrder } from './buyer-messages.ts';
import { checkAssignedNumber, claimVerifiedNumber, credentialsView, verifyOwnNumber, whatsappTokenContext } from './whatsapp-senders.use-case.ts';
import { conflict, fieldError } from '../../errors.ts';
import type { Caller } from '../caller.ts';
import { orderOf, storeOf, type StoreRow } from '../tenancy.ts';
import type { GetWhatsappSettingsInput, PreviewWhatsappMessageInput, UpdateWhatsappSettingsInput, WhatsappPreview, WhatsappSettings } from './whatsapp.schemas.ts';

type Out<S extends v.GenericSchema> = v.InferOutput<S>;
type PerEvent<T> = Record<WhatsappEvent, T>;

type SettingsDeps = Pick<Deps, 'db' | 'config' | 'secrets' | 'outbound'>;

async function settingsOf(deps: SettingsDeps, store: StoreRow): Promise<Out<typeof WhatsappSettings>> {
  const row = await findWhatsappSettings(deps.db, store.id);
  return {
    store_id: store.id,
    ...(await readWhatsappSettings(deps.db, store.id)),
    credentials: await credentialsView(deps, store, row),
    placeholders: PLACEHOLDERS.map((p) => `{${p}}`),
  };
}

export async function getWhatsappSettings(deps: SettingsDeps, caller: Caller, input: Out<typeof GetWhatsappSettingsInput>) {
  return settingsOf(deps, await storeOf(deps, caller, input.store_id));
}

function checkPlaceholders(field: string, text: string): void {
  const unknown = unknownPlaceholders(text);
  if (unknown.length > 0) throw fieldError(field, `unknown placeholder ${unknown.map((u) => `{${u}}`).join(', ')}: use ${PLACEHOLDERS.map((p) => `{${p}}`).join(' ')}`);
}

/** The store's sealed token, opened; a lost sealing key asks for the token again rather than failing obscurely. */
function storedToken(deps: Pick<Deps, 'secrets'>, storeId: string, sealed: string): string {
  try {
    return deps.secrets.box().open(sealed, whatsappTokenContext(storeId));
  } catch {
    throw fieldError('access_token', "the store's stored token cannot be opened (the sealing key changed): send access_token again");
  }
}

/** Input text: absent keeps the stored value, "" removes it. */
const patch = (input: string | undefined, stored: string | null | undefined): string | null => (input === undefined ? (stored ?? null) : input || null);

/** Saves tried before an edit that keeps meeting another one gives up with a conflict. */
const SAVE_TRIES = 5;

/**
 * Patches a store's settings. Who messages leave as is checked before anything is saved (issue 19
 * §4): with the store's own token, a live call must list phone_number_id among the numbers of
 * business_account_id; without one, the operator must have assigned the number to this account.
 * The patch applies to the settings as saved: when another edit lands between this one's read and
 * its save (two admins, two instances), it is read and checked again, so neither edit is lost.
 */
export async function updateWhatsappSettings(deps: SettingsDeps & Pick<Deps, 'clock'>, caller: Caller, input: Out<typeof UpdateWhatsappSettingsInput>) {
  for (let tries = 1; ; tries++) {
    const store = await storeOf(deps, caller, input.store_id);
    if (await patchSettings(deps, store, input)) return settingsOf(deps, store);
    if (tries === SAVE_TRIES) throw conflict("The store's WhatsApp settings kept changing while this edit was saved: try again");
  }
}

/** One read, check and save of the patch; false when the settings changed since they were read. */
async function patchSettings(deps: SettingsDeps & Pick<Deps, 'clock'>, store: StoreRow, input: Out<typeof UpdateWhatsappSettingsInput>): Promise<boolean> {
  // Turning WhatsApp off would silently stop asking buyers (issue 25): the confirmation goes first.
  if (input.enabled === false && store.confirmation === 'whatsapp')
    throw fieldError('enabled', 'the store asks its buyers to confirm on WhatsApp: set update_store confirmation to off first');
  const row = await findWhatsappSettings(deps.db, store.id);
  const current = await settingsOf(deps, store);
  for (const [event, text] of Object.entries(input.templates ?? {})) if (text !== undefined) checkPlaceholders(`templates.${event}`, text);
  let sender = current.sender_number;
  if (input.sender_number !== undefined) {
    const phone = input.sender_number === '' ? undefined : normalizePhone(input.sender_number, store.country);
    if (input.sender_number !== '' && !phone) throw fieldError('sender_number', `sender_number is not a valid phone number for ${store.country}`);
    sender = phone?.e164 ?? null;
  }
  const phoneNumberId = patch(input.phone_number_id, row?.phone_number_id);
  const businessAccountId = patch(input.business_account_id, row?.business_account_id);
  const newToken = input.access_token || undefined;
  const ownCredentials = newToken !== undefined || (input.access_token === undefined && row?.token_sealed != null);
  let credentials = { token_sealed: null as string | null, token_last4: null as string | null, business_account_id: ownCredentials ? businessAccountId : null, credentials_verified_at: null as string | null };
  if (ownCredentials) {
    if (!businessAccountId) throw fieldError('business_account_id', 'a store that sends with its own access_token names its WhatsApp Business Account (business_account_id)');
    if (!phoneNumberId) throw fieldError('phone_number_id', 'a store that sends with its own access_token names the phone_number_id to send from');
    const token = newToken ?? storedToken(deps, store.id, row!.token_sealed!);
    const changed = newToken !== undefined || phoneNumberId !== row?.phone_number_id || businessAccountId !== row?.business_account_id || !row?.credentials_verified_at;
    let verifiedAt = row?.credentials_verified_at ?? null;
    if (changed) {
      const number = await verifyOwnNumber(deps, token, businessAccountId, phoneNumberId);
      await claimVerifiedNumber(deps, store, businessAccountId, number);
      verifiedAt = deps.clock.now().toISOString();
    }
    credentials = {
      token_sealed: newToken !== undefined ? deps.secrets.box().seal(newToken, whatsappTokenContext(store.id)) : row!.token_sealed!,
      token_last4: newToken !== undefined ? newToken.slice(-4) : row!.token_last4,
      business_account_id: businessAccountId,
      credentials_verified_at: verifiedAt,
    };
  } else if (phoneNumberId && (phoneNumberId !== row?.phone_number_id || input.access_token === '')) await checkAssignedNumber(deps, store.account_id, phoneNumberId);
  const storedTemplates = (row ? JSON.parse(row.templates) : {}) as Partial<PerEvent<string>>;
  return saveWhatsappSettings(
    deps.db,
    {
      store_id: store.id,
      enabled: (input.enabled ?? current.enabled) ? 1 : 0,
      sender_number: sender,
      phone_number_id: phoneNumberId,
      events: JSON.stringify({ ...current.events, ...Object.fromEntries(Object.entries(input.events ?? {}).filter(([, on]) => on !== undefined)) }),
      templates: JSON.stringify({ ...storedTemplates, ...Object.fromEntries(Object.entries(input.templates ?? {}).filter(([, t]) => t !== undefined)) }),
      updated_at: deps.clock.now().toISOString(),
      ...credentials,
    },
    row?.updated_at ?? null,
  );
}

/** The message a buyer would get, without queuing it: a store template, or a text, filled from the order. */
export async function previewWhatsappMessage(deps: Pick<Deps, 'db' | 'config'>, caller: Caller, input: Out<typeof PreviewWhatsappMessageInput>): Promise<Out<typeof WhatsappPreview>> {
  if ((input.template === undefined) === (input.text === undefined)) throw fieldError('template', 'send exactly one of template and text');
  const { order, store } = await orderOf(deps, caller, input.order_id);
  if (input.text !== undefined) checkPlaceholders('text', input.text);
  const settings = await readWhatsappSettings(deps.db, store.id);
  const text = input.text ?? settings.templates[input.template!];
  const rendered = await renderForOrder(deps, deps.db, order, store, text);
  return { order_id: order.id, to: order.telefono_e164, template: input.template ?? null, text: rendered.text, values: rendered.values };
}
