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
