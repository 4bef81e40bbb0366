// API keys (MCP-TOOLS.md §6.3 rows 10-14; SPEC 5): inputs and outputs. A listing never carries a key
// or its hash: only the masked form (last 4 characters) and the display prefix.
import * as v from 'valibot';
import { KEY_LABEL_MAX, MAX_STORE_DOMAINS } from '../../limits.ts';
import { cursorInput, limitInput } from '../pagination.ts';
import { booleanInput, domainInput, nullableTimestamp, optionalText, pageOf, timestamp, uuidInput } from '../fields.ts';
import { GRANTABLE_SCOPES } from '../../domain/oauth/scopes.ts';

const storeId = uuidInput('store_id', 'Store id (see list_stores).');
const keyId = uuidInput('key_id', 'Key id (from list_api_keys).');
const label = optionalText('label', KEY_LABEL_MAX, 'A name to recognise the key by, e.g. "checkout tienda.com".');
const domains = v.pipe(
  v.array(domainInput('A domain the store allows (get_store lists them).')),
  v.minLength(1, 'allowed_domains needs at least one domain; omit it to follow the store domains'),
  v.maxLength(MAX_STORE_DOMAINS),
  v.description("Origins allowed, each a store domain; omit to follow the store's domains."),
);
const products = v.pipe(
  v.array(uuidInput('product', 'Product id of the store (list_products).')),
  v.maxLength(100),
  v.description('Only these products; omit or [] for all.'),
);

export const ListApiKeysInput = v.strictObject({
  store_id: v.optional(uuidInput('store_id', 'Only keys of this store; omit for every store of the account.')),
  type: v.optional(v.pipe(v.picklist(['publishable', 'secret'], 'type must be publishable or secret'), v.description('Only publishable or only secret keys.'))),
  mode: v.optional(v.pipe(v.picklist(['test', 'live'], 'mode must be test or live'), v.description('Only test (sandbox) or only live keys.'))),
  include_revoked: v.optional(booleanInput('include_revoked', 'Also list revoked keys (default false).')),
  cursor: cursorInput,
  limit: limitInput,
});

export const CreatePublishableKeyInput = v.strictObject({
  store_id: storeId,
  mode: v.optional(v.pipe(v.picklist(['test', 'live'], 'mode must be test or live'), v.description('live (default) creates real orders; test creates sandbox orders that are never pushed.')), 'live'),
  allowed_domains: v.optional(domains),
  allowed_products: v.optional(products),
  label,
});

/** Issue 19 §2: a secret key's scopes, each one the creating credential holds (checked by the use-case). */
const scopes = v.pipe(
  v.array(v.picklist(GRANTABLE_SCOPES, `each scope must be one of ${GRANTABLE_SCOPES.join(', ')}`)),
  v.minLength(1, 'scopes needs at least one scope; omit it for every scope you hold'),
  v.maxLength(GRANTABLE_SCOPES.length),
  v.description('What the key may do: scopes you hold (get_account). Default: all of yours.'),
);

export const CreateSecretKeyInput = v.strictObject({
  store_id: storeId,
  mode: v.optional(v.pipe(v.picklist(['live'], 'secret keys exist only in live mode (svc_live_secret_)'), v.description('Only live: there is no test secret key format.')), 'live'),
  label,
  scopes: v.optional(scopes),
});

export const UpdateApiKeyInput = v.strictObject({
  key_id: keyId,
  label,
  allowed_domains: v.optional(domains),
  follow_store_domains: v.optional(booleanInput('follow_store_domains', "true: works on every store domain (clears allowed_domains).")),
  allowed_products: v.optional(products),
});

export const RevokeApiKeyInput = v.strictObject({ key_id: keyId });

export const ApiKey = v.object({
  id: v.string(),
  store_id: v.string(),
  type: v.picklist(['publishable', 'secret']),
  mode: v.picklist(['test', 'live']),
  label: v.nullable(v.string()),
  masked: v.pipe(v.string(), v.description('The key masked to its last 4 characters, e.g. svc_live_pub_…Ab3d.')),
  prefix: v.pipe(v.string(), v.description('The key type and its first characters, as shown at creation.')),
  allowed_domains: v.pipe(v.array(v.string()), v.description('Its own origins; empty when it follows the store domains.')),
  follows_store_domains: v.boolean(),
  allowed_products: v.array(v.string()),
  active: v.pipe(v.boolean(), v.description('Usable now (not revoked, or inside a roll grace period).')),
  created_at: timestamp('Creation time, ISO-8601 UTC.'),
  last_used_at: nullableTimestamp('Last order it created (updated at most once a minute).'),
  revoked_at: nullableTimestamp('Revocation time; in the future during a roll grace period.'),
  replaced_by: v.nullable(v.string()),
  scopes: v.pipe(v.nullable(v.array(v.string())), v.description('What a secret key may do; null for publishable keys, which only create orders.')),
  created_by: v.pipe(
    v.object({
      via: v.pipe(v.picklist(['operator', 'secret_key', 'oauth']), v.description('The CLI, a secret key, or an OAuth authorization (revoking it revokes the key).')),
      key_id: v.pipe(v.nullable(v.string()), v.description('The secret key that made it.')),
      client_id: v.pipe(v.nullable(v.string()), v.description('The OAuth client whose authorization made it (or made the key that made it).')),
      client_name: v.nullable(v.string()),
      user_id: v.pipe(v.nullable(v.string()), v.description('The user who authorized that client.')),
      user_email: v.nullable(v.string()),
    }),
    v.description('What made the key.'),
  ),
});

export const CreatedApiKey = v.object({
  ...ApiKey.entries,
  key: v.pipe(v.string(), v.description('The full key, shown this once: only its SHA-256 hash is kept.')),
});

export const ApiKeyPage = pageOf(ApiKey);
