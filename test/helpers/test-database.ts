// Which database the suite runs on (issue 28): SQLite files by default; with CODRAIL_TEST_DATABASE_URL
// (a PostgreSQL server's URL, as test/tools/postgres.sh prints it) every test's database is a new
// PostgreSQL database on that server instead, and `--db`, CODRAIL_DB and the servers take its URL.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The PostgreSQL server the suite runs on, or undefined on SQLite. */
export const TEST_POSTGRES_URL = process.env.CODRAIL_TEST_DATABASE_URL || undefined;
export const onPostgres = TEST_POSTGRES_URL !== undefined;

/** What `node:test` needs to skip a test that is SQLite's own (a file, a pragma, a backup). */
export const sqliteOnly = onPostgres ? 'SQLite only: the suite runs on PostgreSQL (CODRAIL_TEST_DATABASE_URL)' : false;

/** On PostgreSQL every process needs the sealing key given (src/config.ts): the suite's own, fixed. */
export const TEST_SECRET_KEY = Buffer.alloc(32, 42).toString('base64');

/** The environment a codrail process of the suite needs for its database, beside `extra`. */
export function databaseEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  if (!onPostgres || extra.CODRAIL_SECRET_KEY || extra.CODRAIL_SECRET_KEY_FILE) return {};
  return { CODRAIL_SECRET_KEY: TEST_SECRET_KEY };
}

/** `env` with the suite's key added where the database needs one and `env` gives none (an empty value counts as none). */
export function withDatabaseEnv<E extends Record<string, string | undefined>>(env: E): E {
  return { ...env, ...databaseEnv(env) };
}

/** What a template database of the suite's PostgreSQL run is named (test/tools/template-database.ts). */
export const TEMPLATE_NAME = /^codrail_template_[0-9a-f]{16}$/;

/**
 * The migrated database this suite run made once (test/tools/suite.sh exports it): a SQLite file, or
 * a database's name on the PostgreSQL server. Unset (a file run by hand), every server migrates its own.
 */
const TEMPLATE = usableTemplate(process.env.CODRAIL_TEST_TEMPLATE);

function usableTemplate(given: string | undefined): string | undefined {
  if (!given) return undefined;
  const usable = onPostgres ? TEMPLATE_NAME.test(given) : given.endsWith('codrail-template.sqlite') && existsSync(given);
  return usable ? given : undefined;
}

export function psql(url: string, statement: string): void {
  const r = spawnSync('psql', ['-qX', '-v', 'ON_ERROR_STOP=1', '-d', url, '-c', statement], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`psql: ${statement}: ${r.stderr || r.error?.message}`);
}

/**
 * A new, empty database: a SQLite file in a new temporary directory, or a new PostgreSQL database
 * on the suite's server. `file` is what `--db` takes either way; `dir` is a new directory for the
 * test's other files (the SQLite file's own); `cleanup` removes both.
 */
export function tempDatabase(options: { migrated?: boolean } = {}): { file: string; dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'codrail-test-'));
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  // `migrated`: a copy of the run's template when there is one (the caller still runs `migrate`,
  // which then finds nothing to do).
  const template = options.migrated ? TEMPLATE : undefined;
  if (TEST_POSTGRES_URL !== undefined) {
    const name = `codrail_test_${randomBytes(8).toString('hex')}`;
    psql(TEST_POSTGRES_URL, `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
    const url = new URL(TEST_POSTGRES_URL);
    url.pathname = `/${name}`;
    return {
      file: url.toString(),
      dir,
      cleanup: () => {
        removeDir();
        psql(TEST_POSTGRES_URL, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      },
    };
  }
  const file = join(dir, 'codrail.sqlite');
  if (template) copyFileSync(template, file);
  return { file, dir, cleanup: removeDir };
}
