// Signed platform webhooks (docs/fulfillment-platform.md): `X-Codrail-Signature: t=<unix s>,v1=<hex>`
// where v1 = HMAC-SHA256(secret, "<t>.<raw body>"). A timestamp bounds replays; comparison is
// constant-time. node:crypto is pure computation, so this stays domain code.
import { createHmac, timingSafeEqual } from 'node:crypto';

export function signWebhook(secret: string, body: string, unixSeconds: number): string {
  return `t=${unixSeconds},v1=${createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex')}`;
}

export function verifyWebhook(secret: string, body: Buffer | string, header: string | undefined, nowSeconds: number, toleranceSeconds: number): boolean {
  if (!header) return false;
  const parts = new Map(header.split(',').map((p) => p.trim().split('=', 2) as [string, string]));
  const t = Number(parts.get('t'));
  const given = parts.get('v1');
  if (!Number.isInteger(t) || !given || !/^[0-9a-f]{64}$/i.test(given)) return false;
  if (Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secret).update(`${t}.`).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(given, 'hex'));
}
