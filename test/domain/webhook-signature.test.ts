// Signed platform webhooks (docs/fulfillment-platform.md "Status reports"):
// `X-Codrail-Signature: t=<unix s>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, fresh within ±5 min.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { signWebhook, verifyWebhook } from '../../src/domain/webhook-signature.ts';
import { WEBHOOK_TOLERANCE_S } from '../../src/limits.ts';

const SECRET = 'whsec_test_0123456789';
const NOW = 1_760_000_000;
const BODY = JSON.stringify({ event_id: 'evt_1', order_id: 'P-000123', external_ref: 'ref-1', status: 'EN_TRANSITO', occurred_at: '2025-10-09T08:53:20.000Z' });

const hmac = (secret: string, t: number | string, body: string) => createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
const verify = (header: string | undefined, body: Buffer | string = BODY, now = NOW) => verifyWebhook(SECRET, body, header, now, WEBHOOK_TOLERANCE_S);

test('signWebhook writes t and a v1 HMAC-SHA256 of "<t>.<body>" in hex', () => {
  assert.equal(signWebhook(SECRET, BODY, NOW), `t=${NOW},v1=${hmac(SECRET, NOW, BODY)}`);
});

test('verifyWebhook accepts what signWebhook signed, for the same body and secret', () => {
  assert.equal(verify(signWebhook(SECRET, BODY, NOW)), true);
});

test('verifyWebhook accepts a signature whose timestamp is exactly at the tolerance either side', () => {
  assert.equal(verify(signWebhook(SECRET, BODY, NOW - WEBHOOK_TOLERANCE_S)), true);
  assert.equal(verify(signWebhook(SECRET, BODY, NOW + WEBHOOK_TOLERANCE_S)), true);
});

test('verifyWebhook refuses a signature made with another secret', () => {
  assert.equal(verify(signWebhook('another-secret', BODY, NOW)), false);
  assert.equal(verifyWebhook('another-secret', BODY, signWebhook(SECRET, BODY, NOW), NOW, WEBHOOK_TOLERANCE_S), false);
});

test('verifyWebhook refuses a body altered after signing, even by one byte or trailing whitespace', () => {
  const header = signWebhook(SECRET, BODY, NOW);
  assert.equal(verify(header, BODY.replace('EN_TRANSITO', 'ENTREGADO')), false);
  assert.equal(verify(header, `${BODY} `), false);
  assert.equal(verify(header, BODY.slice(0, -1)), false);
  assert.equal(verify(header, ''), false);
});

test('verifyWebhook refuses a stale timestamp beyond the tolerance', () => {
  assert.equal(verify(signWebhook(SECRET, BODY, NOW - WEBHOOK_TOLERANCE_S - 1)), false);
  assert.equal(verify(signWebhook(SECRET, BODY, NOW - 86_400)), false);
});

test('verifyWebhook refuses a timestamp in the future beyond the tolerance', () => {
  assert.equal(verify(signWebhook(SECRET, BODY, NOW + WEBHOOK_TOLERANCE_S + 1)), false);
  assert.equal(verify(signWebhook(SECRET, BODY, NOW + 86_400)), false);
});

test('verifyWebhook refuses a timestamp changed in the header, since it is part of what was signed', () => {
  const v1 = hmac(SECRET, NOW, BODY);
  assert.equal(verify(`t=${NOW + 1},v1=${v1}`), false);
});

test('verifyWebhook refuses a missing or empty header', () => {
  assert.equal(verify(undefined), false);
  assert.equal(verify(''), false);
});

test('verifyWebhook refuses malformed headers: no t, no v1, non-hex, wrong length, non-numeric t', () => {
  const v1 = hmac(SECRET, NOW, BODY);
  const cases: Record<string, string> = {
    'no t': `v1=${v1}`,
    'empty t': `t=,v1=${v1}`,
    'no v1': `t=${NOW}`,
    'empty v1': `t=${NOW},v1=`,
    'v0 instead of v1': `t=${NOW},v0=${v1}`,
    'non-hex v1': `t=${NOW},v1=${'g'.repeat(64)}`,
    'v1 with one non-hex character': `t=${NOW},v1=${v1.slice(0, 63)}z`,
    'v1 one byte short': `t=${NOW},v1=${v1.slice(0, 62)}`,
    'v1 one hex digit short': `t=${NOW},v1=${v1.slice(0, 63)}`,
    'v1 one byte long': `t=${NOW},v1=${v1}00`,
    'v1 in base64': `t=${NOW},v1=${Buffer.from(v1, 'hex').toString('base64')}`,
    'non-numeric t': `t=now,v1=${v1}`,
    'fractional t': `t=${NOW}.5,v1=${hmac(SECRET, `${NOW}.5`, BODY)}`,
    'no separators': `t${NOW}v1${v1}`,
    'garbage': 'not a signature',
  };
  for (const [what, header] of Object.entries(cases)) assert.equal(verify(header), false, what);
});

test('verifyWebhook accepts the parts in either order, with spaces after the comma, and upper-case hex', () => {
  const v1 = hmac(SECRET, NOW, BODY);
  assert.equal(verify(`v1=${v1},t=${NOW}`), true);
  assert.equal(verify(`t=${NOW}, v1=${v1}`), true);
  assert.equal(verify(`t=${NOW},v1=${v1.toUpperCase()}`), true);
});

test('verifyWebhook gives the same answer for a Buffer body and its UTF-8 string', () => {
  const body = JSON.stringify({ event_id: 'evt_ñ', order_id: 'P-1', external_ref: 'Gómez', status: 'ENTREGADO' });
  const header = signWebhook(SECRET, body, NOW);
  assert.equal(verify(header, body), true);
  assert.equal(verify(header, Buffer.from(body, 'utf8')), true);
  const altered = Buffer.from(body.replace('ñ', 'n'), 'utf8');
  assert.equal(verify(header, altered), false);
  assert.equal(verify(header, altered.toString('utf8')), false);
  assert.equal(verify(header, Buffer.from(body, 'latin1')), false, 'the signature covers the UTF-8 bytes');
});
