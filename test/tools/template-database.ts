// A migrated database made once per suite run (test/tools/suite.sh), so that each test server starts
// from a copy instead of running every migration and loading every bundled city catalog itself:
// about 0.2 s per server on SQLite and 0.6 s on PostgreSQL, times several hundred servers a run, on
// a 2-core CI machine that the suite already keeps busy. It holds what `migrate` writes (the schema,
// the MCP vendors' redirect URIs, the bundled catalogs) and nothing a server makes when it opens
// (signing keys, the sealing key file): those stay each server's own.
//   node --import ./test/tools/register.mjs test/tools/template-database.ts        → prints its path or name
//   node --import ./test/tools/register.mjs test/tools/template-database.ts drop X → removes it
// On the suite's PostgreSQL server (CODRAIL_TEST_DATABASE_URL) it is a database named
// codrail_template_<hex>; on SQLite a file in a new temporary directory.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { openDatabase } from '../../src/db/connect.ts';
import { migrate } from '../../src/app.ts';
import { systemClock } from '../../src/clock.ts';
import { TEST_POSTGRES_URL, TEMPLATE_NAME, psql } from '../helpers/test-database.ts';

const [command, what] = process.argv.slice(2);
if (command === 'drop') {
  if (TEST_POSTGRES_URL !== undefined && what && TEMPLATE_NAME.test(what)) psql(TEST_POSTGRES_URL, `DROP DATABASE IF EXISTS ${what} WITH (FORCE)`);
  else if (what && what.endsWith('codrail-template.sqlite') && existsSync(what)) rmSync(dirname(what), { recursive: true, force: true });
} else {
  let where: string;
  let printed: string;
  if (TEST_POSTGRES_URL !== undefined) {
    printed = `codrail_template_${randomBytes(8).toString('hex')}`;
    psql(TEST_POSTGRES_URL, `CREATE DATABASE ${printed}`);
    const url = new URL(TEST_POSTGRES_URL);
    url.pathname = `/${printed}`;
    where = url.toString();
  } else {
    where = printed = join(mkdtempSync(join(tmpdir(), 'codrail-template-')), 'codrail-template.sqlite');
  }
  const opened = openDatabase(where);
  // What every server's start runs (src/app.ts), on a bare connection: nothing else is made.
  await migrate({ db: opened.db, clock: systemClock });
  await opened.close();
  process.stdout.write(`${printed}\n`);
}
