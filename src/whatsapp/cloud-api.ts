// A client of the WhatsApp Cloud API's send endpoint (Graph API `POST /{phone-number-id}/messages`,
// bearer token; issue 12), or of anything compatible such as `codrail whatsapp sim`. Failures are
// classified for the outbox like the platform's: `retry` (the message was not accepted: 5xx, 429,
// 408, auth), `permanent` (the request is wrong: other 4xx) and `unknown` (no answer: it may have been
// accepted). The token travels in the Authorization header only.
import * as v from 'valibot';
import { PlatformError } from '../fulfillment/client.ts';

export { PlatformError as CloudApiError };

export type OutgoingMessage =
  | { type: 'text'; to: string; text: string }
  | { type: 'template'; to: string; name: string; language: string; parameters: readonly string[] };

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
      components: message.parameters.length ? [{ type: 'body', parameters: message.parameters.map((text) => ({ type: 'text', text })) }] : [],
    },
  };
}

export class CloudApiClient {
  readonly #base: string;
  readonly #token: string | undefined;
  readonly #timeoutMs: number;

  constructor(options: { url: string; token: string | undefined; timeoutMs: number }) {
    this.#base = options.url.replace(/\/+$/, '');
    this.#token = options.token;
    this.#timeoutMs = options.timeoutMs;
  }

  /** Sends one message; resolves with its `wamid`. */
  async send(phoneNumberId: string, message: OutgoingMessage): Promise<string> {
    const what = 'POST /{phone-number-id}/messages';
    let res: Response;
    try {
      res = await fetch(`${this.#base}/${encodeURIComponent(phoneNumberId)}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...(this.#token ? { authorization: `Bearer ${this.#token}` } : {}) },
        body: JSON.stringify(cloudApiBody(message)),
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
    } catch (error) {
      const e = error as Error;
      throw new PlatformError('unknown', `${what}: ${e.name === 'TimeoutError' ? `no answer within ${this.#timeoutMs} ms` : `connection failed (${(e.cause as { code?: string } | undefined)?.code ?? e.message})`}`);
    }
    const text = await res.text().catch(() => undefined);
    if (text === undefined) throw new PlatformError('unknown', `${what}: answer cut off (HTTP ${res.status})`);
    if (res.ok) {
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new PlatformError('unknown', `${what}: answer is not JSON (HTTP ${res.status})`);
      }
      const parsed = v.safeParse(SendAnswerSchema, body);
      if (!parsed.success) throw new PlatformError('unknown', `${what}: answer has no message id`);
      return parsed.output.messages[0]!.id;
    }
    const failure = `${what}: HTTP ${res.status}${graphError(text)}`;
    const retryAfter = Number(res.headers.get('retry-after'));
    const retryAfterMs = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined;
    if (res.status >= 500 || res.status === 429 || res.status === 408 || res.status === 401 || res.status === 403) throw new PlatformError('retry', failure, retryAfterMs);
    throw new PlatformError('permanent', failure);
  }
}

/** The Graph API's `{error:{message,code}}`, shortened. */
function graphError(text: string): string {
  try {
    const e = (JSON.parse(text) as { error?: { message?: unknown; code?: unknown } }).error;
    return typeof e?.message === 'string' ? ` ${e.message.slice(0, 200)}${e.code !== undefined ? ` (code ${String(e.code)})` : ''}` : '';
  } catch {
    return '';
  }
}
