// WAL checkpoints off the event loop (issue 26). SQLite copies the write-ahead log back into the
// database file every 1,000 pages by default, inside whichever COMMIT crosses the mark: on serve's
// one thread that is a copy of 4 MB and an fsync in the middle of answering orders, the slowest
// answers of the bench. `serve` runs them in a worker thread with its own connection instead:
// PASSIVE checkpoints never block the writer or its readers, and once one has copied every frame
// the next write starts the log from the beginning again, so the file stays small.
//
// The server's own connection keeps a far mark as a safety net (CHECKPOINT_FALLBACK_PAGES): if the
// worker stops or falls behind, SQLite still checkpoints inside a COMMIT, as before, rather than
// letting the log grow without bound.
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { sql } from 'kysely';
import { dialectOf, type Db } from './connect.ts';
import type { Logger } from '../log.ts';
import { CHECKPOINT_FALLBACK_PAGES, CHECKPOINT_INTERVAL_MS } from '../limits.ts';

export interface Checkpointer {
  stop(): Promise<void>;
}

// A CommonJS script, not a module of this package: it runs the same from src/ (tsx) and dist/ (esbuild)
// without a loader or a build entry of its own.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 100');
let failures = 0;
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
    failures = 0;
  } catch (error) {
    if (++failures === 1) parentPort.postMessage({ error: String(error && error.message || error) });
  }
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/** Starts checkpointing `file` from a worker thread; `db` is the server's connection to it. */
export async function startCheckpointer(db: Db, file: string, log: Logger): Promise<Checkpointer | undefined> {
  // PostgreSQL checkpoints itself; an in-memory SQLite database has no log to copy back.
  if (dialectOf(db) !== 'sqlite' || file === '' || file === ':memory:') return undefined;
  await sql.raw(`PRAGMA wal_autocheckpoint = ${CHECKPOINT_FALLBACK_PAGES}`).execute(db);
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER, { eval: true, workerData: { file, driver, intervalMs: CHECKPOINT_INTERVAL_MS } });
  // It never keeps the process alive; stop() ends it in order before the server's connection closes.
  worker.unref();
  worker.on('message', (m: { error?: string }) => log.warn({ error: m.error }, 'checkpoints: the WAL checkpoint failed (SQLite checkpoints on commit instead)'));
  worker.on('error', (error) => log.error({ err: error }, 'checkpoints: the worker stopped (SQLite checkpoints on commit instead)'));
  return {
    stop: () =>
      new Promise<void>((done) => {
        worker.once('exit', () => done());
        // Held until it has closed its connection: the server's closes after it.
        worker.ref();
        worker.postMessage('stop');
      }),
  };
}
