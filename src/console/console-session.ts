// Who the console acts as and how it acts (issue 24 §6, §7): a shell like the CLI, REST and MCP,
// with no SQL and no rule of its own. It signs a user in with the same email and password as the
// OAuth consent pages (their role's scope ceiling applies: support never sees keys or store
// settings), or runs as the local operator (`--local`, every account, like the CLI). Every read and
// action is an account operation, called by name, its input parsed by the operation's own schema
// and its scope checked as every shell checks it.
import type { App } from '../app.ts';
import { findUserByEmail } from '../db/queries/accounts.queries.ts';
import { ROLE_CEILING } from '../domain/oauth/scopes.ts';
import { forbidden } from '../errors.ts';
import { OPERATOR, type Caller } from '../use-cases/caller.ts';
import { signIn } from '../use-cases/oauth/sign-in.use-case.ts';
import { OPERATIONS, type Operation } from '../use-cases/operations/index.ts';
import { parseWith } from '../use-cases/validate.ts';

export type ConsoleRole = 'operator' | 'owner' | 'admin' | 'support';

export interface ConsoleSession {
  caller: Caller;
  role: ConsoleRole;
  /** Who is at the keyboard, for the header. */
  who: string;
  /** Runs one account operation as this session (scope checked, input parsed by its schema). */
  invoke<T = unknown>(name: string, input: Record<string, unknown>): Promise<T>;
  /** Whether this session may run an operation (screens it may not use are not shown). */
  may(name: string): boolean;
}

const BY_NAME = new Map<string, Operation>(OPERATIONS.map((op) => [op.name, op]));

function session(app: App, caller: Caller, role: ConsoleRole, who: string): ConsoleSession {
  const allowed = (op: Operation) => op.scope === 'mcp:invoke' || caller.scopes.has(op.scope);
  return {
    caller,
    role,
    who,
    may: (name) => {
      const op = BY_NAME.get(name);
      return op !== undefined && allowed(op);
    },
    async invoke<T>(name: string, input: Record<string, unknown>): Promise<T> {
      const op = BY_NAME.get(name);
      if (!op) throw new Error(`no operation ${name}`);
      if (!allowed(op)) throw forbidden(`This session lacks the scope ${op.scope}`);
      return (await op.run(app, caller, parseWith(op.input, input))) as T;
    },
  };
}

/** The local operator: every account, every scope (whoever can read the database file can anyway). */
export const localSession = (app: App): ConsoleSession => session(app, OPERATOR, 'operator', 'operator (--local)');

/** A user of an account, signed in with email and password; their role's ceiling is their scopes. */
export async function userSession(app: App, email: string, password: string): Promise<ConsoleSession> {
  await signIn(app, { email, password, ip: 'console' });
  const user = (await findUserByEmail(app.db, email.trim().toLowerCase()))!;
  const caller: Caller = {
    credential: 'operator',
    accountId: user.account_id,
    scopes: new Set(ROLE_CEILING[user.role]),
    actor: `user:${user.id}`,
    subjectId: `user:${user.id}`,
    userId: user.id,
  };
  return session(app, caller, user.role, `${user.email} (${user.role})`);
}
