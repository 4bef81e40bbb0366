// The buyer confirms before the parcel ships (issue 25 §1–§2; states in src/domain/confirmation.ts).
// A live order of a store with `confirmation: whatsapp` asks its buyer with a template message and
// three quick-reply buttons. The buyer's tap comes back through the signed WhatsApp webhook and is
// answered here, in one transaction with the change it makes: Confirmar confirms (actor `buyer`; an
// on_confirm store's push follows), Cancelar cancels, Corregir dirección sends a one-time link to
// the correction page. A text reply is kept on the timeline and flagged for support. Silence gets
// one reminder, then the order joins the call queue. A tap that changes nothing — a second one, or
// one after the push or a cancel — gets a polite answer and changes nothing.
//
// Whoever confirms (the buyer, support, the store's automation) is recorded on the order, by the
// subscriber below, whatever path the confirmation took.
import { createHash, randomBytes } from 'node:crypto';
import type { Deps } from '../../app.ts';
import { writeTransaction, type Tx } from '../../db/transaction.ts';
import { findOrder, findOrderByCorrectionHash, dueConfirmations, updateOrder, type OrderRow } from '../../db/queries/orders.queries.ts';
import { findStore } from '../../db/queries/stores.queries.ts';
import { findInboundOrder, findMessageByWamid, rememberInbound, latestOrderOfPhone } from '../../db/queries/whatsapp.queries.ts';
import {
  BUYER_ACTOR,
  BUYER_CANCEL_REASON,
  CONFIRMATION_TEMPLATES,
  CORRECTION_LINK_HOURS,
  REPLIES,
  WAITING,
  confirmedByOf,
  parsePayload,
  type Answer,
  type ConfirmationTemplate,
} from '../../domain/confirmation.ts';
import { cleanBuyerText } from '../../domain/clean-text.ts';
import type { OrderEventSubscriber, OrderEvents } from '../../order-events/order-events.ts';
import { queueMessage, readWhatsappSettings, renderForOrder } from '../whatsapp/buyer-messages.ts';
import { displayNumber, type StoreRow } from '../tenancy.ts';
import { cancelInTx, changeStatus, followPolicy, pushStarted } from './order-life.use-case.ts';
import { changesRisk, refreshRiskOn } from './order-risk.ts';

type ConfirmDeps = Pick<Deps, 'config' | 'orderEvents'>;

const MINUTE_MS = 60_000;
const later = (now: string, minutes: number) => new Date(Date.parse(now) + minutes * MINUTE_MS).toISOString();

/** States a person's decision, or the order moving on, closes (the timers stop). */
const OPEN: ReadonlySet<string> = new Set(['asked', 'reminded', 'call', 'replied', 'correcting']);

async function queueTemplate(deps: ConfirmDeps, tx: Tx, order: OrderRow, store: StoreRow, template: ConfirmationTemplate, now: string): Promise<boolean> {
  const rendered = await renderForOrder(deps, tx, order, store, CONFIRMATION_TEMPLATES[template]);
  return (await queueMessage(deps.orderEvents, tx, { order, kind: { type: 'template', template }, rendered, event: template, idempotency: null, actor: 'system', now })) !== undefined;
}

/** A text to the buyer, within the 24-hour window their own message opened. */
export async function reply(deps: ConfirmDeps, tx: Tx, order: OrderRow, text: string, now: string): Promise<void> {
  await queueMessage(deps.orderEvents, tx, {
    order,
    kind: { type: 'text' },
    rendered: { text, parameters: [] },
    event: null,
    idempotency: null,
    actor: 'system',
    now,
  });
}

/** A live order of a store that asks: the request goes out with the order, and the clock starts. */
async function askBuyer(deps: ConfirmDeps, tx: Tx, order: OrderRow, now: string): Promise<void> {
  if (order.sandbox === 1) return;
  const store = await findStore(tx, order.store_id);
  if (store?.confirmation !== 'whatsapp') return;
  if (!(await readWhatsappSettings(tx, store.id)).enabled) return;
  if (!(await queueTemplate(deps, tx, order, store, 'confirmation_request', now))) return;
  await updateOrder(tx, order.id, { confirmation: 'asked', confirmation_asked_at: now, confirmation_due_at: later(now, store.confirmation_minutes) });
}

/**
 * The subscriber of the one order-event writer: asks at creation, records who confirmed whatever
 * path the confirmation took, closes an open confirmation when the order moves on without it, and
 * keeps the return-risk score current (src/use-cases/orders/order-risk.ts).
 */
