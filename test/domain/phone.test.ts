import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normalizePhone, phoneDigits } from '../../src/domain/phone.ts';

test('normalizePhone turns a national Colombian mobile number into E.164', () => {
  assert.equal(normalizePhone('3001234567', 'CO')?.e164, '+573001234567');
});

test('normalizePhone accepts the same Colombian number in international format with spaces or dashes', () => {
  assert.equal(normalizePhone('+57 300 123 4567', 'CO')?.e164, '+573001234567');
  assert.equal(normalizePhone('300-123-4567', 'CO')?.e164, '+573001234567');
});

test('normalizePhone returns a national format alongside the E.164 form', () => {
  assert.deepEqual(normalizePhone('3001234567', 'CO'), { e164: '+573001234567', national: '300 1234567' });
});

test('normalizePhone rejects a United States number for a Colombian store', () => {
  assert.equal(normalizePhone('+1 212 555 0123', 'CO'), undefined);
});

test('normalizePhone rejects garbage, too short and too long numbers', () => {
  for (const text of ['abc', '', '12', '3001234567999999', '++57300']) assert.equal(normalizePhone(text, 'CO'), undefined, text);
});

test('normalizePhone rejects a country code libphonenumber does not know', () => {
  assert.equal(normalizePhone('3001234567', 'XX'), undefined);
});

test('normalizePhone normalizes Mexican, Peruvian and Ecuadorian mobile numbers for their countries', () => {
  assert.equal(normalizePhone('55 1234 5678', 'MX')?.e164, '+525512345678');
  assert.equal(normalizePhone('912345678', 'PE')?.e164, '+51912345678');
  assert.equal(normalizePhone('0991234567', 'EC')?.e164, '+593991234567');
  assert.equal(normalizePhone('+593 99 123 4567', 'EC')?.e164, '+593991234567');
});

test('normalizePhone rejects a Colombian number for a Mexican store', () => {
  assert.equal(normalizePhone('+57 300 123 4567', 'MX'), undefined);
});

test('phoneDigits keeps only the digits of a phone', () => {
  assert.equal(phoneDigits('+57 (300) 123-4567'), '573001234567');
});
