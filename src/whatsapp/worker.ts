// The WhatsApp outbox worker inside `codrail serve` (issue 12): claims queued messages on the one
// outbox loop, sends each through the Cloud API from its store's phone-number id, retries what was
// not accepted (5xx, 429, network refusals) with backoff, and fails what cannot be sent. A send whose
// answer was lost may have reached the buyer: it is failed, never resent, so nobody gets a message twice.
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/connect.ts';
import { writeTransaction } from '../db/transaction.ts';
import { insertEvent } from '../db/queries/orders.queries.ts';
import { claimDueMessages, failMessage, findWhatsappSettings, markMessageSent, retryMessage, type MessageRow } from '../db/queries/whatsapp.queries.ts';
import { TEMPLATE_LANGUAGE } from '../domain/whatsapp-template.ts';
import { newId } from '../ids.ts';
import { WHATSAPP_BACKOFF_BASE_MS, WHATSAPP_BACKOFF_MAX_MS, WHATSAPP_CONCURRENCY, WHATSAPP_MAX_ATTEMPTS, WHATSAPP_POLL_MS, WHATSAPP_TIMEOUT_MS } from '../limits.ts';
import { OutboxLoop, backoffMs } from '../outbox/outbox-loop.ts';
import { CloudApiClient, type OutgoingMessage } from './cloud-api.ts';
import type { OutboundClient } from '../http/outbound/outbound-client.ts';
import { classifyFailure } from '../outbox/attempt-failure.ts';
import { intentAfter, type TryRecord } from '../outbox/intent.ts';
import type { Failpoints } from '../failpoints.ts';
import type { SecretKeys } from '../secret-keys.ts';
import { findStore } from '../db/queries/stores.queries.ts';
import { senderOf } from './senders.ts';

export interface WhatsappWorkerDeps {
  config: Config;
  db: Db;
  log: Logger;
  clock: Clock;
  outbound: OutboundClient;
  secrets: SecretKeys;
  failpoints: Failpoints;
}

export class WhatsappWorker {
  readonly #deps: WhatsappWorkerDeps;
  readonly #client: CloudApiClient;
  readonly #loop: OutboxLoop<MessageRow>;

  constructor(deps: WhatsappWorkerDeps) {
    if (!deps.config.whatsappUrl) throw new Error('No WhatsApp Cloud API URL configured');
    this.#deps = deps;
    this.#client = new CloudApiClient({ url: deps.config.whatsappUrl, token: deps.config.whatsappToken, timeoutMs: WHATSAPP_TIMEOUT_MS, outbound: deps.outbound });
    this.#loop = new OutboxLoop<MessageRow>({
      name: 'whatsapp',
      concurrency: WHATSAPP_CONCURRENCY,
      pollMs: WHATSAPP_POLL_MS,
      log: deps.log,
      claim: (limit) => {
        const now = deps.clock.now();
        return writeTransaction(deps.db, (tx) => claimDueMessages(tx, now.toISOString(), new Date(now.getTime() + WHATSAPP_TIMEOUT_MS * 2).toISOString(), limit));
      },
      attempt: (m) => this.#send(m),
    });
  }

  /** A client for a store's own token (the server's client carries CODRAIL_WHATSAPP_TOKEN). */
  #clientWith(token: string | undefined): CloudApiClient {
    return new CloudApiClient({ url: this.#deps.config.whatsappUrl!, token, timeoutMs: WHATSAPP_TIMEOUT_MS, outbound: this.#deps.outbound });
  }

  start(): void {
    this.#loop.start();
  }

  stop(): Promise<void> {
    return this.#loop.stop();
  }

  nudge(): void {
    this.#loop.nudge();
  }

  async #event(m: MessageRow, type: string, data: object, now: string): Promise<void> {
    await insertEvent(this.#deps.db, { id: newId(), order_id: m.order_id, store_id: m.store_id, type, actor: 'system', data: JSON.stringify({ message_id: m.id, ...data }), created_at: now });
  }

  async #send(m: MessageRow): Promise<void> {
    const { db, log, clock } = this.#deps;
    const [settings, store] = await Promise.all([findWhatsappSettings(db, m.store_id), findStore(db, m.store_id)]);
    const now = () => clock.now().toISOString();
    // Checked at every send, not only when the settings were saved: a number the operator unassigned stops at once (issue 19 §4).
    const sender = store ? await senderOf(this.#deps, store, settings) : ({ ok: false, problem: 'the store no longer exists' } as const);
    if (!sender.ok) {
      if (await failMessage(db, m, sender.problem, now())) await this.#event(m, 'whatsapp.failed', { error: sender.problem }, now());
      log.warn({ messageId: m.id, storeId: m.store_id, error: sender.problem }, 'whatsapp: message failed: no sender');
      return;
    }
    const client = sender.source === 'store' ? this.#clientWith(sender.token) : this.#client;
    const message: OutgoingMessage =
      m.type === 'template'
        ? { type: 'template', to: m.to_e164, name: m.template!, language: TEMPLATE_LANGUAGE, parameters: JSON.parse(m.parameters) as string[] }
        : { type: 'text', to: m.to_e164, text: m.body };
    // The claim made the message `sending`: that is its intent, recorded before the request leaves.
    const t: TryRecord = { intentRecorded: true, lookedUpNothing: false };
    try {
      let wamid: string;
      try {
        wamid = await client.send(sender.phoneNumberId, message);
      } catch (error) {
        t.effectError = error;
        throw error;
      }
      await this.#deps.failpoints.hit('whatsapp.after_answer');
      const at = now();
      if (await markMessageSent(db, m, wamid, at)) await this.#event(m, 'whatsapp.sent', { wa_message_id: wamid, attempts: m.attempts }, at);
      log.info({ messageId: m.id, orderId: m.order_id, attempts: m.attempts }, 'whatsapp: sent');
    } catch (error) {
      const failure = classifyFailure(error);
      const at = clock.now();
      // The intent rule (src/outbox/intent.ts): a send that may have reached the buyer stays unresolved,
      // and the Cloud API cannot be asked whether it did, so it is never sent again (not blind, not at all).
      const mayHaveReached = intentAfter(t) === 'keep';
      if (!mayHaveReached && failure.kind === 'retry' && m.attempts < WHATSAPP_MAX_ATTEMPTS) {
        const delay = Math.max(backoffMs(m.attempts, WHATSAPP_BACKOFF_BASE_MS, WHATSAPP_BACKOFF_MAX_MS), Math.min(failure.retryAfterMs ?? 0, WHATSAPP_BACKOFF_MAX_MS));
        await retryMessage(db, m, failure.message, new Date(at.getTime() + delay).toISOString(), at.toISOString());
        log.warn({ messageId: m.id, attempt: m.attempts, retryInMs: delay, error: failure.message }, 'whatsapp: send failed, will retry');
        return;
      }
      const reason = mayHaveReached ? `${failure.message}: it may have reached the buyer, so it is not resent` : failure.message;
      if (await failMessage(db, m, reason, at.toISOString())) await this.#event(m, 'whatsapp.failed', { error: reason, attempts: m.attempts }, at.toISOString());
      log.error({ messageId: m.id, attempts: m.attempts, error: reason }, 'whatsapp: message failed');
    }
  }
}
