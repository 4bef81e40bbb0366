// Group commit (src/db/transaction.ts, issue 26): the writes that queue in one moment share one
// SQLite transaction, each in its own savepoint. Each keeps its own outcome, and nobody hears of a
// success before the commit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import BetterSqlite3 from 'better-sqlite3';
import { migratedDatabase } from '../helpers/database.ts';
import { afterCommit, writeTransaction } from '../../src/db/transaction.ts';
import { hitBucket } from '../../src/db/queries/rate-limits.queries.ts';
import { sqliteOnly } from '../helpers/test-database.ts';

const opened = migratedDatabase(undefined, { sqliteOnly: true });

const count = (bucket: string) => opened.raw.prepare('SELECT count FROM rate_limits WHERE bucket = ?').pluck().get(bucket) as number | undefined;

test('writes made in one moment all commit, and a failing one rolls back only its own rows', { skip: sqliteOnly }, async () => {
  const outcomes = await Promise.allSettled(
    Array.from({ length: 40 }, (_, i) =>
      writeTransaction(opened.db, async (tx) => {
        await hitBucket(tx, `group:${i}`, 1);
        await hitBucket(tx, `group:${i}`, 1);
        if (i % 10 === 3) throw new Error(`write ${i} refused`);
        return i;
      }),
    ),
  );
  for (const [i, o] of outcomes.entries()) {
    if (i % 10 === 3) {
      assert.equal(o.status, 'rejected');
      assert.match(String((o as PromiseRejectedResult).reason), new RegExp(`write ${i} refused`), 'each caller gets its own error');
      assert.equal(count(`group:${i}`), undefined, `write ${i} left nothing`);
    } else {
      assert.deepEqual(o, { status: 'fulfilled', value: i });
      assert.equal(count(`group:${i}`), 2, `write ${i} is whole`);
    }
  }
});

test('a caller hears of its write only once another connection can read it', { skip: sqliteOnly }, async () => {
  const reader = new BetterSqlite3(opened.file, { readonly: true });
  try {
    const seen = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        writeTransaction(opened.db, (tx) => hitBucket(tx, `visible:${i}`, 1)).then(() => reader.prepare('SELECT count FROM rate_limits WHERE bucket = ?').pluck().get(`visible:${i}`)),
      ),
    );
    assert.deepEqual(seen, Array(20).fill(1));
  } finally {
    reader.close();
  }
});

test('afterCommit work runs after the commit for the writes that committed, never for one that rolled back', { skip: sqliteOnly }, async () => {
  const ran: string[] = [];
  const reader = new BetterSqlite3(opened.file, { readonly: true });
  try {
    await Promise.allSettled(
      ['a', 'b', 'c'].map((name) =>
        writeTransaction(opened.db, async (tx) => {
          await hitBucket(tx, `after:${name}`, 1);
          afterCommit(tx, () => ran.push(`${name}:${reader.prepare('SELECT count FROM rate_limits WHERE bucket = ?').pluck().get(`after:${name}`) ?? 'unseen'}`));
          if (name === 'b') throw new Error('b refused');
        }),
      ),
    );
  } finally {
    reader.close();
  }
  assert.deepEqual(ran.sort(), ['a:1', 'c:1']);
});

test('after a write that failed in the middle of a group, the next writes still commit', { skip: sqliteOnly }, async () => {
  await assert.rejects(
    writeTransaction(opened.db, async (tx) => {
      await tx.insertInto('rate_limits').values({ bucket: 'dup', window_start: 1, count: 1 }).execute();
      await tx.insertInto('rate_limits').values({ bucket: 'dup', window_start: 1, count: 1 }).execute();
    }),
    /UNIQUE/,
  );
  assert.equal(count('dup'), undefined);
  assert.equal(await writeTransaction(opened.db, (tx) => hitBucket(tx, 'dup', 1)), 1);
});
