import * as v from 'valibot';
import type { Deps } from '../../app.ts';
import { newId } from '../../ids.ts';
import { NAME_MAX } from '../../limits.ts';
import { insertAccount, insertUser, findAccount, findUserByEmail, listAccounts, listUsers } from '../../db/queries/accounts.queries.ts';
import { hashPassword, PASSWORD_MAX, PASSWORD_MIN } from '../../domain/password.ts';
import { conflict, notFound } from '../../errors.ts';
import { parseWith } from '../validate.ts';
import { cleanText } from '../text-input.ts';
import { answeringUnique } from '../../db/unique-violation.ts';

const name = v.pipe(cleanText('name', true), v.minLength(1, 'name is required'), v.maxLength(NAME_MAX, `name must be at most ${NAME_MAX} characters`));

export const CreateAccountSchema = v.object({ name });

export async function createAccount(deps: Pick<Deps, 'db' | 'clock'>, raw: unknown) {
  const input = parseWith(CreateAccountSchema, raw);
  const row = { id: newId(), name: input.name, created_at: deps.clock.now().toISOString() };
  await insertAccount(deps.db, row);
  return row;
}

export const listAllAccounts = (deps: Pick<Deps, 'db'>) => listAccounts(deps.db);

export const CreateUserSchema = v.object({
  account_id: v.pipe(v.string(), v.uuid('account must be a UUID')),
  email: v.pipe(v.string(), v.trim(), v.toLowerCase(), v.email('email must be an email address'), v.maxLength(254)),
  password: v.pipe(v.string(), v.minLength(PASSWORD_MIN, `password must be at least ${PASSWORD_MIN} characters`), v.maxLength(PASSWORD_MAX)),
  role: v.optional(v.picklist(['owner', 'admin', 'support'], 'role must be owner, admin or support'), 'owner'),
});

/** Users sign in to the consent pages; the password is stored as a scrypt hash only. */
export async function createUser(deps: Pick<Deps, 'db' | 'clock'>, raw: unknown) {
  const input = parseWith(CreateUserSchema, raw);
  if (!(await findAccount(deps.db, input.account_id))) throw notFound('Account');
  const emailTaken = () => conflict('A user with this email already exists');
  if (await findUserByEmail(deps.db, input.email)) throw emailTaken();
  const row = {
    id: newId(),
    account_id: input.account_id,
    email: input.email,
    password_hash: hashPassword(input.password),
    role: input.role,
    created_at: deps.clock.now().toISOString(),
  };
  // The unique index decides when two requests pass the look-up above at once.
  await answeringUnique(insertUser(deps.db, row), { 'users(email)': emailTaken });
  return { id: row.id, account_id: row.account_id, email: row.email, role: row.role, created_at: row.created_at };
}

export const listAccountUsers = (deps: Pick<Deps, 'db'>, accountId?: string) => listUsers(deps.db, accountId);
