// Where the key that seals stored secrets comes from (issue 12, README "Secrets at rest"):
// CODRAIL_SECRET_KEY (32 bytes, base64) when set; otherwise a key file next to the database
// (`<database>.key`, mode 0600), created with a random key the first time it is needed. Losing the
// key loses the stored platform credentials (they must be entered again), nothing else.
// Rotation: set CODRAIL_SECRET_KEY to a new key and keep the old one in CODRAIL_SECRET_KEY_PREVIOUS
// (an existing key file is also kept as a previous key), then run `codrail secrets rotate`.
import { randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import type { Config } from './config.ts';
import { SECRET_KEY_BYTES, SecretBox } from './domain/secret-box.ts';
import { AppError } from './errors.ts';

/** The key file beside a SQLite database; none for an in-memory one, nor on PostgreSQL (config.ts requires the key there). */
export const keyFileOf = (dbFile: string, databaseUrl?: string): string | undefined =>
  databaseUrl !== undefined || dbFile === ':memory:' || dbFile === '' ? undefined : `${dbFile}.key`;

function decodeKey(text: string, where: string): Buffer {
  const key = Buffer.from(text.trim(), 'base64');
  // The server's configuration is wrong, not the caller's input: an internal error (CLI exit 1, HTTP 500 logged).
  if (key.length !== SECRET_KEY_BYTES) throw new AppError('internal', `Invalid configuration: ${where} must be ${SECRET_KEY_BYTES} bytes in base64 (openssl rand -base64 32)`);
  return key;
}

function readKeyFile(file: string): Buffer | undefined {
  try {
    return decodeKey(readFileSync(file, 'utf8'), file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Creates the key file if no one else did (O_EXCL: two processes starting together agree on one key). */
function createKeyFile(file: string): Buffer {
  const key = randomBytes(SECRET_KEY_BYTES);
  try {
    writeFileSync(file, `${key.toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
    chmodSync(file, 0o600);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readKeyFile(file)!;
    throw error;
  }
}

/** The sealing box, resolved on first use so commands that never touch a secret never create a key. */
export class SecretKeys {
  readonly #config: Pick<Config, 'dbFile' | 'databaseUrl' | 'secretKey' | 'secretKeysPrevious'>;
  #box: SecretBox | undefined;

  constructor(config: Pick<Config, 'dbFile' | 'databaseUrl' | 'secretKey' | 'secretKeysPrevious'>) {
    this.#config = config;
  }

  box(): SecretBox {
    if (this.#box) return this.#box;
    const { secretKey, secretKeysPrevious, dbFile, databaseUrl } = this.#config;
    const file = keyFileOf(dbFile, databaseUrl);
    const previous = secretKeysPrevious.map((k, i) => decodeKey(k, `CODRAIL_SECRET_KEY_PREVIOUS[${i}]`));
    if (secretKey !== undefined) {
      const fromFile = file ? readKeyFile(file) : undefined;
      this.#box = new SecretBox(decodeKey(secretKey, 'CODRAIL_SECRET_KEY'), fromFile ? [...previous, fromFile] : previous);
    } else {
      // An in-memory database keeps its secrets for the process's life only: so does its key.
      const key = file ? (readKeyFile(file) ?? createKeyFile(file)) : randomBytes(SECRET_KEY_BYTES);
      this.#box = new SecretBox(key, previous);
    }
    return this.#box;
  }

  /** Where the key comes from, for the README's promise and `codrail secrets rotate`'s report. */
  source(): string {
    return this.#config.secretKey !== undefined ? 'CODRAIL_SECRET_KEY' : (keyFileOf(this.#config.dbFile, this.#config.databaseUrl) ?? 'memory (in-memory database)');
  }
}
