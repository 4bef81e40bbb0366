// API keys (MCP-TOOLS.md §6.3 rows 10-14).
import { ApiKey, ApiKeyPage, CreatedApiKey, CreatePublishableKeyInput, CreateSecretKeyInput, ListApiKeysInput, RevokeApiKeyInput, UpdateApiKeyInput } from '../keys/key.schemas.ts';
import { createPublishableKey, createSecretKey, listApiKeys, revokeApiKey, updateApiKey } from '../keys/keys.use-case.ts';
import { CHANGES, CREATES, DESTROYS, READ_ONLY, defineOperation } from './operation.ts';

/** The CLI's warning after a new key: it cannot be shown again. */
const KEY_SHOWN_ONCE = 'Store this key now: it is shown once and only its SHA-256 hash is kept.';
const keyHint = { not_found: 'key_id must be a key id from list_api_keys.' };

export const keyOperations = [
  defineOperation({
    name: 'list_api_keys',
    title: 'List API keys',
    description: 'API keys masked to their last 4 characters: type, mode, label, allowed domains, scopes, who made each, last use, revocation. Filter by store, type, mode; revoked ones with include_revoked. Scope: stores:read.',
    scope: 'stores:read',
    annotations: READ_ONLY,
    input: ListApiKeysInput,
    output: ApiKeyPage,
    hints: { not_found: 'store_id must be a store id from get_account or list_stores.', invalid_cursor: 'Pass next_cursor from the previous list_api_keys answer.' },
    http: 'GET /keys',
    cli: 'keys list',
    run: listApiKeys,
  }),
  defineOperation({
    name: 'create_publishable_key',
    title: 'Create publishable key',
    description: "Create a svc_live_pub_ or svc_test_pub_ key for one store's browser checkouts, only from allowed_domains (a subset of the store's; omit to follow them); test keys make sandbox orders. Scope: stores:write.",
    scope: 'stores:write',
    annotations: CREATES,
    input: CreatePublishableKeyInput,
    output: CreatedApiKey,
    hints: {
      not_found: 'store_id must be a store id from get_account or list_stores.',
      invalid_input: "allowed_domains must already be store domains: call add_store_domain first.",
      insufficient_scope: 'A publishable key creates orders: it needs a connection granted orders:create.',
    },
    http: 'POST /keys/publishable',
    cli: 'keys create-publishable <store_id>',
    creates: true,
    revealsSecret: KEY_SHOWN_ONCE,
    run: createPublishableKey,
  }),
  defineOperation({
    name: 'create_secret_key',
    title: 'Create secret key',
    description: 'Create a svc_live_secret_ key for server-to-server calls (REST /api/v1, orders without origin checks), with at most your own scopes. Returned once and it will sit in this conversation: hand it to the user to store, never on a web page. Scope: stores:write.',
    help: 'Create a svc_live_secret_ key for server-to-server calls (REST /api/v1, orders without origin checks), with at most your own scopes. Shown once: store it in a secret manager, never on a web page.',
    scope: 'stores:write',
    annotations: CREATES,
    input: CreateSecretKeyInput,
    output: CreatedApiKey,
    hints: { not_found: 'store_id must be a store id from get_account or list_stores.', insufficient_scope: 'Ask only for scopes this connection holds: get_account lists granted_scopes.' },
    http: 'POST /keys/secret',
    cli: 'keys create-secret <store_id>',
    creates: true,
    revealsSecret: KEY_SHOWN_ONCE,
    run: createSecretKey,
  }),
  defineOperation({
    name: 'update_api_key',
    title: 'Update API key',
    description: "Rename a key, or change a publishable key's allowed domains (store domains only), follow the store's domains again, or restrict its products. Returns the masked key. Scope: stores:write.",
    scope: 'stores:write',
    annotations: CHANGES,
    input: UpdateApiKeyInput,
    output: ApiKey,
    hints: keyHint,
    http: 'PATCH /keys/:key_id',
    cli: 'keys update <key_id>',
    run: updateApiKey,
  }),
  defineOperation({
    name: 'revoke_api_key',
    title: 'Revoke API key',
    description: 'Revoke a key immediately and for good: its next request is refused with 401. A key already revoked answers conflict. Scope: stores:write.',
    scope: 'stores:write',
    annotations: DESTROYS,
    input: RevokeApiKeyInput,
    output: ApiKey,
    hints: keyHint,
    http: 'POST /keys/:key_id/revoke',
    cli: 'keys revoke <key_id>',
    run: revokeApiKey,
  }),
];
