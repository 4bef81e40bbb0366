// Signed platform webhooks (docs/fulfillment-platform.md): `X-Codrail-Signature: t=<unix s>,v1=<hex>`
// where v1 = HMAC-SHA256(secret, "<t>.<raw body>"). A timestamp bounds replays; comparison is
// constant-time. node:crypto is pure computation, so this stays domain code.
import { createHmac, timingSafeEqual } from 'node:crypto';

export function signWebhook(secret: string, body: string, unixSeconds: number): string {
  return `t=${unixSeconds},v1=${createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex')}`;
}

export function verifyWebhook(secret: string, body: Buffer | string, header: string | undefined, nowSeconds: number, toleranceSeconds: number): boolean {
  if (!header) return false;
  const parts = new Map<string, string>();
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    const key = part.slice(0, eq).trim();
    if (eq < 1 || parts.has(key)) return false;
    parts.set(key, part.slice(eq + 1).trim());
  }
  const t = Number(parts.get('t'));
  const given = parts.get('v1');
  if (!/^\d{1,12}$/.test(parts.get('t') ?? '') || !given || !/^[0-9a-f]{64}$/i.test(given)) return false;
  if (Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secret).update(`${t}.`).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(given, 'hex'));
}

/**
 * The signature of codrail's own webhook events (issue 21 §6; SPEC 17): `Codrail-Signature:
 * t=<unix s>,v1=<hex>` with v1 = HMAC-SHA256(secret, "<t>.<body>"), the same scheme as the signed
 * platform webhooks. During a secret rotation's grace period one v1 per secret (the new one first),
 * as Stripe does: a receiver accepts the event when any v1 matches its secret.
 */
export function signEvent(secrets: readonly string[], body: string, unixSeconds: number): string {
  return [`t=${unixSeconds}`, ...secrets.map((secret) => `v1=${createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex')}`)].join(',');
}

/** A receiver's check of an event's signature: a timestamp within the tolerance and one v1 made with `secret`. */
export function verifyEvent(secret: string, body: Buffer | string, header: string | undefined, nowSeconds: number, toleranceSeconds: number): boolean {
  if (!header) return false;
  let t: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const [key, value = ''] = part.trim().split('=', 2);
    if (key === 't' && t === undefined && /^\d{1,12}$/.test(value)) t = Number(value);
    else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) signatures.push(value);
  }
  if (t === undefined || signatures.length === 0 || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secret).update(`${t}.`).update(body).digest();
  return signatures.some((given) => timingSafeEqual(expected, Buffer.from(given, 'hex')));
}

/** Meta's webhook signature (WhatsApp Cloud API): `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body>` with the app secret. */
export function signHubWebhook(appSecret: string, body: Buffer | string): string {
  return `sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}`;
}

export function verifyHubWebhook(appSecret: string, body: Buffer | string, header: string | undefined): boolean {
  const m = /^sha256=([0-9a-f]{64})$/i.exec(header?.trim() ?? '');
  if (!m) return false;
  return timingSafeEqual(createHmac('sha256', appSecret).update(body).digest(), Buffer.from(m[1]!, 'hex'));
}
