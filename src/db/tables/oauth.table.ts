// OAuth 2.1 authorization server tables (migration 0003, OAUTH.md). Secrets (codes, refresh
// tokens, session ids) are stored as SHA-256 hashes only.

export interface OAuthRedirectsTable {
  /** An exact redirect URI, or one ending in `/*`: any single path segment of [A-Za-z0-9_-]. */
  uri: string;
  label: string | null;
  created_at: string;
}

export interface OAuthClientsTable {
  id: string;
  client_name: string;
  /** JSON array of the allowed redirect URIs kept at registration. */
  redirect_uris: string;
  /** JSON array: authorization_code, refresh_token. */
  grant_types: string;
  client_uri: string | null;
  software_id: string | null;
  software_version: string | null;
  registered_via: 'dcr' | 'cli';
  registered_ip: string | null;
  created_at: string;
  revoked_at: string | null;
  /** For a Client ID Metadata Document client (id = its URL): when the document was last read. */
  metadata_fetched_at: string | null;
}

export interface OAuthSessionsTable {
  hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
}

/** One authorization (consent) and every token descended from it (OAUTH.md decision 10). */
export interface OAuthFamiliesTable {
  id: string;
  client_id: string;
  user_id: string;
  account_id: string;
  /** Granted scopes, space-separated. */
  scope: string;
  resource: string;
  created_at: string;
  /** Absolute lifetime of the family's refresh tokens. */
  expires_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  revoked_reason: string | null;
}

export interface OAuthCodesTable {
  hash: string;
  client_id: string;
  user_id: string;
  redirect_uri: string;
  code_challenge: string;
  scope: string;
  resource: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  /** The family the code was redeemed into: a replay revokes it. */
  family_id: string | null;
}

export interface OAuthRefreshTokensTable {
  hash: string;
  family_id: string;
  created_at: string;
  /** Idle expiry: a refresh token unused this long is dead. */
  expires_at: string;
  /** Set when it was exchanged; presenting it again revokes the family. */
  rotated_at: string | null;
}

export interface OAuthAccessTokensTable {
  jti: string;
  family_id: string;
  scope: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

export interface OAuthSigningKeysTable {
  kid: string;
  alg: string;
  private_jwk: string;
  public_jwk: string;
  created_at: string;
  /** Set by `codrail oauth keys rotate`: the key stops signing but still verifies the tokens it signed. */
  retired_at: string | null;
}
