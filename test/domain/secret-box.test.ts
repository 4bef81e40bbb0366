// Secrets at rest (src/domain/secret-box.ts; README "Secrets at rest"): AES-256-GCM with a fresh
// 96-bit IV per seal, the row as additional authenticated data, and the sealing key's id in the
// sealed text so a rotation keeps the previous keys opening what they sealed.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { SECRET_KEY_BYTES, SecretBox, SecretOpenError, keyId } from '../../src/domain/secret-box.ts';

const STORE_A = 'fulfillment_connections.token_sealed:0190a0b0-0000-7000-8000-00000000000a';
const STORE_B = 'fulfillment_connections.token_sealed:0190a0b0-0000-7000-8000-00000000000b';
const TOKEN = 'dropi-integration-token-4f9c';

const key = () => randomBytes(SECRET_KEY_BYTES);

/** The five dot-separated parts of a sealed value. */
const parts = (sealed: string) => {
  const [version, kid, iv, tag, ciphertext, ...rest] = sealed.split('.');
  assert.deepEqual(rest, [], `five parts: ${sealed}`);
  return { version: version!, kid: kid!, iv: iv!, tag: tag!, ciphertext: ciphertext! };
};

/** Flips one bit of a base64url part (its bytes, not its text: the last character may carry padding bits). */
const flip = (part: string, byte = 0) => {
  const bytes = Buffer.from(part, 'base64url');
  bytes[byte] = bytes[byte]! ^ 0x01;
  return bytes.toString('base64url');
};

const rejects = (fn: () => unknown, message: RegExp) =>
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof SecretOpenError, `a SecretOpenError, got ${String(error)}`);
    assert.match(error.message, message);
    return true;
  });

describe('seal and open', () => {
  test('a sealed value opens to the same text with the same context, unicode and the empty string included', () => {
    const box = new SecretBox(key());
    for (const text of [TOKEN, 'contraseña ñandú 🇨🇴', '', 'x'.repeat(1024)]) assert.equal(box.open(box.seal(text, STORE_A), STORE_A), text);
  });

  test('the sealed text is v1.<key id>.<iv>.<tag>.<ciphertext> in base64url, with a 12-byte IV, a 16-byte tag, and no clear text', () => {
    const k = key();
    const box = new SecretBox(k);
    const sealed = box.seal(TOKEN, STORE_A);
    const p = parts(sealed);
    assert.equal(p.version, 'v1');
    assert.equal(p.kid, keyId(k));
    assert.equal(p.kid, box.currentKeyId);
    assert.match(p.kid, /^[0-9a-f]{8}$/);
    for (const part of [p.iv, p.tag, p.ciphertext]) assert.match(part, /^[A-Za-z0-9_-]+$/);
    assert.equal(Buffer.from(p.iv, 'base64url').length, 12);
    assert.equal(Buffer.from(p.tag, 'base64url').length, 16);
    assert.equal(Buffer.from(p.ciphertext, 'base64url').length, Buffer.byteLength(TOKEN));
    assert.ok(!sealed.includes(TOKEN) && !sealed.includes(TOKEN.slice(-4)), 'neither the token nor its tail shows');
  });

  test('every seal draws a fresh IV: the same text sealed twice gives two different values that both open', () => {
    const box = new SecretBox(key());
    const seals = Array.from({ length: 20 }, () => box.seal(TOKEN, STORE_A));
    assert.equal(new Set(seals).size, seals.length);
    assert.equal(new Set(seals.map((s) => parts(s).iv)).size, seals.length);
    for (const sealed of seals) assert.equal(box.open(sealed, STORE_A), TOKEN);
  });

  test("a value sealed for one store's row does not open as another store's", () => {
    const box = new SecretBox(key());
    const sealed = box.seal(TOKEN, STORE_A);
    rejects(() => box.open(sealed, STORE_B), /does not open with its key/);
    rejects(() => box.open(sealed, ''), /does not open with its key/);
    assert.equal(box.open(sealed, STORE_A), TOKEN, 'it still opens in its own row');
  });

  test('a tampered ciphertext, tag or IV does not open', () => {
    const box = new SecretBox(key());
    const sealed = box.seal(TOKEN, STORE_A);
    const p = parts(sealed);
    const join = (q: typeof p) => [q.version, q.kid, q.iv, q.tag, q.ciphertext].join('.');
    rejects(() => box.open(join({ ...p, ciphertext: flip(p.ciphertext) }), STORE_A), /tampered/);
    rejects(() => box.open(join({ ...p, ciphertext: flip(p.ciphertext, Buffer.byteLength(TOKEN) - 1) }), STORE_A), /tampered/);
    rejects(() => box.open(join({ ...p, tag: flip(p.tag) }), STORE_A), /tampered/);
    rejects(() => box.open(join({ ...p, tag: flip(p.tag, 15) }), STORE_A), /tampered/);
    rejects(() => box.open(join({ ...p, iv: flip(p.iv) }), STORE_A), /tampered/);
    rejects(() => box.open(join({ ...p, ciphertext: `${p.ciphertext}AA` }), STORE_A), /tampered/);
  });

  test('a tag cut short does not open: only the full 16-byte tag authenticates a sealed value', () => {
    // node:crypto accepts GCM tags of 4 to 16 bytes unless authTagLength is set: the seal's own tag,
    // truncated, would otherwise still open (integrity down to 32 bits).
    const box = new SecretBox(key());
    const p = parts(box.seal(TOKEN, STORE_A));
    for (const length of [4, 8, 12, 15]) {
      const short = Buffer.from(p.tag, 'base64url').subarray(0, length).toString('base64url');
      assert.throws(() => box.open([p.version, p.kid, p.iv, short, p.ciphertext].join('.'), STORE_A), SecretOpenError, `a ${length}-byte tag`);
    }
  });

  test('text that is not a sealed value is refused as such', () => {
    const box = new SecretBox(key());
    const sealed = box.seal(TOKEN, STORE_A);
    for (const bad of ['', TOKEN, 'v1.abc', sealed.replace(/^v1\./, 'v2.'), `${sealed}.extra`, sealed.split('.').slice(0, 4).join('.')]) rejects(() => box.open(bad, STORE_A), /not a sealed secret/);
  });
});

