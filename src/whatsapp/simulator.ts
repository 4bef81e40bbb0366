// `codrail whatsapp sim`: a local stand-in for the WhatsApp Cloud API's send endpoint (issue 12), like
// the fulfillment simulator. It accepts `POST [/vXX.X]/{phone-number-id}/messages`, records every
// accepted message at `GET /_sim/messages` as `{id, to, type, text?, template?, status}`, and reports
// statuses to a webhook signed like Meta's (`X-Hub-Signature-256`). Like the real API it has no
// idempotency: a message sent twice arrives twice. Failure injection answers 500 without accepting.
// Business accounts (issue 19 §4) have their own tokens and numbers: a business's token sends only
// from its numbers and lists them at `GET [/vXX.X]/{waba-id}/phone_numbers`, as Meta's does.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { signHubWebhook } from '../domain/webhook-signature.ts';
import { readCappedBody, startSimServer, type SimServer } from '../simulators/sim-server.ts';

export interface WhatsappSimOptions {
  port?: number;
  host?: string;
  /** The server-wide bearer token (a system user with access to every number); any (or none) when unset. */
  token?: string;
  /** Business accounts with their own token: that token sends only from, and lists, its numbers. */
  businesses?: readonly SimBusiness[];
  failRate?: number;
  /** Milliseconds each Graph call (a send, a number listing) takes to answer. */
  latencyMs?: number;
  webhookUrl?: string;
  appSecret?: string;
  /** Report `sent` then `delivered` for every accepted message (default true with a webhook). */
  autoStatuses?: boolean;
  random?: () => number;
  log?: (line: string) => void;
  /**
   * Buyers who answer confirmation requests (issue 25) through the signed webhook: shares of
   * confirm, cancel, correct (the address, through the link the reply brings) and silent. Needs
   * webhookUrl. Each buyer decides once, on the first request their number gets.
   */
  buyers?: BuyerShares;
  /** Milliseconds a buyer takes to answer (default 50). */
  buyerDelayMs?: number;
  /** What a correcting buyer changes on the page (default: the reference line). */
  correction?: (to: string, form: Record<string, string>) => Record<string, string>;
}

export interface BuyerShares {
  confirm: number;
  cancel: number;
  correct: number;
  silent: number;
}

export type BuyerPlay = keyof BuyerShares;

export interface SimBusiness {
  id: string;
  token: string;
  numbers: readonly string[];
}

export type SimMessageStatus = 'accepted' | 'sent' | 'delivered' | 'read' | 'failed';

export interface SimMessage {
  id: string;
  phone_number_id: string;
  to: string;
  type: 'text' | 'template';
  text?: string;
  template?: { name: string; language: string; parameters: string[]; buttons: string[] };
  status: SimMessageStatus;
  /** Whose token sent it: a business account's id, or `server` (the server-wide or any token). */
  sent_as: string;
  created_at: string;
}

export interface WhatsappSim {
  url: string;
  port: number;
  messages(): SimMessage[];
  /** Sets a status and, with a webhook, resolves once its delivery succeeded or gave up. */
  report(id: string, status: Exclude<SimMessageStatus, 'accepted'>): Promise<void>;
  /** The recipient of a message answers it: taps a quick-reply button (by index) or writes a text; resolves once the webhook was delivered. */
  reply(id: string, answer: { button: number } | { text: string }): Promise<void>;
  /** What each simulated buyer (by number, digits) chose to do. */
  plays(): Map<string, BuyerPlay>;
  /** Resolves when every buyer's answer under way (taps, corrections) is done. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

const STATUSES = ['sent', 'delivered', 'read', 'failed'] as const;
/** What the buyer reads on each quick-reply button, as codrail sends them (src/domain/confirmation.ts). */
const BUTTON_TEXTS = ['Confirmar pedido', 'Cancelar', 'Corregir dirección'];

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const unescape = (s: string) => s.replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]!);

