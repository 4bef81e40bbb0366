// Frozen: never edit a migration that has shipped; add a new one.
// Issue 19 §2: secret keys carry scopes, like Stripe's restricted keys, and say what made them. A key
// made through OAuth carries at most the token's scopes and names the client, user and token family
// (the authorization) it came from, so that revoking the authorization revokes the key. Publishable
// keys keep NULL scopes: they only create orders for their store. Every key made before this
// migration was made by the operator, and its secret keys keep what they had: every scope OAuth can
// grant, written out as it stands today (a scope added later is not given to them by itself).
// oauth_family_id has no foreign key: ended families are pruned, the keys they made stay listed.
import { sql, type Kysely } from 'kysely';

const EVERY_GRANTABLE_SCOPE = 'mcp:invoke orders:create orders:read orders:write products:read products:write landings:read landings:write stores:read stores:write whatsapp:write';

const statements = [
  sql`ALTER TABLE api_keys ADD COLUMN scopes TEXT`,
  sql`ALTER TABLE api_keys ADD COLUMN created_via TEXT NOT NULL DEFAULT 'operator' CHECK (created_via IN ('operator','secret_key','oauth'))`,
  sql`ALTER TABLE api_keys ADD COLUMN created_by_key TEXT REFERENCES api_keys(id)`,
  sql`ALTER TABLE api_keys ADD COLUMN oauth_client_id TEXT REFERENCES oauth_clients(id)`,
  sql`ALTER TABLE api_keys ADD COLUMN oauth_user_id TEXT REFERENCES users(id)`,
  sql`ALTER TABLE api_keys ADD COLUMN oauth_family_id TEXT`,
  sql`UPDATE api_keys SET scopes = ${EVERY_GRANTABLE_SCOPE} WHERE type = 'secret'`,
  sql`CREATE INDEX api_keys_oauth_family ON api_keys(oauth_family_id) WHERE oauth_family_id IS NOT NULL`,
  sql`CREATE INDEX api_keys_oauth_client ON api_keys(oauth_client_id) WHERE oauth_client_id IS NOT NULL`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await statement.execute(db);
}