describe('rotation', () => {
  test('a value sealed with an old key opens when that key is passed as previous, and isStale says it is; a fresh seal is not stale', () => {
    const oldKey = key();
    const newKey = key();
    const sealedOld = new SecretBox(oldKey).seal(TOKEN, STORE_A);
    const box = new SecretBox(newKey, [oldKey]);
    assert.equal(box.open(sealedOld, STORE_A), TOKEN);
    assert.equal(box.isStale(sealedOld), true);
    const resealed = box.seal(box.open(sealedOld, STORE_A), STORE_A);
    assert.equal(parts(resealed).kid, keyId(newKey), 'new seals name the current key');
    assert.equal(box.isStale(resealed), false);
    assert.equal(new SecretBox(newKey).open(resealed, STORE_A), TOKEN, 'once re-sealed, the old key is no longer needed');
    assert.equal(new SecretBox(oldKey).isStale(sealedOld), false);
  });

  test('several previous keys each open what they sealed, whatever their order', () => {
    const [k1, k2, k3] = [key(), key(), key()];
    const s1 = new SecretBox(k1).seal('uno', STORE_A);
    const s2 = new SecretBox(k2).seal('dos', STORE_A);
    for (const previous of [[k1, k2], [k2, k1]]) {
      const box = new SecretBox(k3, previous);
      assert.deepEqual([box.open(s1, STORE_A), box.open(s2, STORE_A)], ['uno', 'dos']);
    }
  });

  test('a value sealed with a key that is not configured fails with a message naming that key id', () => {
    const lost = key();
    const sealed = new SecretBox(lost).seal(TOKEN, STORE_A);
    const box = new SecretBox(key(), [key()]);
    rejects(() => box.open(sealed, STORE_A), new RegExp(`sealed with key ${keyId(lost)}, which is not configured`));
    assert.equal(box.isStale(sealed), true);
  });

  test('a key id relabelled to the current key does not open what another key sealed', () => {
    const current = key();
    const other = key();
    const p = parts(new SecretBox(other).seal(TOKEN, STORE_A));
    const box = new SecretBox(current);
    rejects(() => box.open(['v1', keyId(current), p.iv, p.tag, p.ciphertext].join('.'), STORE_A), /tampered/);
  });

  test('the key id is a stable 8-hex-digit fingerprint, different for different keys', () => {
    const k = key();
    assert.equal(keyId(k), keyId(Buffer.from(k)));
    assert.notEqual(keyId(k), keyId(key()));
    assert.match(keyId(k), /^[0-9a-f]{8}$/);
  });
});

describe('keys', () => {
  test('a current or previous key that is not 32 bytes is refused', () => {
    for (const bad of [Buffer.alloc(0), randomBytes(16), randomBytes(31), randomBytes(33), randomBytes(64)]) {
      assert.throws(() => new SecretBox(bad), RangeError, `current of ${bad.length} bytes`);
      assert.throws(() => new SecretBox(key(), [bad]), RangeError, `previous of ${bad.length} bytes`);
    }
    assert.throws(() => new SecretBox(randomBytes(16)), /32 bytes/);
  });

  test('a 32-byte key with an empty list of previous keys seals and opens', () => {
    const box = new SecretBox(key(), []);
    assert.equal(box.open(box.seal(TOKEN, STORE_B), STORE_B), TOKEN);
  });
});
