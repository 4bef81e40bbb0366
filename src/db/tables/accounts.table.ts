import type { Generated } from 'kysely';

export interface AccountsTable {
  id: string;
  name: string;
  created_at: string;
}

export type UserRole = 'owner' | 'admin' | 'support';

export interface UsersTable {
  id: string;
  account_id: string;
  email: string;
  /** scrypt hash in the `scrypt$N$r$p$salt$hash` format (domain/password.ts). */
  password_hash: string;
  role: UserRole;
  created_at: string;
  disabled_at: Generated<string | null>;
}
