// Who is calling an account operation (/api/mcp): a secret key (its stored scopes, issue 19 §2) or
// an OAuth access token (its granted scopes). Tools resolve every id inside `accountId` (MCP-TOOLS.md §5.14).

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
  /** The token family (one authorization) an OAuth access token descends from. */
  familyId?: string;
  /** The secret key it is. */
  keyId?: string;
}

export const hasScope = (p: Pick<Principal, 'scopes'>, scope: string): boolean => p.scopes.has(scope);
