import { test } from 'node:test';
import assert from 'node:assert/strict';
import { botReason, honeypotFilled, isNotWords } from '../../src/domain/anti-bot.ts';

test('isNotWords is true for one letter repeated, digits only, punctuation only and a spaced repeated letter', () => {
  for (const text of ['aaaa', 'AaAa', '1234', '....', 'a a a', '   ', '', '12-34 #5']) assert.equal(isNotWords(text), true, JSON.stringify(text));
});

test('isNotWords is false for real names and addresses, accented ones included', () => {
  for (const text of ['Ana', 'Calle 10', 'José Pérez', 'Ñandú', 'Av. 7 # 43-12', 'Lu']) assert.equal(isNotWords(text), false, text);
});

test('honeypotFilled is false for a missing, null or blank website field', () => {
  assert.equal(honeypotFilled(undefined), false);
  assert.equal(honeypotFilled(null), false);
  assert.equal(honeypotFilled(''), false);
  assert.equal(honeypotFilled('   '), false);
});

test('honeypotFilled is true for any text or any non-string value in the website field', () => {
  assert.equal(honeypotFilled('http://spam.example'), true);
  assert.equal(honeypotFilled('x'), true);
  assert.equal(honeypotFilled(0), true);
  assert.equal(honeypotFilled({}), true);
});

const clean = { website: undefined, nombre: 'Ana Gómez', direccion: 'Calle 10 # 43-12', phoneBlocked: false, ipBlocked: false };

test('botReason is undefined for a clean order', () => {
  assert.equal(botReason(clean), undefined);
});

test('botReason names each rule that rejects an order', () => {
  assert.equal(botReason({ ...clean, website: 'x' }), 'honeypot');
  assert.equal(botReason({ ...clean, phoneBlocked: true }), 'blocked_phone');
  assert.equal(botReason({ ...clean, ipBlocked: true }), 'blocked_ip');
  assert.equal(botReason({ ...clean, nombre: 'aaaa' }), 'name_not_words');
  assert.equal(botReason({ ...clean, direccion: '12345' }), 'address_not_words');
});

test('botReason reports the honeypot first when several rules fail', () => {
  assert.equal(botReason({ website: 'x', nombre: '....', direccion: '....', phoneBlocked: true, ipBlocked: true }), 'honeypot');
});
