// Access-token signing keys (OAUTH.md decision 9): ES256 keys kept in the database, one current.
// `codrail oauth keys rotate` retires the current key: it stops signing at once and keeps
// verifying the tokens it signed until they expire. Imported keys are cached by kid.
import type { CryptoKey, JWK } from 'jose';
import { jose } from './jose-lazy.ts';
import type { Db } from '../../db/connect.ts';
import type { Clock } from '../../clock.ts';
import { currentSigningKey, findSigningKey, insertSigningKey, listSigningKeys, retireSigningKeys, sealSigningKey } from '../../db/queries/oauth.queries.ts';
import type { SecretKeys } from '../../secret-keys.ts';
import { writeTransaction } from '../../db/transaction.ts';
import { randomBase62 } from '../../domain/keys.ts';
import { OAUTH_ACCESS_TOKEN_TTL_S, OAUTH_CLOCK_SKEW_S } from '../../limits.ts';

export const SIGNING_ALG = 'ES256';

/** The additional data a signing key's sealed private JWK is bound to: its row. */
export const signingKeyContext = (kid: string) => `oauth_signing_keys.private_jwk:${kid}`;

interface CachedKey {
  key: CryptoKey;
  retiredAt: string | null;
}

/** Signature checks remembered per token (bounded); revocation is still read from the database each time. */
const VERIFIED_CACHE_MAX = 10_000;

export interface VerifiedClaims {
  jti: string;
  sub: string;
  client_id?: unknown;
  exp: number;
  kid: string;
}

export class SigningKeys {
  readonly #verify = new Map<string, CachedKey>();
  readonly #sign = new Map<string, CryptoKey>();
  readonly #verified = new Map<string, VerifiedClaims>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly secrets: SecretKeys,
  ) {}

  /**
   * The private JWK in clear, from its sealed column (issue 13 §4: sealed with the key that protects
   * the stores' platform credentials). A row written in clear by an older release is sealed in place.
   */
  async #privateJwk(row: { kid: string; private_jwk: string }): Promise<JWK> {
    const box = this.secrets.box();
    if (row.private_jwk.startsWith('{')) {
      await sealSigningKey(this.db, row.kid, box.seal(row.private_jwk, signingKeyContext(row.kid)));
      return JSON.parse(row.private_jwk) as JWK;
    }
    return JSON.parse(box.open(row.private_jwk, signingKeyContext(row.kid))) as JWK;
  }

  /** The current signing key, created on first use (a fresh database has none). */
  async current(): Promise<{ kid: string; key: CryptoKey }> {
    let row = await currentSigningKey(this.db);
    if (!row) row = await this.#create();
    let key = this.#sign.get(row.kid);
    if (!key) {
      key = (await (await jose()).importJWK(await this.#privateJwk(row), SIGNING_ALG)) as CryptoKey;
      this.#sign.set(row.kid, key);
    }
    return { kid: row.kid, key };
  }

  /** The public key of `kid` if it may still verify tokens; undefined fails the verification. */
  async verifyingKey(kid: string): Promise<CryptoKey | undefined> {
    let cached = this.#verify.get(kid);
    if (!cached) {
      const row = await findSigningKey(this.db, kid);
      if (!row || row.alg !== SIGNING_ALG) return undefined;
      cached = { key: (await (await jose()).importJWK(JSON.parse(row.public_jwk) as JWK, SIGNING_ALG)) as CryptoKey, retiredAt: row.retired_at };
      // A key retired later than it was cached still verifies only tokens it signed before: they expire within the hour.
      this.#verify.set(kid, cached);
    }
    if (cached.retiredAt !== null) {
      const until = Date.parse(cached.retiredAt) + (OAUTH_ACCESS_TOKEN_TTL_S + OAUTH_CLOCK_SKEW_S) * 1000;
      if (this.clock.now().getTime() > until) return undefined;
    }
    return cached.key;
  }

  /**
   * A token whose signature, issuer and audience were already verified, while it has not expired
   * and its key may still verify. Saves the ES256 verification on every request of a session.
   */
  async recall(token: string): Promise<VerifiedClaims | undefined> {
    const claims = this.#verified.get(token);
    if (!claims) return undefined;
    if (claims.exp * 1000 <= this.clock.now().getTime() || !(await this.verifyingKey(claims.kid))) {
      this.#verified.delete(token);
      return undefined;
    }
    return claims;
  }

  remember(token: string, claims: VerifiedClaims): void {
    if (this.#verified.size >= VERIFIED_CACHE_MAX) this.#verified.delete(this.#verified.keys().next().value!);
    this.#verified.set(token, claims);
  }

  /** Retires every current key and creates a new one, in one transaction. */
  async rotate(): Promise<{ kid: string; retired: string[] }> {
    const before = (await listSigningKeys(this.db)).filter((k) => k.retired_at === null).map((k) => k.kid);
    const row = await this.#create(true);
    return { kid: row.kid, retired: before };
  }

  list() {
    return listSigningKeys(this.db);
  }

  async #create(retireOthers = false) {
    const { generateKeyPair, exportJWK } = await jose();
    const { privateKey, publicKey } = await generateKeyPair(SIGNING_ALG, { extractable: true });
    const now = this.clock.now().toISOString();
    const kid = `${now.slice(0, 10).replaceAll('-', '')}-${randomBase62(12)}`;
    const row = {
      kid,
      alg: SIGNING_ALG,
      private_jwk: this.secrets.box().seal(JSON.stringify(await exportJWK(privateKey)), signingKeyContext(kid)),
      public_jwk: JSON.stringify({ ...(await exportJWK(publicKey)), kid, alg: SIGNING_ALG, use: 'sig' }),
      created_at: now,
      retired_at: null,
    };
    return writeTransaction(this.db, async (tx) => {
      if (retireOthers) await retireSigningKeys(tx, now);
      else {
        // Two processes creating the first key at once: the second one uses the first's.
        const existing = await currentSigningKey(tx);
        if (existing) return existing;
      }
      await insertSigningKey(tx, row);
      return row;
    });
  }
}
