// Frozen: never edit a migration that has shipped; add a new one.
// Issue 5: the OAuth 2.1 authorization server (OAUTH.md): clients, the redirect allowlist, sign-in
// sessions, authorization codes, token families, refresh tokens, access-token ids, signing keys.
import { sql, type Kysely } from 'kysely';

/** The vendor callbacks of OAUTH.md §4, loaded once; the operator edits the list with the CLI. */
export const DEFAULT_REDIRECTS: [string, string][] = [
  ['https://claude.ai/api/mcp/auth_callback', 'Claude'],
  ['https://claude.com/api/mcp/auth_callback', 'Claude'],
  ['https://chatgpt.com/connector_platform_oauth_redirect', 'ChatGPT'],
  ['https://chatgpt.com/connector/oauth/*', 'ChatGPT (per connector)'],
  ['https://platform.openai.com/apps-manage/oauth', 'ChatGPT app review'],
  ['https://vscode.dev/redirect', 'VS Code'],
  ['https://insiders.vscode.dev/redirect', 'VS Code Insiders'],
  ['https://www.cursor.com/agents/mcp/oauth/callback', 'Cursor (web)'],
  ['cursor://anysphere.cursor-mcp/oauth/callback', 'Cursor (older desktop)'],
];

const statements = [
  sql`CREATE TABLE oauth_redirects (
    uri TEXT PRIMARY KEY,
    label TEXT,
    created_at TEXT NOT NULL
  ) STRICT, WITHOUT ROWID`,
  sql`CREATE TABLE oauth_clients (
    id TEXT PRIMARY KEY,
    client_name TEXT NOT NULL,
    redirect_uris TEXT NOT NULL,
    grant_types TEXT NOT NULL,
    client_uri TEXT,
    software_id TEXT,
    software_version TEXT,
    registered_via TEXT NOT NULL CHECK (registered_via IN ('dcr','cli')),
    registered_ip TEXT,
    created_at TEXT NOT NULL,
    revoked_at TEXT
  ) STRICT`,
  sql`CREATE TABLE oauth_sessions (
    hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id),
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
  ) STRICT, WITHOUT ROWID`,
  sql`CREATE TABLE oauth_families (
    id TEXT PRIMARY KEY,
    client_id TEXT NOT NULL REFERENCES oauth_clients(id),
    user_id TEXT NOT NULL REFERENCES users(id),
    account_id TEXT NOT NULL REFERENCES accounts(id),
    scope TEXT NOT NULL,
    resource TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    last_used_at TEXT,
    revoked_at TEXT,
    revoked_reason TEXT
  ) STRICT`,
  sql`CREATE INDEX oauth_families_client ON oauth_families(client_id)`,
  sql`CREATE INDEX oauth_families_account ON oauth_families(account_id)`,
  sql`CREATE TABLE oauth_codes (
    hash TEXT PRIMARY KEY,
    client_id TEXT NOT NULL REFERENCES oauth_clients(id),
    user_id TEXT NOT NULL REFERENCES users(id),
    redirect_uri TEXT NOT NULL,
    code_challenge TEXT NOT NULL,
    scope TEXT NOT NULL,
    resource TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at TEXT,
    family_id TEXT REFERENCES oauth_families(id)
  ) STRICT, WITHOUT ROWID`,
  sql`CREATE TABLE oauth_refresh_tokens (
    hash TEXT PRIMARY KEY,
    family_id TEXT NOT NULL REFERENCES oauth_families(id),
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    rotated_at TEXT
  ) STRICT, WITHOUT ROWID`,
  sql`CREATE INDEX oauth_refresh_tokens_family ON oauth_refresh_tokens(family_id)`,
  sql`CREATE TABLE oauth_access_tokens (
    jti TEXT PRIMARY KEY,
    family_id TEXT NOT NULL REFERENCES oauth_families(id),
    scope TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    revoked_at TEXT
  ) STRICT, WITHOUT ROWID`,
  sql`CREATE INDEX oauth_access_tokens_family ON oauth_access_tokens(family_id)`,
  sql`CREATE INDEX oauth_access_tokens_expiry ON oauth_access_tokens(expires_at)`,
  sql`CREATE TABLE oauth_signing_keys (
    kid TEXT PRIMARY KEY,
    alg TEXT NOT NULL,
    private_jwk TEXT NOT NULL,
    public_jwk TEXT NOT NULL,
    created_at TEXT NOT NULL,
    retired_at TEXT
  ) STRICT, WITHOUT ROWID`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await statement.execute(db);
  const now = new Date().toISOString();
  for (const [uri, label] of DEFAULT_REDIRECTS) await sql`INSERT INTO oauth_redirects (uri, label, created_at) VALUES (${uri}, ${label}, ${now})`.execute(db);
}
