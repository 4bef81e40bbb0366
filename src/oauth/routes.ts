// Every route of the OAuth 2.1 authorization server (seed 4.3, OAUTH.md), as a table.
import type { Route } from '../http/context.ts';

export const oauthRoutes: readonly Route[] = [];
