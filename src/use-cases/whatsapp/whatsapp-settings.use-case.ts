// A store's WhatsApp settings and message previews (MCP-TOOLS.md §6.10 rows 57-59; issue 12). Until
// a store writes its own texts the default Spanish templates apply; everything starts switched off.
import type * as v from 'valibot';
import type { Deps } from '../../app.ts';
import { findWhatsappSettings, saveWhatsappSettings } from '../../db/queries/whatsapp.queries.ts';
import { normalizePhone } from '../../domain/phone.ts';
import { PLACEHOLDERS, unknownPlaceholders, type WhatsappEvent } from '../../domain/whatsapp-template.ts';
import { readWhatsappSettings, renderForOrder } from './buyer-messages.ts';
import { fieldError } from '../../errors.ts';
import type { Caller } from '../caller.ts';
import { orderOf, storeOf, type StoreRow } from '../tenancy.ts';
import type { GetWhatsappSettingsInput, PreviewWhatsappMessageInput, UpdateWhatsappSettingsInput, WhatsappPreview, WhatsappSettings } from './whatsapp.schemas.ts';

type Out<S extends v.GenericSchema> = v.InferOutput<S>;
type PerEvent<T> = Record<WhatsappEvent, T>;

async function settingsOf(deps: Pick<Deps, 'db'>, store: StoreRow): Promise<Out<typeof WhatsappSettings>> {
  return { store_id: store.id, ...(await readWhatsappSettings(deps.db, store.id)), placeholders: PLACEHOLDERS.map((p) => `{${p}}`) };
}

export async function getWhatsappSettings(deps: Pick<Deps, 'db'>, caller: Caller, input: Out<typeof GetWhatsappSettingsInput>) {
  return settingsOf(deps, await storeOf(deps, caller, input.store_id));
}

function checkPlaceholders(field: string, text: string): void {
  const unknown = unknownPlaceholders(text);
  if (unknown.length > 0) throw fieldError(field, `unknown placeholder ${unknown.map((u) => `{${u}}`).join(', ')}: use ${PLACEHOLDERS.map((p) => `{${p}}`).join(' ')}`);
}

export async function updateWhatsappSettings(deps: Pick<Deps, 'db' | 'clock'>, caller: Caller, input: Out<typeof UpdateWhatsappSettingsInput>) {
  const store = await storeOf(deps, caller, input.store_id);
  const current = await settingsOf(deps, store);
  for (const [event, text] of Object.entries(input.templates ?? {})) if (text !== undefined) checkPlaceholders(`templates.${event}`, text);
  let sender = current.sender_number;
  if (input.sender_number !== undefined) {
    const phone = input.sender_number === '' ? undefined : normalizePhone(input.sender_number, store.country);
    if (input.sender_number !== '' && !phone) throw fieldError('sender_number', `sender_number is not a valid phone number for ${store.country}`);
    sender = phone?.e164 ?? null;
  }
  const row = await findWhatsappSettings(deps.db, store.id);
  const storedTemplates = (row ? JSON.parse(row.templates) : {}) as Partial<PerEvent<string>>;
  await saveWhatsappSettings(deps.db, {
    store_id: store.id,
    enabled: (input.enabled ?? current.enabled) ? 1 : 0,
    sender_number: sender,
    phone_number_id: input.phone_number_id === undefined ? current.phone_number_id : input.phone_number_id || null,
    events: JSON.stringify({ ...current.events, ...Object.fromEntries(Object.entries(input.events ?? {}).filter(([, on]) => on !== undefined)) }),
    templates: JSON.stringify({ ...storedTemplates, ...Object.fromEntries(Object.entries(input.templates ?? {}).filter(([, t]) => t !== undefined)) }),
    updated_at: deps.clock.now().toISOString(),
  });
  return settingsOf(deps, store);
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
