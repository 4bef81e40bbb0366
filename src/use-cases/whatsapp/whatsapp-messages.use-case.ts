// WhatsApp messages to an order's buyer (MCP-TOOLS.md §6.10 rows 60-62; issue 12): queued in the
// outbox (the worker sends them), listed with their statuses, cancelled while still queued. A send
// requires an idempotency_key: the same key and request return the same message, another request
// under a used key is a conflict, so a retried call never messages the buyer twice.
import { createHash } from 'node:crypto';
import type * as v from 'valibot';
import type { Deps } from '../../app.ts';
import { writeTransaction } from '../../db/transaction.ts';
import { cancelQueuedMessage, findMessage, findMessageByKey, listMessages, type MessageRow } from '../../db/queries/whatsapp.queries.ts';
import { findStore } from '../../db/queries/stores.queries.ts';
import { stableJson } from '../../domain/stable-json.ts';
import { unknownPlaceholders, PLACEHOLDERS } from '../../domain/whatsapp-template.ts';
import { conflict, fieldError, invalidState } from '../../errors.ts';
import { sees, type Caller } from '../caller.ts';
import { clampLimit, keysetPage, pageAfter } from '../pagination.ts';
import { notFoundIn, orderOf, storeOf } from '../tenancy.ts';
import { queueMessage, readWhatsappSettings, renderForOrder } from './buyer-messages.ts';
import type { CancelWhatsappMessageInput, ListWhatsappMessagesInput, SendWhatsappMessageInput, WhatsappMessage, WhatsappMessagePage } from './whatsapp.schemas.ts';

type Out<S extends v.GenericSchema> = v.InferOutput<S>;

export function messageView(m: MessageRow): Out<typeof WhatsappMessage> {
  return {
    id: m.id,
    store_id: m.store_id,
    order_id: m.order_id,
    to: m.to_e164,
    type: m.type,
    template: m.template,
    text: m.body,
    event: m.event,
    status: m.status,
    attempts: m.attempts,
    last_error: m.last_error,
    wa_message_id: m.wa_message_id,
    created_at: m.created_at,
    sent_at: m.sent_at,
    delivered_at: m.delivered_at,
    read_at: m.read_at,
  };
}

export async function sendWhatsappMessage(deps: Pick<Deps, 'db' | 'config' | 'clock' | 'nudge' | 'orderEvents'>, caller: Caller, input: Out<typeof SendWhatsappMessageInput>) {
  if ((input.template === undefined) === (input.text === undefined)) throw fieldError('template', 'send exactly one of template and text');
  const { order, store } = await orderOf(deps, caller, input.order_id);
  if (input.text !== undefined) {
    const unknown = unknownPlaceholders(input.text);
    if (unknown.length) throw fieldError('text', `unknown placeholder ${unknown.map((u) => `{${u}}`).join(', ')}: use ${PLACEHOLDERS.map((p) => `{${p}}`).join(' ')}`);
  }
  const hash = createHash('sha256').update(stableJson({ order_id: order.id, template: input.template ?? null, text: input.text ?? null })).digest('hex');
  const replay = async () => {
    const existing = await findMessageByKey(deps.db, store.id, input.idempotency_key);
    if (!existing) return undefined;
    if (existing.request_hash !== hash) throw conflict('This idempotency_key was used for another message', [{ field: 'idempotency_key', message: 'already used for a different message: use a new key' }]);
    return { ...messageView(existing), replayed: true };
  };
  const earlier = await replay();
  if (earlier) return earlier;
  const settings = await readWhatsappSettings(deps.db, store.id);
  // The store's switch covers every message, by hand too; and a message needs a number to leave from.
  if (!settings.enabled) throw invalidState('WhatsApp is off for this store: switch it on with update_whatsapp_settings (enabled)', [{ field: 'order_id', message: "the order's store has WhatsApp off" }]);
  if (!settings.phone_number_id) throw invalidState('The store has no WhatsApp phone_number_id to send from (update_whatsapp_settings)', [{ field: 'order_id', message: "the order's store has no phone_number_id" }]);
  const text = input.text ?? settings.templates[input.template!];
  const rendered = await renderForOrder(deps, deps.db, order, store, text);
  const now = deps.clock.now().toISOString();
  const kind = input.template !== undefined ? ({ type: 'template', template: input.template } as const) : ({ type: 'text' } as const);
  const row = await writeTransaction(deps.db, (tx) => queueMessage(deps.orderEvents, tx, { order, kind, rendered, event: null, idempotency: { key: input.idempotency_key, hash }, actor: caller.actor, now }));
  // Lost a race with the same key: answer as its replay.
  if (!row) return (await replay())!;
  deps.nudge.whatsapp();
  return { ...messageView(row), replayed: false };
}

export async function listWhatsappMessages(deps: Pick<Deps, 'db'>, caller: Caller, input: Out<typeof ListWhatsappMessagesInput>): Promise<Out<typeof WhatsappMessagePage>> {
  const storeId = input.store_id === undefined ? undefined : (await storeOf(deps, caller, input.store_id)).id;
  const orderId = input.order_id === undefined ? undefined : (await orderOf(deps, caller, input.order_id)).order.id;
  const limit = clampLimit(input.limit);
  const rows = await listMessages(deps.db, { accountId: caller.accountId, storeId, orderId, status: input.status, after: pageAfter(input.cursor), limit: limit + 1 });
  return keysetPage(rows, limit, messageView);
}

export async function cancelWhatsappMessage(deps: Pick<Deps, 'db' | 'clock' | 'orderEvents'>, caller: Caller, input: Out<typeof CancelWhatsappMessageInput>) {
  const message = await findMessage(deps.db, input.message_id.toLowerCase());
  const store = message ? await findStore(deps.db, message.store_id) : undefined;
  if (!message || !store || !sees(caller, store.account_id)) throw notFoundIn('message_id', 'Message');
  if (message.status === 'cancelled') return messageView(message);
  const now = deps.clock.now().toISOString();
  await writeTransaction(deps.db, async (tx) => {
    if (!(await cancelQueuedMessage(tx, message.id, now)))
      throw invalidState(`Only a queued message can be cancelled; this one is ${(await findMessage(tx, message.id))!.status}`, [{ field: 'message_id', message: 'no longer queued' }]);
    await deps.orderEvents.record(tx, { order_id: message.order_id, store_id: message.store_id, type: 'whatsapp.cancelled', actor: caller.actor, data: { message_id: message.id }, created_at: now });
  });
  return messageView((await findMessage(deps.db, message.id))!);
}
