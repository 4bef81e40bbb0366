// WhatsApp settings and previews (MCP-TOOLS.md §6.10 rows 57-59): inputs and outputs. Template keys
// are fixed (an object, not a record, §6.10), one per order event that may message the buyer.
import * as v from 'valibot';
import { MESSAGE_STATUSES, PLACEHOLDERS, WHATSAPP_EVENTS } from '../../domain/whatsapp-template.ts';
import { booleanInput, optionalText, orderRefInput, pageOf, textInput, uuidInput } from '../fields.ts';
import { cursorInput, limitInput } from '../pagination.ts';

/** A WhatsApp text message is at most 4,096 characters; templates leave room for the placeholders. */
export const TEMPLATE_MAX = 1_024;

const storeId = uuidInput('store_id', 'Store id (see list_stores).');
const EVENT_TEXT: Record<(typeof WHATSAPP_EVENTS)[number], string> = {
  order_created: 'when an order is created',
  order_confirmed: 'when it is confirmed',
  order_shipped: 'when it ships',
  order_delivered: 'when it is delivered',
};
const eachEvent = <S extends v.GenericSchema>(item: (event: (typeof WHATSAPP_EVENTS)[number]) => S) =>
  Object.fromEntries(WHATSAPP_EVENTS.map((e) => [e, v.optional(item(e))])) as Record<(typeof WHATSAPP_EVENTS)[number], v.OptionalSchema<S, undefined>>;

export const GetWhatsappSettingsInput = v.strictObject({ store_id: storeId });

export const UpdateWhatsappSettingsInput = v.strictObject({
  store_id: storeId,
  enabled: v.optional(booleanInput('enabled', 'Send the enabled messages at all.')),
  sender_number: optionalText('sender_number', 20, 'The business number buyers see, national or +code; "" removes it.'),
  phone_number_id: v.optional(
    v.pipe(
      v.string('phone_number_id must be a string'),
      v.trim(),
      v.regex(/^\d{0,30}$/, 'phone_number_id is the Cloud API phone-number id (digits)'),
      v.description('Cloud API phone-number id to send from. "" removes it.'),
    ),
  ),
  access_token: v.optional(
    v.pipe(
      v.string('access_token must be a string'),
      v.trim(),
      v.maxLength(1_000, 'access_token must be at most 1000 characters'),
      v.regex(/^[\x21-\x7e]*$/, 'access_token must be the Cloud API token as Meta shows it (no spaces)'),
      v.description("The store's own Cloud API token (sealed, never shown); checked live. \"\" removes it."),
    ),
  ),
  business_account_id: v.optional(
    v.pipe(v.string('business_account_id must be a string'), v.trim(), v.regex(/^\d{0,30}$/, 'business_account_id is the WhatsApp Business Account id (digits)'), v.description('WhatsApp Business Account id of the token (numbers are checked against it).')),
  ),
  events: v.optional(v.pipe(v.strictObject(eachEvent((e) => booleanInput(e, `Message the buyer ${EVENT_TEXT[e]}.`))), v.description('Which order events message the buyer; omitted keys stay.'))),
  templates: v.optional(
    v.pipe(
      v.strictObject(eachEvent((e) => textInput(e, 1, TEMPLATE_MAX, `Text sent ${EVENT_TEXT[e]}.`, true))),
      v.description(`Texts with placeholders ${PLACEHOLDERS.map((p) => `{${p}}`).join(' ')}; omitted keys stay.`),
    ),
  ),
});

export const PreviewWhatsappMessageInput = v.strictObject({
  order_id: orderRefInput('order_id', 'Order id or number (1001, TD-1001).'),
  template: v.optional(v.pipe(v.picklist(WHATSAPP_EVENTS, `template must be one of ${WHATSAPP_EVENTS.join(', ')}`), v.description("Render the store's template for this event."))),
  text: v.optional(textInput('text', 1, TEMPLATE_MAX, 'Or render this text (placeholders allowed). Exactly one of template and text.', true)),
});

