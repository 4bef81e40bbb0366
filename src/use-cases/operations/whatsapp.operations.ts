// WhatsApp (MCP-TOOLS.md §6.10 rows 57-59): a store's notification settings and message previews.
// Sending, the outbox and message history come with the WhatsApp worker.
import { GetWhatsappSettingsInput, PreviewWhatsappMessageInput, UpdateWhatsappSettingsInput, WhatsappPreview, WhatsappSettings } from '../whatsapp/whatsapp.schemas.ts';
import { getWhatsappSettings, previewWhatsappMessage, updateWhatsappSettings } from '../whatsapp/whatsapp-settings.use-case.ts';
import { CHANGES, READ_ONLY, defineOperation } from './operation.ts';

export const whatsappOperations = [
  defineOperation({
    name: 'get_whatsapp_settings',
    title: 'Get WhatsApp settings',
    description: "A store's WhatsApp notifications: on or off, sender number, Cloud API phone-number id, which order events message the buyer, and the template texts (defaults until changed). Scope: stores:read.",
    scope: 'stores:read',
    annotations: READ_ONLY,
    input: GetWhatsappSettingsInput,
    output: WhatsappSettings,
    hints: { not_found: 'store_id must be a store id from get_account or list_stores.' },
    http: 'GET /stores/:store_id/whatsapp',
    cli: 'whatsapp settings get <store_id>',
    run: getWhatsappSettings,
  }),
  defineOperation({
    name: 'update_whatsapp_settings',
    title: 'Update WhatsApp settings',
    description: 'Patch WhatsApp notifications: enabled, sender number, phone-number id, events (order_created, order_confirmed, order_shipped, order_delivered) and their templates with placeholders {nombre} {producto} {total} {ciudad} {tracking}. Omitted keys stay. Scope: whatsapp:write.',
    scope: 'whatsapp:write',
    annotations: CHANGES,
    input: UpdateWhatsappSettingsInput,
    output: WhatsappSettings,
    hints: { not_found: 'store_id must be a store id from get_account or list_stores.', invalid_input: 'Templates may use only {nombre} {producto} {total} {ciudad} {tracking}.' },
    http: 'PATCH /stores/:store_id/whatsapp',
    cli: 'whatsapp settings update <store_id>',
    run: updateWhatsappSettings,
  }),
  defineOperation({
    name: 'preview_whatsapp_message',
    title: 'Preview WhatsApp message',
    description: "Render a store template (by event) or a text for one order exactly as the buyer would receive it, with the values used; nothing is queued or sent. Scope: orders:read.",
    scope: 'orders:read',
    annotations: READ_ONLY,
    input: PreviewWhatsappMessageInput,
    output: WhatsappPreview,
    hints: { not_found: 'order_id must be an order id from list_orders.', invalid_input: 'Send exactly one of template and text.' },
    http: 'GET /orders/:order_id/whatsapp-preview',
    cli: 'whatsapp preview <order_id>',
    run: previewWhatsappMessage,
  }),
];
