// How SQLite answers the push worker's claims (issue 26): each candidate read must be one short
// indexed range, never a walk over another destination's backlog. A store that has nowhere to push
// piles up queued jobs; when the claim for the stores that can push read them through the
// (state, next_attempt_at) index, every order's nudge cost 3 ms at 57,000 waiting jobs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createQueryId, type KyselyPlugin, type RootOperationNode } from 'kysely';
import { migratedDatabase } from '../helpers/database.ts';
import type { Tx } from '../../src/db/transaction.ts';
import { claimDue } from '../../src/db/queries/outbox.queries.ts';
import { FULFILLMENT_JOBS } from '../../src/fulfillment/worker.ts';
import { sqliteOnly } from '../helpers/test-database.ts';

const opened = migratedDatabase(undefined, { sqliteOnly: true });

/** The query plan of every SELECT a claim runs (EXPLAIN QUERY PLAN of the SQL kysely compiled). */
async function claimPlans(filter: Omit<Parameters<typeof claimDue>[2], 'now' | 'leaseUntil' | 'limit'>): Promise<string[][]> {
  const nodes: RootOperationNode[] = [];
  const capture: KyselyPlugin = {
    transformQuery: ({ node }) => (nodes.push(node), node),
    transformResult: async ({ result }) => result,
  };
  const now = new Date().toISOString();
  await claimDue(opened.db.withPlugin(capture) as unknown as Tx, FULFILLMENT_JOBS, { ...filter, now, leaseUntil: now, limit: 10 });
  return nodes
    .filter((n) => n.kind === 'SelectQueryNode')
    .map((n) => {
      const q = opened.db.getExecutor().compileQuery(n, createQueryId());
      return (opened.raw.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...(q.parameters as unknown[])) as { detail: string }[]).map((r) => r.detail);
    });
}

test('a claim for named destinations reads each one through (destination, state, next_attempt_at): no scan, no sort', { skip: sqliteOnly }, async () => {
  for (const filter of [{ only: ['platform:a', 'platform:b'] }, { one: 'platform:a' }, { probe: 'platform:a' }, { only: ['platform:a'], exclude: ['platform:b'] }]) {
    const plans = await claimPlans(filter);
    assert.ok(plans.length > 0, JSON.stringify(filter));
    for (const plan of plans) {
      assert.deepEqual(plan.length, 1, `${JSON.stringify(filter)}: ${plan.join(' | ')}`);
      assert.match(plan[0]!, /^SEARCH j USING INDEX fulfillment_jobs_destination \(destination=\? AND state=\?(?: AND next_attempt_at<\?)?\)$/, JSON.stringify(filter));
    }
  }
});

test('no destination to serve is no query at all', { skip: sqliteOnly }, async () => {
  assert.deepEqual(await claimPlans({ only: [] }), []);
  assert.deepEqual(await claimPlans({ only: ['platform:a'], exclude: ['platform:a'] }), []);
});

test('an unnamed claim reads each state in next_attempt_at order (no sort of the backlog)', { skip: sqliteOnly }, async () => {
  const plans = await claimPlans({ exclude: ['platform:b'] });
  assert.ok(plans.length > 0);
  for (const plan of plans) assert.ok(plan.every((step) => !/TEMP B-TREE/.test(step)), plan.join(' | '));
});