const perEvent = <S extends v.GenericSchema>(item: S) => v.object(Object.fromEntries(WHATSAPP_EVENTS.map((e) => [e, item])) as Record<(typeof WHATSAPP_EVENTS)[number], S>);

export const WhatsappSettings = v.object({
  store_id: v.string(),
  enabled: v.boolean(),
  sender_number: v.nullable(v.string()),
  phone_number_id: v.nullable(v.string()),
  credentials: v.pipe(
    v.object({
      source: v.pipe(v.picklist(['store', 'server', 'none']), v.description("store: its own token; server: the server's token, number assigned by the operator; none: cannot send (see problem).")),
      business_account_id: v.nullable(v.string()),
      token: v.pipe(v.nullable(v.string()), v.description('The own token masked to its last 4 characters.')),
      verified_at: v.nullable(v.string()),
      problem: v.nullable(v.string()),
    }),
    v.description('Who messages are sent as.'),
  ),
  events: perEvent(v.boolean()),
  templates: perEvent(v.string()),
  placeholders: v.array(v.string()),
  updated_at: v.nullable(v.string()),
});

export const WhatsappPreview = v.object({
  order_id: v.string(),
  to: v.pipe(v.string(), v.description("The buyer's number, E.164.")),
  template: v.nullable(v.string()),
  text: v.string(),
  values: v.record(v.string(), v.string()),
});

export const SendWhatsappMessageInput = v.strictObject({
  order_id: orderRefInput('order_id', 'Order id or number (1001, TD-1001).'),
  template: v.optional(v.pipe(v.picklist(WHATSAPP_EVENTS, `template must be one of ${WHATSAPP_EVENTS.join(', ')}`), v.description("Send the store's template for this event."))),
  text: v.optional(textInput('text', 1, TEMPLATE_MAX, 'Or send this text (placeholders allowed). Exactly one of template and text.', true)),
  idempotency_key: textInput('idempotency_key', 8, 200, 'Your key for this message: a retry with it returns the same message, never sends twice.'),
});

export const ListWhatsappMessagesInput = v.strictObject({
  store_id: v.optional(uuidInput('store_id', 'Only this store (from list_stores).')),
  order_id: v.optional(orderRefInput('order_id', 'Only this order (id or number).')),
  status: v.optional(v.pipe(v.picklist(MESSAGE_STATUSES, `status must be one of ${MESSAGE_STATUSES.join(', ')}`), v.description('Only messages in this status.'))),
  cursor: cursorInput,
  limit: limitInput,
});

export const CancelWhatsappMessageInput = v.strictObject({ message_id: uuidInput('message_id', 'Message id (from send_whatsapp_message or list_whatsapp_messages).') });

export const WhatsappMessage = v.object({
  id: v.string(),
  store_id: v.string(),
  order_id: v.string(),
  to: v.pipe(v.string(), v.description("The buyer's number, E.164.")),
  type: v.picklist(['text', 'template']),
  template: v.nullable(v.string()),
  text: v.pipe(v.string(), v.description('What the buyer reads.')),
  event: v.pipe(v.nullable(v.string()), v.description('The order event that sent it automatically; null when sent by a person or a tool.')),
  status: v.pipe(v.picklist(MESSAGE_STATUSES), v.description('queued → sending → sent → delivered → read; failed; cancelled.')),
  attempts: v.number(),
  last_error: v.nullable(v.string()),
  wa_message_id: v.nullable(v.string()),
  replayed: v.optional(v.pipe(v.boolean(), v.description('The idempotency_key returned an existing message: nothing new was queued.'))),
  created_at: v.string(),
  sent_at: v.nullable(v.string()),
  delivered_at: v.nullable(v.string()),
  read_at: v.nullable(v.string()),
});

export const WhatsappMessagePage = pageOf(WhatsappMessage);