export const confirmationFollowUp =
  (deps: Pick<Deps, 'config'>, events: OrderEvents): OrderEventSubscriber =>
  async (tx, event, order) => {
    if (!order) return;
    const d = { config: deps.config, orderEvents: events };
    if (event.type === 'order.created') return askBuyer(d, tx, order, event.created_at);
    if (event.type === 'order.status_changed') {
      const to = String(event.data.to);
      if (to === 'confirmed')
        await updateOrder(tx, order.id, {
          confirmed_by: confirmedByOf(event.actor),
          confirmed_at: event.created_at,
          ...(order.confirmation && OPEN.has(order.confirmation) && { confirmation: 'answered', confirmation_due_at: null }),
        });
      else if (to === 'pending') await updateOrder(tx, order.id, { confirmed_by: null, confirmed_at: null });
      else if (order.confirmation && OPEN.has(order.confirmation)) await updateOrder(tx, order.id, { confirmation: 'answered', confirmation_due_at: null });
    } else if (event.type === 'order.cancelled' && order.confirmation && OPEN.has(order.confirmation))
      await updateOrder(tx, order.id, { confirmation: 'answered', confirmation_due_at: null });
    // Most events (messages sent, notes, pushes) change nothing the score sees: no more reads for them.
    if (!changesRisk(event)) return;
    const current = (await findOrder(tx, order.id))!;
    await refreshRiskOn(tx, event, current, async (open) => {
      const store = await findStore(tx, open.store_id);
      if (store) await followPolicy(tx, open, store, event.created_at);
    });
    // The order's own score may have crossed its store's risk hold.
    if (current.status === 'pending') {
      const store = await findStore(tx, current.store_id);
      if (store && store.risk_hold !== null) await followPolicy(tx, (await findOrder(tx, order.id))!, store, event.created_at);
    }
  };

export type TapOutcome = 'confirmed' | 'cancelled' | 'correcting' | 'unchanged' | 'noted' | 'ignored';

/** What the buyer's tap on a button does to the order, in the caller's transaction. */
async function answerTap(deps: ConfirmDeps, tx: Tx, order: OrderRow, store: StoreRow, answer: Answer, now: string): Promise<TapOutcome> {
  const n = displayNumber(order, store);
  const polite = async (text: string) => (await reply(deps, tx, order, text, now), 'unchanged' as const);
  if (order.status === 'cancelled') return polite(REPLIES.alreadyCancelled(n));
  if (order.status !== 'pending' && order.status !== 'confirmed') return polite(order.status === 'processing' && answer !== 'cancel' ? REPLIES.alreadyConfirmed(n) : REPLIES.alreadyShipped(n));
  const pushed = await pushStarted(tx, order.id);
  if (answer === 'confirm') {
    if (order.status === 'confirmed') return polite(REPLIES.alreadyConfirmed(n));
    await changeStatus(deps, tx, order, store, BUYER_ACTOR, 'confirmed', null, now);
    await reply(deps, tx, order, REPLIES.confirmed(n), now);
    return 'confirmed';
  }
  if (answer === 'cancel') {
    if (pushed) {
      // The platform has it: a person cancels it there. Support sees the request on the timeline and in the queue.
      await deps.orderEvents.record(tx, { order_id: order.id, store_id: order.store_id, type: 'confirmation.late_cancel', actor: BUYER_ACTOR, data: { reason: 'the buyer asked to cancel after the push' }, created_at: now });
      await updateOrder(tx, order.id, { confirmation: 'replied', confirmation_due_at: null });
      await reply(deps, tx, order, REPLIES.tooLateToCancel(n), now);
      return 'noted';
    }
    await cancelInTx(deps, tx, order, BUYER_ACTOR, BUYER_CANCEL_REASON, 'the buyer tapped Cancelar', now);
    await reply(deps, tx, order, REPLIES.cancelled(n), now);
    return 'cancelled';
  }
  // Corregir dirección: only while the address is still ours to change.
  if (order.status === 'confirmed' && order.confirmation === 'answered') return polite(REPLIES.alreadyConfirmed(n));
  if (pushed) return polite(REPLIES.alreadyShipped(n));
  const token = randomBytes(24).toString('base64url');
  await updateOrder(tx, order.id, {
    confirmation: 'correcting',
    confirmation_due_at: later(now, store.confirmation_minutes),
    correction_token_hash: correctionHash(token),
    correction_expires_at: later(now, CORRECTION_LINK_HOURS * 60),
  });
  await deps.orderEvents.record(tx, { order_id: order.id, store_id: order.store_id, type: 'confirmation.correction_requested', actor: BUYER_ACTOR, data: { expires_in_hours: CORRECTION_LINK_HOURS }, created_at: now });
  await reply(deps, tx, order, REPLIES.correct(n, `${deps.config.baseUrl}/c/${token}`, CORRECTION_LINK_HOURS), now);
  return 'correcting';
}

export const correctionHash = (token: string) => createHash('sha256').update(token).digest('hex');

export interface InboundMessage {
  /** Meta's id of the buyer's message: a retried webhook carries it again. */
  id: string;
  /** The buyer's number, digits only, as Meta sends it. */
  from: string;
  type: string;
  /** A button's payload (template quick reply) or id (interactive reply). */
  payload?: string | undefined;
  text?: string | undefined;
  /** The id of our message the buyer answered, when the app says. */
  contextId?: string | undefined;
  /** The business number that received it. */
  phoneNumberId?: string | undefined;
}

const digits = (e164: string) => e164.replace(/^\+/, '');

