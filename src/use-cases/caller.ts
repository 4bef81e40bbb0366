// Who runs an account operation. A secret key or an OAuth token acts inside one account (every id
// is resolved there: another account's id is not_found, MCP-TOOLS.md §5.14); the operator's CLI on
// the database file acts on every account unless `--account` scopes it to one.
import { GRANTABLE_SCOPES, type Scope } from '../domain/oauth/scopes.ts';
import type { Principal } from '../domain/oauth/principal.ts';

export interface Caller {
  /** How the caller authenticated: get_account reports it. */
  credential: 'secret_key' | 'oauth' | 'operator' | 'buyer';
  /** The account ids are resolved in; null only for the operator's CLI, which sees every account. */
  accountId: string | null;
  scopes: ReadonlySet<string>;
  /** Written into audit trails (order events): `key:<id>`, `oauth:<client_id>`, `cli`. */
  actor: string;
  /** Rate-limit bucket: the key id, the token family id, or `cli`. */
  subjectId: string;
  /**
   * What made the call, recorded on a key it creates (issue 19 §2): the secret key, or the OAuth
   * client, user and token family, whose revocation then revokes that key too.
   */
  keyId?: string | undefined;
  clientId?: string | undefined;
  userId?: string | undefined;
  familyId?: string | undefined;
}

const ALL: ReadonlySet<string> = new Set<Scope>(GRANTABLE_SCOPES);

/** The CLI run by whoever holds the database file. */
export const OPERATOR: Caller = Object.freeze({ credential: 'operator', accountId: null, scopes: ALL, actor: 'cli', subjectId: 'cli' });

/** The CLI with `--account ID`: the operator acting as one account, with that account's tenancy. */
export const operatorAs = (accountId: string): Caller => ({ ...OPERATOR, accountId });

export const fromPrincipal = (p: Principal): Caller => ({
  credential: p.kind,
  accountId: p.accountId,
  scopes: p.scopes,
  actor: p.actor,
  subjectId: p.subjectId,
  keyId: p.keyId,
  clientId: p.clientId,
  userId: p.userId,
  familyId: p.familyId,
});

/** Whether the caller may see a row of this account. */
export const sees = (caller: Pick<Caller, 'accountId'>, accountId: string): boolean => caller.accountId === null || caller.accountId === accountId;

/**
 * The buyer, acting on their own order through a one-time link (issue 25's address correction):
 * inside the order's account, with no scopes (no operation surface takes this caller).
 */
export const buyerIn = (accountId: string): Caller => ({ credential: 'buyer', accountId, scopes: new Set(), actor: 'buyer', subjectId: 'buyer' });