/** The values a page's form would send: its inputs and each select's selected option. */
function formValues(page: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const m of page.matchAll(/<input\b[^>]*\bname="([^"]+)"[^>]*\bvalue="([^"]*)"/g)) values[unescape(m[1]!)] = unescape(m[2]!);
  for (const m of page.matchAll(/<select\b[^>]*\bname="([^"]+)"[^>]*>([\s\S]*?)<\/select>/g)) {
    const selected = /<option selected>([^<]*)<\/option>/.exec(m[2]!);
    if (selected) values[unescape(m[1]!)] = unescape(selected[1]!);
  }
  return values;
}
const WEBHOOK_ATTEMPTS = 4;
const WEBHOOK_RETRY_BASE_MS = 250;
/** A buyer waits this long for a page, and tries this many times (src/whatsapp/simulator.ts correct()). */
const BUYER_WAIT_MS = 15_000;
const BUYER_ATTEMPTS = 3;
const MAX_BODY_BYTES = 256 * 1024;

type Answer = { status: number; body: unknown };
const graphError = (status: number, message: string, code = 100): Answer => ({ status, body: { error: { message, type: 'OAuthException', code } } });

function parseMessage(body: unknown, phoneNumberId: string): Omit<SimMessage, 'id' | 'status' | 'created_at' | 'sent_as'> | string {
  if (typeof body !== 'object' || body === null) return 'body must be a JSON object';
  const b = body as Record<string, unknown>;
  if (b.messaging_product !== 'whatsapp') return 'messaging_product must be "whatsapp"';
  if (typeof b.to !== 'string' || !/^\d{6,15}$/.test(b.to)) return 'to must be a phone number in international format, digits only';
  if (b.type === 'text') {
    const text = (b.text as { body?: unknown } | undefined)?.body;
    if (typeof text !== 'string' || !text || text.length > 4096) return 'text.body must be 1 to 4096 characters';
    return { phone_number_id: phoneNumberId, to: b.to, type: 'text', text };
  }
  if (b.type === 'template') {
    const t = b.template as { name?: unknown; language?: { code?: unknown }; components?: { type?: unknown; parameters?: { text?: unknown }[] }[] } | undefined;
    if (typeof t?.name !== 'string' || !t.name) return 'template.name is required';
    if (typeof t.language?.code !== 'string') return 'template.language.code is required';
    const components = t.components ?? [];
    const parameters = components.filter((c) => c.type === 'body').flatMap((c) => (c.parameters ?? []).map((p) => String(p.text ?? '')));
    const buttons = components.filter((c) => c.type === 'button').flatMap((c) => (c.parameters ?? []).map((p) => String((p as { payload?: unknown }).payload ?? '')));
    return { phone_number_id: phoneNumberId, to: b.to, type: 'template', template: { name: t.name, language: t.language.code, parameters, buttons } };
  }
  return 'type must be text or template';
}

