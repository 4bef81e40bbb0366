// A command line loads only its group's operations (issue 26 §3): each group's loader must bring
// every operation of that group, in the order of OPERATIONS, or a command would vanish from the CLI.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OPERATIONS } from '../../src/use-cases/operations/index.ts';
import { GROUP_OPERATIONS, OPERATION_GROUPS } from '../../src/cli/operation-options.ts';
import { requestedGroup } from '../../src/cli/operations.command.ts';
import { runCli } from '../helpers/cli.ts';

const groupOf = (cli: string) => cli.split(' ')[0]!;

test('every group has a loader, and it brings exactly the operations whose command starts with the group, in OPERATIONS order', async () => {
  assert.deepEqual(Object.keys(GROUP_OPERATIONS).sort(), Object.keys(OPERATION_GROUPS).sort());
  for (const group of Object.keys(OPERATION_GROUPS)) {
    const loaded = (await GROUP_OPERATIONS[group]!()).filter((op) => op.cli && groupOf(op.cli) === group).map((op) => op.name);
    const expected = OPERATIONS.filter((op) => op.cli && groupOf(op.cli) === group).map((op) => op.name);
    assert.ok(expected.length > 0, group);
    assert.deepEqual(loaded, expected, group);
  }
});

test('no operation with a command lives outside the groups', () => {
  const orphans = OPERATIONS.filter((op) => op.cli && !Object.hasOwn(OPERATION_GROUPS, groupOf(op.cli))).map((op) => op.cli);
  assert.deepEqual(orphans, []);
});

test('the group and command a command line names, past the global options', () => {
  assert.deepEqual(requestedGroup(['--db', 'x.db', '--json', 'orders', 'list', '--limit', '1']), { group: 'orders', command: 'list' });
  assert.deepEqual(requestedGroup(['--database-url', 'postgres://h/db', 'stores', 'list']), { group: 'stores', command: 'list' });
  assert.deepEqual(requestedGroup(['help', 'stores', 'domains']), { group: 'stores', command: 'domains' });
  assert.deepEqual(requestedGroup(['products']), { group: 'products', command: undefined });
  assert.equal(requestedGroup(['--json', 'migrate']), undefined);
});

test('derived commands still join a hand-written parent (stores domains add), and a group lists its derived commands in --help', async () => {
  const domains = await runCli(['stores', 'domains', '--help']);
  assert.equal(domains.code, 0, domains.stderr);
  for (const sub of ['list', 'add', 'remove']) assert.match(domains.stdout, new RegExp(`\\n  ${sub}\\b`), sub);
  const orders = await runCli(['orders', '--help']);
  assert.equal(orders.code, 0, orders.stderr);
  // Hand-written (list, show) and derived from orders.operations.ts (update-buyer) and fulfillment.operations.ts (push).
  for (const sub of ['list', 'show', 'update-buyer', 'push']) assert.match(orders.stdout, new RegExp(`\\n  ${sub}\\b`), sub);
});
