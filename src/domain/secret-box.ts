// Secrets at rest (issue 12: the stores' platform credentials; later the OAuth signing key): sealed
// with AES-256-GCM from node:crypto, a fresh 96-bit IV per seal (NIST SP 800-38D §8.2.2), and the
// row they belong to as additional authenticated data, so a sealed value copied onto another row
// does not open. A sealed value names the key that sealed it (`v1.<key id>.<iv>.<tag>.<ciphertext>`,
// base64url): after a rotation the previous keys still open what they sealed until it is re-sealed.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

export const SECRET_KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const VERSION = 'v1';

/** A short public fingerprint of a key: which key sealed a value, without revealing it. */
export const keyId = (key: Buffer): string => createHash('sha256').update(key).digest('hex').slice(0, 8);

export class SecretOpenError extends Error {
  override readonly name = 'SecretOpenError';
}

export class SecretBox {
  readonly #current: Buffer;
  readonly #keys: Map<string, Buffer>;

  /** `current` seals; it and every `previous` key open. */
  constructor(current: Buffer, previous: readonly Buffer[] = []) {
    for (const key of [current, ...previous]) if (key.length !== SECRET_KEY_BYTES) throw new RangeError(`a secret key is ${SECRET_KEY_BYTES} bytes`);
    this.#current = current;
    this.#keys = new Map([...previous, current].map((k) => [keyId(k), k]));
  }

  get currentKeyId(): string {
    return keyId(this.#current);
  }

  seal(plaintext: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#current, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, this.currentKeyId, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join('.');
  }

  open(sealed: string, context: string): string {
    const [version, kid, iv, tag, ciphertext, ...rest] = sealed.split('.');
    if (version !== VERSION || !kid || iv === undefined || tag === undefined || ciphertext === undefined || rest.length) throw new SecretOpenError('not a sealed secret');
    const key = this.#keys.get(kid);
    if (!key) throw new SecretOpenError(`sealed with key ${kid}, which is not configured (CODRAIL_SECRET_KEY / the key file)`);
    const authTag = Buffer.from(tag, 'base64url');
    // A tag cut short would weaken the check (Node accepts 4-16 bytes): only the full 128 bits open.
    if (authTag.length !== TAG_BYTES) throw new SecretOpenError('the sealed secret does not open with its key (tampered, or sealed for another row)');
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(authTag);
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretOpenError('the sealed secret does not open with its key (tampered, or sealed for another row)');
    }
  }

  /** Whether a value was sealed with an older key (what `codrail secrets rotate` re-seals). */
  isStale(sealed: string): boolean {
    return sealed.split('.')[1] !== this.currentKeyId;
  }
}
