// POST /api/whatsapp/webhook (issue 12): message statuses from the WhatsApp Cloud API, verified like
// Meta signs them (`X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body>` with the app
// secret). Statuses only move forward (sent → delivered → read, or failed); repeats change nothing. A
// report about a message id not recorded yet is kept for its send to record it (src/whatsapp/status-reports.ts). GET answers Meta's subscription handshake (hub.verify_token).
import * as v from 'valibot';
import type { Deps } from '../../app.ts';
import { writeTransaction } from '../../db/transaction.ts';
import { lockForTransaction } from '../../db/queries/locks.queries.ts';
import type { ReportedStatus } from '../../db/queries/whatsapp.queries.ts';
import { applyStatusReport } from '../../whatsapp/status-reports.ts';
import { verifyHubWebhook } from '../../domain/webhook-signature.ts';
import { AppError } from '../../errors.ts';
import { parseJson } from '../json-text.ts';
import { receiveBuyerMessage, type TapOutcome } from '../orders/confirmation.use-case.ts';

const StatusSchema = v.looseObject({
  id: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  status: v.string(),
  errors: v.optional(v.array(v.looseObject({ code: v.optional(v.unknown()), title: v.optional(v.string()) }))),
});

const short = (max: number) => v.pipe(v.string(), v.maxLength(max));

/**
 * A buyer's message (issue 25): a quick-reply tap on a template (`button.payload`), an interactive
 * reply (`interactive.button_reply.id`), or anything else (text, a voice note…), with `context.id`
 * naming our message it answers when the app says.
 */
const MessageSchema = v.looseObject({
  id: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  from: v.pipe(v.string(), v.regex(/^\d{6,15}$/)),
  type: short(40),
  context: v.optional(v.looseObject({ id: v.optional(short(200)) })),
  button: v.optional(v.looseObject({ payload: v.optional(short(200)), text: v.optional(short(200)) })),
  interactive: v.optional(v.looseObject({ button_reply: v.optional(v.looseObject({ id: v.optional(short(200)), title: v.optional(short(200)) })) })),
  text: v.optional(v.looseObject({ body: v.optional(short(4_096)) })),
});

/** Meta's envelope: entry[].changes[].value with statuses[] of our messages and messages[] from buyers. */
const PayloadSchema = v.looseObject({
  object: v.optional(v.string()),
  entry: v.array(
    v.looseObject({
      changes: v.optional(
        v.array(
          v.looseObject({
            value: v.optional(
              v.looseObject({
                metadata: v.optional(v.looseObject({ phone_number_id: v.optional(short(40)) })),
                statuses: v.optional(v.array(StatusSchema)),
                messages: v.optional(v.array(MessageSchema)),
              }),
            ),
          }),
        ),
        [],
      ),
    }),
  ),
});

const REPORTED = new Set(['sent', 'delivered', 'read', 'failed']);

export async function receiveWhatsappWebhook(deps: Pick<Deps, 'db' | 'clock' | 'config' | 'log' | 'orderEvents' | 'nudge'>, raw: Buffer, signature: string | undefined) {
  const secret = deps.config.whatsappAppSecret;
  if (!secret) throw new AppError('not_ready', 'WhatsApp status webhooks are not configured (CODRAIL_WHATSAPP_APP_SECRET)');
  if (!verifyHubWebhook(secret, raw, signature)) throw new AppError('unauthorized', 'Invalid X-Hub-Signature-256');
  const body = parseJson(raw);
  const parsed = v.safeParse(PayloadSchema, body);
  if (!parsed.success) throw new AppError('invalid_input', 'Not a WhatsApp Business webhook payload', [{ field: v.getDotPath(parsed.issues[0]) ?? 'body', message: parsed.issues[0].message }]);
  const statuses = parsed.output.entry.flatMap((e) => e.changes.flatMap((c) => c.value?.statuses ?? []));
  const now = deps.clock.now().toISOString();
  let applied = 0;
  // Each message id's reports and its send's record one at a time (the worker takes the same lock),
  // READ COMMITTED: a report sees the record committed before it, or is kept for it.
  await writeTransaction(deps.db, async (tx) => {
    await lockForTransaction(tx, ...statuses.map((s) => `wamid:${s.id}`));
    for (const s of statuses) {
      if (!REPORTED.has(s.status)) continue;
      const error = s.errors?.[0] ? `${s.errors[0].title ?? 'error'} (code ${String(s.errors[0].code ?? '?')})` : null;
      if (await applyStatusReport(deps, tx, { wamid: s.id, status: s.status as ReportedStatus, error }, now)) applied++;
    }
  }, 'read committed');
  // Buyers' answers, each in its own transaction with the change it makes (and applied once).
  const answers: Record<TapOutcome, number> = { confirmed: 0, cancelled: 0, correcting: 0, unchanged: 0, noted: 0, ignored: 0 };
  let received = 0;
  for (const value of parsed.output.entry.flatMap((e) => e.changes.map((c) => c.value))) {
    for (const m of value?.messages ?? []) {
      const payload = m.button?.payload ?? m.interactive?.button_reply?.id;
      const outcome = await receiveBuyerMessage(deps, { id: m.id, from: m.from, type: m.type, payload, text: m.text?.body ?? m.button?.text, contextId: m.context?.id, phoneNumberId: value?.metadata?.phone_number_id });
      answers[outcome]++;
      received++;
    }
  }
  // What the buyers' messages did, when there were any (a status report is answered as before).
  return { statuses: statuses.length, applied, ...(received > 0 && { messages: answers }) };
}

/** Meta's subscription check: echo hub.challenge when hub.verify_token is ours. */
export function verifyWhatsappSubscription(deps: Pick<Deps, 'config'>, query: URLSearchParams): string {
  const token = deps.config.whatsappVerifyToken;
  if (!token) throw new AppError('not_ready', 'WhatsApp webhook verification is not configured (CODRAIL_WHATSAPP_VERIFY_TOKEN)');
  if (query.get('hub.mode') !== 'subscribe' || query.get('hub.verify_token') !== token) throw new AppError('forbidden', 'Verification token mismatch');
  return query.get('hub.challenge') ?? '';
}
