// `codrail backup FILE` and `codrail restore FILE` (issue 27 §3): a consistent copy of the database
// while `serve` runs, and a safe way back.
//
// A backup is SQLite's online backup API (better-sqlite3's `backup()`): page by page from a read
// snapshot, so orders keep coming in while it copies and the copy is the database as of one moment.
// It is written beside FILE and renamed into place once checked (`PRAGMA integrity_check`), owner-only
// like the database. The key that seals stored credentials travels beside it as FILE.key when it
// lives in a key file; when it comes from CODRAIL_SECRET_KEY the operator keeps it (it is never
// written to disk by us).
//
// A restore refuses while any other process has the database open: it asks SQLite to leave WAL
// mode, which only a connection alone on the file may do (and which folds the log into the file,
// so the old database is one self-contained file). The old database is then renamed aside, never
// deleted, and the backup copied in its place.
import { chmodSync, copyFileSync, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { AppError, invalidInput } from '../errors.ts';
import { keyFileOf } from '../secret-keys.ts';

export interface BackupResult {
  database: string;
  backup: string;
  bytes: number;
  orders: number;
  /** Where the sealing key went: FILE.key, or it comes from CODRAIL_SECRET_KEY, or there is none yet. */
  key: { file: string } | { env: 'CODRAIL_SECRET_KEY' } | null;
}

export interface RestoreResult {
  database: string;
  restored_from: string;
  orders: number;
  /** The database that was there, renamed aside (absent when there was none). */
  previous: string | null;
  key: { file: string; previous: string | null } | null;
}

/** A problem with the FILE argument: said in the message, and as the field. */
const badFile = (message: string) => invalidInput(message, [{ field: 'file', message }]);
const stamp = (now: Date) => now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
const tempBeside = (file: string) => join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);

/** What a file holds, if it is a codrail database in one piece: its orders; otherwise why not. */
function inspect(file: string): { orders: number } {
  let db: BetterSqlite3.Database;
  try {
    db = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw badFile(`${file} cannot be opened as a SQLite database: ${(error as Error).message}`);
  }
  try {
    let check: unknown;
    try {
      check = db.pragma('integrity_check', { simple: true });
    } catch (error) {
      throw badFile(`${file} is not a SQLite database: ${(error as Error).message}`);
    }
    if (check !== 'ok') throw badFile(`${file} fails SQLite's integrity check: ${String(check)}`);
    const tables = new Set(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]);
    if (!tables.has('kysely_migration') || !tables.has('orders')) throw badFile(`${file} is a SQLite database but not a codrail one (no orders, no migrations)`);
    return { orders: (db.prepare('SELECT count(*) FROM orders').pluck().get() as number) ?? 0 };
  } finally {
    db.close();
  }
}

/** A consistent copy of `database` at `target`, checked, with the key file beside it. */
export async function backupDatabase(database: string, target: string, secretKeyFromEnv: boolean): Promise<BackupResult> {
  if (!existsSync(database)) throw new AppError('not_found', `No database at ${database}: nothing to back up (--db FILE or CODRAIL_DB names it)`);
  if (existsSync(target)) throw new AppError('conflict', `${target} already exists: back up to a new file (backups are never overwritten)`);
  const keyFile = keyFileOf(database);
  const keyTarget = `${target}.key`;
  if (!secretKeyFromEnv && keyFile && existsSync(keyFile) && existsSync(keyTarget)) throw new AppError('conflict', `${keyTarget} already exists: back up to a new file`);
  const temp = tempBeside(target);
  const source = new BetterSqlite3(database, { fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    await source.backup(temp);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  } finally {
    source.close();
  }
  let orders: number;
  try {
    chmodSync(temp, 0o600);
    // One self-contained file: the copy left WAL mode (its log folded in), so it moves and restores
    // as one file; a database opened by codrail goes back to WAL by itself.
    const copy = new BetterSqlite3(temp, { fileMustExist: true });
    try {
      copy.pragma('journal_mode = DELETE');
    } finally {
      copy.close();
    }
    orders = inspect(temp).orders;
    renameSync(temp, target);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  let key: BackupResult['key'] = null;
  if (secretKeyFromEnv) key = { env: 'CODRAIL_SECRET_KEY' };
  else if (keyFile && existsSync(keyFile)) {
    copyFileSync(keyFile, keyTarget);
    chmodSync(keyTarget, 0o600);
    key = { file: keyTarget };
  }
  return { database, backup: target, bytes: statSync(target).size, orders, key };
}

/** True when this process is alone on the database (and then it is one file, out of WAL mode). */
function aloneOn(database: string): boolean {
  const db = new BetterSqlite3(database, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 0');
    try {
      return db.pragma('journal_mode = DELETE', { simple: true }) === 'delete';
    } catch {
      return false;
    }
  } finally {
    db.close();
  }
}

/** Puts the backup `source` in place of `database`, keeping what was there. */
export function restoreDatabase(database: string, source: string, now: Date): RestoreResult {
  if (!existsSync(source)) throw badFile(`${source} does not exist`);
  const { orders } = inspect(source);
  const keyFile = keyFileOf(database);
  const sourceKey = `${source}.key`;
  let previous: string | null = null;
  if (existsSync(database)) {
    if (!aloneOn(database))
      throw new AppError('conflict', `${database} is open in another process (codrail serve, or a command still running): stop it, then restore`);
    previous = `${database}.before-restore-${stamp(now)}`;
    renameSync(database, previous);
  }
  const temp = tempBeside(database);
  try {
    copyFileSync(source, temp);
    chmodSync(temp, 0o600);
    renameSync(temp, database);
  } catch (error) {
    rmSync(temp, { force: true });
    if (previous) renameSync(previous, database);
    throw error;
  }
  let key: RestoreResult['key'] = null;
  if (keyFile && existsSync(sourceKey)) {
    let previousKey: string | null = null;
    if (existsSync(keyFile)) {
      previousKey = `${keyFile}.before-restore-${stamp(now)}`;
      renameSync(keyFile, previousKey);
    }
    copyFileSync(sourceKey, keyFile);
    chmodSync(keyFile, 0o600);
    key = { file: keyFile, previous: previousKey };
  }
  return { database, restored_from: source, orders, previous, key };
}
