import type { Db } from '../connect.ts';
import type { Tx } from '../transaction.ts';
import type { AccountsTable, UsersTable } from '../tables/index.ts';
import { sql, type Insertable } from 'kysely';

export const insertAccount = (db: Db | Tx, row: AccountsTable) => db.insertInto('accounts').values(row).execute();

export const findAccount = (db: Db, id: string) => db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();

export const findAccountByName = (db: Db, name: string) =>
  db.selectFrom('accounts').selectAll().where('name', '=', name).orderBy('created_at').executeTakeFirst();

export const listAccounts = (db: Db) => db.selectFrom('accounts').selectAll().orderBy('created_at').execute();

export const insertUser = (db: Db | Tx, row: Insertable<UsersTable>) => db.insertInto('users').values(row).execute();

export const findUserByEmail = (db: Db, email: string) =>
  // Case-insensitive in ASCII letters, as the address is unique (SQLite's COLLATE NOCASE, PostgreSQL's
  // index on lower(email) of a COLLATE "C" column): lower() changes only those on both.
  db.selectFrom('users').selectAll().where(sql<string>`lower(email)`, '=', email.replace(/[A-Z]+/g, (s) => s.toLowerCase())).executeTakeFirst();

export const listUsers = (db: Db, accountId?: string) => {
  let q = db.selectFrom('users').select(['id', 'account_id', 'email', 'role', 'created_at', 'disabled_at']);
  if (accountId) q = q.where('account_id', '=', accountId);
  return q.orderBy('created_at').execute();
};

export const setUserPassword = (db: Db | Tx, id: string, passwordHash: string) => db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', id).execute();

/** Whose account a user is in, and whether they were disabled (a token is issued only to an active user). */
export const findUserStanding = (db: Db | Tx, id: string) => db.selectFrom('users').select(['account_id', 'disabled_at', 'role']).where('id', '=', id).executeTakeFirst();
