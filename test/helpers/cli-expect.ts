// Assertions over the spawned CLI (SPEC 9): with --json, stdout is exactly one JSON document;
// failures print nothing on stdout, a message on stderr, and exit 1 (failure) or 2 (usage).
import { databaseEnv } from './test-database.ts';
import assert from 'node:assert/strict';
import { openSync, type SyncDatabase } from './sync-database.ts';
import { runCli, type CliResult } from './cli.ts';
import { loadConfig } from '../../src/config.ts';
import { migrate, openApp, type App } from '../../src/app.ts';
import { createLogger } from '../../src/log.ts';
import type { Clock } from '../../src/clock.ts';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

type CliOptions = { input?: string | Buffer; env?: Record<string, string> };

const show = (args: string[], r: CliResult) => `codrail ${args.join(' ')} → exit ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`;

/** Runs `codrail --db FILE --json ARGS`, expects exit 0 and exactly one JSON document on stdout. */
// The answer is typed `any`: tests check it field by field against the contract.
export async function cliJson(db: string, args: string[], options: CliOptions = {}): Promise<{ json: any; result: CliResult }> {
  const result = await runCli(['--json', ...args], { db, ...options });
  assert.equal(result.code, 0, show(args, result));
  let json: unknown;
  assert.doesNotThrow(() => (json = JSON.parse(result.stdout)), `stdout is not one JSON document\n${show(args, result)}`);
  assert.ok(result.stdout.endsWith('\n') && !result.stdout.slice(0, -1).includes('\n'), `stdout is one line of JSON\n${show(args, result)}`);
  return { json, result };
}

/**
 * Runs `codrail --db FILE --json ARGS` and expects the exit code, `error:` on stderr, and on stdout
 * exactly one JSON error document `{"error": {"code", "message"}}` (issue 14) — `usage` for exit 2.
 */
export async function cliFails(db: string | undefined, args: string[], code: 1 | 2, options: CliOptions = {}): Promise<CliResult & { error: { code: string; message: string; details?: { field: string; message: string }[] } }> {
  const result = await runCli(['--json', ...args], { ...(db ? { db } : {}), ...options });
  assert.equal(result.code, code, show(args, result));
  assert.match(result.stderr, /error/i, show(args, result));
  assert.equal(result.stdout.trim().split('\n').length, 1, `one JSON document on stdout on failure\n${show(args, result)}`);
  const error = (result.json as { error?: { code: string; message: string } } | undefined)?.error;
  assert.ok(error && typeof error.code === 'string' && typeof error.message === 'string' && error.message.length > 0, `an error document on stdout\n${show(args, result)}`);
  if (code === 2) assert.ok(['usage', 'invalid_input', 'invalid_cursor'].includes(error.code), `exit 2 is a usage error: ${error.code}`);
  return { ...result, error: error as { code: string; message: string } };
}

/** Reads the database file the CLI wrote, read-only. */
export function readDb<T>(file: string, fn: (db: SyncDatabase) => T): T {
  const db = openSync(file, { readonly: true });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

export const count = (file: string, table: string): number =>
  readDb(file, (db) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n);

/** Opens the app in-process on the same file (to set up data through the real use-cases), then closes it. */
export async function withApp<T>(file: string, fn: (app: App) => Promise<T>, options: { clock?: Clock } = {}): Promise<T> {
  const app = await openApp(loadConfig({ db: file }, databaseEnv()), { log: createLogger('silent'), ...options });
  try {
    await migrate(app);
    return await fn(app);
  } finally {
    await app.close();
  }
}