/**
 * One inbound message from a buyer, applied once (its id is remembered in the same transaction). A
 * tap must come from the phone of the order its button names; anything else is ignored.
 */
export async function receiveBuyerMessage(deps: Pick<Deps, 'db' | 'clock' | 'config' | 'orderEvents' | 'nudge' | 'log'>, m: InboundMessage): Promise<TapOutcome> {
  const now = deps.clock.now().toISOString();
  const outcome = await writeTransaction(deps.db, async (tx): Promise<TapOutcome> => {
    if (await findInboundOrder(tx, m.id)) return 'ignored';
    const tap = m.payload !== undefined ? parsePayload(m.payload) : undefined;
    let order: OrderRow | undefined;
    if (tap) order = await findOrder(tx, tap.orderId);
    else if (m.contextId) {
      const ours = await findMessageByWamid(tx, m.contextId);
      order = ours ? await findOrder(tx, ours.order_id) : undefined;
    }
    order ??= m.payload === undefined ? await latestOrderOfPhone(tx, `+${m.from}`, m.phoneNumberId) : undefined;
    if (!order || digits(order.telefono_e164) !== m.from || order.sandbox === 1) {
      deps.log.info({ waMessageId: m.id, type: m.type }, 'whatsapp: inbound message matches no order of its sender: ignored');
      await rememberInbound(tx, { wa_message_id: m.id, order_id: null, from_e164: `+${m.from}`, type: m.type, received_at: now });
      return 'ignored';
    }
    await rememberInbound(tx, { wa_message_id: m.id, order_id: order.id, from_e164: order.telefono_e164, type: m.type, received_at: now });
    const store = (await findStore(tx, order.store_id))!;
    if (tap) return answerTap(deps, tx, order, store, tap.answer, now);
    // Anything else the buyer writes: on the timeline, for support to read; the confirmation waits for them.
    const text = cleanBuyerText(m.text ?? `(${m.type})`).slice(0, 1_000);
    await deps.orderEvents.record(tx, { order_id: order.id, store_id: order.store_id, type: 'confirmation.buyer_replied', actor: BUYER_ACTOR, data: { text, message_type: m.type }, created_at: now });
    if (order.confirmation !== null && order.confirmation !== 'answered' && order.confirmation !== 'replied') {
      await updateOrder(tx, order.id, { confirmation: 'replied', confirmation_due_at: null });
      await reply(deps, tx, order, REPLIES.noted(displayNumber(order, store)), now);
    }
    return 'noted';
  });
  if (outcome !== 'ignored') {
    deps.nudge.whatsapp();
    deps.nudge.fulfillment();
  }
  return outcome;
}

/**
 * The confirmation clock, run by `serve` every few seconds: an order asked and not answered in its
 * store's `confirmation_minutes` gets the one reminder; reminded (or sent a correction link) and
 * still silent after as long again, it joins the call queue. Each order moves in its own transaction.
 */
export async function runConfirmationTimers(deps: Pick<Deps, 'db' | 'clock' | 'config' | 'orderEvents' | 'nudge'>, limit = 200): Promise<{ reminded: number; queued: number }> {
  const now = deps.clock.now().toISOString();
  let reminded = 0;
  let queued = 0;
  for (const due of await dueConfirmations(deps.db, now, limit)) {
    const moved = await writeTransaction(deps.db, async (tx) => {
      const order = await findOrder(tx, due.id);
      if (!order || !order.confirmation || !WAITING.has(order.confirmation) || !order.confirmation_due_at || order.confirmation_due_at > now) return undefined;
      const store = (await findStore(tx, order.store_id))!;
      if (order.status !== 'pending') {
        await updateOrder(tx, order.id, { confirmation: 'answered', confirmation_due_at: null });
        return undefined;
      }
      if (order.confirmation === 'asked') {
        await queueTemplate(deps, tx, order, store, 'confirmation_reminder', now);
        await updateOrder(tx, order.id, { confirmation: 'reminded', confirmation_due_at: later(now, store.confirmation_minutes) });
        return 'reminded' as const;
      }
      await updateOrder(tx, order.id, { confirmation: 'call', confirmation_due_at: null });
      await deps.orderEvents.record(tx, { order_id: order.id, store_id: order.store_id, type: 'confirmation.unanswered', actor: 'system', data: { asked_at: order.confirmation_asked_at, waited_from: order.confirmation }, created_at: now });
      return 'call' as const;
    });
    if (moved === 'reminded') reminded++;
    else if (moved === 'call') queued++;
  }
  if (reminded > 0) deps.nudge.whatsapp();
  return { reminded, queued };
}

/** The order a correction link opens, while it is valid: unknown, used and expired links are all "not valid". */
export async function orderOfCorrection(deps: Pick<Deps, 'db' | 'clock'>, token: string): Promise<OrderRow | undefined> {
  if (!/^[A-Za-z0-9_-]{20,64}$/.test(token)) return undefined;
  const order = await findOrderByCorrectionHash(deps.db, correctionHash(token));
  if (!order || !order.correction_expires_at || order.correction_expires_at <= deps.clock.now().toISOString()) return undefined;
  return order;
}
