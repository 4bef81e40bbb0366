import type { KeyEnv, KeyType } from '../../domain/keys.ts';

export type { KeyEnv, KeyType };

export interface ApiKeysTable {
  id: string;
  account_id: string;
  store_id: string;
  type: KeyType;
  env: KeyEnv;
  /** SHA-256 of the full key, hex. The key itself is never stored (SPEC 5). */
  hash: string;
  /** Short display form: the type prefix plus the first characters, e.g. `svc_test_pub_4f2a…`. */
  prefix: string;
  label: string | null;
  /** JSON array of hosts; empty = the store's allowed domains. */
  allowed_domains: string;
  /** JSON array of product ids; empty = every product of the store. */
  allowed_products: string;
  created_at: string;
  last_used_at: string | null;
  /** Revocation time; may lie in the future during a `keys roll` grace period. */
  revoked_at: string | null;
  replaced_by: string | null;
}
