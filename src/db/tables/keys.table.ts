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
  /**
   * What a secret key may do: OAuth scope names, space-separated in canonical order (migration 0010).
   * Null for publishable keys, which only create orders for their store.
   */
  scopes: string | null;
  /** Who made the key: the operator's CLI, a secret key, or an OAuth token (issue 19 §2). */
  created_via: KeyOrigin;
  /** The secret key that made it, when `created_via` is `secret_key`. */
  created_by_key: string | null;
  /** The OAuth client, user and token family (the authorization) that made it, when `created_via` is `oauth`. */
  oauth_client_id: string | null;
  oauth_user_id: string | null;
  oauth_family_id: string | null;
}

export type KeyOrigin = 'operator' | 'secret_key' | 'oauth';
