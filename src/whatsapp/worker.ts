// The WhatsApp outbox (issue 12): queued messages, sent through the Cloud API from their store's
// sender. It is one kind of the one outbox machinery (src/outbox/outbox.ts), which claims, retries
// what was not accepted (5xx, 429, a refused connection) with backoff, gives up after a few tries and
// keeps the per-store circuit; this file holds only the send. A send that may have reached the
// buyer (a lost answer, a crash mid-send, a failed record) is never sent again: the Cloud API cannot
// be asked whether it arrived (the intent rule, src/outbox/intent.ts), so nobody gets a message twice.
import { writeTransaction, type Tx } from '../db/transaction.ts';
import type { OutboxTable } from '../db/queries/outbox.queries.ts';
import { findWhatsappSettings, type MessageRow } from '../db/queries/whatsapp.queries.ts';
import { findStore } from '../db/queries/stores.queries.ts';
import { lockForTransaction } from '../db/queries/locks.queries.ts';
import { TEMPLATE_LANGUAGE } from '../domain/whatsapp-template.ts';
import { BUTTONS, buttonPayload, isConfirmationTemplate } from '../domain/confirmation.ts';
import { WHATSAPP_BACKOFF_BASE_MS, WHATSAPP_BACKOFF_MAX_MS, WHATSAPP_CONCURRENCY, WHATSAPP_MAX_ATTEMPTS, WHATSAPP_POLL_MS, WHATSAPP_TIMEOUT_MS } from '../limits.ts';
import { Outbox, type Attempt, type KindDeps, type OutboxKind } from '../outbox/outbox.ts';
import { AttemptFailure } from '../outbox/attempt-failure.ts';
import { CloudApiClient, type OutgoingMessage } from './cloud-api.ts';
import { senderOf } from './senders.ts';
import { applyEarlyReports } from './status-reports.ts';

/** The WhatsApp messages as the outbox machinery sees them: their status is the job's state. */
export const WHATSAPP_MESSAGES: OutboxTable = {
  name: 'whatsapp_messages',
  state: 'status',
  waiting: ['queued'],
  inFlight: 'sending',
  retrying: 'queued',
  done: 'sent',
  dead: 'failed',
  over: ['sent', 'delivered', 'read', 'failed', 'cancelled'],
  // A send interrupted mid-flight (its holder crashed) may have reached the buyer: failed, never resent.
  expiredLease: { fail: 'failed', reason: 'the send was interrupted and may have reached the buyer: not resent (send it again if needed)' },
};

async function send(deps: KindDeps, attempt: Attempt<MessageRow>): Promise<void> {
  const { db, log, clock, config } = deps;
  const m = attempt.job;
  const [settings, store] = await Promise.all([findWhatsappSettings(db, m.store_id), findStore(db, m.store_id)]);
  // Checked at every send, not only when the settings were saved: a number the operator unassigned stops at once (issue 19 §4).
  const sender = store ? await senderOf(deps, store, settings) : ({ ok: false, problem: 'the store no longer exists' } as const);
  if (!sender.ok) throw new AttemptFailure('permanent', sender.problem);
  const client = new CloudApiClient({ url: config.whatsappUrl!, token: sender.source === 'store' ? sender.token : config.whatsappToken, timeoutMs: WHATSAPP_TIMEOUT_MS, outbound: deps.outbound });
  const message: OutgoingMessage =
    m.type === 'template'
      ? {
          type: 'template',
          to: m.to_e164,
          name: m.template!,
          language: TEMPLATE_LANGUAGE,
          parameters: JSON.parse(m.parameters) as string[],
          ...(isConfirmationTemplate(m.template) && { buttons: BUTTONS.map((b) => buttonPayload(b.answer, m.order_id)) }),
        }
      : { type: 'text', to: m.to_e164, text: m.body };
  const wamid = await attempt.act(() => client.send(sender.phoneNumberId, message));
  await deps.failpoints.hit('whatsapp.after_answer');
  const at = clock.now().toISOString();
  // One message id's records, one at a time (the status webhook takes the same lock): READ
  // COMMITTED then sees the reports that overtook this record, with no serialization retries.
  await writeTransaction(db, async (tx) => {
    await lockForTransaction(tx, `wamid:${wamid}`);
    if (!(await attempt.done(tx, { wa_message_id: wamid, sent_at: at }))) return;
    await deps.orderEvents.record(tx, { order_id: m.order_id, store_id: m.store_id, type: 'whatsapp.sent', actor: 'system', data: { message_id: m.id, wa_message_id: wamid, attempts: m.attempts }, created_at: at });
    // Meta's reports can overtake this record (the webhook may reach another instance first).
    await applyEarlyReports(deps, tx, wamid, at);
  }, 'read committed');
  log.info({ messageId: m.id, orderId: m.order_id, attempts: m.attempts }, 'whatsapp: sent');
}

/** A message given up is an order event (and, through it, the seller's `whatsapp.message.failed`). */
async function failed(deps: KindDeps, tx: Tx, m: MessageRow, failure: AttemptFailure, outcome: 'retry' | 'dead', at: string): Promise<void> {
  if (outcome === 'dead') await deps.orderEvents.record(tx, { order_id: m.order_id, store_id: m.store_id, type: 'whatsapp.failed', actor: 'system', data: { message_id: m.id, error: failure.message, attempts: m.attempts }, created_at: at });
}

export function whatsappKind(deps: KindDeps): OutboxKind<MessageRow> {
  return {
    name: 'whatsapp',
    destinationNoun: 'Cloud API',
    subject: (m) => ({ messageId: m.id, orderId: m.order_id }),
    table: WHATSAPP_MESSAGES,
    policy: {
      concurrency: WHATSAPP_CONCURRENCY,
      pollMs: WHATSAPP_POLL_MS,
      leaseMs: WHATSAPP_TIMEOUT_MS * 2,
      backoff: { baseMs: WHATSAPP_BACKOFF_BASE_MS, maxMs: WHATSAPP_BACKOFF_MAX_MS },
      giveUp: { tries: WHATSAPP_MAX_ATTEMPTS },
    },
    onUnknown: 'give_up',
    unknownReason: 'it may have reached the buyer, so it is not resent',
    // The claim made the message `sending`: that is its intent, recorded before the request leaves.
    intentAtClaim: true,
    run: (attempt) => send(deps, attempt),
    failed: (tx, m, failure, outcome, at) => failed(deps, tx, m, failure, outcome, at),
  };
}

/** The WhatsApp outbox of `codrail serve`. */
export class WhatsappWorker extends Outbox<MessageRow> {
  constructor(deps: KindDeps) {
    if (!deps.config.whatsappUrl) throw new Error('No WhatsApp Cloud API URL configured');
    super(deps, whatsappKind(deps));
  }
}
