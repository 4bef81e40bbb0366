// Who is calling an account operation (/api/mcp): a secret key (every scope) or an OAuth access
// token (its granted scopes). Tools resolve every id inside `accountId` (MCP-TOOLS.md §5.14).

export interface Principal {
  kind: 'secret_key' | 'oauth';
  accountId: string;
  scopes: ReadonlySet<string>;
  /** Stable id for audit trails and rate limits: the key id, or the token family id. */
  subjectId: string;
  /** Audit actor written into order events: `key:<id>` or `oauth:<client_id>`. */
  actor: string;
  clientId?: string;
  userId?: string;
}

export const hasScope = (p: Pick<Principal, 'scopes'>, scope: string): boolean => p.scopes.has(scope);
