// codrail accounts create / users create (SPEC 3, 9): passwords arrive on stdin and are stored as scrypt hashes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { tempDbFile } from '../helpers/server.ts';
import { cliFails, cliJson, count, readDb, UUID } from '../helpers/cli-expect.ts';
import { verifyPassword } from '../../src/domain/password.ts';

const tmp = tempDbFile();
after(() => tmp.cleanup());

const PASSWORD = 'correct horse battery staple';
let accountId = '';

const userRow = (email: string) =>
  readDb(tmp.file, (db) => db.prepare('SELECT * FROM users WHERE email = ?').get(email) as { id: string; account_id: string; email: string; password_hash: string; role: string } | undefined);

before(async () => {
  const { json } = await cliJson(tmp.file, ['accounts', 'create', '--name', '  Acme Colombia  ']);
  accountId = json.id;
});

test('accounts create prints exactly {id, name} and stores the trimmed name', async () => {
  // The account was created by the before hook through the CLI.
  assert.match(accountId, UUID);
  const row = readDb(tmp.file, (db) => db.prepare('SELECT id, name FROM accounts').all());
  assert.deepEqual(row, [{ id: accountId, name: 'Acme Colombia' }]);
});

test('users create with --password-stdin prints {id, email, role} and stores only a scrypt hash of the password', async () => {
  const { json, result } = await cliJson(tmp.file, ['users', 'create', '--account', accountId, '--email', 'Ana@Example.COM', '--password-stdin'], { input: `${PASSWORD}\n` });
  assert.deepEqual(Object.keys(json).sort(), ['email', 'id', 'role']);
  assert.match(json.id, UUID);
  assert.equal(json.email, 'ana@example.com');
  assert.equal(json.role, 'owner');
  assert.doesNotMatch(result.stderr, /warning/);

  const row = userRow('ana@example.com');
  assert.ok(row);
  assert.equal(row.id, json.id);
  assert.equal(row.account_id, accountId);
  assert.ok(row.password_hash.startsWith('scrypt$'), row.password_hash);
  assert.ok(!row.password_hash.includes(PASSWORD));
  // The trailing newline of stdin is not part of the password.
  assert.equal(verifyPassword(PASSWORD, row.password_hash), true);
  assert.equal(verifyPassword(`${PASSWORD}\n`, row.password_hash), false);
});

test('users create with --password works, honours --role and warns on stderr that argv is visible', async () => {
  const { json, result } = await cliJson(tmp.file, ['users', 'create', '--account', accountId, '--email', 'soporte@example.com', '--password', 'another secret 1', '--role', 'support']);
  assert.deepEqual(json, { id: json.id, email: 'soporte@example.com', role: 'support' });
  assert.match(result.stderr, /warning: .*--password/);
  assert.ok(!result.stdout.includes('another secret 1'));
  assert.equal(verifyPassword('another secret 1', userRow('soporte@example.com')!.password_hash), true);
});

test('users create with an email that already exists, in any case, fails with exit 1 and stores nothing', async () => {
  await cliJson(tmp.file, ['users', 'create', '--account', accountId, '--email', 'Twice@Example.com', '--password-stdin'], { input: PASSWORD });
  const before = count(tmp.file, 'users');
  const r = await cliFails(tmp.file, ['users', 'create', '--account', accountId, '--email', 'TWICE@example.com', '--password-stdin'], 1, { input: 'yet another pass' });
  assert.match(r.stderr, /already exists/);
  assert.equal(count(tmp.file, 'users'), before);
});

test('users create with a malformed email is a usage error with exit 2', async () => {
  const r = await cliFails(tmp.file, ['users', 'create', '--account', accountId, '--email', 'not-an-email', '--password-stdin'], 2, { input: PASSWORD });
  assert.match(r.stderr, /email/);
  assert.equal(userRow('not-an-email'), undefined);
});

test('users create with an unknown role or without any password option is a usage error with exit 2', async () => {
  await cliFails(tmp.file, ['users', 'create', '--account', accountId, '--email', 'role@example.com', '--password-stdin', '--role', 'root'], 2, { input: PASSWORD });
  const r = await cliFails(tmp.file, ['users', 'create', '--account', accountId, '--email', 'role@example.com'], 2);
  assert.match(r.stderr, /--password-stdin/);
  assert.equal(userRow('role@example.com'), undefined);
});

test('users create for an account that does not exist fails with exit 1 (not found)', async () => {
  const r = await cliFails(tmp.file, ['users', 'create', '--account', '01900000-0000-7000-8000-000000000000', '--email', 'ghost@example.com', '--password-stdin'], 1, { input: PASSWORD });
  assert.match(r.stderr, /account/i);
  assert.equal(userRow('ghost@example.com'), undefined);
});
