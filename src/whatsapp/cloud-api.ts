// A client of the WhatsApp Cloud API's send endpoint (Graph API `POST /{phone-number-id}/messages`,
// bearer token; issue 12), or of anything compatible such as `codrail whatsapp sim`, on the one
// guarded outbound path (src/http/outbound): failures are OutboundErrors, classified for the outbox
// like every other destination's (src/outbox/attempt-failure.ts). The token travels in the
// Authorization header only.
import * as v from 'valibot';
import type { OutboundClient } from '../http/outbound/outbound-client.ts';
import { OutboundError } from '../http/outbound/outbound-error.ts';
import { WHATSAPP_ANSWER_MAX_BYTES } from '../limits.ts';

export type OutgoingMessage =
  | { type: 'text'; to: string; text: string }
  | { type: 'template'; to: string; name: string; language: string; parameters: readonly string[]; buttons?: readonly string[] };

/** The Cloud API's answer to a send: the recipient and the message id its status webhooks carry. */
const SendAnswerSchema = v.object({
  messages: v.pipe(v.array(v.object({ id: v.pipe(v.string(), v.minLength(1)) })), v.minLength(1)),
});

/** The request body of the Cloud API (developers.facebook.com/docs/whatsapp/cloud-api/reference/messages). */
export function cloudApiBody(message: OutgoingMessage): object {
  const to = message.to.replace(/^\+/, '');
  if (message.type === 'text') return { messaging_product: 'whatsapp', recipient_type: 'individual', to, type: 'text', text: { preview_url: false, body: message.text } };
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to,
    type: 'template',
    template: {
      name: message.name,
      language: { code: message.language },
      components: [
        ...(message.parameters.length ? [{ type: 'body', parameters: message.parameters.map((text) => ({ type: 'text', text })) }] : []),
        // Quick-reply buttons carry a payload the buyer's tap brings back (issue 25).
        ...(message.buttons ?? []).map((payload, index) => ({ type: 'button', sub_type: 'quick_reply', index: String(index), parameters: [{ type: 'payload', payload }] })),
      ],
    },
  };
}

export class CloudApiClient {
  readonly #base: string;
  readonly #token: string | undefined;
  readonly #timeoutMs: number;
  readonly #outbound: OutboundClient;

  constructor(options: { url: string; token: string | undefined; timeoutMs: number; outbound: OutboundClient }) {
    this.#base = options.url.replace(/\/+$/, '');
    this.#token = options.token;
    this.#timeoutMs = options.timeoutMs;
    this.#outbound = options.outbound;
  }

  /** Sends one message; resolves with its `wamid`. */
  async send(phoneNumberId: string, message: OutgoingMessage): Promise<string> {
    const what = 'POST /{phone-number-id}/messages';
    const answer = await this.#outbound.sendJson({
      url: `${this.#base}/${encodeURIComponent(phoneNumberId)}/messages`,
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(this.#token ? { authorization: `Bearer ${this.#token}` } : {}) },
      body: JSON.stringify(cloudApiBody(message)),
      // The Cloud API base is the operator's configuration (`codrail whatsapp sim` on this machine included).
      addresses: 'any',
      deadlineMs: this.#timeoutMs,
      maxBytes: WHATSAPP_ANSWER_MAX_BYTES,
      what,
      describeError: graphError,
    });
    const parsed = v.safeParse(SendAnswerSchema, answer.json);
    if (!parsed.success) throw new OutboundError('bad_answer', `${what}: answer has no message id`, { status: answer.status });
    return parsed.output.messages[0]!.id;
  }

  /**
   * The phone numbers of a WhatsApp Business Account, as this token sees them (Graph API
   * `GET /{whatsapp-business-account-id}/phone_numbers`): the live check that a number belongs to the
   * business account whose token a store gave (issue 19 §4). Cursor pages are followed, a few at most.
   */
  async phoneNumbers(businessAccountId: string): Promise<BusinessNumber[]> {
    const what = 'GET /{business-account-id}/phone_numbers';
    const numbers: BusinessNumber[] = [];
    let after: string | undefined;
    for (let page = 0; page < PHONE_NUMBER_PAGES; page++) {
      const query = new URLSearchParams({ fields: 'id,display_phone_number,verified_name', limit: '100', ...(after ? { after } : {}) });
      const answer = await this.#outbound.sendJson({
        url: `${this.#base}/${encodeURIComponent(businessAccountId)}/phone_numbers?${query}`,
        headers: this.#token ? { authorization: `Bearer ${this.#token}` } : {},
        addresses: 'any',
        deadlineMs: this.#timeoutMs,
        maxBytes: WHATSAPP_ANSWER_MAX_BYTES,
        what,
        describeError: graphError,
      });
      const parsed = v.safeParse(PhoneNumbersAnswerSchema, answer.json);
      if (!parsed.success) throw new OutboundError('bad_answer', `${what}: answer is not a list of phone numbers`, { status: answer.status });
      numbers.push(...parsed.output.data.map((n) => ({ id: n.id, display_phone_number: n.display_phone_number ?? null, verified_name: n.verified_name ?? null })));
      after = parsed.output.paging?.next ? parsed.output.paging.cursors?.after : undefined;
      if (!after) break;
    }
    return numbers;
  }
}

export interface BusinessNumber {
  id: string;
  display_phone_number: string | null;
  verified_name: string | null;
}

/** Pages of phone numbers read for one business account (100 each). */
const PHONE_NUMBER_PAGES = 5;

const PhoneNumbersAnswerSchema = v.object({
  data: v.array(v.object({ id: v.pipe(v.string(), v.minLength(1)), display_phone_number: v.optional(v.string()), verified_name: v.optional(v.string()) })),
  paging: v.optional(v.object({ cursors: v.optional(v.object({ after: v.optional(v.string()) })), next: v.optional(v.string()) })),
});

/** The Graph API's `{error:{message,code}}`, shortened. */
function graphError(text: string): string {
  try {
    const e = (JSON.parse(text) as { error?: { message?: unknown; code?: unknown } }).error;
    return typeof e?.message === 'string' ? ` ${e.message.slice(0, 200)}${e.code !== undefined ? ` (code ${String(e.code)})` : ''}` : '';
  } catch {
    return '';
  }
}
