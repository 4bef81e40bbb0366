import type { Command } from 'commander';
import { AppError } from '../errors.ts';
import { globals, print, withApp } from './output.ts';

// Use-cases load when a command runs, so `codrail --help` starts fast (SPEC 14).
const loadAccounts = () => import('../use-cases/accounts/accounts.use-case.ts');

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new AppError('invalid_input', '--password-stdin expects the password on standard input');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

export function register(program: Command): void {
  const accounts = program.command('accounts').description('accounts (tenants)');
  accounts
    .command('create')
    .description('create an account')
    .requiredOption('--name <name>', 'account name')
    .action(async (o: { name: string }, cmd: Command) => {
      const account = await withApp(cmd, async (app) => (await loadAccounts()).createAccount(app, { name: o.name }));
      print(globals(cmd), { id: account.id, name: account.name });
    });
  accounts
    .command('list')
    .description('list accounts')
    .action(async (_o, cmd: Command) => print(globals(cmd), await withApp(cmd, async (app) => (await loadAccounts()).listAllAccounts(app))));

  const users = program.command('users').description('people who sign in (consent pages, console)');
  users
    .command('create')
    .description('create a user; the password is stored as a scrypt hash')
    .requiredOption('--account <id>', 'account id')
    .requiredOption('--email <email>', 'email address')
    .option('--password-stdin', 'read the password from standard input (recommended)')
    .option('--password <password>', 'the password (visible in the process list: prefer --password-stdin)')
    .option('--role <role>', 'owner | admin | support', 'owner')
    .action(async (o: { account: string; email: string; passwordStdin?: boolean; password?: string; role: string }, cmd: Command) => {
      if (!o.passwordStdin && o.password === undefined) cmd.error('error: pass --password-stdin or --password', { exitCode: 2 });
      if (o.password !== undefined && !o.passwordStdin) process.stderr.write('warning: --password is visible to other users of this machine; prefer --password-stdin\n');
      const user = await withApp(cmd, async (app) => {
        const password = o.passwordStdin ? await readStdin() : o.password!;
        return (await loadAccounts()).createUser(app, { account_id: o.account, email: o.email, password, role: o.role });
      });
      print(globals(cmd), { id: user.id, email: user.email, role: user.role });
    });
  users
    .command('list')
    .description('list users')
    .option('--account <id>', 'only this account')
    .action(async (o: { account?: string }, cmd: Command) => print(globals(cmd), await withApp(cmd, async (app) => (await loadAccounts()).listAccountUsers(app, o.account))));
}
