import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { classifyKey, displayPrefix, generateKey, hashKey, maskedKey, randomBase62 } from '../../src/domain/keys.ts';

const base62 = (n: number) => 'aZ09'.repeat(n).slice(0, n);

test('classifyKey recognises publishable live, publishable test and secret keys', () => {
  assert.deepEqual(classifyKey(`svc_live_pub_${base62(32)}`), { type: 'publishable', env: 'live' });
  assert.deepEqual(classifyKey(`svc_test_pub_${base62(32)}`), { type: 'publishable', env: 'test' });
  assert.deepEqual(classifyKey(`svc_live_secret_${base62(40)}`), { type: 'secret', env: 'live' });
});

test('classifyKey rejects keys of the wrong length for their prefix', () => {
  for (const key of [
    `svc_live_pub_${base62(31)}`,
    `svc_live_pub_${base62(33)}`,
    `svc_test_pub_${base62(40)}`,
    `svc_live_secret_${base62(32)}`,
    `svc_live_secret_${base62(39)}`,
    `svc_live_secret_${base62(41)}`,
  ])
    assert.equal(classifyKey(key), undefined, key);
});

test('classifyKey rejects unknown prefixes, non-base62 characters, whitespace and empty text', () => {
  for (const key of [
    '',
    base62(32),
    `svc_test_secret_${base62(40)}`,
    `svc_prod_pub_${base62(32)}`,
    `SVC_LIVE_PUB_${base62(32)}`,
    `svc_live_pub_${base62(31)}-`,
    `svc_live_pub_${base62(31)}_`,
    `svc_live_pub_${base62(31)}é`,
    ` svc_live_pub_${base62(32)}`,
    `svc_live_pub_${base62(32)}\n`,
    `svc_oauth_${base62(32)}`,
    `svc_live_pub_${base62(32)}svc_live_pub_${base62(32)}`,
    'x'.repeat(10_000),
  ])
    assert.equal(classifyKey(key), undefined, JSON.stringify(key.slice(0, 60)));
});

test('generateKey makes a publishable test key with 32 base62 characters after its prefix', () => {
  const { key } = generateKey({ type: 'publishable', env: 'test' });
  assert.match(key, /^svc_test_pub_[0-9A-Za-z]{32}$/);
  assert.deepEqual(classifyKey(key), { type: 'publishable', env: 'test' });
});

test('generateKey makes a publishable live key and a secret key in their formats', () => {
  assert.match(generateKey({ type: 'publishable', env: 'live' }).key, /^svc_live_pub_[0-9A-Za-z]{32}$/);
  assert.match(generateKey({ type: 'secret', env: 'live' }).key, /^svc_live_secret_[0-9A-Za-z]{40}$/);
});

test('generateKey refuses a kind that has no key format', () => {
  assert.throws(() => generateKey({ type: 'secret', env: 'test' }));
});

test('generateKey returns the SHA-256 hex of the key as its hash', () => {
  const { key, hash } = generateKey({ type: 'secret', env: 'live' });
  assert.equal(hash, createHash('sha256').update(key).digest('hex'));
  assert.match(hash, /^[0-9a-f]{64}$/);
  assert.equal(hashKey(key), hash);
});

test('generateKey returns a display prefix of the type prefix and four characters, not the key', () => {
  const { key, prefix } = generateKey({ type: 'publishable', env: 'test' });
  assert.equal(prefix, `${key.slice(0, 'svc_test_pub_'.length + 4)}…`);
  assert.ok(!prefix.includes(key.slice(-28)));
  assert.equal(displayPrefix('svc_live_secret_abcdEFGH'), 'svc_live_secret_abcd…');
});

test('generateKey never returns the same key twice in a thousand draws', () => {
  const keys = new Set(Array.from({ length: 1000 }, () => generateKey({ type: 'publishable', env: 'live' }).key));
  assert.equal(keys.size, 1000);
});

test('randomBase62 returns exactly the requested length of base62 characters', () => {
  for (const length of [0, 1, 32, 40, 500]) {
    const text = randomBase62(length);
    assert.equal(text.length, length);
    assert.match(text, /^[0-9A-Za-z]*$/);
  }
});

test('randomBase62 uses the whole base62 alphabet', () => {
  const seen = new Set(randomBase62(20_000));
  assert.equal(seen.size, 62);
});

test('generateKey keeps the last four characters, and maskedKey shows only the type prefix and those four', () => {
  const { key, prefix, last4 } = generateKey({ type: 'publishable', env: 'live' });
  assert.equal(last4, key.slice(-4));
  assert.equal(maskedKey(prefix, last4), `svc_live_pub_…${key.slice(-4)}`);
  assert.equal(maskedKey('svc_live_secret_AbCd…', 'wxyz'), 'svc_live_secret_…wxyz');
  assert.equal(maskedKey('svc_test_pub_AbCd…', null), 'svc_test_pub_AbCd…', 'a key from before last4 was kept shows its prefix');
});
