import { test } from 'node:test';
import assert from 'node:assert/strict';
import { currencyDecimals, fitsDecimals, formatMoney, hasAtMostTwoDecimals, toMajor, toMinor } from '../../src/domain/money.ts';
import { MAX_MONEY_MAJOR } from '../../src/limits.ts';

test('toMinor turns 19.99 major units into 1999 minor units', () => {
  assert.equal(toMinor(19.99), 1999);
});

test('toMinor turns whole amounts and zero into exact minor units', () => {
  assert.equal(toMinor(89900), 8_990_000);
  assert.equal(toMinor(0), 0);
  assert.equal(toMinor(0.07), 7);
  assert.equal(toMinor(4.35), 435);
});

test('toMinor accepts binary floating-point noise such as 0.1 + 0.2', () => {
  assert.equal(toMinor(0.1 + 0.2), 30);
  assert.equal(toMinor(1.1), 110);
});

test('toMinor rejects an amount with a real third decimal such as 1.005', () => {
  assert.equal(toMinor(1.005), undefined);
  assert.equal(toMinor(2.675), undefined);
  assert.equal(toMinor(0.001), undefined);
});

test('toMinor rejects a third decimal on a large amount too', () => {
  assert.equal(toMinor(1_000_000_000.001), undefined);
  assert.equal(toMinor(123_456_789.125), undefined);
  assert.equal(toMinor(123_456_789.12), 12_345_678_912);
});

test('toMinor rejects negative, NaN and infinite amounts', () => {
  assert.equal(toMinor(-1), undefined);
  assert.equal(toMinor(-0.01), undefined);
  assert.equal(toMinor(Number.NaN), undefined);
  assert.equal(toMinor(Number.POSITIVE_INFINITY), undefined);
  assert.equal(toMinor(Number.NEGATIVE_INFINITY), undefined);
});

test('toMinor accepts the largest allowed amount and rejects anything above it', () => {
  assert.equal(toMinor(MAX_MONEY_MAJOR), MAX_MONEY_MAJOR * 100);
  assert.ok(Number.isSafeInteger(toMinor(MAX_MONEY_MAJOR)));
  assert.equal(toMinor(MAX_MONEY_MAJOR + 1), undefined);
});

test('toMajor is the inverse of toMinor for two-decimal amounts', () => {
  for (const major of [0, 0.01, 19.99, 89900, 219900.5]) assert.equal(toMajor(toMinor(major)!), major);
});

test('hasAtMostTwoDecimals is true for 12.34 and false for 12.345', () => {
  assert.equal(hasAtMostTwoDecimals(12.34), true);
  assert.equal(hasAtMostTwoDecimals(12.345), false);
});

test('currencyDecimals follows ISO 4217 (CLP and PYG whole, COP two), caps at two, and makes configured currencies whole', () => {
  assert.equal(currencyDecimals('CLP'), 0);
  assert.equal(currencyDecimals('PYG'), 0);
  assert.equal(currencyDecimals('COP'), 2);
  assert.equal(currencyDecimals('MXN'), 2);
  assert.equal(currencyDecimals('KWD'), 2);
  assert.equal(currencyDecimals('COP', new Set(['COP'])), 0);
});

test('fitsDecimals tells whole amounts from amounts with cents', () => {
  assert.equal(fitsDecimals(8_990_000, 0), true);
  assert.equal(fitsDecimals(8_990_050, 0), false);
  assert.equal(fitsDecimals(8_990_050, 2), true);
});

test('formatMoney writes a price as the country reads it, with decimals only when the amount has them', () => {
  assert.equal(formatMoney(8_990_000, 'COP', 'CO', 2), '$\u00a089.900');
  assert.equal(formatMoney(49_950, 'MXN', 'MX', 2), '$499.50');
  assert.equal(formatMoney(49_900, 'MXN', 'MX', 2), '$499');
  assert.equal(formatMoney(15_000_000, 'PYG', 'PY', 0), 'Gs.\u00a0150.000');
});
