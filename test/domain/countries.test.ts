import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CANONICALIZED_COUNTRIES, COUNTRY_CODES, OFFICIAL_COUNTRIES, parseCountry, parseCurrency } from '../../src/domain/countries.ts';

test('COUNTRY_CODES holds exactly the 249 ISO 3166-1 alpha-2 codes, each two upper-case letters', () => {
  assert.equal(COUNTRY_CODES.size, 249);
  for (const code of COUNTRY_CODES) assert.match(code, /^[A-Z]{2}$/);
  for (const code of ['CO', 'MX', 'PE', 'EC', 'AR', 'CL', 'GT', 'PY', 'PA', 'ES', 'US', 'BQ', 'SS', 'AX']) assert.ok(COUNTRY_CODES.has(code), code);
});

test('COUNTRY_CODES leaves out user-assigned and retired codes', () => {
  for (const code of ['XX', 'XK', 'UK', 'EU', 'AN', 'YU', 'ZZ']) assert.equal(COUNTRY_CODES.has(code), false, code);
});

test('parseCountry is case-insensitive and trims, returning the upper-case code', () => {
  assert.equal(parseCountry('co'), 'CO');
  assert.equal(parseCountry(' Mx '), 'MX');
  assert.equal(parseCountry('PE'), 'PE');
});

test('parseCountry is undefined for unknown codes, alpha-3 codes and empty text', () => {
  for (const text of ['XX', 'COL', 'C', '', 'c0', 'UK']) assert.equal(parseCountry(text), undefined, text);
});

test('parseCurrency accepts ISO 4217 codes in any case and refuses others', () => {
  assert.equal(parseCurrency('cop'), 'COP');
  assert.equal(parseCurrency('MXN'), 'MXN');
  assert.equal(parseCurrency('XYZ'), undefined);
  assert.equal(parseCurrency('CO'), undefined);
});

test('every official and canonicalized country is a valid ISO code', () => {
  for (const code of [...OFFICIAL_COUNTRIES, ...CANONICALIZED_COUNTRIES]) assert.equal(parseCountry(code), code);
});
