// What a buyer's WhatsApp message says, and the automatic ones (issue 12): a store template or a
// text filled from the order, queued in the WhatsApp outbox in the transaction that changed the
// order, at most once per order and event (a unique index), only for live orders of stores that
// switched the event on. One place for the preview, send_whatsapp_message and the order events.
import type { Deps } from '../../app.ts';
import type { Db } from '../../db/connect.ts';
import type { Tx } from '../../db/transaction.ts';
import { findWhatsappSettings, insertMessage, type MessageRow } from '../../db/queries/whatsapp.queries.ts';
import { findProduct } from '../../db/queries/products.queries.ts';
import { findStore } from '../../db/queries/stores.queries.ts';
import { findJobByOrder, type OrderRow } from '../../db/queries/orders.queries.ts';
import type { OrderStatus } from '../../domain/order-status.ts';
import { DEFAULT_TEMPLATES, EVENT_OF_STATUS, WHATSAPP_EVENTS, renderTemplate, templateParameters, type Placeholder, type WhatsappEvent } from '../../domain/whatsapp-template.ts';
import { newId } from '../../ids.ts';
import { BUYER_ACTOR, type ConfirmationTemplate } from '../../domain/confirmation.ts';
import type { OrderEventSubscriber, OrderEvents } from '../../order-events/order-events.ts';
import { storeMoney } from '../stores/store-money.ts';
import type { StoreRow } from '../tenancy.ts';

type PerEvent<T> = Record<WhatsappEvent, T>;

export interface StoreWhatsapp {
  enabled: boolean;
  sender_number: string | null;
  phone_number_id: string | null;
  events: PerEvent<boolean>;
  templates: PerEvent<string>;
  updated_at: string | null;
}

/** A store's settings with the defaults filled in (everything off, the Spanish default texts). */
export async function readWhatsappSettings(db: Db | Tx, storeId: string): Promise<StoreWhatsapp> {
  const row = await findWhatsappSettings(db, storeId);
  const events = (row ? JSON.parse(row.events) : {}) as Partial<PerEvent<boolean>>;
  const templates = (row ? JSON.parse(row.templates) : {}) as Partial<PerEvent<string>>;
  return {
    enabled: row?.enabled === 1,
    sender_number: row?.sender_number ?? null,
    phone_number_id: row?.phone_number_id ?? null,
    events: Object.fromEntries(WHATSAPP_EVENTS.map((e) => [e, events[e] ?? false])) as PerEvent<boolean>,
    templates: Object.fromEntries(WHATSAPP_EVENTS.map((e) => [e, templates[e] ?? DEFAULT_TEMPLATES[e]])) as PerEvent<string>,
    updated_at: row?.updated_at ?? null,
  };
}

export interface Rendered {
  text: string;
  values: Record<Placeholder, string>;
  /** A template message's body parameters, in the order its text names the placeholders. */
  parameters: string[];
}

/** The placeholders' values for an order: first name, product and units, formatted total, city, tracking. */
export async function renderForOrder(deps: Pick<Deps, 'config'>, db: Db | Tx, order: OrderRow, store: Pick<StoreRow, 'currency' | 'country'>, text: string): Promise<Rendered> {
  const [product, job] = await Promise.all([findProduct(db, order.product_id), order.tracking_number ? undefined : findJobByOrder(db, order.id)]);
  const units = order.pack_units * order.quantity;
  const values: Record<Placeholder, string> = {
    nombre: order.nombre.split(/\s+/)[0] ?? order.nombre,
    producto: `${product?.name ?? ''}${units > 1 ? ` (${units} unidades)` : ''}`,
    total: storeMoney(deps, store).format(order.total_price_minor),
    ciudad: order.ciudad,
    // The address as it will be shipped: the street line and, when given, the neighbourhood.
    direccion: order.barrio ? `${order.direccion}, ${order.barrio}` : order.direccion,
    tracking: order.tracking_number ?? job?.remote_id ?? 'pendiente',
  };
  return { text: renderTemplate(text, values), values, parameters: templateParameters(text, values) };
}

