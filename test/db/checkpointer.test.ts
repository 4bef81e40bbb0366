// serve's WAL checkpoints run in a worker thread (src/db/checkpointer.ts, issue 26): the log is
// copied back into the database file without the server's connection doing it inside a COMMIT.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { sql } from 'kysely';
import { migratedDatabase } from '../helpers/database.ts';
import { openDatabase } from '../../src/db/connect.ts';
import { startCheckpointer } from '../../src/db/checkpointer.ts';
import { createLogger } from '../../src/log.ts';
import { CHECKPOINT_FALLBACK_PAGES } from '../../src/limits.ts';
import { sqliteOnly } from '../helpers/test-database.ts';

const opened = migratedDatabase(() => {
  // A table of this test's own: 4 KB rows, so each row is a page of the log.
  opened.raw.exec('CREATE TABLE checkpoint_probe (n INTEGER PRIMARY KEY, filler BLOB NOT NULL) STRICT');
}, { sqliteOnly: true });

const until = async (what: string, ok: () => boolean, ms = 5_000) => {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

test('the worker copies committed pages into the database file while the server connection only commits', { skip: sqliteOnly }, async () => {
  const checkpointer = await startCheckpointer(opened.db, opened.file, createLogger('silent'));
  assert.ok(checkpointer);
  try {
    // The server's connection now leaves checkpoints to the worker, up to a far safety mark.
    assert.equal(opened.raw.pragma('wal_autocheckpoint', { simple: true }), CHECKPOINT_FALLBACK_PAGES);
    const fileBefore = statSync(opened.file).size;
    const insert = opened.raw.prepare('INSERT INTO checkpoint_probe (n, filler) VALUES (?, randomblob(4000))');
    // 2,000 pages in 100 commits: far below the connection's own mark, so only the worker can move them.
    for (let t = 0; t < 100; t++) opened.raw.transaction(() => {
      for (let i = 0; i < 20; i++) insert.run(t * 20 + i);
    })();
    await until('the database file to take the committed pages', () => statSync(opened.file).size >= fileBefore + 2_000 * 4_000);
    assert.equal((opened.raw.prepare('SELECT count(*) AS n FROM checkpoint_probe').get() as { n: number }).n, 2_000);
  } finally {
    await checkpointer.stop();
  }
  // Stopped: its connection is closed and the server's own goes on writing.
  opened.raw.prepare('INSERT INTO checkpoint_probe (n, filler) VALUES (?, x\'00\')').run(10_000);
  assert.equal((await sql<{ n: number }>`SELECT count(*) AS n FROM checkpoint_probe`.execute(opened.db)).rows[0]!.n, 2_001);
});

test('an in-memory database has no checkpointer', { skip: sqliteOnly }, async () => {
  const memory = openDatabase(':memory:');
  try {
    assert.equal(await startCheckpointer(memory.db, ':memory:', createLogger('silent')), undefined);
  } finally {
    await memory.close();
  }
});
