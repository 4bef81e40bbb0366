// The database file and its WAL companions hold buyers' names, phones and addresses and users'
// password hashes: a new database is owner-only (issue 19 §8), as the key file beside it already is.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, statSync, writeFileSync } from 'node:fs';
import { tempDbFile } from '../helpers/server.ts';
import { runCli, spawnServe } from '../helpers/cli.ts';
import { openDatabase } from '../../src/db/connect.ts';
import { sqliteOnly } from '../helpers/test-database.ts';

const modeOf = (file: string) => (statSync(file).mode & 0o777).toString(8);
const companions = (file: string) => [file, `${file}-wal`, `${file}-shm`];

const tmp = tempDbFile();
after(() => tmp.cleanup());

test('openDatabase creates a new database and its -wal and -shm files readable by their owner only', { skip: sqliteOnly }, async () => {
  const file = `${tmp.file}.direct`;
  const opened = openDatabase(file);
  try {
    opened.raw!.exec('CREATE TABLE buyers (nombre TEXT); INSERT INTO buyers VALUES (\'Ana Gómez\')');
    for (const f of companions(file)) {
      assert.ok(existsSync(f), `${f} exists while the database is open`);
      assert.equal(modeOf(f), '600', f);
    }
  } finally {
    await opened.close();
  }
});

test('openDatabase leaves the mode of an existing database file as its operator set it', { skip: sqliteOnly }, async () => {
  const file = `${tmp.file}.existing`;
  writeFileSync(file, '');
  chmodSync(file, 0o640);
  const opened = openDatabase(file);
  try {
    opened.raw!.exec('CREATE TABLE t (x)');
    for (const f of companions(file)) assert.equal(modeOf(f), '640', f);
  } finally {
    await opened.close();
  }
});

test('codrail migrate on a fresh file creates it owner-only, and serve on it keeps the -wal and -shm files owner-only', { skip: sqliteOnly }, async () => {
  const file = `${tmp.file}.cli`;
  const migrated = await runCli(['--json', 'migrate'], { db: file });
  assert.equal(migrated.code, 0, migrated.stderr);
  assert.equal(modeOf(file), '600');
  const serve = await spawnServe(file, ['--log-level', 'warn']);
  try {
    for (const f of companions(file)) {
      assert.ok(existsSync(f), `${f} exists while serve runs`);
      assert.equal(modeOf(f), '600', f);
    }
  } finally {
    const exited = new Promise((resolve) => serve.child.once('exit', resolve));
    serve.child.kill('SIGTERM');
    await exited;
  }
});
