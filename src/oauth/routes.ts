// Every route of the OAuth 2.1 authorization server (seed 4.3, OAUTH.md), as a table.
import type { Route } from '../http/context.ts';
import { authorizationServerMetadataRoute, protectedResourceMetadataRoute } from './metadata.route.ts';
import { authorizeGetRoute, authorizePostRoute } from './authorize/authorize.route.ts';
import { tokenRoute } from './token.route.ts';
import { registerRoute } from './register.route.ts';
import { revokeRoute } from './revoke.route.ts';
import { oauthPreflight } from './oauth-http.ts';

const metadataPreflight = oauthPreflight('GET, OPTIONS');
const postPreflight = oauthPreflight('POST, OPTIONS');

export const oauthRoutes: readonly Route[] = [
  { method: 'GET', path: '/.well-known/oauth-authorization-server', handler: authorizationServerMetadataRoute },
  { method: 'OPTIONS', path: '/.well-known/oauth-authorization-server', handler: metadataPreflight },
  { method: 'GET', path: '/.well-known/oauth-protected-resource/api/mcp', handler: protectedResourceMetadataRoute },
  { method: 'OPTIONS', path: '/.well-known/oauth-protected-resource/api/mcp', handler: metadataPreflight },
  { method: 'GET', path: '/.well-known/oauth-protected-resource', handler: protectedResourceMetadataRoute },
  { method: 'OPTIONS', path: '/.well-known/oauth-protected-resource', handler: metadataPreflight },
  { method: 'GET', path: '/api/oauth/authorize', handler: authorizeGetRoute },
  { method: 'POST', path: '/api/oauth/authorize', handler: authorizePostRoute },
  { method: 'POST', path: '/api/oauth/token', handler: tokenRoute },
  { method: 'OPTIONS', path: '/api/oauth/token', handler: postPreflight },
  { method: 'POST', path: '/api/oauth/register', handler: registerRoute },
  { method: 'OPTIONS', path: '/api/oauth/register', handler: postPreflight },
  { method: 'POST', path: '/api/oauth/revoke', handler: revokeRoute },
  { method: 'OPTIONS', path: '/api/oauth/revoke', handler: postPreflight },
];
