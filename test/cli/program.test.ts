// The `codrail` program as a whole (SPEC 9): help, version, usage errors → exit 2.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../helpers/cli.ts';
import { tempDbFile } from '../helpers/server.ts';
import { cliFails } from '../helpers/cli-expect.ts';

const tmp = tempDbFile();
after(() => tmp.cleanup());

test('codrail --help exits 0 and lists the command groups on stdout', async () => {
  const r = await runCli(['--help']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /Usage: codrail/);
  for (const group of ['migrate', 'serve', 'demo', 'accounts', 'users', 'stores', 'products', 'landings', 'keys', 'orders']) assert.match(r.stdout, new RegExp(`\\n  ${group}\\b`), group);
});

test('codrail --version exits 0 and prints the version', async () => {
  const r = await runCli(['--version']);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /^\d+\.\d+\.\d+\n$/);
});

test('an unknown option is a usage error: exit 2, message on stderr, nothing on stdout', async () => {
  const r = await cliFails(tmp.file, ['accounts', 'create', '--name', 'Acme', '--colour', 'red'], 2);
  assert.match(r.stderr, /unknown option '--colour'/);
});

test('an unknown command is a usage error with exit 2', async () => {
  const r = await cliFails(tmp.file, ['acounts', 'create'], 2);
  assert.match(r.stderr, /unknown command/);
});

test('a missing required option is a usage error with exit 2 that names the option', async () => {
  const r = await cliFails(tmp.file, ['accounts', 'create'], 2);
  assert.match(r.stderr, /--name/);
});

test('a missing command argument is a usage error with exit 2', async () => {
  await cliFails(tmp.file, ['orders', 'show'], 2);
});

test('--help lists the account command groups without loading them, and a group help lists its derived commands', async () => {
  const root = await runCli(['--help']);
  assert.equal(root.code, 0);
  for (const group of ['account', 'stores', 'products', 'landings', 'keys', 'geo']) assert.match(root.stdout, new RegExp(`^  ${group}\\b`, 'm'), group);
  const products = await runCli(['products', '--help']);
  assert.equal(products.code, 0);
  for (const command of ['list', 'get', 'create', 'update', 'archive', 'duplicate', 'quote', 'packs', 'prices', 'floor', 'stock']) assert.match(products.stdout, new RegExp(`^  ${command}\\b`, 'm'), command);
  const update = await runCli(['--db', tmp.file, 'landings', 'update', '--help']);
  assert.match(update.stdout, /--seo-title <value>/);
  assert.match(update.stdout, /--theme <value>.*JSON, @file or @-/s);
  assert.match(update.stdout, /--account <id>/);
});

test('a derived command with an unknown option or a missing required option is a usage error with exit 2', async () => {
  await cliFails(tmp.file, ['stores', 'create', '--name', 'X', '--country', 'CO', '--colour', 'red'], 2);
  const r = await cliFails(tmp.file, ['products', 'create', '--name', 'X'], 2);
  assert.match(r.stderr, /--store/);
});

test('every command’s help is written for a person at a terminal: no “this conversation”, and each default said once (issue 24 §7)', async () => {
  // The program as main.ts builds it with every derived command (main.ts itself runs the CLI on import).
  const { Command } = await import('commander');
  const program = new Command('codrail');
  const groups = ['migrate', 'serve', 'demo', 'accounts', 'stores', 'keys', 'orders', 'cities', 'fulfillment', 'whatsapp', 'oauth', 'secrets'];
  for (const group of groups) ((await import(`../../src/cli/${group}.command.ts`)) as { register(p: typeof program): void }).register(program);
  const { registerGroups, registerOperations } = await import('../../src/cli/operations.command.ts');
  registerGroups(program);
  await registerOperations(program, (await import('../../src/use-cases/operations/index.ts')).OPERATIONS);
  const problems: string[] = [];
  const walk = (cmd: import('commander').Command, path: string[]) => {
    const text = cmd.helpInformation();
    const name = [...path, cmd.name()].join(' ');
    if (/this conversation|the user\b/i.test(text)) problems.push(`${name}: speaks to an assistant`);
    for (const line of text.split('\n')) if ((line.match(/\(default:? /g) ?? []).length > 1) problems.push(`${name}: ${line.trim()}`);
    for (const sub of cmd.commands) walk(sub, [...path, cmd.name()]);
  };
  walk(program, []);
  assert.deepEqual(problems, []);
});