export async function startWhatsappSim(options: WhatsappSimOptions = {}): Promise<WhatsappSim> {
  const failRate = options.failRate ?? 0;
  if (!(failRate >= 0 && failRate <= 1)) throw new RangeError('failRate must be between 0 and 1');
  if (options.webhookUrl && !options.appSecret) throw new Error('webhookUrl needs appSecret (codrail refuses unsigned status webhooks)');
  const random = options.random ?? Math.random;
  const log = options.log ?? (() => {});
  const latencyMs = Math.max(0, options.latencyMs ?? 0);
  const auto = options.autoStatuses ?? true;
  const messages = new Map<string, SimMessage>();
  const businesses = options.businesses ?? [];
  // The server (src/simulators/sim-server.ts), set once listening: before any request or webhook runs.
  let sim!: SimServer;
  const pending = new Set<Promise<void>>();
  let sequence = 0;

  const pause = (ms: number) => sim.later(ms);

  /** One webhook as Meta sends it: a change of field `messages` about one business number. */
  const envelope = (phoneNumberId: string, value: object) =>
    JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [{ id: 'WABA-SIM', changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata: { display_phone_number: phoneNumberId, phone_number_id: phoneNumberId }, ...value } }] }],
    });

  async function deliver(message: SimMessage, status: SimMessage['status']): Promise<void> {
    const body = envelope(message.phone_number_id, {
      statuses: [
        {
          id: message.id,
          status,
          timestamp: String(Math.floor(Date.now() / 1000)),
          recipient_id: message.to,
          ...(status === 'failed' ? { errors: [{ code: 131026, title: 'Message undeliverable' }] } : {}),
        },
      ],
    });
    await post(body, `${message.id} ${status}`);
  }

  /** Posts a signed webhook, retrying like Meta does (a few times, with backoff). */
  async function post(body: string, what: string): Promise<void> {
    const { webhookUrl, appSecret } = options;
    if (!webhookUrl || !appSecret) return;
    for (let attempt = 1; attempt <= WEBHOOK_ATTEMPTS && !sim.closing.aborted; attempt++) {
      try {
        const res = await fetch(webhookUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-hub-signature-256': signHubWebhook(appSecret, body) },
          body,
          signal: AbortSignal.any([sim.closing, AbortSignal.timeout(5_000)]),
        });
        await res.body?.cancel();
        log(`webhook ${what} → ${res.status} (attempt ${attempt})`);
        if (res.ok) return;
      } catch (error) {
        log(`webhook ${what} failed (attempt ${attempt}): ${(error as Error).message}`);
      }
      if (attempt < WEBHOOK_ATTEMPTS) await pause(WEBHOOK_RETRY_BASE_MS * 2 ** (attempt - 1));
    }
  }

  async function report(id: string, status: (typeof STATUSES)[number]): Promise<void> {
    const message = messages.get(id);
    if (!message) throw new Error(`unknown message ${id}`);
    message.status = status;
    log(`status ${id} → ${status}`);
    await deliver(message, status);
  }

  // Buyers (issue 25): each number decides once what it does with a confirmation request.
  const decided = new Map<string, BuyerPlay>();
  let inbound = 0;
  const delay = Math.max(0, options.buyerDelayMs ?? 50);

  function choose(): BuyerPlay {
    const shares = options.buyers!;
    const total = shares.confirm + shares.cancel + shares.correct + shares.silent;
    let r = random() * total;
    for (const play of ['confirm', 'cancel', 'correct', 'silent'] as const) if ((r -= shares[play]) < 0) return play;
    return 'silent';
  }

  async function reply(id: string, answer: { button: number } | { text: string }): Promise<void> {
    const message = messages.get(id);
    if (!message) throw new Error(`unknown message ${id}`);
    const base = { from: message.to, id: `wamid.IN${String(++inbound).padStart(6, '0')}${randomBytes(6).toString('hex').toUpperCase()}`, timestamp: String(Math.floor(Date.now() / 1000)), context: { from: message.phone_number_id, id: message.id } };
    let m: object;
    if ('button' in answer) {
      const payload = message.template?.buttons[answer.button];
      if (payload === undefined) throw new Error(`message ${id} has no button ${answer.button}`);
      m = { ...base, type: 'button', button: { payload, text: BUTTON_TEXTS[answer.button] ?? payload } };
    } else m = { ...base, type: 'text', text: { body: answer.text } };
    log(`buyer ${message.to} answers ${id}: ${JSON.stringify(answer)}`);
    await post(envelope(message.phone_number_id, { contacts: [{ profile: { name: 'Comprador' }, wa_id: message.to }], messages: [m] }), `reply to ${id}`);
  }

  /**
   * A correcting buyer opens the link from the reply, changes what `correction` says and sends the
   * form. Like a person on a slow connection, they wait up to 15 s for a page and try again (a few
   * times) when it does not come; a form sent again after a lost answer finds the link used (410).
   */
  async function correct(to: string, url: string): Promise<void> {
    const patiently = async (what: string, init: RequestInit = {}): Promise<Response | undefined> => {
      for (let attempt = 1; attempt <= BUYER_ATTEMPTS && !sim.closing.aborted; attempt++) {
        try {
          return await fetch(url, { ...init, signal: AbortSignal.any([sim.closing, AbortSignal.timeout(BUYER_WAIT_MS)]) });
        } catch (error) {
          log(`buyer ${to}: ${what} ${url} failed (attempt ${attempt}): ${(error as Error).message}`);
          if (attempt < BUYER_ATTEMPTS) await pause(WEBHOOK_RETRY_BASE_MS * 2 ** (attempt - 1)).catch(() => undefined);
        }
      }
      return undefined;
    };
    const page = await patiently('correction page');
    if (!page) return;
    const text = await page.text();
    if (!page.ok) return void log(`buyer ${to}: correction page ${url} → ${page.status}`);
    const form = formValues(text);
    const changes = options.correction ? options.correction(to, form) : { referencia: `${form.referencia ?? ''} (corregido)`.trim() };
    const res = await patiently('correction form', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ ...form, ...changes }).toString() });
    await res?.body?.cancel();
    log(`buyer ${to}: correction sent → ${res?.status ?? 'no answer'}`);
  }

  function play(message: SimMessage): void {
    if (!options.buyers || !options.webhookUrl) return;
    if (message.type === 'template' && message.template?.name === 'confirmation_request' && !decided.has(message.to)) {
      const choice = choose();
      decided.set(message.to, choice);
      const button = { confirm: 0, cancel: 1, correct: 2 } as const;
      if (choice !== 'silent') track(pause(delay).then(() => reply(message.id, { button: button[choice] })));
      return;
    }
    const link = message.type === 'text' ? /https?:\/\/\S+\/c\/[A-Za-z0-9_-]+/.exec(message.text ?? '')?.[0] : undefined;
    if (link && decided.get(message.to) === 'correct') track(pause(delay).then(() => correct(message.to, link)));
  }

  function track(work: Promise<void>): void {
    pending.add(work);
    void work.finally(() => pending.delete(work));
  }

  function accept(phoneNumberId: string, body: unknown, sentAs: string): Answer {
    const parsed = parseMessage(body, phoneNumberId);
    if (typeof parsed === 'string') return graphError(400, `(#100) ${parsed}`);
    // Unique across restarts like the Cloud API's ids: codrail matches status webhooks by them.
    const id = `wamid.SIM${String(++sequence).padStart(6, '0')}${randomBytes(8).toString('hex').toUpperCase()}`;
    const message: SimMessage = { id, ...parsed, status: 'accepted', sent_as: sentAs, created_at: new Date().toISOString() };
    messages.set(id, message);
    log(`accept ${id} → ${message.to} (${message.type})`);
    if (auto && options.webhookUrl) track((async () => (await report(id, 'sent'), await report(id, 'delivered')))());
    play(message);
    return { status: 200, body: { messaging_product: 'whatsapp', contacts: [{ input: parsed.to, wa_id: parsed.to }], messages: [{ id }] } };
  }

  /** Meta's answer to an object the token may not see: it does not say whether it exists. */
  const noSuchObject = (id: string, verb: 'get' | 'post') =>
    graphError(400, `Unsupported ${verb} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`, 100);

  function listNumbers(wabaId: string, authorization: string | undefined): Answer {
    const bearer = authorization?.replace(/^Bearer /, '');
    const business = businesses.find((b) => b.id === wabaId);
    const known = businesses.some((b) => b.token === bearer) || (options.token !== undefined && bearer === options.token);
    if (!known && (options.token !== undefined || businesses.length > 0)) return graphError(401, 'Invalid OAuth access token.', 190);
    if (!business || (bearer !== business.token && bearer !== options.token)) return noSuchObject(wabaId, 'get');
    const data = business.numbers.map((id, i) => ({ id, display_phone_number: `+57 300 000 ${String(1000 + i)}`, verified_name: `Business ${business.id}`, quality_rating: 'GREEN' }));
    return { status: 200, body: { data, paging: { cursors: { before: 'QVFI', after: 'QVFI' } } } };
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://sim');
    let raw: string;
    try {
      raw = (await readCappedBody(req, MAX_BODY_BYTES, () => new RangeError('body too large'))).toString('utf8');
    } catch (error) {
      if (error instanceof RangeError) return void res.writeHead(413).end();
      throw error;
    }
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = Symbol('invalid');
    }
    let answer: Answer;
    if (latencyMs > 0 && !url.pathname.startsWith('/_sim/')) log(`${req.method} ${url.pathname} … (answering in ${latencyMs} ms)`);
    const send = /^(?:\/v\d+(?:\.\d+)?)?\/([^/]+)\/messages$/.exec(url.pathname);
    const numbersOf = /^(?:\/v\d+(?:\.\d+)?)?\/([^/]+)\/phone_numbers$/.exec(url.pathname);
    const status = /^\/_sim\/messages\/([^/]+)\/status$/.exec(url.pathname);
    if (url.pathname === '/_sim/messages' && req.method === 'GET') answer = { status: 200, body: [...messages.values()] };
    else if (status && req.method === 'POST') {
      const to = (body as { status?: unknown } | undefined)?.status;
      const id = decodeURIComponent(status[1]!);
      if (!messages.has(id)) answer = { status: 404, body: { error: 'unknown message' } };
      else if (typeof to !== 'string' || !(STATUSES as readonly string[]).includes(to)) answer = { status: 400, body: { error: `status must be one of ${STATUSES.join(', ')}` } };
      else {
        await report(id, to as (typeof STATUSES)[number]);
        answer = { status: 200, body: messages.get(id) };
      }
    } else if (numbersOf && req.method === 'GET') {
      answer = listNumbers(decodeURIComponent(numbersOf[1]!), req.headers.authorization);
      if (latencyMs > 0) await pause(latencyMs);
    } else if (send && req.method === 'POST') {
      const phoneNumberId = decodeURIComponent(send[1]!);
      const bearer = req.headers.authorization?.replace(/^Bearer /, '');
      const business = businesses.find((b) => b.token === bearer);
      if (!business && options.token !== undefined && bearer !== options.token) answer = graphError(401, 'Invalid OAuth access token.', 190);
      else if (business && !business.numbers.includes(phoneNumberId)) answer = noSuchObject(phoneNumberId, 'post');
      else if (typeof body === 'symbol') answer = graphError(400, '(#100) body is not valid JSON');
      else if (failRate > 0 && random() < failRate) answer = graphError(500, 'An unexpected error has occurred. Please retry your request later. (injected)', 2);
      else answer = accept(phoneNumberId, body, business?.id ?? 'server');
      if (latencyMs > 0) await pause(latencyMs);
    } else answer = { status: 404, body: { error: 'not found' } };
    if (res.destroyed) return;
    const text = JSON.stringify(answer.body);
    res.writeHead(answer.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
    log(`${req.method} ${url.pathname} → ${answer.status}`);
  }

  sim = await startSimServer({
    port: options.port,
    host: options.host,
    name: 'whatsapp simulator',
    log,
    crashBody: JSON.stringify({ error: { message: 'simulator error', type: 'OAuthException', code: 1 } }),
    handle,
    // Status webhooks on their way finish (or give up) before the server goes.
    beforeClose: async () => void (await Promise.allSettled([...pending])),
  });
  const { url, port } = sim;
  return {
    url,
    port,
    messages: () => [...messages.values()].map((m) => structuredClone(m)),
    report: (id, s) => report(id, s),
    reply,
    plays: () => new Map(decided),
    async settled() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
    close: () => sim.close(),
  };
}