export interface NewMessage {
  order: OrderRow;
  kind: { type: 'template'; template: WhatsappEvent | ConfirmationTemplate } | { type: 'text' };
  /** What the buyer reads, and a template's body parameters. */
  rendered: Pick<Rendered, 'text' | 'parameters'>;
  /** The event it is the one message of (at most one per order and event), or null (replies, sent messages). */
  event: WhatsappEvent | ConfirmationTemplate | null;
  idempotency: { key: string; hash: string } | null;
  actor: string;
  now: string;
}

/** Queues one message and its order event; undefined when the event or key already has one. */
export async function queueMessage(events: OrderEvents, tx: Tx, m: NewMessage): Promise<MessageRow | undefined> {
  const row: MessageRow = {
    id: newId(),
    store_id: m.order.store_id,
    order_id: m.order.id,
    to_e164: m.order.telefono_e164,
    type: m.kind.type,
    template: m.kind.type === 'template' ? m.kind.template : null,
    body: m.rendered.text,
    parameters: JSON.stringify(m.kind.type === 'template' ? m.rendered.parameters : []),
    event: m.event,
    idempotency_key: m.idempotency?.key ?? null,
    request_hash: m.idempotency?.hash ?? null,
    status: 'queued',
    attempts: 0,
    next_attempt_at: m.now,
    lease_until: null,
    last_error: null,
    wa_message_id: null,
    actor: m.actor,
    created_at: m.now,
    updated_at: m.now,
    sent_at: null,
    delivered_at: null,
    read_at: null,
    first_attempt_at: null,
    unknown_outcome: 0,
    destination: whatsappDestination(m.order.store_id),
  };
  if (!(await insertMessage(tx, row))) return undefined;
  await events.record(tx, {
    order_id: m.order.id,
    store_id: m.order.store_id,
    type: 'whatsapp.queued',
    actor: m.actor,
    data: { message_id: row.id, type: row.type, template: row.template, event: m.event },
    created_at: m.now,
  });
  return row;
}

/** Where a store's messages go, for the outbox's circuit (src/outbox/circuit.ts): its sender. */
export const whatsappDestination = (storeId: string) => `whatsapp:${storeId}`;

/** The automatic message of an order event, if the store switched it on; live orders only. */
async function notifyBuyer(deps: Pick<Deps, 'config'>, events: OrderEvents, tx: Tx, order: OrderRow, event: WhatsappEvent, now: string): Promise<void> {
  if (order.sandbox === 1) return;
  const settings = await readWhatsappSettings(tx, order.store_id);
  if (!settings.enabled || !settings.events[event]) return;
  const store = await findStore(tx, order.store_id);
  if (!store || (event === 'order_created' && store.confirmation === 'whatsapp')) return;
  const rendered = await renderForOrder(deps, tx, order, store, settings.templates[event]);
  await queueMessage(events, tx, { order, kind: { type: 'template', template: event }, rendered, event, idempotency: null, actor: 'system', now });
}

/**
 * The buyer's automatic WhatsApp notices, as a subscriber of the one order-event writer: a live order
 * created, and its status moved to confirmed, shipped or delivered (by a person or by the platform),
 * each queue the store's template for that event, in the transaction of the change.
 */
export const whatsappNotices =
  (deps: Pick<Deps, 'config'>, events: OrderEvents): OrderEventSubscriber =>
  async (tx, event, order) => {
    if (!order) return;
    // A store that asks buyers to confirm sends the request instead (src/use-cases/orders/confirmation.use-case.ts).
    if (event.type === 'order.created') return notifyBuyer(deps, events, tx, order, 'order_created', event.created_at);
    if (event.type !== 'order.status_changed') return;
    const to = event.data.to as OrderStatus;
    // The buyer who tapped Confirmar already read the answer to their tap.
    if (to === 'confirmed' && event.actor === BUYER_ACTOR) return;
    const notice = Object.hasOwn(EVENT_OF_STATUS, to) ? EVENT_OF_STATUS[to] : undefined;
    if (notice) await notifyBuyer(deps, events, tx, order, notice, event.created_at);
  };
