// Discovery documents: RFC 8414 authorization-server metadata and RFC 9728 protected-resource
// metadata (OAUTH.md decisions 1, 2, 13, 14; T4, T5, T15–T21). Built once per base URL.
import type { RequestContext } from '../http/context.ts';
import { GRANTABLE_SCOPES } from '../domain/oauth/scopes.ts';
import { issuerUrl, resourceUrl } from '../use-cases/oauth/access-tokens.ts';
import { allowAnyOrigin } from './oauth-http.ts';

const CACHE = { 'Cache-Control': 'public, max-age=3600' };

function authorizationServer(base: string, issuer: string) {
  return {
    issuer,
    authorization_endpoint: `${base}/api/oauth/authorize`,
    token_endpoint: `${base}/api/oauth/token`,
    registration_endpoint: `${base}/api/oauth/register`,
    // An https URL as client_id names the client's metadata document (MCP authorization, 2025-11-25).
    client_id_metadata_document_supported: true,
    revocation_endpoint: `${base}/api/oauth/revoke`,
    scopes_supported: GRANTABLE_SCOPES,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    authorization_response_iss_parameter_supported: true,
    ui_locales_supported: ['es', 'en'],
    service_documentation: `${base}/openapi.json`,
  };
}

function protectedResource(resource: string, issuer: string) {
  return {
    resource,
    authorization_servers: [issuer],
    scopes_supported: GRANTABLE_SCOPES,
    bearer_methods_supported: ['header'],
    resource_name: 'codrail MCP',
  };
}

const built = new Map<string, { as: string; prm: string }>();

function documents(ctx: RequestContext) {
  const base = ctx.deps.config.baseUrl;
  let docs = built.get(base);
  if (!docs) {
    const issuer = issuerUrl(ctx.deps);
    docs = { as: JSON.stringify(authorizationServer(base, issuer)), prm: JSON.stringify(protectedResource(resourceUrl(ctx.deps), issuer)) };
    built.set(base, docs);
  }
  return docs;
}

function sendDocument(ctx: RequestContext, body: string): void {
  allowAnyOrigin(ctx);
  ctx.res.writeHead(200, { ...ctx.headers, ...CACHE, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  ctx.res.end(body);
}

export const authorizationServerMetadataRoute = (ctx: RequestContext): void => sendDocument(ctx, documents(ctx).as);

/**
 * Served at the path-suffixed URL (what clients try first) and at the root for older clients;
 * both name the same resource string the token endpoint accepts (OAUTH.md decision 2, T5).
 */
export const protectedResourceMetadataRoute = (ctx: RequestContext): void => sendDocument(ctx, documents(ctx).prm);
