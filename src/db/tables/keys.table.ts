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
  /** The key's last four characters, for masked listings; null for keys made before they were kept. */
  last4: string | null;
  /** JSON array of hosts, used unless `inherit_domains`. */
  allowed_domains: string;
  /** 1: the key follows the store's allowed domains; 0: only `allowed_domains` (possibly none). */
  inherit_domains: number;
  /** JSON array of product ids; empty = every product of the store. */
  allowed_products: string;
  created_at: string;
  last_used_at: string | null;
  /** Revocation time; may lie in the future during a `keys roll` grace period. */
  revoked_at: string | null;
  replaced_by: string | null;
}
